import { sql, type SQL } from 'drizzle-orm'
import type { AssignmentStatus, Relationship, SchemeStatus } from '#db/enums'
import { getDb, queryRows, type Tx } from '#db/client'
import { answers, assignments, responses } from '#db/schema/index'
import { formatDate } from '#app/lib/dates'
import {
  escapeLike,
  keysetCondition,
  keysetPage,
  keysetPlan,
  timestampKey,
  type Page,
} from '#app/lib/keyset.server'
import { notFound, ok, refuse, type Actor, type Outcome } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import { createActionCode } from '#app/modules/auth/action-codes.server'
import { actionLink } from '#app/modules/auth/auth.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { getEnv } from '#app/config/env.server'
import { publishEvent } from '#app/modules/realtime/events.server'
import { schemePhase, schemePhaseSql, type SchemePhase } from '#app/modules/scheme/state'
import {
  ANSWERS_ADMIN_MESSAGES,
  type ResponseFilter,
  type ResponseListQuery,
  type ResponseState,
} from './schemas'

/**
 * Answer management (DESIGN.md §7, ADR 023): the responses, filtered and keyset-paginated; one
 * response read-only with who answered; reopening a submitted one. The CSV export is export.server.ts.
 * Each page reads a constant number of statements whatever the data.
 */

export const RESPONSE_PAGE_SIZE = 25

/** The state of a response, from its two dates (ADR 023): the same rule in SQL and on the page. */
export function responseStateSql(): SQL<ResponseState> {
  return sql<ResponseState>`CASE
    WHEN ${responses.submittedAt} IS NOT NULL THEN 'submitted'
    WHEN ${responses.reopenedAt} IS NOT NULL THEN 'reopened'
    ELSE 'in_progress' END`
}

function stateCondition(state: ResponseFilter['state']): SQL | undefined {
  if (state === 'submitted') return sql`${responses.submittedAt} IS NOT NULL`
  if (state === 'reopened')
    return sql`${responses.submittedAt} IS NULL AND ${responses.reopenedAt} IS NOT NULL`
  if (state === 'in_progress')
    return sql`${responses.submittedAt} IS NULL AND ${responses.reopenedAt} IS NULL`
  return undefined
}

/**
 * The WHERE terms of the filters, on `responses` joined to `assignments a` and `schemes s` and the
 * subject `subj`. Withdrawn invitations are not answers anyone counts, so they are left out.
 */
export function filterConditions(filter: ResponseFilter): SQL {
  const pattern = filter.q ? `%${escapeLike(filter.q)}%` : null
  const terms: SQL[] = [sql`a.status <> 'revoked'`]
  if (filter.scheme) terms.push(sql`a.scheme_id = ${filter.scheme}::uuid`)
  if (filter.company) terms.push(sql`s.company_id = ${filter.company}::uuid`)
  if (filter.questionnaire) terms.push(sql`a.questionnaire_id = ${filter.questionnaire}::uuid`)
  if (filter.relationship) terms.push(sql`a.relationship = ${filter.relationship}`)
  const state = stateCondition(filter.state)
  if (state) terms.push(state)
  if (pattern) terms.push(sql`(subj.display_name ILIKE ${pattern} OR subj.email ILIKE ${pattern})`)
  return sql.join(terms, sql` AND `)
}

/**
 * Whether the filter picks few responses (a scheme, a company, a subject): then the matching rows
 * are gathered first and sorted, instead of walking the whole start-date index backwards hoping to
 * meet them — a scheme whose answers are old would make that walk read every response (EXPLAIN on
 * the scale seed: 9 s → milliseconds).
 */
export const isSelective = (filter: ResponseFilter) => Boolean(filter.scheme || filter.company || filter.q)

/** The joins every answer management query reads a response through. */
export const RESPONSE_JOINS = sql`FROM ${responses}
  JOIN assignments a ON a.id = ${responses.assignmentId}
  JOIN schemes s ON s.id = a.scheme_id
  JOIN users subj ON subj.id = a.subject_id`

export type ResponseListRow = {
  id: string
  /** keysetPage's names: the sort value (unused) and the start instant as the cursor's key. */
  name: string
  createdAt: string
  relationship: Relationship
  state: ResponseState
  startedAt: string
  updatedAt: string
  submittedAt: string | null
  schemeId: string
  schemeName: string
  companyName: string
  questionnaireTitle: string
  questionnaireVersion: number
  subjectName: string
}

/** One page of responses (one statement), newest or oldest first by when answering began. */
export async function listResponses(query: ResponseListQuery): Promise<Page<ResponseListRow>> {
  const plan = keysetPlan({ ...query, sort: query.sort.replace('started', 'created') })
  const keyset = keysetCondition(plan, {
    name: responses.startedAt,
    created: responses.startedAt,
    id: responses.id,
  })
  const direction = plan.ascending ? sql`ASC` : sql`DESC`
  const where = sql`${filterConditions(query)} ${keyset ? sql`AND ${keyset}` : sql``}`
  const order = sql`ORDER BY ${responses.startedAt} ${direction}, ${responses.id} ${direction}`
  // Selective filters: gather the matches (a CTE fence), sort them, keep a page.
  const picked = isSelective(query)
    ? sql`${responses.id} IN (
        SELECT id FROM (SELECT ${responses.id} AS id, ${responses.startedAt} AS started_at ${RESPONSE_JOINS} WHERE ${where}
          OFFSET 0) pick
        ORDER BY started_at ${direction}, id ${direction} LIMIT ${RESPONSE_PAGE_SIZE + 1})`
    : where
  const rows = await queryRows<ResponseListRow>(
    getDb(),
    sql`SELECT ${responses.id} AS id, '' AS name, ${timestampKey(responses.startedAt)} AS "createdAt",
        a.relationship, ${responseStateSql()} AS state,
        ${responses.startedAt} AS "startedAt", ${responses.updatedAt} AS "updatedAt",
        ${responses.submittedAt} AS "submittedAt",
        s.id AS "schemeId", s.name AS "schemeName", c.name AS "companyName",
        qn.title AS "questionnaireTitle", qn.version AS "questionnaireVersion",
        coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName"
      ${RESPONSE_JOINS}
      JOIN companies c ON c.id = s.company_id
      JOIN questionnaires qn ON qn.id = a.questionnaire_id
      WHERE ${picked}
      ${order}
      LIMIT ${RESPONSE_PAGE_SIZE + 1}`,
  )
  const shaped = rows.map((r) => ({
    ...r,
    startedAt: new Date(r.startedAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    submittedAt: r.submittedAt ? new Date(r.submittedAt).toISOString() : null,
  }))
  return keysetPage(plan, shaped, RESPONSE_PAGE_SIZE)
}

export type FilterOption = { id: string; name: string }
export type SchemeFilterOption = FilterOption & { companyName: string; phase: SchemePhase }

/** Schemes the filter offers at once; with more, it lists the chosen company's (like the employee list). */
const SCHEME_OPTION_LIMIT = 100
const OPTION_LIMIT = 1000

/** The filters' choices, in one statement: companies, schemes (of the chosen company), questionnaires. */
export async function listFilterOptions(
  filter: Pick<ResponseFilter, 'company' | 'scheme' | 'questionnaire'>,
) {
  const [row] = await queryRows<{
    companies: FilterOption[] | null
    schemes: SchemeFilterOption[] | null
    questionnaires: FilterOption[] | null
  }>(
    getDb(),
    sql`SELECT
      (SELECT json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY lower(c.name), c.id)
         FROM (SELECT id, name FROM companies ORDER BY lower(name), id LIMIT ${OPTION_LIMIT}) c) AS companies,
      (SELECT json_agg(json_build_object('id', x.id, 'name', x.name, 'companyName', x.company_name, 'phase', x.phase)
           ORDER BY lower(x.company_name), lower(x.name), x.id)
         FROM (
           SELECT schemes.id, schemes.name, c.name AS company_name, ${schemePhaseSql()} AS phase
           FROM schemes JOIN companies c ON c.id = schemes.company_id
           WHERE ${filter.company ? sql`schemes.company_id = ${filter.company}::uuid` : sql`true`}
             ${filter.scheme ? sql`OR schemes.id = ${filter.scheme}::uuid` : sql``}
           ORDER BY (schemes.id = ${filter.scheme || null}::uuid) IS TRUE DESC, schemes.created_at DESC, schemes.id
           LIMIT ${SCHEME_OPTION_LIMIT + 1}
         ) x) AS schemes,
      (SELECT json_agg(json_build_object('id', q.id, 'name', q.title || ' (v' || q.version || ')')
           ORDER BY lower(q.title), q.version, q.id)
         FROM (
           SELECT id, title, version FROM questionnaires WHERE status <> 'draft'
             ${filter.questionnaire ? sql`OR id = ${filter.questionnaire}::uuid` : sql``}
           ORDER BY lower(title), version, id LIMIT ${OPTION_LIMIT}
         ) q) AS questionnaires`,
  )
  const schemes = row?.schemes ?? []
  const schemesNeedCompany = !filter.company && schemes.length > SCHEME_OPTION_LIMIT
  return {
    companies: row?.companies ?? [],
    schemes: schemesNeedCompany ? schemes.filter((s) => s.id === filter.scheme) : schemes,
    schemesNeedCompany,
    questionnaires: row?.questionnaires ?? [],
  }
}

// ---------------------------------------------------------------------------------------------
// One response, read-only.

export type ResponseHeader = {
  id: string
  assignmentId: string
  relationship: Relationship
  assignmentStatus: AssignmentStatus
  state: ResponseState
  startedAt: string
  updatedAt: string
  submittedAt: string | null
  reopenedAt: string | null
  schemeId: string
  schemeName: string
  schemeStatus: SchemeStatus
  opensAt: string
  closesAt: string
  timeZone: string
  phase: SchemePhase
  companyName: string
  questionnaireId: string
  questionnaireTitle: string
  subjectId: string
  subjectName: string
  respondentId: string
  respondentName: string
  respondentEmail: string
}

export type ViewAnswer = {
  questionId: string
  section: string
  kind: string
  category: string
  text: string
  required: boolean
  options: { labels?: string[]; min?: number; max?: number; allowNa?: boolean }
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean | null
}

export type ResponseView = {
  header: ResponseHeader
  sections: Array<{ title: string; questions: ViewAnswer[] }>
}

const isUuid = (v: unknown): v is string =>
  typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)

async function readHeader(tx: Tx, responseId: string, lock = false): Promise<ResponseHeader | null> {
  const [row] = await queryRows<ResponseHeader>(
    tx,
    sql`SELECT ${responses.id} AS id, a.id AS "assignmentId", a.relationship,
        a.status AS "assignmentStatus", ${responseStateSql()} AS state,
        ${responses.startedAt} AS "startedAt", ${responses.updatedAt} AS "updatedAt",
        ${responses.submittedAt} AS "submittedAt", ${responses.reopenedAt} AS "reopenedAt",
        s.id AS "schemeId", s.name AS "schemeName", s.status AS "schemeStatus",
        s.opens_at AS "opensAt", s.closes_at AS "closesAt", s.time_zone AS "timeZone",
        c.name AS "companyName", a.questionnaire_id AS "questionnaireId", qn.title AS "questionnaireTitle",
        subj.id AS "subjectId", coalesce(nullif(subj.display_name, ''), subj.email) AS "subjectName",
        resp.id AS "respondentId",
        coalesce(nullif(a.respondent_name, ''), nullif(resp.display_name, ''), resp.email) AS "respondentName",
        resp.email AS "respondentEmail"
      ${RESPONSE_JOINS}
      JOIN users resp ON resp.id = a.respondent_id
      JOIN companies c ON c.id = s.company_id
      JOIN questionnaires qn ON qn.id = a.questionnaire_id
      WHERE ${responses.id} = ${responseId}::uuid
      ${lock ? sql`FOR UPDATE OF a` : sql``}`,
  )
  if (!row) return null
  const iso = (v: string | Date | null) => (v ? new Date(v).toISOString() : null)
  const header = {
    ...row,
    startedAt: iso(row.startedAt)!,
    updatedAt: iso(row.updatedAt)!,
    submittedAt: iso(row.submittedAt),
    reopenedAt: iso(row.reopenedAt),
    opensAt: iso(row.opensAt)!,
    closesAt: iso(row.closesAt)!,
  }
  return {
    ...header,
    phase: schemePhase({
      status: header.schemeStatus,
      opensAt: new Date(header.opensAt),
      closesAt: new Date(header.closesAt),
    }),
  }
}

/** A response with every question of its questionnaire and the answers given (two statements). */
export async function getResponseView(responseId: unknown): Promise<ResponseView | null> {
  if (!isUuid(responseId)) return null
  const header = await readHeader(getDb(), responseId)
  if (!header) return null
  const rows = await queryRows<ViewAnswer>(
    getDb(),
    sql`SELECT q.id AS "questionId", q.section, q.kind, q.category,
        CASE WHEN ${header.relationship} = 'self' THEN q.text ELSE q.rater_text END AS text,
        q.required, q.options,
        ans.numeric_value AS "numericValue", ans.text_value AS "textValue", ans.choices,
        ans.not_applicable AS "notApplicable"
      FROM questions q
      LEFT JOIN ${answers} ans ON ans.question_id = q.id AND ans.response_id = ${responseId}::uuid
      WHERE q.questionnaire_id = ${header.questionnaireId}::uuid
      ORDER BY q.position`,
  )
  const sections: ResponseView['sections'] = []
  for (const row of rows) {
    const text = row.text.replace(/\{\{\s*name\s*\}\}/g, header.subjectName)
    const last = sections[sections.length - 1]
    if (last && last.title === row.section) last.questions.push({ ...row, text })
    else sections.push({ title: row.section, questions: [{ ...row, text }] })
  }
  return { header, sections }
}

// ---------------------------------------------------------------------------------------------
// Reopen.

/**
 * Reopens a submitted response (ADR 023): the response and its assignment become answerable again
 * (in progress), the respondent is e-mailed the admin's reason and a way back in, and the change is
 * audited. The assignment row is locked first, the lock the answering flow takes
 * (save-answers.server.ts), so a submit racing the reopen is put in line and nothing is lost.
 */
export async function reopenResponse(
  actor: Actor,
  responseId: unknown,
  reason: string,
): Promise<Outcome<{ respondentName: string; subjectName: string }>> {
  if (!isUuid(responseId)) return notFound()
  return getDb().transaction(async (tx) => {
    const header = await readHeader(tx, responseId, true)
    if (!header) return notFound()
    if (header.assignmentStatus === 'revoked') return refuse(ANSWERS_ADMIN_MESSAGES.revoked)
    if (header.assignmentStatus !== 'submitted' || !header.submittedAt)
      return refuse(ANSWERS_ADMIN_MESSAGES.notSubmitted)
    if (header.phase !== 'open') return refuse(ANSWERS_ADMIN_MESSAGES.schemeNotOpen(header.schemeName))

    await tx
      .update(responses)
      .set({ submittedAt: null, reopenedAt: sql`now()`, updatedAt: sql`now()` })
      .where(sql`${responses.id} = ${responseId}::uuid`)
    await tx
      .update(assignments)
      .set({ status: 'in_progress', submittedAt: null })
      .where(sql`${assignments.id} = ${header.assignmentId}::uuid`)

    const closesAt = new Date(header.closesAt)
    let link: string
    let linkExpiresAt: Date | null = closesAt
    if (header.relationship === 'self') {
      // An employee signs in as usual; the link opens their self-assessment.
      link = new URL(`/assignment/${header.assignmentId}`, getEnv().APP_URL).toString()
      linkExpiresAt = null
    } else {
      // A colleague's invite link was retired by their submit: a fresh one lets them in again.
      const { code } = await createActionCode(tx, {
        kind: 'colleague_invite',
        userId: header.respondentId,
        assignmentId: header.assignmentId,
        expiresAt: closesAt,
      })
      link = actionLink('colleague_invite', code)
    }
    const [brand] = await queryRows<{ brandId: string | null }>(
      tx,
      sql`SELECT c.brand_id AS "brandId" FROM users subj
          JOIN companies c ON c.id = coalesce(subj.company_id, (SELECT company_id FROM schemes WHERE id = ${header.schemeId}::uuid))
          WHERE subj.id = ${header.subjectId}::uuid`,
    )
    await enqueueEmail(tx, {
      to: header.respondentEmail,
      template: 'response_reopened',
      brandId: brand?.brandId ?? null,
      values: {
        link,
        recipientName: header.respondentName,
        employeeName: header.subjectName,
        schemeName: header.schemeName,
        dueDate: formatDate(closesAt, header.timeZone),
        reason,
      },
      entity: 'assignment',
      entityId: header.assignmentId,
      linkExpiresAt,
    })
    await recordAudit(tx, {
      actorId: actor.id,
      ip: actor.ip ?? null,
      action: 'response.reopen',
      entity: 'response',
      entityId: header.id,
      details: {
        assignmentId: header.assignmentId,
        schemeId: header.schemeId,
        relationship: header.relationship,
        previousSubmittedAt: header.submittedAt,
        reason,
      },
    })
    await publishEvent(tx, {
      type: 'assignment.updated',
      subjectId: header.subjectId,
      respondentId: header.respondentId,
      assignmentId: header.assignmentId,
      status: 'in_progress',
      // The subject keeps seeing this colleague as "answered": a reopen must not name them (issue 15 B4).
      ...(header.relationship === 'self' ? {} : { subjectSees: false }),
    })
    return ok({ respondentName: header.respondentName, subjectName: header.subjectName })
  })
}
