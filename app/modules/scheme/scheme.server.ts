import { eq, sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { assignments, companies, questionnaires, schemeMembers, schemes } from '#db/schema/index'
import {
  LANGUAGE_CODES,
  type Language,
  type NominationApproval,
  type NominationChooser,
  type QuestionnaireStatus,
  type ReportRelease,
  type RetentionAnswerMode,
  type SchemeStatus,
} from '#db/enums'
import { formatDateTime, zonedTimeToInstant } from '#app/lib/dates'
import {
  untranslatedCountsOf,
  untranslatedCountsSql,
} from '#app/modules/questionnaire/untranslated-sql.server'
import { escapeLike, keysetList, timestampKey, type KeysetRead, type Page } from '#app/lib/keyset-list.server'
import { releaseOnClose } from '#app/modules/report/release.server'
import { followOptionsSql, followsProblem } from '#app/modules/cycle/follows.server'
import { ok, refuse, refuseField, type Actor, type Outcome, type Refusal } from '#app/lib/outcome'
import { pgErrorCode, PG_ERROR } from '#app/lib/pg-error'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import {
  rescheduleProgrammeEmails,
  sendProgrammeEmails,
  withdrawProgrammeEmails,
  type ProgrammeMailResult,
} from './programme-mail.server'
import {
  GROUP_MINIMUM_FIELDS,
  nominationsCloseProblem,
  SCHEME_MESSAGES,
  zonedTimeMessage,
  type SchemeInput,
  type SchemeListQuery,
} from './schemas'
import { schemePhase, schemePhaseSql, type SchemePhase } from './state'
import { isUuid } from '#app/lib/ids'

/**
 * Schemes (DESIGN.md §7): every query and rule of the scheme pages — the list with each scheme's
 * progress, one scheme, create and edit, and the lifecycle: launch (draft → open, with the
 * programme e-mails in the same transaction), extend the deadline, close now, reopen. Enrolment
 * and the per-participant table are in participants.server.ts; the worker that closes schemes at
 * their dates in clock.server.ts. "Is it open?" is always app/modules/scheme/state.ts.
 */

export const SCHEME_PAGE_SIZE = 20

const iso = (value: Date | string) => new Date(value).toISOString()

// ---------------------------------------------------------------------------------------------
// The list.

export type SchemeListRow = {
  id: string
  name: string
  phase: SchemePhase
  companyId: string
  companyName: string
  opensAt: string
  closesAt: string
  timeZone: string
  createdAt: string
  enrolled: number
  selfSubmitted: number
  colleaguesInvited: number
  colleaguesAnswered: number
}

/**
 * One page of schemes with their company and progress, in ONE statement: the page's schemes are
 * picked first (a MATERIALIZED CTE, so the keyset LIMIT applies before anything is counted), then
 * each one's memberships and assignments are counted (LATERAL, one index range per scheme: the
 * scheme_members primary key and the assignments (scheme_id, status, relationship) index). Grouped
 * over `scheme_id IN (page)` instead, the planner may read scheme_members whole and hash it.
 */
export async function listSchemes(query: SchemeListQuery): Promise<Page<SchemeListRow>> {
  const columns = { name: schemes.name, created: schemes.createdAt, id: schemes.id }
  return keysetList(query, columns, SCHEME_PAGE_SIZE, (read) => readSchemes(query, read))
}

async function readSchemes(query: SchemeListQuery, { keyset, limit, field, direction }: KeysetRead) {
  const sortColumn = field === 'name' ? sql`name` : sql`created_at`
  const filters: SQL[] = []
  if (query.q) filters.push(sql`${schemes.name} ILIKE ${`%${escapeLike(query.q)}%`}`)
  if (query.company) filters.push(sql`${schemes.companyId} = ${query.company}`)
  if (query.questionnaire) filters.push(sql`${schemes.questionnaireId} = ${query.questionnaire}`)
  if (query.phase) filters.push(sql`${schemePhaseSql()} = ${query.phase}`)
  if (keyset) filters.push(keyset)
  const where = filters.length ? sql`WHERE ${sql.join(filters, sql` AND `)}` : sql``
  const rows = await queryRows<SchemeListRow>(
    getDb(),
    sql`WITH page AS MATERIALIZED (
        SELECT ${schemes.id} AS id, ${schemes.name} AS name, ${schemes.companyId} AS company_id,
          ${schemes.opensAt} AS opens_at, ${schemes.closesAt} AS closes_at, ${schemes.timeZone} AS time_zone,
          ${schemes.createdAt} AS created_at, ${timestampKey(schemes.createdAt)} AS created_key,
          ${schemePhaseSql()} AS phase
        FROM ${schemes}
        ${where}
        ORDER BY ${sortColumn} ${direction}, id ${direction}
        LIMIT ${limit}
      )
      SELECT page.id, page.name, page.phase, page.company_id AS "companyId", c.name AS "companyName",
        page.opens_at AS "opensAt", page.closes_at AS "closesAt", page.time_zone AS "timeZone",
        page.created_key AS "createdAt",
        coalesce(m.enrolled, 0) AS enrolled,
        coalesce(a.self_submitted, 0) AS "selfSubmitted",
        coalesce(a.invited, 0) AS "colleaguesInvited",
        coalesce(a.answered, 0) AS "colleaguesAnswered"
      FROM page
      JOIN companies c ON c.id = page.company_id
      ${schemeProgressJoins(sql`page.id`)}
      ORDER BY page.${sortColumn} ${direction}, page.id ${direction}`,
  )
  return rows.map((r) => ({
    ...r,
    opensAt: iso(r.opensAt),
    closesAt: iso(r.closesAt),
    enrolled: Number(r.enrolled),
    selfSubmitted: Number(r.selfSubmitted),
    colleaguesInvited: Number(r.colleaguesInvited),
    colleaguesAnswered: Number(r.colleaguesAnswered),
  }))
}

/**
 * A scheme's progress, joined to a query whose scheme id is `schemeId`: `m.enrolled`,
 * `a.self_submitted`, `a.invited` (colleague invitations not revoked) and `a.answered` (submitted).
 * One index range per scheme (the scheme_members primary key, the assignments (scheme_id, status,
 * relationship) index). The scheme list and the REST API (issue 21 §1) count with this one rule.
 */
export function schemeProgressJoins(schemeId: SQL) {
  return sql`CROSS JOIN LATERAL (
        SELECT count(*)::int AS enrolled FROM scheme_members WHERE scheme_id = ${schemeId}
      ) m
      CROSS JOIN LATERAL (
        SELECT
          count(*) FILTER (WHERE relationship = 'self' AND status = 'submitted')::int AS self_submitted,
          count(*) FILTER (WHERE relationship <> 'self' AND status <> 'revoked')::int AS invited,
          count(*) FILTER (WHERE relationship <> 'self' AND status = 'submitted')::int AS answered
        FROM assignments WHERE scheme_id = ${schemeId}
      ) a`
}

export type SchemeFormOptions = {
  companies: Array<{ id: string; name: string }>
  questionnaires: Array<{ id: string; title: string }>
  /**
   * The schemes it may follow (ADR 044): an existing scheme's earlier ones of its company and
   * questionnaire line; none on the create form, where the choice waits for the scheme to exist
   * (listing every scheme of every company would not scale, nor mean anything yet).
   */
  follows: Array<{ id: string; name: string }>
}

/** The list's choices: the create form's, and the questionnaire filter's. */
export type SchemeListOptions = SchemeFormOptions & {
  /** Every version a scheme can use (published or archived), and the one filtered by. */
  filterQuestionnaires: Array<{ id: string; name: string }>
}

/** The most companies and questionnaires a form lists (a consultancy has tens, not thousands). */
const OPTIONS_MAX = 500

const versionLabel = sql`title || CASE WHEN version > 1 THEN ' (version ' || version || ')' ELSE '' END`

/**
 * The create and edit forms' choices in one statement: every company, and the published
 * questionnaires (plus `keepQuestionnaireId`, the one a scheme already uses, whatever its state).
 */
export async function getSchemeFormOptions(
  keepQuestionnaireId?: string,
  forSchemeId?: string,
): Promise<SchemeFormOptions> {
  const { filterQuestionnaires: _filter, ...options } = await readOptions(
    keepQuestionnaireId,
    null,
    forSchemeId && isUuid(forSchemeId) ? forSchemeId : null,
  )
  return options
}

/**
 * The scheme list's choices in one statement: the create form's, and the questionnaire filter's:
 * every version but drafts (no scheme uses a draft), plus the one filtered by, whatever its state.
 */
export async function getSchemeListOptions(filterQuestionnaireId?: string): Promise<SchemeListOptions> {
  return readOptions(undefined, filterQuestionnaireId ?? '', null)
}

async function readOptions(
  keepQuestionnaireId: string | undefined,
  filterQuestionnaireId: string | null,
  forSchemeId: string | null,
) {
  const keep = keepQuestionnaireId && isUuid(keepQuestionnaireId) ? keepQuestionnaireId : null
  const filtered = filterQuestionnaireId && isUuid(filterQuestionnaireId) ? filterQuestionnaireId : null
  const rows = await queryRows<{
    kind: 'company' | 'questionnaire' | 'filter' | 'follows'
    id: string
    label: string
  }>(
    getDb(),
    sql`(SELECT 'company' AS kind, id, name AS label FROM companies ORDER BY name, id LIMIT ${OPTIONS_MAX})
      UNION ALL
      (SELECT 'questionnaire' AS kind, id, ${versionLabel} AS label
        FROM questionnaires
        WHERE status = 'published' ${keep ? sql`OR id = ${keep}` : sql``}
        ORDER BY title, version DESC, id LIMIT ${OPTIONS_MAX})
      ${
        filterQuestionnaireId === null
          ? sql``
          : sql`UNION ALL
      (SELECT 'filter' AS kind, id,
          ${versionLabel} || CASE WHEN status = 'archived' THEN ' (archived)' ELSE '' END AS label
        FROM questionnaires
        WHERE status <> 'draft' ${filtered ? sql`OR id = ${filtered}` : sql``}
        ORDER BY title, version DESC, id LIMIT ${OPTIONS_MAX})`
      }
      ${forSchemeId ? sql`UNION ALL ${followOptionsSql(forSchemeId, OPTIONS_MAX)}` : sql``}`,
  )
  return {
    companies: rows.filter((r) => r.kind === 'company').map((r) => ({ id: r.id, name: r.label })),
    questionnaires: rows.filter((r) => r.kind === 'questionnaire').map((r) => ({ id: r.id, title: r.label })),
    filterQuestionnaires: rows.filter((r) => r.kind === 'filter').map((r) => ({ id: r.id, name: r.label })),
    follows: rows.filter((r) => r.kind === 'follows').map((r) => ({ id: r.id, name: r.label })),
  }
}

// ---------------------------------------------------------------------------------------------
// The nomination settings' one rule (issue 18 §2, ADR 042).

/**
 * Who chooses the raters, the approval, the group minimums and the most colleagues are fixed once
 * the scheme has any nominee or any rater assignment (any status: a withdrawn invitation was made
 * under the settings too) — as the questionnaire is fixed once anyone answers. As SQL, for a scheme
 * id expression: the scheme page reads it inside its one statement, the edit inside its transaction.
 * Both probes are index ranges: nominees (scheme_id, …) and assignments (scheme_id, status, relationship).
 */
export function nominationsFixedSql(schemeId: SQL | typeof schemes.id) {
  return sql`(EXISTS (SELECT 1 FROM nominees n WHERE n.scheme_id = ${schemeId})
    OR EXISTS (SELECT 1 FROM assignments a WHERE a.scheme_id = ${schemeId} AND a.relationship <> 'self'))`
}

/** The settings fixed by lists or invitations (checked under the scheme's lock by the edit). */
export const NOMINATION_FIXED_FIELDS = [
  'nominationChooser',
  'nominationApproval',
  'maxColleagues',
  ...GROUP_MINIMUM_FIELDS,
] as const

/** Whether the scheme's nomination settings are fixed: {@link nominationsFixedSql} as one read. */
export async function nominationSettingsFixed(tx: Tx, schemeId: string): Promise<boolean> {
  const [row] = await queryRows<{ fixed: boolean }>(
    tx,
    sql`SELECT ${nominationsFixedSql(sql`${schemeId}::uuid`)} AS fixed`,
  )
  return Boolean(row?.fixed)
}

// ---------------------------------------------------------------------------------------------
// One scheme.

export type SchemeDetail = {
  id: string
  name: string
  status: SchemeStatus
  phase: SchemePhase
  companyId: string
  companyName: string
  questionnaireId: string
  questionnaireTitle: string
  questionnaireStatus: QuestionnaireStatus
  opensAt: string
  closesAt: string
  timeZone: string
  maxColleagues: number
  minRaters: number
  reminderCadenceDays: number
  reportRelease: ReportRelease
  showManagerBelowThreshold: boolean
  managerSeesReport: boolean
  minManager: number
  minPeer: number
  minDirectReport: number
  minOther: number
  nominationChooser: NominationChooser
  nominationApproval: NominationApproval
  /** The earlier scheme this one follows (ADR 044), and its name. */
  followsSchemeId: string | null
  followsSchemeName: string | null
  /** Reports show the colleagues' view against the norm (ADR 044). */
  showNorm: boolean
  /** The languages its raters answer in (ADR 051), the questionnaire's source language first. */
  languages: Language[]
  questionnaireSourceLanguage: Language
  /** How many texts the questionnaire lacks in each of its other languages (ADR 051). */
  untranslated: Array<{ language: string; missing: number }>
  nominationsCloseAt: string | null
  /** Lists or invitations exist: the nomination settings are fixed ({@link nominationSettingsFixed}). */
  nominationsFixed: boolean
  launchedAt: string | null
  closedAt: string | null
  /** A legal hold (ADR 058): since when and why; null when there is none. */
  legalHoldAt: string | null
  legalHoldReason: string | null
  /** When retention anonymised or deleted its answers (ADR 058), and which. */
  retentionAppliedAt: string | null
  retentionMode: RetentionAnswerMode | null
  enrolled: number
  /** Members who have no password yet (their programme e-mail is an activation link), disabled ones aside. */
  notActivated: number
  /** Members whose account is disabled (no programme e-mail while it is). */
  disabledMembers: number
  /** Members whose programme e-mail has not been queued (before launch: everyone). */
  notEmailed: number
  /** Anyone has a response in this scheme: its questionnaire is fixed. */
  answered: boolean
}

/** One scheme with the counts its page needs, in one statement; null for an unknown or malformed id. */
/**
 * What the scheme page's action needs before it runs an intent: that the scheme exists, and the
 * words its messages use. One short read without the page's counts; each intent locks and reads
 * the scheme itself (in its transaction), so nothing here decides a rule.
 */
export async function getSchemeHead(id: string | null | undefined) {
  if (!id || !isUuid(id)) return null
  const [row] = await getDb()
    .select({
      id: schemes.id,
      timeZone: schemes.timeZone,
      minRaters: schemes.minRaters,
      closesAt: schemes.closesAt,
      companyName: companies.name,
    })
    .from(schemes)
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .where(eq(schemes.id, id))
    .limit(1)
  return row ?? null
}

export async function getScheme(
  id: string | null | undefined,
  now = new Date(),
): Promise<SchemeDetail | null> {
  if (!id || !isUuid(id)) return null
  const [row] = await getDb()
    .select({
      id: schemes.id,
      name: schemes.name,
      status: schemes.status,
      opensAt: schemes.opensAt,
      closesAt: schemes.closesAt,
      timeZone: schemes.timeZone,
      maxColleagues: schemes.maxColleagues,
      minRaters: schemes.minRaters,
      reminderCadenceDays: schemes.reminderCadenceDays,
      reportRelease: schemes.reportRelease,
      showManagerBelowThreshold: schemes.showManagerBelowThreshold,
      managerSeesReport: schemes.managerSeesReport,
      minManager: schemes.minManager,
      minPeer: schemes.minPeer,
      minDirectReport: schemes.minDirectReport,
      minOther: schemes.minOther,
      nominationChooser: schemes.nominationChooser,
      nominationApproval: schemes.nominationApproval,
      nominationsCloseAt: schemes.nominationsCloseAt,
      followsSchemeId: schemes.followsSchemeId,
      followsSchemeName: sql<
        string | null
      >`(SELECT f.name FROM schemes f WHERE f.id = ${schemes.followsSchemeId})`,
      showNorm: schemes.showNorm,
      languages: schemes.languages,
      questionnaireSourceLanguage: questionnaires.sourceLanguage,
      // In the scheme's own statement (the page's query count holds, ADR 051).
      untranslated: sql<unknown>`${untranslatedCountsSql(schemes.questionnaireId, schemes.languages)}`,
      launchedAt: schemes.launchedAt,
      closedAt: schemes.closedAt,
      legalHoldAt: schemes.legalHoldAt,
      legalHoldReason: schemes.legalHoldReason,
      retentionAppliedAt: schemes.retentionAppliedAt,
      retentionMode: schemes.retentionMode,
      companyId: schemes.companyId,
      companyName: companies.name,
      questionnaireId: schemes.questionnaireId,
      questionnaireTitle: questionnaires.title,
      questionnaireStatus: questionnaires.status,
      members: sql<string>`(SELECT json_build_object(
          'enrolled', count(*),
          'notActivated', count(*) FILTER (WHERE u.password_hash IS NULL AND u.disabled_at IS NULL),
          'disabled', count(*) FILTER (WHERE u.disabled_at IS NOT NULL),
          'notEmailed', count(*) FILTER (WHERE m.invited_at IS NULL))
        FROM scheme_members m JOIN users u ON u.id = m.employee_id WHERE m.scheme_id = ${schemes.id})`,
      answered: sql<boolean>`EXISTS (SELECT 1 FROM assignments a JOIN responses r ON r.assignment_id = a.id
        WHERE a.scheme_id = ${schemes.id})`,
      nominationsFixed: sql<boolean>`${nominationsFixedSql(schemes.id)}`,
    })
    .from(schemes)
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .innerJoin(questionnaires, eq(questionnaires.id, schemes.questionnaireId))
    .where(eq(schemes.id, id))
    .limit(1)
  if (!row) return null
  const members = (typeof row.members === 'string' ? JSON.parse(row.members) : row.members) as Record<
    'enrolled' | 'notActivated' | 'disabled' | 'notEmailed',
    number | string
  >
  const { members: _members, ...rest } = row
  return {
    ...rest,
    phase: schemePhase(row, now),
    opensAt: row.opensAt.toISOString(),
    closesAt: row.closesAt.toISOString(),
    nominationsCloseAt: row.nominationsCloseAt?.toISOString() ?? null,
    launchedAt: row.launchedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    legalHoldAt: row.legalHoldAt?.toISOString() ?? null,
    retentionAppliedAt: row.retentionAppliedAt?.toISOString() ?? null,
    nominationsFixed: Boolean(row.nominationsFixed),
    enrolled: Number(members.enrolled),
    notActivated: Number(members.notActivated),
    disabledMembers: Number(members.disabled),
    notEmailed: Number(members.notEmailed),
    answered: Boolean(row.answered),
    untranslated: untranslatedCountsOf(row.untranslated),
  }
}

// ---------------------------------------------------------------------------------------------
// Create and edit.

const errors = {
  companyGone: refuseField('companyId', 'That company no longer exists. Choose another one.'),
  questionnaireNotPublished: refuseField(
    'questionnaireId',
    'That questionnaire is not published (or no longer exists). Choose a published one.',
  ),
  gone: refuse('This scheme no longer exists.'),
}

async function questionnaireStatus(tx: Tx, id: string) {
  return (await questionnaireState(tx, id))?.status ?? null
}

/** A questionnaire's status and source language (a scheme's languages always hold the latter). */
async function questionnaireState(tx: Tx, id: string) {
  const [row] = await tx
    .select({ status: questionnaires.status, sourceLanguage: questionnaires.sourceLanguage })
    .from(questionnaires)
    .where(eq(questionnaires.id, id))
    .limit(1)
  return row ?? null
}

/** A scheme's languages (ADR 051): the source language first, then the others in the list's order. */
export function schemeLanguagesOf(
  chosen: readonly Language[] | undefined,
  sourceLanguage: Language,
): Language[] {
  const set = new Set<Language>(chosen ?? [])
  return [sourceLanguage, ...LANGUAGE_CODES.filter((l) => l !== sourceLanguage && set.has(l))]
}

async function companyExists(tx: Tx, id: string) {
  const [row] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).for('share')
  return Boolean(row)
}

export async function createScheme(
  actor: Actor,
  input: SchemeInput,
  now = new Date(),
): Promise<Outcome<{ id: string }>> {
  if (input.closesAt.getTime() <= now.getTime()) return refuseField('closesAt', SCHEME_MESSAGES.closesInPast)
  const deadlineProblem = nominationsCloseProblem(input.nominationsCloseAt, input)
  if (deadlineProblem) return refuseField('nominationsCloseAt', deadlineProblem)
  try {
    return await getDb().transaction(async (tx): Promise<Outcome<{ id: string }>> => {
      if (!(await companyExists(tx, input.companyId))) return errors.companyGone
      const questionnaire = await questionnaireState(tx, input.questionnaireId)
      if (questionnaire?.status !== 'published') return errors.questionnaireNotPublished
      if (input.followsSchemeId) {
        const problem = await followsProblem(tx, {
          schemeId: null,
          companyId: input.companyId,
          questionnaireId: input.questionnaireId,
          opensAt: input.opensAt,
          followsSchemeId: input.followsSchemeId,
        })
        if (problem) return refuseField('followsSchemeId', problem)
      }
      // New schemes: the employee chooses, nobody approves, no nomination deadline (unless given).
      const values = {
        ...input,
        nominationChooser: input.nominationChooser ?? 'employee',
        nominationApproval: input.nominationApproval ?? 'none',
        nominationsCloseAt: input.nominationsCloseAt ?? null,
        showManagerBelowThreshold: input.showManagerBelowThreshold === true,
        managerSeesReport: input.managerSeesReport === true,
        followsSchemeId: input.followsSchemeId ?? null,
        showNorm: input.showNorm === true,
        languages: schemeLanguagesOf(input.languages, questionnaire.sourceLanguage),
      }
      const [row] = await tx
        .insert(schemes)
        .values({ ...values, status: 'draft' })
        .returning({ id: schemes.id })
      await recordAudit(tx, actor, {
        action: 'scheme.create',
        entity: 'scheme',
        entityId: row!.id,
        details: {
          ...values,
          opensAt: input.opensAt.toISOString(),
          closesAt: input.closesAt.toISOString(),
          nominationsCloseAt: values.nominationsCloseAt?.toISOString() ?? null,
        },
      })
      return ok({ id: row!.id })
    })
  } catch (error) {
    // The company or questionnaire was deleted between the check and the insert.
    if (pgErrorCode(error) === PG_ERROR.foreignKeyViolation) return errors.companyGone
    throw error
  }
}

type Locked = typeof schemes.$inferSelect

/** The scheme row, locked for the rest of the transaction: changes to one scheme take turns. */
export async function lockScheme(
  tx: Tx,
  id: string,
  mode: 'update' | 'share' = 'update',
): Promise<Locked | null> {
  const [row] = await tx.select().from(schemes).where(eq(schemes.id, id)).for(mode)
  return row ?? null
}

/**
 * The deadline moved: every assignment of the scheme that was due at the old one is due at the new
 * one, and the colleagues' invitation links (which live until the scheme closes) live until it too,
 * in the database and in messages still waiting in the outbox.
 */
async function moveDeadline(tx: Tx, schemeId: string, from: Date, to: Date) {
  const next = sql`${to.toISOString()}::timestamptz`
  await tx.execute(
    sql`UPDATE assignments SET due_at = ${next}
      WHERE scheme_id = ${schemeId} AND (due_at IS NULL OR due_at = ${from.toISOString()}::timestamptz)`,
  )
  const live = sql`SELECT id FROM assignments
    WHERE scheme_id = ${schemeId} AND relationship <> 'self' AND status IN ('pending', 'in_progress')`
  await tx.execute(
    sql`UPDATE action_codes SET expires_at = ${next}
      WHERE kind = 'colleague_invite' AND used_at IS NULL AND assignment_id IN (${live})`,
  )
  await tx.execute(
    sql`UPDATE email_outbox SET link_expires_at = ${next}
      WHERE entity = 'assignment' AND entity_id IN (${live}) AND body_erased_at IS NULL
        AND status IN ('queued', 'sending', 'failed') AND template_key IN ('colleague_invite', 'reminder')`,
  )
}

const sameTime = (a: Date, b: Date) => a.getTime() === b.getTime()

export async function updateScheme(
  actor: Actor,
  id: string,
  input: SchemeInput,
  now = new Date(),
): Promise<Outcome<{ changed: string[] }>> {
  try {
    return await getDb().transaction(async (tx): Promise<Outcome<{ changed: string[] }>> => {
      const current = await lockScheme(tx, id)
      if (!current) return errors.gone
      const phase = schemePhase(current, now)
      const changes: Record<string, { from: unknown; to: unknown }> = {}
      const note = (field: keyof SchemeInput, from: unknown, to: unknown) => {
        if (from !== to) changes[field] = { from, to }
      }

      if (current.companyId !== input.companyId) {
        const [member] = await tx
          .select({ id: schemeMembers.employeeId })
          .from(schemeMembers)
          .where(eq(schemeMembers.schemeId, id))
          .limit(1)
        if (member)
          return refuseField(
            'companyId',
            'Employees are enrolled in this scheme, so its company can no longer change. Remove them first.',
          )
        if (!(await companyExists(tx, input.companyId))) return errors.companyGone
        note('companyId', current.companyId, input.companyId)
      }

      if (current.questionnaireId !== input.questionnaireId) {
        const [answer] = await queryRows<{ one: number }>(
          tx,
          sql`SELECT 1 AS one FROM assignments a JOIN responses r ON r.assignment_id = a.id
            WHERE a.scheme_id = ${id} LIMIT 1`,
        )
        if (answer)
          return refuseField(
            'questionnaireId',
            'Someone has already answered in this scheme, so its questionnaire can no longer change.',
          )
        if ((await questionnaireStatus(tx, input.questionnaireId)) !== 'published')
          return errors.questionnaireNotPublished
        note('questionnaireId', current.questionnaireId, input.questionnaireId)
      }

      const opensMoved = !sameTime(current.opensAt, input.opensAt)
      const closesMoved = !sameTime(current.closesAt, input.closesAt)
      if (phase === 'closed' && (opensMoved || closesMoved))
        return refuseField(
          closesMoved ? 'closesAt' : 'opensAt',
          'This scheme has closed. To run it again, reopen it with a new closing time.',
        )
      if (opensMoved && phase === 'open')
        return refuseField(
          'opensAt',
          'This scheme has already opened, so its opening time can no longer change.',
        )
      if (closesMoved && input.closesAt.getTime() <= now.getTime())
        return refuseField(
          'closesAt',
          current.status === 'draft'
            ? SCHEME_MESSAGES.closesInPast
            : 'That time has already passed. To end the scheme now, use “Close now” instead.',
        )
      if (opensMoved) note('opensAt', current.opensAt.toISOString(), input.opensAt.toISOString())
      if (closesMoved) note('closesAt', current.closesAt.toISOString(), input.closesAt.toISOString())
      // The nomination settings as they would be (absent, from a caller other than the form: unchanged).
      const nomination = {
        nominationChooser: input.nominationChooser ?? current.nominationChooser,
        nominationApproval: input.nominationApproval ?? current.nominationApproval,
        maxColleagues: input.maxColleagues,
        minManager: input.minManager ?? current.minManager,
        minPeer: input.minPeer ?? current.minPeer,
        minDirectReport: input.minDirectReport ?? current.minDirectReport,
        minOther: input.minOther ?? current.minOther,
      }
      // Refused only when one of them changes, so a form that posts them unchanged still saves the rest.
      if (
        NOMINATION_FIXED_FIELDS.some((field) => nomination[field] !== current[field]) &&
        (await nominationSettingsFixed(tx, id))
      )
        return refuse(SCHEME_MESSAGES.nominationsFixed)
      const deadline =
        input.nominationsCloseAt === undefined ? current.nominationsCloseAt : input.nominationsCloseAt
      const deadlineProblem = nominationsCloseProblem(deadline, input)
      if (deadlineProblem) return refuseField('nominationsCloseAt', deadlineProblem)

      note('name', current.name, input.name)
      note('timeZone', current.timeZone, input.timeZone)
      for (const field of NOMINATION_FIXED_FIELDS) note(field, current[field], nomination[field])
      note(
        'nominationsCloseAt',
        current.nominationsCloseAt?.toISOString() ?? null,
        deadline?.toISOString() ?? null,
      )
      note('minRaters', current.minRaters, input.minRaters)
      note('reminderCadenceDays', current.reminderCadenceDays, input.reminderCadenceDays)
      note('reportRelease', current.reportRelease, input.reportRelease)
      const showManager = input.showManagerBelowThreshold === true
      if (showManager && !current.showManagerBelowThreshold) {
        // Managers invited before were told their answers are combined: the option may not apply to them.
        const [manager] = await queryRows<{ one: number }>(
          tx,
          sql`SELECT 1 AS one FROM assignments
            WHERE scheme_id = ${id} AND relationship = 'manager' AND status <> 'revoked' LIMIT 1`,
        )
        if (manager) return refuseField('showManagerBelowThreshold', SCHEME_MESSAGES.showManagerTooLate)
      }
      note('showManagerBelowThreshold', current.showManagerBelowThreshold, showManager)
      // Employees are told who reads their report before they invite anyone (ADR 043): once anyone
      // has been invited or listed, what they were told stands.
      const managerSees = input.managerSeesReport === true
      if (managerSees !== current.managerSeesReport) {
        const [asked] = await queryRows<{ one: number }>(
          tx,
          sql`SELECT 1 AS one FROM assignments WHERE scheme_id = ${id} AND relationship <> 'self'
            UNION ALL SELECT 1 FROM nominees WHERE scheme_id = ${id} LIMIT 1`,
        )
        if (asked) return refuseField('managerSeesReport', SCHEME_MESSAGES.managerSeesReportTooLate)
      }
      note('managerSeesReport', current.managerSeesReport, managerSees)
      // The scheme it follows is checked on every save with one: company, questionnaire or dates may have moved.
      const follows = input.followsSchemeId ?? null
      if (follows) {
        const problem = await followsProblem(tx, {
          schemeId: id,
          companyId: input.companyId,
          questionnaireId: input.questionnaireId,
          opensAt: input.opensAt,
          followsSchemeId: follows,
        })
        if (problem) return refuseField('followsSchemeId', problem)
      }
      note('followsSchemeId', current.followsSchemeId, follows)
      const showNorm = input.showNorm === true
      note('showNorm', current.showNorm, showNorm)
      // Languages (ADR 051): absent (a caller other than the form) keeps them; the source language of
      // the questionnaire stays among them, read only when they or the questionnaire change.
      let languages = current.languages
      if (input.languages !== undefined || changes.questionnaireId) {
        const source = (await questionnaireState(tx, input.questionnaireId))?.sourceLanguage ?? 'en'
        languages = schemeLanguagesOf(input.languages ?? current.languages, source)
        if (languages.join() !== current.languages.join())
          changes.languages = { from: current.languages, to: languages }
      }
      if (!Object.keys(changes).length) return ok({ changed: [] })

      await tx
        .update(schemes)
        .set({
          ...input,
          ...nomination,
          nominationsCloseAt: deadline,
          showManagerBelowThreshold: showManager,
          managerSeesReport: managerSees,
          followsSchemeId: follows,
          showNorm,
          languages,
          updatedAt: now,
        })
        .where(eq(schemes.id, id))
      if (changes.questionnaireId)
        await tx
          .update(assignments)
          .set({ questionnaireId: input.questionnaireId })
          .where(eq(assignments.schemeId, id))
      if (closesMoved) await moveDeadline(tx, id, current.closesAt, input.closesAt)
      if (opensMoved && current.launchedAt) await rescheduleProgrammeEmails(tx, id, input.opensAt, now)
      await recordAudit(tx, actor, {
        action: 'scheme.update',
        entity: 'scheme',
        entityId: id,
        details: { changes },
      })
      return ok({ changed: Object.keys(changes) })
    })
  } catch (error) {
    if (pgErrorCode(error) === PG_ERROR.foreignKeyViolation) return errors.companyGone
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// The lifecycle.

export type LaunchResult = ProgrammeMailResult & {
  name: string
  /** What the questionnaire lacks in the scheme's languages (ADR 051): a warning, never a block. */
  untranslated: Array<{ language: string; missing: number }>
}

/**
 * Draft → open, once: the status, the launch time and every enrolled employee's programme e-mail
 * (activation or "your programme is open", held until opens_at) in one transaction. The row lock
 * makes a second launch wait and then find the scheme open already.
 */
export async function launchScheme(
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<Outcome<LaunchResult>> {
  return getDb().transaction(async (tx): Promise<Outcome<LaunchResult>> => {
    const current = await lockScheme(tx, id)
    if (!current) return errors.gone
    if (current.status !== 'draft')
      return refuse(`“${current.name}” has already been launched. Its people have had their e-mails.`)
    if (current.closesAt.getTime() <= now.getTime())
      return refuse(
        'Its closing time has already passed. Set a later one (edit the scheme) before launching.',
      )
    if ((await questionnaireStatus(tx, current.questionnaireId)) !== 'published')
      return refuse(
        'Its questionnaire is no longer published. Choose a published one (edit the scheme) first.',
      )
    const [members] = await queryRows<{ n: number; untranslated: unknown }>(
      tx,
      sql`SELECT count(*)::int AS n,
          ${untranslatedCountsSql(current.questionnaireId, current.languages)} AS untranslated
        FROM scheme_members WHERE scheme_id = ${id}`,
    )
    if (!Number(members?.n)) return refuse('Enrol at least one employee before launching the scheme.')
    const untranslated = untranslatedCountsOf(members?.untranslated).filter((c) => c.missing > 0)

    await tx
      .update(schemes)
      .set({ status: 'open', launchedAt: now, updatedAt: now })
      .where(eq(schemes.id, id))
    const mail = await sendProgrammeEmails(tx, id, now)
    await recordAudit(tx, actor, {
      action: 'scheme.launch',
      entity: 'scheme',
      entityId: id,
      details: {
        activation: mail.activation,
        programmeOpen: mail.programmeOpen,
        heldUntil: mail.heldUntil?.toISOString() ?? null,
        ...(untranslated.length ? { untranslated } : {}),
      },
    })
    await enqueueWebhookEvents(tx, [
      { type: 'scheme.launched', schemeId: id, data: { scheme_id: id, state: 'open' }, at: now },
    ])
    return ok({ ...mail, name: current.name, untranslated })
  })
}

/**
 * Close now: status closed and the time it happened. Assignments are left as they are (pending
 * colleagues simply can no longer answer: the one open rule says so). A scheme closed before it
 * opened withdraws the e-mails that were waiting for its opening.
 */
export async function closeScheme(
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<Outcome<{ name: string; withdrawn: number }>> {
  return getDb().transaction(async (tx): Promise<Outcome<{ name: string; withdrawn: number }>> => {
    const current = await lockScheme(tx, id)
    if (!current) return errors.gone
    if (current.status === 'draft')
      return refuse('This scheme has not been launched, so there is nothing to close.')
    if (current.status === 'closed') return refuse(`“${current.name}” is already closed.`)
    const phase = schemePhase(current, now)
    // Past its closing time already (the clock has not come round yet): it closed then, not now.
    const closedAt = phase === 'closed' ? current.closesAt : now
    await tx.update(schemes).set({ status: 'closed', closedAt, updatedAt: now }).where(eq(schemes.id, id))
    const withdrawn =
      phase === 'upcoming'
        ? await withdrawProgrammeEmails(tx, id, 'Withdrawn: the programme was closed before it opened.')
        : 0
    await recordAudit(tx, actor, {
      action: 'scheme.close',
      entity: 'scheme',
      entityId: id,
      details: { by: 'admin', closedAt: closedAt.toISOString(), withdrawn },
    })
    await enqueueWebhookEvents(tx, [
      {
        type: 'scheme.closed',
        schemeId: id,
        data: { scheme_id: id, state: 'closed', closed_by: 'admin' },
        at: closedAt,
      },
    ])
    // A scheme that releases on close releases its reports now, in the same transaction (ADR 022).
    if (current.reportRelease === 'on_close') await releaseOnClose(now, { tx, schemeId: id })
    return ok({ name: current.name, withdrawn })
  })
}

/** A new closing time typed in the scheme's zone, checked: it exists there, is ahead, and after the opening. */
function newClosingTime(current: Locked, local: string, now: Date): Outcome<Date> {
  const closes = zonedTimeToInstant(local, current.timeZone)
  if (!closes.ok) return refuseField('closesAt', zonedTimeMessage(closes, 'closesAt', current.timeZone))
  if (closes.instant.getTime() <= now.getTime()) return refuseField('closesAt', SCHEME_MESSAGES.closesInPast)
  if (closes.instant.getTime() <= current.opensAt.getTime())
    return refuseField('closesAt', SCHEME_MESSAGES.closesBeforeOpens)
  return ok(closes.instant)
}

/** What a new closing time answers: the scheme's name, the time and the zone to show it in. */
type ClosingChange = { name: string; closesAt: Date; timeZone: string }

/**
 * A change of a scheme's closing time, made under its lock: `refusal` turns away a scheme in the
 * wrong phase, the typed time is checked ({@link newClosingTime}), then `move` writes it (or
 * refuses it). The answer names the scheme and the new time.
 */
function closingTimeChange(rule: {
  refusal: (current: Locked, now: Date) => Refusal | null
  move: (tx: Tx, current: Locked, closesAt: Date, by: { actor: Actor; now: Date }) => Promise<Refusal | void>
}) {
  return (actor: Actor, id: string, closesLocal: string, now = new Date()): Promise<Outcome<ClosingChange>> =>
    getDb().transaction(async (tx): Promise<Outcome<ClosingChange>> => {
      const current = await lockScheme(tx, id)
      if (!current) return errors.gone
      const refused = rule.refusal(current, now)
      if (refused) return refused
      const closes = newClosingTime(current, closesLocal, now)
      if (!closes.ok) return closes
      const refusedTime = await rule.move(tx, current, closes.value, { actor, now })
      if (refusedTime) return refusedTime
      return ok({ name: current.name, closesAt: closes.value, timeZone: current.timeZone })
    })
}

/** Closed → open with a new closing time in the future; anyone whose e-mail was withdrawn gets it now. */
export const reopenScheme = closingTimeChange({
  refusal: (current, now) =>
    schemePhase(current, now) !== 'closed' || current.status === 'draft'
      ? refuse(`“${current.name}” is not closed, so there is nothing to reopen.`)
      : null,
  async move(tx, current, closesAt, { actor, now }) {
    await tx
      .update(schemes)
      .set({ status: 'open', closesAt, closedAt: null, updatedAt: now })
      .where(eq(schemes.id, current.id))
    await moveDeadline(tx, current.id, current.closesAt, closesAt)
    const mail = await sendProgrammeEmails(tx, current.id, now)
    await recordAudit(tx, actor, {
      action: 'scheme.reopen',
      entity: 'scheme',
      entityId: current.id,
      details: {
        closesAt: { from: current.closesAt.toISOString(), to: closesAt.toISOString() },
        activation: mail.activation,
        programmeOpen: mail.programmeOpen,
      },
    })
  },
})

/** A later closing time for a launched scheme that has not closed. */
export const extendDeadline = closingTimeChange({
  refusal(current, now) {
    const phase = schemePhase(current, now)
    if (phase === 'closed')
      return refuse(`“${current.name}” has closed. Reopen it with a new closing time instead.`)
    if (phase === 'draft')
      return refuse('This scheme is still a draft: change its closing time by editing it.')
    return null
  },
  async move(tx, current, closesAt, { actor, now }) {
    if (closesAt.getTime() <= current.closesAt.getTime())
      return refuseField(
        'closesAt',
        `Choose a time after the current deadline (${formatDateTime(current.closesAt, current.timeZone)}).`,
      )
    await tx.update(schemes).set({ closesAt, updatedAt: now }).where(eq(schemes.id, current.id))
    await moveDeadline(tx, current.id, current.closesAt, closesAt)
    await recordAudit(tx, actor, {
      action: 'scheme.extend',
      entity: 'scheme',
      entityId: current.id,
      details: { closesAt: { from: current.closesAt.toISOString(), to: closesAt.toISOString() } },
    })
  },
})
