import { sql, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { getDb, queryRows } from '#db/client'
import { schemes } from '#db/schema/index'
import type { AssignmentStatus, NominationStatus, ReportRelease } from '#db/enums'
import { MAX_COLLEAGUES } from '#app/config/constants'
import { isUuid } from '#app/lib/ids'
import { ok, type Actor, type Outcome, type Refusal } from '#app/lib/outcome'
import { enrolSelected, reportStateOf, type SelfState } from '#app/modules/scheme/participants.server'
import { createScheme, launchScheme, schemeProgressJoins } from '#app/modules/scheme/scheme.server'
import { SchemeCreateSchema, schemeInputOf } from '#app/modules/scheme/schemas'
import { schemePhaseSql, type SchemePhase } from '#app/modules/scheme/state'
import { API_PAGE_DEFAULT, decodeCursor, encodeCursor } from './api-schemas'
import { problem } from './api.server'
import type { Restriction } from './resources.server'
import type {
  EnrolmentBody,
  ParticipantListQuery,
  SchemeCreateBody,
  SchemeListQuery,
} from './scheme-api-schemas'

/**
 * Schemes through the REST API (issue 21 §1, ADR 059): list, one with its progress, create, enrol,
 * launch, and each participant's status. Every rule is the back office's: the create is checked by
 * the admin form's schema and made by the scheme service, enrolment is enrolSelected (who may be
 * enrolled is enrol.server.ts), launch is launchScheme with its refusals, the phase is state.ts and
 * the report state reportStateOf. What this file adds is the key's company restriction in every
 * query, keyset pages by id, and the API's snake_case. A participant's raters are never named: only
 * how many were invited and answered (DESIGN.md §8).
 */

const iso = (v: Date | string) => new Date(v).toISOString()
const isoOrNull = (v: Date | string | null) => (v ? iso(v) : null)

type SchemeRow = {
  id: string
  name: string
  companyId: string
  questionnaireId: string
  phase: SchemePhase
  opensAt: Date | string
  closesAt: Date | string
  timeZone: string
  minRaters: number
  reportRelease: ReportRelease
  launchedAt: Date | string | null
  closedAt: Date | string | null
  createdAt: Date | string
  enrolled: number
  selfSubmitted: number
  invited: number
  answered: number
}

function schemeOut(row: SchemeRow) {
  return {
    id: row.id,
    name: row.name,
    company_id: row.companyId,
    questionnaire_id: row.questionnaireId,
    state: row.phase,
    opens_at: iso(row.opensAt),
    closes_at: iso(row.closesAt),
    time_zone: row.timeZone,
    min_raters: Number(row.minRaters),
    report_release: row.reportRelease,
    launched_at: isoOrNull(row.launchedAt),
    closed_at: isoOrNull(row.closedAt),
    created_at: iso(row.createdAt),
    progress: {
      participants_enrolled: Number(row.enrolled),
      self_assessments_submitted: Number(row.selfSubmitted),
      invitations_sent: Number(row.invited),
      invitations_answered: Number(row.answered),
    },
  }
}

const restricted = (restriction: Restriction) =>
  restriction.companyId ? sql`${schemes.companyId} = ${restriction.companyId}` : undefined

/**
 * Schemes with their progress in ONE statement: the page's schemes first (a MATERIALIZED CTE, so
 * the LIMIT applies before anything is counted), then each one's counts (schemeProgressJoins, the
 * scheme list's own rule).
 */
async function readSchemes(where: Array<SQL | undefined>, limit: number): Promise<SchemeRow[]> {
  const terms = where.filter((t): t is SQL => Boolean(t))
  const rows = await queryRows<SchemeRow>(
    getDb(),
    sql`WITH page AS MATERIALIZED (
        SELECT ${schemes.id} AS id, ${schemes.name} AS name, ${schemes.companyId} AS company_id,
          ${schemes.questionnaireId} AS questionnaire_id, ${schemePhaseSql()} AS phase,
          ${schemes.opensAt} AS opens_at, ${schemes.closesAt} AS closes_at, ${schemes.timeZone} AS time_zone,
          ${schemes.minRaters} AS min_raters, ${schemes.reportRelease} AS report_release,
          ${schemes.launchedAt} AS launched_at, ${schemes.closedAt} AS closed_at,
          ${schemes.createdAt} AS created_at
        FROM ${schemes}
        ${terms.length ? sql`WHERE ${sql.join(terms, sql` AND `)}` : sql``}
        ORDER BY ${schemes.id}
        LIMIT ${limit}
      )
      SELECT page.id, page.name, page.company_id AS "companyId", page.questionnaire_id AS "questionnaireId",
        page.phase, page.opens_at AS "opensAt", page.closes_at AS "closesAt", page.time_zone AS "timeZone",
        page.min_raters AS "minRaters", page.report_release AS "reportRelease",
        page.launched_at AS "launchedAt", page.closed_at AS "closedAt", page.created_at AS "createdAt",
        m.enrolled, a.self_submitted AS "selfSubmitted", a.invited, a.answered
      FROM page
      ${schemeProgressJoins(sql`page.id`)}
      ORDER BY page.id`,
  )
  return rows
}

function pageOf<Row, Out>(rows: Row[], limit: number, idOf: (row: Row) => string, out: (row: Row) => Out) {
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  return { data: page.map(out), next_cursor: more ? encodeCursor(idOf(page.at(-1)!)) : null }
}

const after = (column: SQL | typeof schemes.id, cursor: string | undefined) => {
  const id = cursor ? decodeCursor(cursor) : null
  return id ? sql`${column} > ${id}::uuid` : undefined
}

export async function listApiSchemes(restriction: Restriction, query: z.output<typeof SchemeListQuery>) {
  const limit = query.limit ?? API_PAGE_DEFAULT
  const rows = await readSchemes(
    [
      restricted(restriction),
      query.company_id ? sql`${schemes.companyId} = ${query.company_id.toLowerCase()}` : undefined,
      query.state ? sql`${schemePhaseSql()} = ${query.state}` : undefined,
      after(schemes.id, query.cursor),
    ],
    limit + 1,
  )
  return pageOf(rows, limit, (r) => r.id, schemeOut)
}

/** One scheme with its progress, within the key's company: another company's is not found. */
export async function getApiScheme(restriction: Restriction, id: string) {
  if (!isUuid(id)) return null
  const [row] = await readSchemes([sql`${schemes.id} = ${id.toLowerCase()}`, restricted(restriction)], 1)
  return row ? schemeOut(row) : null
}

/** The scheme's id, company and threshold, when the key may see it (the sub-resources' first read). */
export async function apiSchemeHead(restriction: Restriction, id: string) {
  if (!isUuid(id)) return null
  const [row] = await queryRows<{ id: string; minRaters: number }>(
    getDb(),
    sql`SELECT ${schemes.id} AS id, ${schemes.minRaters} AS "minRaters" FROM ${schemes}
      WHERE ${schemes.id} = ${id.toLowerCase()} ${restriction.companyId ? sql`AND ${schemes.companyId} = ${restriction.companyId}` : sql``}`,
  )
  return row ? { id: row.id, minRaters: Number(row.minRaters) } : null
}

// ---------------------------------------------------------------------------------------------
// Create.

/** The admin form's field names → the API's (a message's field is named as the client sent it). */
const FIELD_NAMES: Record<string, string> = {
  name: 'name',
  companyId: 'company_id',
  questionnaireId: 'questionnaire_id',
  timeZone: 'time_zone',
  opensAt: 'opens_at',
  closesAt: 'closes_at',
  maxColleagues: 'max_colleagues',
  minRaters: 'min_raters',
  reminderCadenceDays: 'reminder_cadence_days',
  reportRelease: 'report_release',
  showManagerBelowThreshold: 'show_manager_below_threshold',
  managerSeesReport: 'manager_sees_report',
  minManager: 'min_manager',
  minPeer: 'min_peer',
  minDirectReport: 'min_direct_report',
  minOther: 'min_other',
  nominationChooser: 'nomination_chooser',
  nominationApproval: 'nomination_approval',
  nominationsCloseAt: 'nominations_close_at',
  languages: 'languages',
}
const apiField = (path: readonly PropertyKey[]) =>
  [FIELD_NAMES[String(path[0])] ?? String(path[0]), ...path.slice(1).map(String)].join('.')

/**
 * A refusal of the domain as a problem: field messages are a 400 naming the API's fields; a refusal
 * of the whole request (a scheme already launched, closed for enrolment) is a 409 with the domain's
 * own words.
 */
export function refusalProblem(refusal: Refusal) {
  if (refusal.notFound) return problem('not-found', 'Nothing with this id is available to this key.')
  const fields = Object.entries(refusal.fieldErrors ?? {})
  if (fields.length)
    return problem('bad-request', 'Some fields are not valid.', {
      errors: fields.flatMap(([field, messages]) =>
        messages.map((message) => ({ field: apiField([field]), message })),
      ),
    })
  return problem('conflict', (refusal.formErrors ?? []).join(' ') || 'This cannot be done now.')
}

/**
 * A new draft scheme from an API body: the values the create form would post (its defaults where
 * the body leaves one out), checked by the form's own schema, then made by the scheme service (the
 * company, the published questionnaire, the dates against now: its refusals, its audit entry).
 */
export async function createApiScheme(
  actor: Actor,
  body: z.output<typeof SchemeCreateBody>,
): Promise<Outcome<{ id: string }> | { ok: false; response: Response }> {
  const form = {
    intent: 'create' as const,
    name: body.name,
    companyId: body.company_id,
    questionnaireId: body.questionnaire_id,
    timeZone: body.time_zone,
    opensAt: body.opens_at,
    closesAt: body.closes_at,
    // The create form's defaults (app/modules/scheme/components/scheme-forms.tsx).
    maxColleagues: body.max_colleagues ?? MAX_COLLEAGUES,
    minRaters: body.min_raters ?? 3,
    reminderCadenceDays: body.reminder_cadence_days ?? 7,
    reportRelease: body.report_release ?? 'on_close',
    showManagerBelowThreshold: body.show_manager_below_threshold ?? false,
    managerSeesReport: body.manager_sees_report ?? false,
    minManager: body.min_manager ?? 0,
    minPeer: body.min_peer ?? 0,
    minDirectReport: body.min_direct_report ?? 0,
    minOther: body.min_other ?? 0,
    nominationChooser: body.nomination_chooser,
    nominationApproval: body.nomination_approval,
    nominationsCloseAt: body.nominations_close_at,
    languages: body.languages,
  }
  const checked = SchemeCreateSchema.safeParse(form)
  if (!checked.success)
    return {
      ok: false,
      response: problem('bad-request', 'Some fields are not valid.', {
        errors: checked.error.issues.map((issue) => ({
          field: apiField(issue.path),
          message: issue.message,
        })),
      }),
    }
  return createScheme(actor, schemeInputOf(checked.data))
}

// ---------------------------------------------------------------------------------------------
// Enrol and launch.

export const NOT_ENROLLABLE = 'No active employee of the scheme’s company has this id.'

/**
 * Enrols employees by id with the back office's enrolSelected (the same transaction, e-mails and
 * audit entry), then says what became of each id in one read: enrolled now, enrolled before (not an
 * error: enrolling is idempotent), or a problem. Unknown ids, another company's employees, disabled
 * ones and non-employees share one message, so the answer says nothing about another company.
 */
export async function enrolApiEmployees(
  actor: Actor,
  schemeId: string,
  body: z.output<typeof EnrolmentBody>,
): Promise<
  Outcome<{
    enrolled: string[]
    already_enrolled: string[]
    problems: Array<{ employee_id: string; message: string }>
  }>
> {
  const asked = [...new Set(body.employee_ids.map((id) => id.toLowerCase()))]
  const ids = asked.filter(isUuid)
  const problems = asked
    .filter((id) => !isUuid(id))
    .map((id) => ({ employee_id: id, message: 'Is not an employee id (a UUID).' }))
  if (!ids.length) return ok({ enrolled: [], already_enrolled: [], problems })
  const outcome = await enrolSelected(actor, schemeId, ids)
  if (!outcome.ok) return outcome
  const added = new Set(outcome.value.enrolledIds)
  const members = await queryRows<{ id: string }>(
    getDb(),
    sql`SELECT m.employee_id::text AS id FROM scheme_members m
      WHERE m.scheme_id = ${schemeId}::uuid AND m.employee_id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
  )
  const member = new Set(members.map((m) => m.id))
  return ok({
    enrolled: ids.filter((id) => added.has(id)),
    already_enrolled: ids.filter((id) => member.has(id) && !added.has(id)),
    problems: [
      ...problems,
      ...ids.filter((id) => !member.has(id)).map((id) => ({ employee_id: id, message: NOT_ENROLLABLE })),
    ],
  })
}

export function launchApiScheme(actor: Actor, schemeId: string) {
  return launchScheme(actor, schemeId)
}

// ---------------------------------------------------------------------------------------------
// Participants.

type ParticipantRaw = {
  id: string
  nominationStatus: NominationStatus | null
  selfStatus: AssignmentStatus | null
  invited: number
  answered: number
  releasedAt: Date | string | null
  colleaguesShown: boolean | null
}

/**
 * One page of a scheme's participants by employee id, in ONE statement: the page's memberships (the
 * scheme_members primary key), their self-assessment, how many colleagues were invited and answered
 * (counted, never listed), and their latest release. The report state is reportStateOf, the
 * scheme page's rule.
 */
export async function listApiParticipants(
  scheme: { id: string; minRaters: number },
  query: z.output<typeof ParticipantListQuery>,
) {
  const limit = query.limit ?? API_PAGE_DEFAULT
  const rows = await queryRows<ParticipantRaw>(
    getDb(),
    sql`WITH page AS MATERIALIZED (
        SELECT m.employee_id AS id, m.nomination_status
        FROM scheme_members m
        WHERE m.scheme_id = ${scheme.id}::uuid ${after(sql`m.employee_id`, query.cursor) ? sql`AND ${after(sql`m.employee_id`, query.cursor)}` : sql``}
        ORDER BY m.employee_id
        LIMIT ${limit + 1}
      )
      SELECT page.id::text AS id, page.nomination_status AS "nominationStatus", self.status AS "selfStatus",
        coalesce(c.invited, 0) AS invited, coalesce(c.answered, 0) AS answered,
        latest.released_at AS "releasedAt", latest.colleagues_shown AS "colleaguesShown"
      FROM page
      LEFT JOIN assignments self
        ON self.scheme_id = ${scheme.id}::uuid AND self.subject_id = page.id AND self.relationship = 'self'
      LEFT JOIN (
        SELECT subject_id,
          count(*) FILTER (WHERE status <> 'revoked')::int AS invited,
          count(*) FILTER (WHERE status = 'submitted')::int AS answered
        FROM assignments
        WHERE scheme_id = ${scheme.id}::uuid AND relationship <> 'self' AND subject_id IN (SELECT id FROM page)
        GROUP BY subject_id
      ) c ON c.subject_id = page.id
      LEFT JOIN LATERAL (
        SELECT rr.released_at, rr.colleagues_shown FROM report_releases rr
        WHERE rr.scheme_id = ${scheme.id}::uuid AND rr.subject_id = page.id
        ORDER BY rr.released_at DESC, rr.id DESC LIMIT 1
      ) latest ON true
      ORDER BY page.id`,
  )
  return pageOf(
    rows,
    limit,
    (r) => r.id,
    (r) => {
      const self: SelfState = r.selfStatus && r.selfStatus !== 'revoked' ? r.selfStatus : 'none'
      const answered = Number(r.answered)
      return {
        employee_id: r.id,
        self_assessment: self,
        nomination: r.nominationStatus ?? ('not_begun' as const),
        invitations_sent: Number(r.invited),
        invitations_answered: answered,
        report: reportStateOf({
          self,
          answered,
          minRaters: scheme.minRaters,
          released: Boolean(r.releasedAt),
          colleaguesShown: r.colleaguesShown !== false,
        }),
        released_at: isoOrNull(r.releasedAt),
      }
    },
  )
}
