import { formatDate } from '#app/lib/dates'
import { MANAGER_SEES_REPORT_NOTE } from '#app/modules/plan/words'
import { possessive, minutes } from '#app/lib/words'
import { pgErrorCode, retryOnConflict } from '#app/lib/pg-error'
import { schemeOpenSql, schemePhase, type SchemeTimes } from '#app/modules/scheme/state'
import type {
  AssignmentStatus,
  NominationApproval,
  NominationChooser,
  NominationStatus,
  SchemeStatus,
} from '#db/enums'
import type { Outcome } from '#app/lib/outcome'
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import { assignments, brands, companies, schemeMembers, schemes, users } from '#db/schema/index'
import { MAX_COLLEAGUES } from '#app/config/constants'
import { actionLink, createActionCode, voidInviteCodes } from '#app/modules/action-code/action-code.server'
import type { Role } from '#app/modules/auth/permissions'
import { hit, peek, refuseLimited, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import type { BrandLook } from '#app/components/brand-look'
import { BRAND_LOOK_COLUMNS, brandLookOf } from '#app/modules/brand/look.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { publishEvent } from '#app/modules/realtime/events.server'
import { colleaguePrivacyNote, type RaterGroup } from '#app/modules/report/rater-groups'
import { privacyNoteWords } from '#app/modules/email/value-words'
import {
  InviteFieldsSchema,
  INVITE_MESSAGES,
  inviteStatusOf,
  type InviteStatus,
  type Relationship,
} from './schemas'
import { isUuid } from '#app/lib/ids'
import { atRequestCap, REQUEST_CAP_MESSAGE } from './request-cap.server'

/**
 * Colleague invitations (DESIGN.md §4.3): every query and rule. An employee invites up to the
 * scheme's max_colleagues (never more than 8) colleagues per scheme; each invitation is a rater
 * assignment, a `colleague_invite` action code and an outbox e-mail, written in one transaction.
 *
 * The limit holds under concurrency because every change to an employee's invitations for a scheme
 * first locks their scheme_members row: concurrent invites for one employee take turns, and each
 * counts what the previous one committed. A person who already holds their cap of open feedback
 * requests across all schemes is not invited (the rater fatigue cap, request-cap.server.ts, ADR
 * 038: a per-person lock taken after the membership lock). Rule failures come back as form
 * messages (`ok: false`); "not found" and "not yours" are the same `notFound`, which routes turn
 * into a 404.
 */

/** An administrator reopened the assignment's submitted response (ADR 023). */
export const reopenedSql = sql<boolean>`EXISTS (SELECT 1 FROM responses r WHERE r.assignment_id = ${assignments.id} AND r.reopened_at IS NOT NULL)`

/** The colleagues' assignments (not the self-assessment) about one employee in one scheme. */
export const colleagueAssignmentsOf = (schemeId: string, subjectId: string) =>
  and(
    eq(assignments.schemeId, schemeId),
    eq(assignments.subjectId, subjectId),
    ne(assignments.relationship, 'self'),
  )

export type InviteActor = { id: string; role: Role; ip?: string | null }

export type { Outcome }

/** Resending e-mails someone again: at most once per 10 minutes per invitation, 20 an hour per employee. */
/**
 * Invitations send a brand e-mail, with a name the employee typed, to an address they chose: capped
 * per employee and per recipient, so invite → revoke → invite cannot mail someone without end.
 */
export const INVITE_LIMITS = {
  employee: { limit: 40, windowMs: 60 * 60 * 1000 },
  recipient: { limit: 5, windowMs: 24 * 60 * 60 * 1000 },
} satisfies Record<string, RateLimitRule>

export const RESEND_LIMITS = {
  assignment: { limit: 1, windowMs: 10 * 60 * 1000 },
  employee: { limit: 20, windowMs: 60 * 60 * 1000 },
} satisfies Record<string, RateLimitRule>

/** A scheme's fewest colleagues per group (issue 18 §2), as columns of a select and as the record. */
export const GROUP_MINIMUM_COLUMNS = {
  minManager: schemes.minManager,
  minPeer: schemes.minPeer,
  minDirectReport: schemes.minDirectReport,
  minOther: schemes.minOther,
}

export function minimumsOf(r: {
  minManager: number
  minPeer: number
  minDirectReport: number
  minOther: number
}): Record<RaterGroup, number> {
  return { manager: r.minManager, peer: r.minPeer, direct_report: r.minDirectReport, other: r.minOther }
}

/** The most colleagues an employee may have invited (live, not revoked) in a scheme. */
export function colleagueLimit(maxColleagues: number) {
  return Math.max(0, Math.min(maxColleagues, MAX_COLLEAGUES))
}

export function remainingSlots(maxColleagues: number, live: number) {
  return Math.max(0, colleagueLimit(maxColleagues) - live)
}

export const inviteMessages = {
  notEnrolled: (onBehalf: boolean, employeeName: string) =>
    onBehalf
      ? `${employeeName} is not enrolled in this scheme, so colleagues cannot be invited to it for them.`
      : 'You are not enrolled in this scheme, so you cannot invite colleagues to it.',
  closed: 'This scheme has closed, so invitations can no longer be sent or changed.',
  notOpen: 'This scheme has not opened yet. Invitations can be sent once it opens.',
  self: (onBehalf: boolean, employeeName: string) =>
    onBehalf
      ? `That is ${possessive(employeeName)} own e-mail address. Their own view comes from their self-assessment; invite a colleague instead.`
      : 'That is your own e-mail address. Your own view comes from your self-assessment; invite a colleague instead.',
  duplicate: (email: string) => `${email} has already been invited to give feedback in this scheme.`,
  limit: (limit: number, onBehalf: boolean, employeeName: string) =>
    `${onBehalf ? `${employeeName} has` : 'You have'} already invited ${limit} ${
      limit === 1 ? 'colleague' : 'colleagues'
    }, the most this scheme allows. To invite someone else, revoke an invitation that has not been answered yet.`,
  /** A list of raters (ADR 042) holding the scheme's most colleagues, invited or waiting. */
  listFull: (limit: number, invited: number) =>
    `The list already has ${limit} ${limit === 1 ? 'colleague' : 'colleagues'}${
      invited ? ', counting those already invited' : ''
    }, the most this scheme allows. To add someone else, take someone off the list first.`,
  /**
   * Every address that cannot be invited for a reason about its owner (a consultancy administrator,
   * a disabled account) gets these same words: the form must not tell an employee who they are.
   */
  unavailable: 'This address cannot be invited to give feedback. Choose someone else.',
  /** The rater fatigue cap (ADR 038): the same neutral words whatever the programmes behind it. */
  requestCap: REQUEST_CAP_MESSAGE,
  /** Direct invitations in a scheme that approves lists first, or whose administrators choose (ADR 042). */
  approvalFirst:
    'In this programme your list of colleagues is approved before anyone is invited. Add them to your list instead.',
  adminChooses:
    'In this programme the administrators choose who gives you feedback, so you cannot invite colleagues yourself.',
  answered: (name: string) => `${name} has already answered, so the invitation can no longer be changed.`,
  revoked: (name: string) =>
    `The invitation to ${name} has already been revoked. Invite them again if you need to.`,
  resendTooSoon: (name: string, seconds: number) =>
    `The invitation to ${name} was sent again only a few minutes ago. You can resend it in ${minutes(seconds)}.`,
  inviteTooMany: (seconds: number) =>
    `Too many invitations have been sent recently. Please try again in ${minutes(seconds)}.`,
  resendTooMany: (seconds: number) =>
    `Many invitations have been sent again in the last hour. Please try again in ${minutes(seconds)}.`,
} as const

// ---------------------------------------------------------------------------------------------
// Reading: the page.

export type InviteEmployee = { id: string; displayName: string; email: string }

/** An employee an admin may act for; null for anything else (unknown, malformed, not an employee). */
export async function findEmployee(uid: unknown): Promise<InviteEmployee | null> {
  if (!isUuid(uid)) return null
  const [row] = await getDb()
    .select({ id: users.id, displayName: users.displayName, email: users.email })
    .from(users)
    .where(and(eq(users.id, uid), eq(users.role, 'employee')))
    .limit(1)
  return row ?? null
}

export type InviteScheme = {
  id: string
  name: string
  companyName: string
  status: SchemeStatus
  closesAt: string
  /** The scheme's IANA time zone: its dates are shown in it. */
  timeZone: string
  /** "30 June 2026", the closing day in that zone (written here, so the page ships no date code). */
  closesOn: string
  /** The programme's brand (the page's header wears the chosen scheme's). */
  brand: BrandLook | null
  /** Open for invitations: status open and the closing date still ahead. */
  open: boolean
  limit: number
  live: number
  remaining: number
  /** The report's anonymity threshold and manager option: the group outlook reads them. */
  minRaters: number
  showManager: boolean
  /** The manager reads the released report without consent (ADR 043): said before inviting. */
  managerSeesReportNote: string | null
  /** The fewest colleagues the scheme asks for per group (warnings while inviting, issue 18 §2). */
  minimums: Record<RaterGroup, number>
  /** Lists are approved before anyone is invited (ADR 042): the page sends the employee to their list. */
  approval: NominationApproval
  /** Only administrators choose the raters: the employee does not invite. */
  adminChooses: boolean
}

export type InvitedColleague = {
  id: string
  name: string
  email: string
  relationship: Relationship
  status: InviteStatus
  invitedAt: string | null
  /** "30 June 2026", the day of the invitation in the scheme's zone. */
  invitedOn: string | null
}

export type InvitePage = {
  schemes: InviteScheme[]
  scheme: InviteScheme | null
  colleagues: InvitedColleague[]
  /** The employee's reporting line as recorded (issue 18 §1): the manager is suggested. */
  org: { manager: { name: string; email: string } | null; directReports: number }
}

/** Revoked invitations shown beside the live ones (the most recent first); live ones are at most 8. */
const REVOKED_SHOWN = 20

/**
 * What both of the employee's colleague pages (invitations here, nominations in
 * nomination.server.ts) read of each scheme the employee is in: the scheme, its rules, how many
 * report to the employee, the live invitations, the brand. Read from schemeMembers joined to
 * schemes, companies and brands.
 */
export function memberSchemeColumns(employeeId: string) {
  return {
    id: schemes.id,
    name: schemes.name,
    companyName: companies.name,
    status: schemes.status,
    closesAt: schemes.closesAt,
    timeZone: schemes.timeZone,
    open: schemeOpenSql(),
    maxColleagues: schemes.maxColleagues,
    minRaters: schemes.minRaters,
    showManager: schemes.showManagerBelowThreshold,
    managerSeesReport: schemes.managerSeesReport,
    ...GROUP_MINIMUM_COLUMNS,
    directReports: sql<number>`(SELECT count(*) FROM users x
      WHERE x.manager_id = ${employeeId}::uuid AND x.role = 'employee')::int`.mapWith(Number),
    live: sql<number>`(
      SELECT count(*) FROM assignments a
      WHERE a.scheme_id = ${schemes.id} AND a.subject_id = ${schemeMembers.employeeId}
        AND a.relationship <> 'self' AND a.status <> 'revoked'
    )::int`.mapWith(Number),
    ...BRAND_LOOK_COLUMNS,
  }
}

/**
 * Everything the page shows, in three queries whatever the number of schemes or colleagues: the
 * employee's schemes (each with its live count), and the chosen scheme's invitations.
 * `schemeParam` picks a scheme; one the employee is not enrolled in (or a malformed id) is null.
 */
export async function getInvitePage(
  employeeId: string,
  schemeParam: string | undefined,
  /** The locale its dates are written in (intlLocale of the request's language). */
  locale?: string,
): Promise<InvitePage | null> {
  const db = getDb()
  const rows = await db
    .select({
      ...memberSchemeColumns(employeeId),
      approval: schemes.nominationApproval,
      chooser: schemes.nominationChooser,
      // The same for every row: the employee's manager, to suggest.
      manager: sql<{ name: string; email: string } | null>`(
        SELECT json_build_object('name', coalesce(nullif(m.display_name, ''), m.email), 'email', m.email)
        FROM users e JOIN users m ON m.id = e.manager_id
        WHERE e.id = ${employeeId}::uuid AND m.disabled_at IS NULL)`,
    })
    .from(schemeMembers)
    .innerJoin(schemes, eq(schemes.id, schemeMembers.schemeId))
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .innerJoin(brands, eq(brands.id, companies.brandId))
    .where(eq(schemeMembers.employeeId, employeeId))
    // Open schemes first (soonest deadline first), then the others, most recent first.
    .orderBy(
      desc(schemeOpenSql()),
      sql`CASE WHEN ${schemeOpenSql()} THEN ${schemes.closesAt} END ASC`,
      desc(schemes.closesAt),
      asc(schemes.id),
    )
    .limit(100)
  const list: InviteScheme[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    companyName: r.companyName,
    status: r.status,
    closesAt: r.closesAt.toISOString(),
    timeZone: r.timeZone,
    closesOn: formatDate(r.closesAt, r.timeZone, locale),
    brand: brandLookOf(r),
    open: Boolean(r.open),
    limit: colleagueLimit(r.maxColleagues),
    live: r.live,
    remaining: remainingSlots(r.maxColleagues, r.live),
    minRaters: r.minRaters,
    showManager: r.showManager,
    managerSeesReportNote: r.managerSeesReport ? MANAGER_SEES_REPORT_NOTE : null,
    minimums: minimumsOf(r),
    approval: r.approval,
    adminChooses: r.chooser === 'admin',
  }))
  if (schemeParam !== undefined && !list.some((s) => s.id === schemeParam)) return null
  const scheme = list.find((s) => s.id === schemeParam) ?? list[0] ?? null
  const org = { manager: rows[0]?.manager ?? null, directReports: rows[0]?.directReports ?? 0 }
  if (!scheme) return { schemes: list, scheme: null, colleagues: [], org }

  const invited = await db
    .select({
      id: assignments.id,
      respondentName: assignments.respondentName,
      displayName: users.displayName,
      email: users.email,
      relationship: assignments.relationship,
      status: assignments.status,
      reopened: reopenedSql,
      invitedAt: assignments.invitedAt,
    })
    .from(assignments)
    .innerJoin(users, eq(users.id, assignments.respondentId))
    .where(colleagueAssignmentsOf(scheme.id, employeeId))
    .orderBy(
      sql`(${assignments.status} = 'revoked')`,
      sql`CASE WHEN ${assignments.status} = 'revoked' THEN ${assignments.createdAt} END DESC`,
      asc(assignments.createdAt),
      asc(assignments.id),
    )
    .limit(MAX_COLLEAGUES + REVOKED_SHOWN)
  const colleagues = invited.map((r) => ({
    id: r.id,
    name: r.respondentName || r.displayName || r.email,
    email: r.email,
    relationship: r.relationship as Relationship,
    status: inviteStatusOf(r.status, r.reopened),
    invitedAt: r.invitedAt?.toISOString() ?? null,
    invitedOn: r.invitedAt ? formatDate(r.invitedAt, scheme.timeZone, locale) : null,
  }))
  return { schemes: list, scheme, colleagues, org }
}

// ---------------------------------------------------------------------------------------------
// Changes.

export type Membership = {
  schemeName: string
  status: SchemeStatus
  opensAt: Date
  closesAt: Date
  timeZone: string
  maxColleagues: number
  showManager: boolean
  questionnaireId: string
  employeeName: string
  employeeEmail: string
  brandId: string | null
  companyId: string
  nominationChooser: NominationChooser
  nominationApproval: NominationApproval
  nominationsCloseAt: Date | null
  nominationStatus: NominationStatus | null
  employeeManagerId: string | null
}

/**
 * The employee's membership of the scheme, locked until the transaction ends: the one place every
 * invite for this employee and scheme queues up (FOR UPDATE OF scheme_members only, so other
 * employees' invites to the same scheme do not wait).
 */
export async function lockMembership(
  tx: Tx,
  schemeId: string,
  employeeId: string,
): Promise<Membership | null> {
  // The scheme row too, shared: an admin switching the manager option on (FOR UPDATE) waits for the
  // invitation in flight, and then sees its manager; an invitation that waited reads the new value.
  await tx.select({ id: schemes.id }).from(schemes).where(eq(schemes.id, schemeId)).for('share')
  const [row] = await tx
    .select({
      schemeName: schemes.name,
      status: schemes.status,
      opensAt: schemes.opensAt,
      closesAt: schemes.closesAt,
      timeZone: schemes.timeZone,
      maxColleagues: schemes.maxColleagues,
      showManager: schemes.showManagerBelowThreshold,
      questionnaireId: schemes.questionnaireId,
      employeeName: users.displayName,
      employeeEmail: users.email,
      brandId: companies.brandId,
      companyId: schemes.companyId,
      nominationChooser: schemes.nominationChooser,
      nominationApproval: schemes.nominationApproval,
      nominationsCloseAt: schemes.nominationsCloseAt,
      nominationStatus: schemeMembers.nominationStatus,
      employeeManagerId: users.managerId,
    })
    .from(schemeMembers)
    .innerJoin(schemes, eq(schemes.id, schemeMembers.schemeId))
    .innerJoin(users, eq(users.id, schemeMembers.employeeId))
    // The employee's own company decides the brand; the scheme's company is the fallback.
    .leftJoin(companies, eq(companies.id, sql`coalesce(${users.companyId}, ${schemes.companyId})`))
    .where(and(eq(schemeMembers.schemeId, schemeId), eq(schemeMembers.employeeId, employeeId)))
    .for('update', { of: schemeMembers })
  return row ?? null
}

/** Why invitations cannot be sent or changed in this scheme now (the one open rule), or null. */
export function closedMessage(scheme: SchemeTimes): string | null {
  const phase = schemePhase(scheme)
  if (phase === 'draft' || phase === 'upcoming') return inviteMessages.notOpen
  return phase === 'closed' ? inviteMessages.closed : null
}

/** May this actor act for this employee? An employee only for themself; an admin for anyone. */
export function actsFor(actor: InviteActor, employeeId: string) {
  return actor.role === 'admin' || (actor.role === 'employee' && actor.id === employeeId)
}

export type InviteInput = {
  employeeId: string
  schemeId: string | undefined
  name: string
  email: string
  relationship: string
}

export type InviteResult = {
  assignmentId: string
  colleagueId: string
  name: string
  email: string
  remaining: number
}

export async function inviteColleague(
  actor: InviteActor,
  input: InviteInput,
): Promise<Outcome<InviteResult>> {
  if (!isUuid(input.employeeId) || !actsFor(actor, input.employeeId)) return { ok: false, notFound: true }
  // Checked again here, whoever the caller: the module is the last word on what an invitation is.
  const fields = InviteFieldsSchema.safeParse(input)
  if (!fields.success) return { ok: false, fieldErrors: fieldErrorsOf(fields.error.issues) }
  const { name, email, relationship } = fields.data
  const onBehalf = actor.id !== input.employeeId
  if (!isUuid(input.schemeId)) return { ok: false, formErrors: [INVITE_MESSAGES.schemeMissing] }
  const schemeId = input.schemeId
  const employeeId = input.employeeId
  const limited = await hitInviteLimits(employeeId, email)
  if (limited) return limited

  try {
    // Concurrent invitations queue on the membership lock; should Postgres still break one off (a
    // deadlock or serialization conflict under load), it is run again rather than answered 500.
    return await retryOnConflict(() =>
      getDb().transaction(async (tx): Promise<Outcome<InviteResult>> => {
        const membership = await lockMembership(tx, schemeId, employeeId)
        if (!membership) return notEnrolled(tx, employeeId, onBehalf)
        const closed = closedMessage(membership)
        if (closed) return { ok: false, formErrors: [closed] }
        const direct = directInviteRefusal(actor, membership)
        if (direct) return { ok: false, formErrors: [direct] }
        return inviteOne(tx, actor, membership, { employeeId, schemeId, name, email, relationship, onBehalf })
      }),
    )
  } catch (error) {
    // The partial unique index is the last word on "one live invitation per colleague": a row that
    // slipped past the check (written without the membership lock) is still a message, not a 500.
    if (pgErrorCode(error) === '23505')
      return { ok: false, fieldErrors: { email: [inviteMessages.duplicate(email)] } }
    throw error
  }
}

/** Zod issues as Conform's field errors (the first path segment names the field). */
export function fieldErrorsOf(issues: { path: PropertyKey[]; message: string }[]) {
  const fieldErrors: Record<string, string[]> = {}
  for (const issue of issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message)
  return fieldErrors
}

/** The invitation limits per employee and per recipient, counted: a refusal, or null to go on. */
export async function hitInviteLimits(employeeId: string, email: string) {
  for (const [key, rule] of [
    [`invite:employee:${employeeId}`, INVITE_LIMITS.employee],
    [`invite:recipient:${email}`, INVITE_LIMITS.recipient],
  ] as const) {
    const state = await hit(key, rule)
    if (state.limited) return refuseLimited(state, inviteMessages.inviteTooMany)
  }
  return null
}

/** The refusal for a scheme the employee is not enrolled in (or a 404 for no such employee). */
export async function notEnrolled(tx: Tx, employeeId: string, onBehalf: boolean): Promise<Outcome<never>> {
  const employee = await findEmployeeName(tx, employeeId)
  if (!employee) return { ok: false, notFound: true }
  return { ok: false, formErrors: [inviteMessages.notEnrolled(onBehalf, employee)] }
}

/**
 * Why this actor may not invite directly in this scheme (issue 18 §2, ADR 042), or null: a scheme
 * that approves lists invites only at approval; one whose administrators choose the raters takes no
 * invitation from the employee.
 */
export function directInviteRefusal(
  actor: InviteActor,
  membership: Pick<Membership, 'nominationApproval' | 'nominationChooser'>,
): string | null {
  if (membership.nominationApproval !== 'none') return inviteMessages.approvalFirst
  if (membership.nominationChooser === 'admin' && actor.role !== 'admin') return inviteMessages.adminChooses
  return null
}

export type RaterVetting = {
  employeeId: string
  schemeId: string
  email: string
  onBehalf: boolean
  /** People already on the employee's list but not yet invited (nominations, ADR 042). */
  nominated?: { count: number; emails: string[] }
}

export type VettedRater = {
  existing: { id: string; disabledAt: Date | null; role: Role } | undefined
  live: number
  limit: number
}

/**
 * The one set of rules on whom an employee may ask for feedback in a scheme, for an invitation and
 * for a nomination alike: not themself, not twice, not beyond the scheme's limit, and nobody whose
 * account may not be invited (one neutral wording). Run under the membership lock. The fatigue cap
 * is checked by the caller, after this and with the person's id (`atRequestCap`).
 */
export async function vetRater(
  tx: Tx,
  membership: Membership,
  input: RaterVetting,
): Promise<Outcome<VettedRater>> {
  const { employeeId, schemeId, email, onBehalf } = input
  const employeeName = membership.employeeName || membership.employeeEmail
  if (email === membership.employeeEmail)
    return { ok: false, fieldErrors: { email: [inviteMessages.self(onBehalf, employeeName)] } }

  const [existing] = await tx
    .select({ id: users.id, disabledAt: users.disabledAt, role: users.role })
    .from(users)
    .where(eq(users.email, email))
    .limit(1)

  const [counts] = await tx
    .select({
      live: sql<number>`count(*)::int`.mapWith(Number),
      same: existing
        ? sql<number>`count(*) FILTER (WHERE ${assignments.respondentId} = ${existing.id})::int`.mapWith(
            Number,
          )
        : sql<number>`0`.mapWith(Number),
    })
    .from(assignments)
    .where(
      and(
        eq(assignments.schemeId, schemeId),
        eq(assignments.subjectId, employeeId),
        ne(assignments.relationship, 'self'),
        ne(assignments.status, 'revoked'),
      ),
    )
  const nominated = input.nominated ?? { count: 0, emails: [] }
  if (counts!.same > 0 || nominated.emails.includes(email))
    return { ok: false, fieldErrors: { email: [inviteMessages.duplicate(email)] } }
  const limit = colleagueLimit(membership.maxColleagues)
  if (counts!.live + nominated.count >= limit)
    return {
      ok: false,
      formErrors: [
        input.nominated
          ? inviteMessages.listFull(limit, counts!.live)
          : inviteMessages.limit(limit, onBehalf, employeeName),
      ],
    }
  // An admin's invite link would be a password-free way into the back office: never issue one.
  // Neither this nor a disabled account is named: both get the same words, and only here, where
  // any other address would have been accepted.
  if (existing?.disabledAt || existing?.role === 'admin')
    return { ok: false, fieldErrors: { email: [inviteMessages.unavailable] } }
  return { ok: true, value: { existing, live: counts!.live, limit } }
}

/**
 * Invites one person, inside the caller's transaction and under the membership lock: the rules
 * (vetRater and the fatigue cap), the account, the assignment, its code and e-mail, the audit entry
 * and the live event. Used by a direct invitation and, per nominee, by a list's approval.
 */
export async function inviteOne(
  tx: Tx,
  actor: InviteActor,
  membership: Membership,
  input: {
    employeeId: string
    schemeId: string
    name: string
    email: string
    relationship: Exclude<Relationship, 'self'>
    onBehalf: boolean
    /** Written to the audit entry (e.g. the approved nomination it came from). */
    via?: 'nomination'
  },
): Promise<Outcome<InviteResult>> {
  const { employeeId, schemeId, name, email, relationship, onBehalf } = input
  const employeeName = membership.employeeName || membership.employeeEmail
  const vetted = await vetRater(tx, membership, input)
  if (!vetted.ok) return vetted
  const { existing, live, limit } = vetted.value

  // A person who already has an account (an employee, an admin, a colleague of someone else)
  // keeps it and their role; anyone else becomes a colleague, who signs in by the link.
  let colleagueId = existing?.id
  let createdHere = false
  if (!colleagueId) {
    const [created] = await tx
      .insert(users)
      .values({ email, role: 'colleague', displayName: name })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id })
    colleagueId = created?.id
    createdHere = Boolean(colleagueId)
    if (!colleagueId) {
      // Created a moment ago by another invitation (another employee's): use that account.
      const [raced] = await tx
        .select({ id: users.id, disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.email, email))
        .limit(1)
      if (!raced || raced.disabledAt)
        return { ok: false, fieldErrors: { email: [inviteMessages.unavailable] } }
      colleagueId = raced.id
    }
  }
  // The rater fatigue cap (ADR 038), after the membership lock (the lock order). An account
  // this transaction created holds no request yet and no one else can see it: nothing to count.
  if (!createdHere && (await atRequestCap(tx, { respondentId: colleagueId, schemeId })))
    return { ok: false, fieldErrors: { email: [inviteMessages.requestCap] } }

  const now = new Date()
  const [assignment] = await tx
    .insert(assignments)
    .values({
      schemeId,
      questionnaireId: membership.questionnaireId,
      subjectId: employeeId,
      respondentId: colleagueId,
      relationship,
      respondentName: name,
      status: 'pending',
      invitedAt: now,
      dueAt: membership.closesAt,
    })
    .returning({ id: assignments.id })
  const assignmentId = assignment!.id
  await sendInvitation(tx, {
    assignmentId,
    colleagueId,
    email,
    colleagueName: name,
    employeeName,
    relationship,
    showManager: membership.showManager,
    schemeName: membership.schemeName,
    closesAt: membership.closesAt,
    timeZone: membership.timeZone,
    brandId: membership.brandId,
  })
  await recordAudit(tx, actor, {
    action: 'invite.create',
    entity: 'assignment',
    entityId: assignmentId,
    details: {
      employeeId,
      schemeId,
      colleagueId,
      email,
      relationship,
      onBehalf,
      ...(input.via ? { via: input.via } : {}),
    },
  })
  await publishEvent(tx, {
    type: 'assignment.updated',
    subjectId: employeeId,
    respondentId: colleagueId,
    assignmentId,
    status: 'pending',
  })
  return {
    ok: true,
    value: { assignmentId, colleagueId, name, email, remaining: Math.max(0, limit - live - 1) },
  }
}

async function findEmployeeName(tx: Tx, employeeId: string) {
  const [row] = await tx
    .select({ displayName: users.displayName, email: users.email })
    .from(users)
    .where(and(eq(users.id, employeeId), eq(users.role, 'employee')))
    .limit(1)
  return row ? row.displayName || row.email : null
}

/** A fresh invite code (valid until the scheme closes) and the brand's e-mail carrying its link. */
async function sendInvitation(
  tx: Tx,
  input: {
    assignmentId: string
    colleagueId: string
    email: string
    colleagueName: string
    employeeName: string
    relationship: string
    showManager: boolean
    schemeName: string
    closesAt: Date
    timeZone: string
    brandId: string | null
  },
) {
  const { code } = await createActionCode(tx, {
    kind: 'colleague_invite',
    userId: input.colleagueId,
    assignmentId: input.assignmentId,
    expiresAt: input.closesAt,
  })
  await enqueueEmail(tx, {
    to: input.email,
    template: 'colleague_invite',
    brandId: input.brandId,
    values: {
      link: actionLink('colleague_invite', code),
      recipientName: input.colleagueName,
      colleagueName: input.colleagueName,
      employeeName: input.employeeName,
      schemeName: input.schemeName,
      dueDate: formatDate(input.closesAt, input.timeZone),
      privacyNote: colleaguePrivacyNote(input),
    },
    words: { privacyNote: privacyNoteWords(input) },
    dates: { dueDate: { at: input.closesAt, timeZone: input.timeZone } },
    entity: 'assignment',
    entityId: input.assignmentId,
  })
}

type RaterRow = {
  id: string
  schemeId: string
  subjectId: string
  respondentId: string
  status: AssignmentStatus
  /** Its submitted response was reopened by an administrator: to the employee it is answered. */
  reopened: boolean
  relationship: string
  name: string
  email: string
  employeeName: string
  schemeName: string
  schemeStatus: SchemeStatus
  showManager: boolean
  opensAt: Date
  closesAt: Date
  timeZone: string
  brandId: string | null
}

/**
 * A rater assignment the actor may change, optionally locked. Ownership is in the query: an
 * employee reaches only assignments about themself; an admin any (or, with `employeeId`, only
 * that employee's, so a page acting for one employee never changes another's).
 */
async function findRaterAssignment(
  tx: Tx,
  actor: InviteActor,
  assignmentId: string,
  options: { employeeId?: string; lock?: boolean } = {},
): Promise<RaterRow | null> {
  if (!isUuid(assignmentId)) return null
  if (actor.role !== 'admin' && actor.role !== 'employee') return null
  const subjectId = actor.role === 'employee' ? actor.id : options.employeeId
  if (subjectId !== undefined && !isUuid(subjectId)) return null
  const subject = sql`(SELECT coalesce(nullif(s.display_name, ''), s.email) FROM users s WHERE s.id = ${assignments.subjectId})`
  const query = tx
    .select({
      id: assignments.id,
      schemeId: assignments.schemeId,
      subjectId: assignments.subjectId,
      respondentId: assignments.respondentId,
      status: assignments.status,
      reopened: reopenedSql,
      relationship: assignments.relationship,
      respondentName: assignments.respondentName,
      displayName: users.displayName,
      email: users.email,
      employeeName: sql<string>`${subject}`,
      schemeName: schemes.name,
      schemeStatus: schemes.status,
      showManager: schemes.showManagerBelowThreshold,
      opensAt: schemes.opensAt,
      closesAt: schemes.closesAt,
      timeZone: schemes.timeZone,
      brandId: sql<string | null>`(
        SELECT c.brand_id FROM users s JOIN companies c ON c.id = coalesce(s.company_id, ${schemes.companyId})
        WHERE s.id = ${assignments.subjectId}
      )`,
    })
    .from(assignments)
    .innerJoin(users, eq(users.id, assignments.respondentId))
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .where(
      and(
        eq(assignments.id, assignmentId),
        ne(assignments.relationship, 'self'),
        subjectId ? eq(assignments.subjectId, subjectId) : undefined,
      ),
    )
    .limit(1)
  const [row] = options.lock ? await query.for('update', { of: assignments }) : await query
  if (!row) return null
  return {
    ...row,
    name: row.respondentName || row.displayName || row.email,
  }
}

/** Why an invitation cannot be sent again or withdrawn now, or null when it can. */
function unchangeable(row: RaterRow): string | null {
  // A reopened response was answered: to the employee it stays so (issue 15 B4).
  if (row.status === 'submitted' || row.reopened) return inviteMessages.answered(row.name)
  if (row.status === 'revoked') return inviteMessages.revoked(row.name)
  return closedMessage({ status: row.schemeStatus, opensAt: row.opensAt, closesAt: row.closesAt })
}

export async function resendInvite(
  actor: InviteActor,
  assignmentId: string,
  options: { employeeId?: string } = {},
): Promise<Outcome<{ name: string; email: string }>> {
  const current = await findRaterAssignment(getDb(), actor, assignmentId, options)
  if (!current) return { ok: false, notFound: true }
  const refusal = unchangeable(current)
  if (refusal) return { ok: false, formErrors: [refusal] }

  // Limits are checked before anything is written. The per-employee one is only read first, so a
  // resend refused for being too soon does not use up the employee's hourly allowance.
  const employeeKey = `invite-resend:employee:${current.subjectId}`
  const hourly = await peek(employeeKey, RESEND_LIMITS.employee)
  if (hourly.limited) return refuseLimited(hourly, inviteMessages.resendTooMany)
  const perInvite = await hit(`invite-resend:assignment:${current.id}`, RESEND_LIMITS.assignment)
  if (perInvite.limited)
    return refuseLimited(perInvite, (seconds) => inviteMessages.resendTooSoon(current.name, seconds))
  const counted = await hit(employeeKey, RESEND_LIMITS.employee)
  if (counted.limited) return refuseLimited(counted, inviteMessages.resendTooMany)

  return getDb().transaction(async (tx) => {
    // Locked and read again: a revoke or a submission may have landed since the first look.
    const row = await findRaterAssignment(tx, actor, assignmentId, { ...options, lock: true })
    if (!row) return { ok: false, notFound: true }
    const again = unchangeable(row)
    if (again) return { ok: false, formErrors: [again] }
    await voidInviteCodes(tx, row.id)
    await sendInvitation(tx, {
      assignmentId: row.id,
      colleagueId: row.respondentId,
      email: row.email,
      colleagueName: row.name,
      employeeName: row.employeeName,
      relationship: row.relationship,
      showManager: row.showManager,
      schemeName: row.schemeName,
      closesAt: row.closesAt,
      timeZone: row.timeZone,
      brandId: row.brandId,
    })
    await recordAudit(tx, actor, {
      action: 'invite.resend',
      entity: 'assignment',
      entityId: row.id,
      details: { employeeId: row.subjectId, schemeId: row.schemeId, email: row.email },
    })
    return { ok: true, value: { name: row.name, email: row.email } }
  })
}

export async function revokeInvite(
  actor: InviteActor,
  assignmentId: string,
  options: { employeeId?: string } = {},
): Promise<Outcome<{ name: string; email: string; remaining: number }>> {
  if (!isUuid(assignmentId)) return { ok: false, notFound: true }
  return getDb().transaction(async (tx) => {
    const found = await findRaterAssignment(tx, actor, assignmentId, options)
    if (!found) return { ok: false, notFound: true }
    // Same queue as inviting: the membership row first, then the assignment, so the free slot and
    // a concurrent invite never see each other half done.
    const membership = await lockMembership(tx, found.schemeId, found.subjectId)
    const row = await findRaterAssignment(tx, actor, assignmentId, { ...options, lock: true })
    if (!row) return { ok: false, notFound: true }
    const refusal = unchangeable(row)
    if (refusal) return { ok: false, formErrors: [refusal] }
    await tx.update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, row.id))
    await voidInviteCodes(tx, row.id)
    await recordAudit(tx, actor, {
      action: 'invite.revoke',
      entity: 'assignment',
      entityId: row.id,
      details: {
        employeeId: row.subjectId,
        schemeId: row.schemeId,
        email: row.email,
        previousStatus: row.status,
      },
    })
    await publishEvent(tx, {
      type: 'assignment.updated',
      subjectId: row.subjectId,
      respondentId: row.respondentId,
      assignmentId: row.id,
      status: 'revoked',
    })
    const [counts] = await tx
      .select({ live: sql<number>`count(*)::int`.mapWith(Number) })
      .from(assignments)
      .where(
        and(
          eq(assignments.schemeId, row.schemeId),
          eq(assignments.subjectId, row.subjectId),
          ne(assignments.relationship, 'self'),
          inArray(assignments.status, ['pending', 'in_progress', 'submitted']),
        ),
      )
    const remaining = membership ? remainingSlots(membership.maxColleagues, counts!.live) : 0
    return { ok: true, value: { name: row.name, email: row.email, remaining } }
  })
}
