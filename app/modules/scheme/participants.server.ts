import { and, eq, sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { assignments, schemeMembers, users } from '#db/schema/index'
import type { AssignmentStatus } from '#db/enums'
import { getEnv } from '#app/config/env.server'
import { formatDate } from '#app/lib/dates'
import { escapeLike, keysetCondition, keysetPage, keysetPlan, type Page } from '#app/lib/keyset.server'
import { ok, refuse, refuseField, type Actor, type Outcome } from '#app/lib/outcome'
import { pgErrorCode, PG_ERROR } from '#app/lib/pg-error'
import { createActionCode, revokeActionCodes } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { hit, refund, refuseLimited, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { enqueueEmails, type EnqueueInput } from '#app/modules/email/outbox.server'
import { enrolEmployees } from './enrol.server'
import {
  sendProgrammeEmails,
  withdrawProgrammeEmails,
  type ProgrammeMailResult,
} from './programme-mail.server'
import { lockScheme, type SchemeDetail } from './scheme.server'
import { REMOVAL_MESSAGES, type SchemeDetailQuery } from './schemas'
import { schemePhase } from './state'
import { answersFingerprint } from '#app/modules/report/release.server'
import { enoughAnswers } from '#app/modules/report/threshold'
import { minutes } from '#app/lib/words'
import { isUuid } from '#app/lib/ids'

/**
 * A scheme's people: the per-participant progress table, the enrol picker, enrolling (chosen
 * employees, the whole company, or someone new), removing an enrolment that has not started, and
 * "send a reminder now". Enrolment in a launched scheme sends the newcomers' programme e-mail in
 * the same transaction (programme-mail.server.ts).
 *
 * Every change first locks the scheme row (FOR SHARE): a launch (FOR UPDATE) waits for enrolments
 * in flight and sees their members, and an enrolment that waited for a launch sees the scheme open
 * and e-mails its newcomers itself. Nobody is left without their e-mail, nobody gets two.
 */

export const PARTICIPANT_PAGE_SIZE = 25
/** The enrol picker lists at most this many employees; a search narrows it down. */
export const CANDIDATE_LIMIT = 50

export type SelfState = Exclude<AssignmentStatus, 'revoked'> | 'none'
export type AccountState = 'active' | 'emailed' | 'not-emailed' | 'disabled'
/**
 * none: no self-assessment yet; gathering: fewer colleague answers than the threshold; ready: enough,
 * never released with colleagues' results; self-only: the self-assessment was released alone;
 * released: released with colleagues' results.
 */
export type ReportState = 'none' | 'gathering' | 'ready' | 'self-only' | 'released'

export type ParticipantRow = {
  id: string
  name: string
  email: string
  account: AccountState
  self: SelfState
  selfAssignmentId: string | null
  colleaguesInvited: number
  colleaguesAnswered: number
  report: ReportState
  /** When their report was last released (ADR 022); null before. */
  releasedAt: string | null
  /**
   * Colleague responses added, changed or reopened since the latest release (ADR 025): a report
   * may be released again only when this is 0 or at least the threshold.
   */
  changedSinceRelease: number
  /**
   * Their development plan (ADR 043): how many focus areas it has (0: none), and whether they
   * shared their report with their manager. Never the plan's text: that is the employee's.
   */
  planAreas: number
  sharedWithManager: boolean
  /** Their self-assessment has a response (begun or submitted). */
  started: boolean
  /** No response and no live colleague invitation: the enrolment may be removed. */
  removable: boolean
  createdAt: string
}

/**
 * The report's state: released once a release exists (report_releases, ADR 022); before that,
 * nothing until the self-assessment is in, gathering until min_raters colleagues have answered,
 * then ready to release.
 */
export function reportStateOf(input: {
  self: SelfState
  answered: number
  minRaters: number
  released: boolean
  /** The latest release shows colleagues' results (else the self-assessment alone). */
  colleaguesShown?: boolean
}): ReportState {
  if (input.released && input.colleaguesShown !== false) return 'released'
  if (input.self !== 'submitted') return 'none'
  if (input.released) return 'self-only'
  if (!enoughAnswers(input.answered, input.minRaters)) return 'gathering'
  return 'ready'
}

type RawParticipant = {
  id: string
  name: string
  email: string
  needsActivation: boolean
  disabled: boolean
  invitedAt: Date | string | null
  selfId: string | null
  selfStatus: AssignmentStatus | null
  hasResponse: boolean
  invited: number
  answered: number
  releasedAt: Date | string | null
  colleaguesShown: boolean | null
  changed: number
  planAreas: number
  shared: boolean
  createdKey: string
}

/**
 * One page of the scheme's participants (sorted by name, searchable by name or e-mail) with their
 * self-assessment, colleagues invited/answered and report state, in ONE statement: the page's
 * members first (a MATERIALIZED CTE), then their colleague assignments counted for those ids only.
 */
export async function listParticipants(
  scheme: Pick<SchemeDetail, 'id' | 'minRaters' | 'reportRelease' | 'phase'>,
  query: Pick<SchemeDetailQuery, 'q' | 'after' | 'before'> & { only?: string },
): Promise<Page<ParticipantRow>> {
  const plan = keysetPlan({ sort: 'name-asc', after: query.after, before: query.before })
  const direction = plan.ascending ? sql`ASC` : sql`DESC`
  const filters: SQL[] = [sql`m.scheme_id = ${scheme.id}`]
  // One participant (the removal confirmation), by the same query so the rules read the same.
  if (query.only) filters.push(sql`m.employee_id = ${query.only}`)
  if (query.q) {
    const like = `%${escapeLike(query.q)}%`
    filters.push(sql`(${users.displayName} ILIKE ${like} OR ${users.email} ILIKE ${like})`)
  }
  const keyset = keysetCondition(plan, { name: users.displayName, created: users.createdAt, id: users.id })
  if (keyset) filters.push(keyset)
  const rows = await queryRows<RawParticipant>(
    getDb(),
    sql`WITH page AS MATERIALIZED (
        SELECT ${users.id} AS id, ${users.displayName} AS name, ${users.email} AS email,
          (${users.passwordHash} IS NULL) AS needs_activation, (${users.disabledAt} IS NOT NULL) AS disabled,
          m.invited_at, to_char(m.enrolled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
        FROM scheme_members m JOIN ${users} ON ${users.id} = m.employee_id
        WHERE ${sql.join(filters, sql` AND `)}
        ORDER BY ${users.displayName} ${direction}, ${users.id} ${direction}
        LIMIT ${PARTICIPANT_PAGE_SIZE + 1}
      ),
      -- Each released participant's latest release, and how many colleague responses differ from
      -- what it copied: added, changed (another fingerprint) or reopened (no longer submitted).
      latest AS (
        SELECT DISTINCT ON (rr.subject_id) rr.id, rr.subject_id, rr.released_at, rr.colleagues_shown
        FROM report_releases rr
        WHERE rr.scheme_id = ${scheme.id} AND rr.subject_id IN (SELECT id FROM page)
        ORDER BY rr.subject_id, rr.released_at DESC, rr.id DESC
      ),
      live AS (
        SELECT a.subject_id, r.id::text AS source,
          (SELECT ${answersFingerprint('an')} FROM answers an WHERE an.response_id = r.id) AS hash
        FROM assignments a
        JOIN responses r ON r.assignment_id = a.id AND r.submitted_at IS NOT NULL
        WHERE a.scheme_id = ${scheme.id} AND a.relationship <> 'self' AND a.status = 'submitted'
          AND a.subject_id IN (SELECT subject_id FROM latest)
      ),
      copied AS (
        SELECT latest.subject_id, coalesce(x.source_response_id::text, 'copy:' || x.id::text) AS source,
          x.content_hash AS hash
        FROM latest JOIN report_release_responses x ON x.release_id = latest.id
      ),
      changes AS (
        SELECT coalesce(live.subject_id, copied.subject_id) AS subject_id,
          count(*) FILTER (WHERE live.hash IS DISTINCT FROM copied.hash)::int AS changed
        FROM live FULL JOIN copied ON copied.subject_id = live.subject_id AND copied.source = live.source
        GROUP BY 1
      )
      SELECT page.id, page.name, page.email, page.needs_activation AS "needsActivation",
        page.disabled, page.invited_at AS "invitedAt", page.created_key AS "createdKey",
        self.id AS "selfId", self.status AS "selfStatus",
        EXISTS (SELECT 1 FROM responses r WHERE r.assignment_id = self.id) AS "hasResponse",
        coalesce(c.invited, 0) AS invited, coalesce(c.answered, 0) AS answered,
        latest.released_at AS "releasedAt", latest.colleagues_shown AS "colleaguesShown",
        coalesce(changes.changed, 0) AS changed,
        (SELECT count(*) FROM plan_focus_areas fa JOIN development_plans p ON p.id = fa.plan_id
          WHERE p.scheme_id = ${scheme.id} AND p.employee_id = page.id)::int AS "planAreas",
        EXISTS (SELECT 1 FROM report_shares sh WHERE sh.scheme_id = ${scheme.id}
          AND sh.employee_id = page.id AND sh.revoked_at IS NULL) AS shared
      FROM page
      LEFT JOIN assignments self
        ON self.scheme_id = ${scheme.id} AND self.subject_id = page.id AND self.relationship = 'self'
      LEFT JOIN (
        SELECT subject_id,
          count(*) FILTER (WHERE status <> 'revoked')::int AS invited,
          count(*) FILTER (WHERE status = 'submitted')::int AS answered
        FROM assignments
        WHERE scheme_id = ${scheme.id} AND relationship <> 'self' AND subject_id IN (SELECT id FROM page)
        GROUP BY subject_id
      ) c ON c.subject_id = page.id
      LEFT JOIN latest ON latest.subject_id = page.id
      LEFT JOIN changes ON changes.subject_id = page.id
      ORDER BY page.name ${direction}, page.id ${direction}`,
  )
  const shaped: ParticipantRow[] = rows.map((r) => {
    const self: SelfState = r.selfStatus && r.selfStatus !== 'revoked' ? r.selfStatus : 'none'
    const invited = Number(r.invited)
    const answered = Number(r.answered)
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      account: r.disabled
        ? 'disabled'
        : !r.needsActivation
          ? 'active'
          : r.invitedAt
            ? 'emailed'
            : 'not-emailed',
      self,
      selfAssignmentId: r.selfId,
      colleaguesInvited: invited,
      colleaguesAnswered: answered,
      report: reportStateOf({
        self,
        answered,
        minRaters: scheme.minRaters,
        released: Boolean(r.releasedAt),
        colleaguesShown: r.colleaguesShown !== false,
      }),
      releasedAt: r.releasedAt ? new Date(r.releasedAt).toISOString() : null,
      changedSinceRelease: Number(r.changed),
      planAreas: Number(r.planAreas),
      sharedWithManager: Boolean(r.shared),
      started: Boolean(r.hasResponse),
      removable: !r.hasResponse && invited === 0,
      createdAt: r.createdKey,
    }
  })
  return keysetPage(plan, shaped, PARTICIPANT_PAGE_SIZE)
}

/** One participant of the scheme as the table shows them; null when not enrolled (or a bad id). */
export async function getParticipant(
  scheme: Pick<SchemeDetail, 'id' | 'minRaters' | 'reportRelease' | 'phase'>,
  employeeId: string | undefined,
): Promise<ParticipantRow | null> {
  if (!employeeId || !isUuid(employeeId)) return null
  const page = await listParticipants(scheme, { q: '', only: employeeId })
  return page.rows[0] ?? null
}

export type Candidate = { id: string; name: string; email: string; activated: boolean }

/**
 * The enrol picker: active employees of the scheme's company not enrolled yet (`enrollable`, what
 * "enrol the whole company" takes), those of them matching `find` by name or e-mail (`total`), and
 * the first CANDIDATE_LIMIT of these by name, in ONE statement. The company's candidates are read
 * first (a MATERIALIZED CTE through the users (company_id) index), then counted and the page taken
 * from them: sorted by name without the CTE, the planner walked every employee of the installation
 * in name order (users (role, display_name)) to find this company's, and the count made it walk
 * them all (317 ms on bench_big). So the picker costs one pass over one company, whatever the
 * installation holds.
 */
export async function listCandidates(
  scheme: Pick<SchemeDetail, 'id' | 'companyId'>,
  find: string,
): Promise<{ rows: Candidate[]; total: number; enrollable: number }> {
  const like = find ? `%${escapeLike(find)}%` : null
  const matches = like ? sql`(c.name ILIKE ${like} OR c.email ILIKE ${like})` : sql`true`
  const [row] = await queryRows<{ rows: Candidate[] | null; total: number; enrollable: number }>(
    getDb(),
    sql`WITH candidates AS MATERIALIZED (
        SELECT u.id, u.display_name AS name, u.email, (u.password_hash IS NOT NULL) AS activated
        FROM users u
        WHERE u.company_id = ${scheme.companyId} AND u.role = 'employee' AND u.disabled_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM scheme_members m WHERE m.scheme_id = ${scheme.id} AND m.employee_id = u.id)
      )
      SELECT
        (SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'email', p.email, 'activated', p.activated)
            ORDER BY p.name, p.id)
          FROM (SELECT * FROM candidates c WHERE ${matches} ORDER BY c.name, c.id LIMIT ${CANDIDATE_LIMIT}) p) AS rows,
        (SELECT count(*) FROM candidates c WHERE ${matches})::int AS total,
        (SELECT count(*) FROM candidates)::int AS enrollable`,
  )
  return {
    rows: (row?.rows ?? []).map((r) => ({ ...r, activated: Boolean(r.activated) })),
    total: Number(row?.total ?? 0),
    enrollable: Number(row?.enrollable ?? 0),
  }
}

// ---------------------------------------------------------------------------------------------
// Enrolling.

export type EnrolResult = {
  name: string
  enrolled: number
  skipped: number
  mail: ProgrammeMailResult | null
  /** Who this enrolment added (the REST API answers per id, issue 21 §1). */
  enrolledIds: string[]
}

const closedForEnrolment = (name: string) =>
  refuse(`“${name}” has closed, so nobody can be enrolled. Reopen it first to take more people.`)

/**
 * Enrols `who` (ids, or a subquery of ids) with the set-based enrolEmployees and, in a launched
 * scheme, queues the newcomers' programme e-mails in the same transaction.
 */
async function enrol(
  actor: Actor,
  schemeId: string,
  who: { ids: string[] } | { wholeCompany: true },
  now: Date,
): Promise<Outcome<EnrolResult>> {
  return getDb().transaction(async (tx): Promise<Outcome<EnrolResult>> => {
    const scheme = await lockScheme(tx, schemeId, 'share')
    if (!scheme) return refuse('This scheme no longer exists.')
    if (schemePhase(scheme, now) === 'closed') return closedForEnrolment(scheme.name)
    const chosen =
      'ids' in who
        ? who.ids
        : sql`SELECT id FROM users WHERE company_id = ${scheme.companyId} AND role = 'employee' AND disabled_at IS NULL`
    const { enrolled } = await enrolEmployees(tx, schemeId, chosen)
    const mail = await afterEnrolment(tx, actor, scheme, enrolled, {
      wholeCompany: 'wholeCompany' in who,
      now,
    })
    const asked = 'ids' in who ? new Set(who.ids).size : enrolled.length
    return ok({
      name: scheme.name,
      enrolled: enrolled.length,
      skipped: Math.max(0, asked - enrolled.length),
      mail,
      enrolledIds: enrolled,
    })
  })
}

/**
 * What follows an enrolment in the same transaction: a launched scheme e-mails the newcomers at
 * once, and the enrolment is audited (the ids up to 200 of them). Nothing when no one was enrolled.
 */
async function afterEnrolment(
  tx: Tx,
  actor: Actor,
  scheme: { id: string; launchedAt: Date | null },
  enrolled: string[],
  { wholeCompany, now }: { wholeCompany: boolean; now: Date },
) {
  if (!enrolled.length) return null
  const mail = scheme.launchedAt ? await sendProgrammeEmails(tx, scheme.id, now) : null
  await recordAudit(tx, actor, {
    action: 'scheme.enrol',
    entity: 'scheme',
    entityId: scheme.id,
    details: {
      employeeIds: enrolled.length <= 200 ? enrolled : undefined,
      count: enrolled.length,
      wholeCompany,
      activation: mail?.activation ?? 0,
      programmeOpen: mail?.programmeOpen ?? 0,
    },
  })
  return mail
}

export function enrolSelected(actor: Actor, schemeId: string, employeeIds: string[], now = new Date()) {
  return enrol(actor, schemeId, { ids: [...new Set(employeeIds)] }, now)
}

export function enrolWholeCompany(actor: Actor, schemeId: string, now = new Date()) {
  return enrol(actor, schemeId, { wholeCompany: true }, now)
}

/**
 * Someone who has no account yet, added to the scheme's company (no password: their programme
 * e-mail is an activation link) and enrolled. An address that is already an active employee of the
 * company just enrols them; any other account is refused with words.
 */
export async function addEmployee(
  actor: Actor,
  schemeId: string,
  input: { displayName: string; email: string },
  now = new Date(),
): Promise<Outcome<EnrolResult & { created: boolean }>> {
  const taken = (message: string) => refuseField('email', message)
  try {
    return await getDb().transaction(async (tx): Promise<Outcome<EnrolResult & { created: boolean }>> => {
      const scheme = await lockScheme(tx, schemeId, 'share')
      if (!scheme) return refuse('This scheme no longer exists.')
      if (schemePhase(scheme, now) === 'closed') return closedForEnrolment(scheme.name)
      const [existing] = await tx
        .select({ id: users.id, role: users.role, companyId: users.companyId, disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.email, input.email))
        .limit(1)
      let employeeId = existing?.id
      if (existing) {
        if (existing.role !== 'employee' || existing.companyId !== scheme.companyId)
          return taken('This address belongs to an account that is not an employee of this scheme’s company.')
        if (existing.disabledAt)
          return taken('This employee’s account is disabled. Enable it before enrolling them.')
      } else {
        const [created] = await tx
          .insert(users)
          .values({
            email: input.email,
            displayName: input.displayName,
            role: 'employee',
            companyId: scheme.companyId,
            passwordHash: null,
          })
          .returning({ id: users.id })
        employeeId = created!.id
        await recordAudit(tx, actor, {
          action: 'employee.create',
          entity: 'user',
          entityId: employeeId,
          details: {
            email: input.email,
            displayName: input.displayName,
            companyId: scheme.companyId,
            schemeId,
          },
        })
        await enqueueWebhookEvents(tx, [
          {
            type: 'employee.created',
            companyId: scheme.companyId,
            data: { employee_id: employeeId, enabled: true },
          },
        ])
      }
      const { enrolled } = await enrolEmployees(tx, schemeId, [employeeId!])
      if (!enrolled.length) return taken('This employee is already enrolled in this scheme.')
      const mail = await afterEnrolment(tx, actor, scheme, enrolled, { wholeCompany: false, now })
      return ok({ name: scheme.name, enrolled: 1, skipped: 0, mail, created: !existing, enrolledIds: enrolled })
    })
  } catch (error) {
    // The address was taken a moment ago by another request.
    if (pgErrorCode(error) === PG_ERROR.uniqueViolation)
      return taken('This address already has an account. Try again.')
    throw error
  }
}

/**
 * Removes an enrolment that has not started: no response to the self-assessment and no colleague
 * invitation still standing. The membership row is locked first, as every invitation for this
 * employee locks it (invite.server.ts), so an invitation cannot slip in between check and delete.
 */
export async function removeEnrolment(
  actor: Actor,
  schemeId: string,
  employeeId: string,
): Promise<Outcome<{ name: string; employeeName: string }>> {
  if (!isUuid(employeeId))
    return refuse('This employee could not be identified. Reload the page and try again.')
  return getDb().transaction(async (tx): Promise<Outcome<{ name: string; employeeName: string }>> => {
    const scheme = await lockScheme(tx, schemeId, 'share')
    if (!scheme) return refuse('This scheme no longer exists.')
    const [member] = await tx
      .select({ name: users.displayName, email: users.email })
      .from(schemeMembers)
      .innerJoin(users, eq(users.id, schemeMembers.employeeId))
      .where(and(eq(schemeMembers.schemeId, schemeId), eq(schemeMembers.employeeId, employeeId)))
      .for('update', { of: schemeMembers })
    if (!member) return refuse('That employee is not enrolled in this scheme (any more).')
    const who = member.name || member.email
    const [usage] = await queryRows<{ started: boolean; live: number }>(
      tx,
      sql`SELECT
          EXISTS (SELECT 1 FROM assignments a JOIN responses r ON r.assignment_id = a.id
            WHERE a.scheme_id = ${schemeId} AND a.subject_id = ${employeeId} AND a.relationship = 'self') AS started,
          (SELECT count(*) FROM assignments a
            WHERE a.scheme_id = ${schemeId} AND a.subject_id = ${employeeId}
              AND a.relationship <> 'self' AND a.status <> 'revoked')::int AS live`,
    )
    if (usage?.started) return refuse(REMOVAL_MESSAGES.started(who))
    const live = Number(usage?.live ?? 0)
    if (live > 0) return refuse(REMOVAL_MESSAGES.invited(who, live))
    await withdrawProgrammeEmails(tx, schemeId, 'Withdrawn: the enrolment was removed.', {
      id: employeeId,
      email: member.email,
    })
    await tx
      .delete(assignments)
      .where(
        and(
          eq(assignments.schemeId, schemeId),
          eq(assignments.subjectId, employeeId),
          eq(assignments.relationship, 'self'),
        ),
      )
    await tx
      .delete(schemeMembers)
      .where(and(eq(schemeMembers.schemeId, schemeId), eq(schemeMembers.employeeId, employeeId)))
    await recordAudit(tx, actor, {
      action: 'scheme.unenrol',
      entity: 'scheme',
      entityId: schemeId,
      details: { employeeId, email: member.email },
    })
    return ok({ name: scheme.name, employeeName: who })
  })
}

// ---------------------------------------------------------------------------------------------
// "Send a reminder now".

/**
 * One reminder round per participant per hour whoever asks, and a ceiling per admin: a reminder
 * reaches the employee and every colleague who has not answered, so a double click or a script
 * must not become a flood.
 */
export const REMIND_LIMITS = {
  participant: { limit: 1, windowMs: 60 * 60 * 1000 },
  admin: { limit: 200, windowMs: 60 * 60 * 1000 },
} satisfies Record<string, RateLimitRule>

type Target = {
  id: string
  relationship: string
  respondentId: string
  email: string
  name: string
  needsActivation: boolean
}

/**
 * Reminds everyone who still owes an answer for this participant: the employee about their
 * self-assessment (a fresh activation link instead when they have never signed in) and each
 * colleague who has not submitted (a fresh invitation link). Through the outbox, in one
 * transaction; the reminder clock of each assignment restarts (so the scheduled ones do not follow
 * straight after).
 */
export async function remindParticipant(
  actor: Actor,
  schemeId: string,
  employeeId: string,
  now = new Date(),
): Promise<Outcome<{ employeeName: string; sent: number }>> {
  if (!isUuid(employeeId))
    return refuse('This employee could not be identified. Reload the page and try again.')
  const key = `scheme-remind:${schemeId}:${employeeId}`
  const adminKey = `scheme-remind-admin:${actor.id}`
  // Counted before anything is sent, so two clicks at once cannot both pass; given back below when
  // nothing was sent after all.
  const counted: string[] = []
  for (const [k, rule] of [
    [key, REMIND_LIMITS.participant],
    [adminKey, REMIND_LIMITS.admin],
  ] as const) {
    const state = await hit(k, rule)
    counted.push(k)
    if (state.limited) {
      for (const c of counted) await refund(c)
      return refuseLimited(state, (seconds) =>
        k === key
          ? `A reminder for this participant went out less than an hour ago. You can send another in ${minutes(seconds)}.`
          : `You have sent many reminders in the last hour. Please try again in ${minutes(seconds)}.`,
      )
    }
  }
  const outcome = await getDb().transaction(
    async (tx): Promise<Outcome<{ employeeName: string; sent: number }>> => {
      const scheme = await lockScheme(tx, schemeId, 'share')
      if (!scheme) return refuse('This scheme no longer exists.')
      const phase = schemePhase(scheme, now)
      if (phase !== 'open')
        return refuse(
          phase === 'closed'
            ? 'This scheme has closed, so there is nothing left to remind anyone of.'
            : 'Reminders can be sent once the scheme is open.',
        )
      const [member] = await tx
        .select({ name: users.displayName, email: users.email })
        .from(schemeMembers)
        .innerJoin(users, eq(users.id, schemeMembers.employeeId))
        .where(and(eq(schemeMembers.schemeId, schemeId), eq(schemeMembers.employeeId, employeeId)))
      if (!member) return refuse('That employee is not enrolled in this scheme (any more).')
      const employeeName = member.name || member.email
      const targets = await queryRows<Target>(
        tx,
        sql`UPDATE assignments a SET last_reminder_at = ${now.toISOString()}::timestamptz,
          reminders_sent = a.reminders_sent + 1
        FROM users r
        WHERE a.scheme_id = ${schemeId} AND a.subject_id = ${employeeId}
          AND a.status IN ('pending', 'in_progress')
          AND r.id = a.respondent_id AND r.disabled_at IS NULL
        RETURNING a.id, a.relationship, r.id AS "respondentId", r.email,
          coalesce(nullif(a.respondent_name, ''), nullif(r.display_name, ''), r.email) AS name,
          (r.password_hash IS NULL) AS "needsActivation"`,
      )
      if (!targets.length)
        return refuse(
          `${employeeName} and their colleagues have answered everything, so there is nobody to remind.`,
        )
      const [brand] = await queryRows<{ brandId: string }>(
        tx,
        sql`SELECT brand_id AS "brandId" FROM companies WHERE id = ${scheme.companyId}`,
      )
      const appUrl = getEnv().APP_URL
      const dueDate = formatDate(scheme.closesAt, scheme.timeZone)
      const messages: EnqueueInput[] = []
      for (const t of targets) {
        const base = {
          to: t.email,
          brandId: brand?.brandId ?? null,
          entity: 'assignment',
          entityId: t.id,
          // Written in each reader's language (ADR 053).
          dates: { dueDate: { at: scheme.closesAt, timeZone: scheme.timeZone } },
        }
        const values = { recipientName: t.name, schemeName: scheme.name, dueDate, employeeName }
        if (t.relationship === 'self' && t.needsActivation) {
          // Never signed in: the activation link is what they need. Older links stop working.
          await revokeActionCodes(tx, 'activate_account', t.respondentId)
          const { code, row } = await createActionCode(tx, {
            kind: 'activate_account',
            userId: t.respondentId,
          })
          messages.push({
            ...base,
            template: 'activate_account',
            values: { ...values, link: actionLink('activate_account', code) },
            linkExpiresAt: row.expiresAt,
          })
        } else if (t.relationship === 'self') {
          messages.push({
            ...base,
            template: 'reminder',
            values: { ...values, link: new URL(`/assignment/${t.id}`, appUrl).toString() },
            linkExpiresAt: null,
          })
        } else {
          const { code } = await createActionCode(tx, {
            kind: 'colleague_invite',
            userId: t.respondentId,
            assignmentId: t.id,
            expiresAt: scheme.closesAt,
          })
          messages.push({
            ...base,
            template: 'reminder',
            values: { ...values, colleagueName: t.name, link: actionLink('colleague_invite', code) },
            linkExpiresAt: scheme.closesAt,
          })
        }
      }
      await enqueueEmails(tx, messages)
      await recordAudit(tx, actor, {
        action: 'scheme.remind',
        entity: 'scheme',
        entityId: schemeId,
        details: { employeeId, recipients: targets.length },
      })
      return ok({ employeeName, sent: targets.length })
    },
  )
  if (!outcome.ok) for (const c of counted) await refund(c)
  return outcome
}
