import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm'
import { MANAGER_SEES_REPORT_NOTE } from '#app/modules/plan/words'
import { getDb, queryRows, type Tx } from '#db/client'
import { assignments, brands, companies, nominees, schemeMembers, schemes, users } from '#db/schema/index'
import type { NominationApproval, NominationChooser, NominationStatus, SchemeStatus } from '#db/enums'
import { getEnv } from '#app/config/env.server'
import { formatDate, formatDateTime } from '#app/lib/dates'
import { isUuid } from '#app/lib/ids'
import { ok, refuse, refuseNotFound, type Outcome } from '#app/lib/outcome'
import { retryOnConflict, pgErrorCode } from '#app/lib/pg-error'
import { possessive } from '#app/lib/words'
import type { BrandLook } from '#app/components/brand-look'
import type { Role } from '#app/modules/auth/permissions'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { brandLookOf } from '#app/modules/brand/look.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import {
  closedMessage,
  colleagueAssignmentsOf,
  colleagueLimit,
  findEmployee,
  minimumsOf,
  hitInviteLimits,
  inviteMessages,
  inviteOne,
  lockMembership,
  memberSchemeColumns,
  notEnrolled,
  remainingSlots,
  reopenedSql,
  vetRater,
  type InviteActor,
  type InviteEmployee,
  type Membership,
} from '#app/modules/invite/invite.server'
import { outlookOf, whoseIn, type OutlookLine } from '#app/modules/invite/invite-page.server'
import { intlLocale, type Language } from '#app/modules/i18n/languages'
import type { TFunction } from 'i18next'
import { atRequestCap } from '#app/modules/invite/request-cap.server'
import { hit, refuseLimited, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import {
  INVITE_MESSAGES,
  inviteStatusOf,
  InviteFieldsSchema,
  type InviteStatus,
  type Relationship,
} from '#app/modules/invite/schemas'
import { schemeOpenSql } from '#app/modules/scheme/state'
import type { RaterGroup } from '#app/modules/report/rater-groups'
import { PASTE_MAX_LINES, NOMINATION_MESSAGES, NOMINATIONS_PAGE_PATH } from './schemas'

/**
 * Nomination with approval (issue 18 §2–3, ADR 042): in a scheme whose `nomination_approval` is not
 * 'none', an employee's raters are first a list (nominees) that the employee, an administrator, or
 * the approver builds; nobody is e-mailed until the approver (the employee's manager, or an
 * administrator) approves it, and then every nominee not yet invited is invited in the approval's
 * own transaction through the one invitation path (invite.server.ts `inviteOne`: the outbox e-mail,
 * the fatigue cap, the limit, the neutral refusals).
 *
 * Every change to one employee's list first takes their scheme_members row lock (lockMembership),
 * the same queue direct invitations use: two tabs, an approver and the employee never interleave,
 * and the maximum holds. The per-person fatigue-cap locks come after it, in respondent-id order at
 * approval, so two approvals never wait on each other in opposite orders.
 */

export type ListActor = InviteActor

/** Who is looking at a list: its employee, an administrator, or the employee's manager. */
export type Standing = 'employee' | 'admin' | 'manager'

export type ListTarget = { employee: InviteEmployee; standing: Standing }

type Viewer = { id: string; role: Role; displayName: string; email: string }

export const NOMINATION_WORDS = {
  deadlinePassed: (on: string) =>
    `The nomination deadline (${on}) has passed, so the list can no longer be changed or sent. Ask your programme’s administrator if something must change.`,
  adminChooses:
    'In this programme the administrators choose who gives you feedback, so the list cannot be changed here.',
  waiting: (who: string) =>
    `The list is waiting for approval by ${who}, so it cannot be changed now. Take it back first if you need to change it.`,
  notSubmitted: 'This list has not been sent for approval, so there is nothing to approve or send back.',
  notApprover: 'Only the approver of this list can approve it or send it back.',
  empty: 'Add at least one colleague before sending the list for approval.',
  approvalNone: 'This programme does not approve lists: invite colleagues directly on the invitations page.',
  approveEmpty: 'Nobody on the list is waiting to be invited: add someone, or send the list back.',
  approveProblems:
    'The list cannot be approved as it is. Remove or replace these people, then approve again:',
  nominee: 'That person is no longer on the list. Reload the page to see it as it is now.',
  invited: (name: string) =>
    `${name} has already been invited, so they can no longer be taken off the list here. Withdraw the invitation on the invitations page instead.`,
  pasteNothing: 'No e-mail address was found in what you pasted. Paste one address per line.',
  person: 'That colleague cannot be added from the directory. Type their name and e-mail address instead.',
} as const

// ---------------------------------------------------------------------------------------------
// Whose list.

/**
 * Whose list this page is about, and as whom the viewer sees it: an employee their own; the
 * employee's manager (when `?employee=` names one of their direct reports); an administrator the
 * employee named (none named: null, the page asks them to choose). Anything else is not found.
 */
export async function resolveListTarget(
  user: Viewer,
  employeeParam: string | undefined,
): Promise<Outcome<ListTarget | null>> {
  if (user.role === 'employee') {
    if (employeeParam === undefined || employeeParam === user.id)
      return ok({
        employee: { id: user.id, displayName: user.displayName, email: user.email },
        standing: 'employee',
      })
    if (!isUuid(employeeParam)) return refuseNotFound()
    const [report] = await getDb()
      .select({ id: users.id, displayName: users.displayName, email: users.email })
      .from(users)
      .where(and(eq(users.id, employeeParam), eq(users.managerId, user.id), eq(users.role, 'employee')))
      .limit(1)
    return report ? ok({ employee: report, standing: 'manager' }) : refuseNotFound()
  }
  if (user.role !== 'admin') return refuseNotFound()
  if (employeeParam === undefined) return ok(null)
  const employee = await findEmployee(employeeParam)
  return employee ? ok({ employee, standing: 'admin' }) : refuseNotFound()
}

// ---------------------------------------------------------------------------------------------
// Rules: one function per question.

type ListState = {
  status: SchemeStatus
  opensAt: Date
  closesAt: Date
  nominationChooser: NominationChooser
  nominationApproval: NominationApproval
  nominationsCloseAt: Date | null
  nominationStatus: NominationStatus | null
  approverId: string | null
  timeZone: string
}

/** Has the employees' nomination deadline passed (the approver and admins may still act)? */
function pastDeadline(state: Pick<ListState, 'nominationsCloseAt'>, now = new Date()) {
  return state.nominationsCloseAt !== null && state.nominationsCloseAt.getTime() <= now.getTime()
}

/** Why this viewer may not add to or take from the list now, or null. */
export function editRefusal(state: ListState, standing: Standing, actorId: string): string | null {
  const closed = closedMessage(state)
  if (closed) return closed
  if (state.nominationApproval === 'none') return NOMINATION_WORDS.approvalNone
  if (standing === 'admin') return null
  if (standing === 'manager')
    return state.nominationStatus === 'submitted' && state.approverId === actorId
      ? null
      : NOMINATION_WORDS.notApprover
  if (state.nominationChooser === 'admin') return NOMINATION_WORDS.adminChooses
  if (pastDeadline(state))
    return NOMINATION_WORDS.deadlinePassed(formatDate(state.nominationsCloseAt!, state.timeZone))
  if (state.nominationStatus === 'submitted') return NOMINATION_WORDS.waiting('the approver')
  return null
}

/** Why this viewer may not send the list for approval now, or null. */
function submitRefusal(state: ListState, standing: Standing, actorId: string): string | null {
  if (standing === 'manager') return NOMINATION_WORDS.notApprover
  const refusal = editRefusal(state, standing, actorId)
  if (refusal) return refusal
  if (state.nominationStatus === 'submitted') return NOMINATION_WORDS.waiting('the approver')
  return null
}

/** Why this viewer may not approve or send back the list now, or null. */
function decideRefusal(state: ListState, standing: Standing, actorId: string): string | null {
  const closed = closedMessage(state)
  if (closed) return closed
  if (state.nominationApproval === 'none') return NOMINATION_WORDS.approvalNone
  if (state.nominationStatus !== 'submitted') return NOMINATION_WORDS.notSubmitted
  if (standing === 'admin') return null
  if (standing === 'manager' && state.approverId === actorId) return null
  return NOMINATION_WORDS.notApprover
}

// ---------------------------------------------------------------------------------------------
// Reading: the page.

export type NominationScheme = {
  id: string
  name: string
  companyName: string
  closesOn: string
  nominationsCloseOn: string | null
  brand: BrandLook | null
  open: boolean
  approval: NominationApproval
  chooser: NominationChooser
  status: NominationStatus | null
  submittedOn: string | null
  comment: string | null
  /** "Mona Manager" or "an administrator": who approves the list as it stands. */
  approverName: string
  limit: number
  live: number
  minRaters: number
  showManager: boolean
  /** The manager reads the released report without consent (ADR 043): said before inviting. */
  managerSeesReportNote: string | null
  minimums: Record<RaterGroup, number>
}

export type Nominee = {
  id: string
  name: string
  email: string
  relationship: Relationship
  addedByApprover: boolean
}

/** No address: the page does not show it (the invitations page does, to the employee and admins). */
export type ListInvitation = {
  id: string
  name: string
  relationship: Relationship
  status: InviteStatus
}

const APPROVER_ADMIN = 'an administrator'

/**
 * The page in two statements whatever the size of the list: the employee's schemes that approve
 * lists (with their membership's state, approver, and counts), then the chosen one's nominees and
 * invitations together. A manager sees only lists sent to them (submitted, sent back or approved).
 */
/** The page's words in a language: the nomination and invite namespaces (getFixedT of the request). */
export type PageLanguage = { language: Language; t: TFunction<'nomination'>; tInvite: TFunction<'invite'> }

export async function getNominationPage(
  target: ListTarget,
  viewerId: string,
  schemeParam: string | undefined,
  lang: PageLanguage,
) {
  const { t } = lang
  const locale = intlLocale(lang.language)
  const db = getDb()
  const employeeId = target.employee.id
  const rows = await db
    .select({
      ...memberSchemeColumns(employeeId),
      opensAt: schemes.opensAt,
      nominationChooser: schemes.nominationChooser,
      nominationApproval: schemes.nominationApproval,
      nominationsCloseAt: schemes.nominationsCloseAt,
      nominationStatus: schemeMembers.nominationStatus,
      submittedAt: schemeMembers.nominationSubmittedAt,
      comment: schemeMembers.nominationComment,
      approverId: schemeMembers.nominationApproverId,
      approverName: sql<string | null>`(SELECT coalesce(nullif(a.display_name, ''), a.email) FROM users a
        WHERE a.id = ${schemeMembers.nominationApproverId})`,
      // The employee's manager on record (suggested for the list, and its approver).
      manager: sql<{ id: string; name: string; email: string } | null>`(SELECT json_build_object('id', m.id,
          'name', coalesce(nullif(m.display_name, ''), m.email), 'email', m.email)
        FROM users e JOIN users m ON m.id = e.manager_id
        WHERE e.id = ${employeeId}::uuid AND m.disabled_at IS NULL AND m.role = 'employee')`,
    })
    .from(schemeMembers)
    .innerJoin(schemes, eq(schemes.id, schemeMembers.schemeId))
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .innerJoin(brands, eq(brands.id, companies.brandId))
    .where(
      and(
        eq(schemeMembers.employeeId, employeeId),
        ne(schemes.nominationApproval, 'none'),
        // A manager sees only the lists sent to them (they are its approver), as the actions allow:
        // not one a former manager approved, nor one the administrators approved.
        target.standing === 'manager'
          ? sql`${schemeMembers.nominationStatus} IN ('submitted', 'sent_back', 'approved')
              AND ${schemes.nominationApproval} = 'manager'
              AND ${schemeMembers.nominationApproverId} = ${viewerId}::uuid`
          : undefined,
      ),
    )
    .orderBy(
      sql`(${schemeMembers.nominationStatus} = 'submitted') DESC NULLS LAST`,
      sql`${schemeOpenSql()} DESC`,
      asc(schemes.closesAt),
      asc(schemes.id),
    )
    .limit(100)
  // A list the employee took back (or that was never sent) is not the manager's to see: their page
  // says there is nothing to review rather than "not found", since they followed a real link.
  if (schemeParam !== undefined && !rows.some((r) => r.id === schemeParam) && target.standing !== 'manager')
    return null
  const row = rows.find((r) => r.id === schemeParam) ?? (schemeParam === undefined ? rows[0] : undefined)
  const list = rows.map((r) => ({ id: r.id, name: r.name, companyName: r.companyName }))
  if (!row)
    return {
      schemes: list,
      scheme: null,
      nominees: [],
      invitations: [],
      outlook: null,
      can: null,
      statusNote: null,
      suggestion: null,
      words: { ...pageWords(target, lang), submit: '', approve: '', add: '' },
    }

  const people = await db
    .select({
      kind: sql<'nominee' | 'invitation'>`'nominee'`.as('kind'),
      id: nominees.id,
      name: nominees.name,
      email: nominees.email,
      relationship: nominees.relationship,
      addedByApprover: nominees.addedByApprover,
      status: sql<string | null>`NULL::text`.as('status'),
      reopened: sql<boolean>`false`.as('reopened'),
      at: nominees.createdAt,
    })
    .from(nominees)
    .where(
      and(eq(nominees.schemeId, row.id), eq(nominees.employeeId, employeeId), isNull(nominees.assignmentId)),
    )
    .unionAll(
      db
        .select({
          kind: sql<'nominee' | 'invitation'>`'invitation'`.as('kind'),
          id: assignments.id,
          name: sql<string>`coalesce(${assignments.respondentName}, nullif(${users.displayName}, ''), ${users.email})`.as(
            'name',
          ),
          email: users.email,
          relationship: assignments.relationship,
          addedByApprover: sql<boolean>`false`.as('added_by_approver'),
          status: sql<string | null>`${assignments.status}::text`.as('status'),
          reopened: sql<boolean>`${reopenedSql}`.as('reopened'),
          at: assignments.createdAt,
        })
        .from(assignments)
        .innerJoin(users, eq(users.id, assignments.respondentId))
        .where(and(colleagueAssignmentsOf(row.id, employeeId), ne(assignments.status, 'revoked'))),
    )
    .orderBy(sql`9`, sql`2`)
  const nomineeList: Nominee[] = []
  const invitations: ListInvitation[] = []
  const invitedEmails: string[] = []
  for (const p of people) {
    const relationship = p.relationship as Relationship
    if (p.kind === 'nominee')
      nomineeList.push({
        id: p.id,
        name: p.name,
        email: p.email,
        relationship,
        addedByApprover: p.addedByApprover,
      })
    else {
      invitedEmails.push(p.email)
      invitations.push({
        id: p.id,
        name: p.name,
        relationship,
        // Who has answered is the employee's to follow, not the approver's: a manager who knows
        // which of the few peers answered is closer to knowing who wrote what in the report.
        status: target.standing === 'manager' ? 'invited' : inviteStatusOf(p.status as never, p.reopened),
      })
    }
  }
  const limit = colleagueLimit(row.maxColleagues)
  const state: ListState = { ...row, approverId: row.approverId }
  const approverName =
    row.nominationStatus === 'submitted' ||
    row.nominationStatus === 'approved' ||
    row.nominationStatus === 'sent_back'
      ? (row.approverName ?? APPROVER_ADMIN)
      : row.nominationApproval === 'manager'
        ? (row.manager?.name ?? APPROVER_ADMIN)
        : APPROVER_ADMIN
  const scheme: NominationScheme = {
    id: row.id,
    name: row.name,
    companyName: row.companyName,
    closesOn: formatDate(row.closesAt, row.timeZone, locale),
    nominationsCloseOn: row.nominationsCloseAt
      ? formatDateTime(row.nominationsCloseAt, row.timeZone, locale)
      : null,
    brand: brandLookOf(row),
    open: Boolean(row.open),
    approval: row.nominationApproval,
    chooser: row.nominationChooser,
    status: row.nominationStatus,
    submittedOn: row.submittedAt ? formatDate(row.submittedAt, row.timeZone, locale) : null,
    comment: row.nominationStatus === 'sent_back' ? row.comment : null,
    approverName,
    limit,
    live: row.live,
    minRaters: row.minRaters,
    showManager: row.showManager,
    managerSeesReportNote: row.managerSeesReport ? MANAGER_SEES_REPORT_NOTE : null,
    minimums: minimumsOf(row),
  }
  const everyone = [
    ...nomineeList.map((n) => ({ relationship: n.relationship, status: 'invited' as const })),
    ...invitations,
  ]
  const room = Math.max(0, limit - everyone.length)
  const outlook = outlookOf(
    { ...scheme, remaining: room },
    everyone,
    { directReports: row.directReports },
    'list',
    lang.tInvite,
  )
  const standing = target.standing
  const can = {
    edit: editRefusal(state, standing, viewerId) === null && room > 0,
    remove: editRefusal(state, standing, viewerId) === null,
    submit: submitRefusal(state, standing, viewerId) === null && nomineeList.length > 0,
    withdraw:
      standing !== 'manager' &&
      state.nominationStatus === 'submitted' &&
      !closedMessage(state) &&
      (standing === 'admin' || (state.nominationChooser !== 'admin' && !pastDeadline(state))),
    decide: decideRefusal(state, standing, viewerId) === null,
    /** Why the list cannot be changed, in words (null when it can). */
    why: editRefusal(state, standing, viewerId),
    room,
  }
  const statusNote = statusNoteOf(scheme, standing, can, nomineeList.length, invitations.length, target, t)
  // The manager on record, suggested while they are neither on the list nor invited (not to
  // themself when they are the one reviewing it).
  const manager = row.manager
  const suggestion =
    manager &&
    can.edit &&
    manager.id !== viewerId &&
    ![...nomineeList.map((n) => n.email), ...invitedEmails].includes(manager.email)
      ? {
          id: manager.id,
          name: manager.name,
          text: t(standing === 'employee' ? 'suggestion.own' : 'suggestion.other', { name: manager.name }),
          button: t('suggestion.button', { name: manager.name }),
        }
      : null
  return {
    schemes: list,
    scheme,
    nominees: nomineeList,
    invitations,
    outlook,
    can,
    statusNote,
    suggestion,
    words: { ...pageWords(target, lang), ...stepWords(scheme, can.room, standing, t) },
  }
}

/** The page's prose for this viewer (written here, not shipped as script: the JS budget). */
export function pageWords(target: ListTarget, { t, language }: PageLanguage) {
  const name = target.employee.displayName || target.employee.email
  const own = target.standing === 'employee'
  return {
    title: own ? t('words.titleOwn') : t('words.titleOther', { whose: whoseIn(language, name) }),
    actingFor:
      target.standing === 'admin' ? t('words.actingFor', { name, email: target.employee.email }) : null,
    intro: own ? t('words.introOwn') : t('words.introOther', { name }),
    none: own ? t('words.noneOwn') : t('words.noneOther'),
  }
}

function stepWords(scheme: NominationScheme, room: number, standing: Standing, t: TFunction<'nomination'>) {
  return {
    submit: `${
      scheme.approverName === APPROVER_ADMIN
        ? t('step.toAdmins')
        : t('step.toApprover', { name: scheme.approverName })
    } ${t('step.checkOutlook')}`,
    approve: t('step.approve'),
    add: t(standing === 'employee' ? 'step.addOwn' : 'step.addOther', { room }),
  }
}

const STATUS_TONES = {
  plain: 'border-slate-200 bg-white text-slate-900',
  waiting: 'border-amber-300 bg-amber-50 text-amber-950',
  back: 'border-red-200 bg-red-50 text-red-950',
  done: 'border-emerald-300 bg-emerald-50 text-emerald-950',
} as const

/** Where the list stands, in words for this viewer (written here: the page's JS has a budget). */
function statusNoteOf(
  scheme: NominationScheme,
  standing: Standing,
  can: { decide: boolean; why: string | null },
  waiting: number,
  invited: number,
  target: ListTarget,
  t: TFunction<'nomination'>,
) {
  const approver = scheme.approverName === APPROVER_ADMIN ? t('approverAdmin') : scheme.approverName
  const lines = [
    t('status.line', { company: scheme.companyName, date: scheme.closesOn, limit: scheme.limit }),
  ]
  let tone: (typeof STATUS_TONES)[keyof typeof STATUS_TONES] = STATUS_TONES.plain
  switch (scheme.status) {
    case 'submitted':
      tone = STATUS_TONES.waiting
      lines.push(
        // An administrator may decide a list sent to a manager: say whose it is to decide first.
        standing === 'admin' && scheme.approverName !== APPROVER_ADMIN
          ? t('status.sentToAdminView', { approver, date: scheme.submittedOn })
          : can.decide
            ? t('status.waitingYou', { date: scheme.submittedOn })
            : t('status.waitingFor', { approver, date: scheme.submittedOn }),
      )
      break
    case 'sent_back':
      tone = STATUS_TONES.back
      lines.push(
        standing === 'manager'
          ? t('status.youSentBack', { name: target.employee.displayName || target.employee.email })
          : t('status.sentBackBy', { approver }),
      )
      break
    case 'approved':
      tone = STATUS_TONES.done
      lines.push(waiting ? t('status.approvedWaiting') : t('status.approved'))
      break
    default:
      // Approved before, then someone was added (the list is a draft again): not "not sent yet".
      if (invited > 0) {
        lines.push(t('status.approvedAgain', { approver }))
        break
      }
      lines.push(t(standing === 'employee' ? 'status.notSentOwn' : 'status.notSentOther', { approver }))
  }
  if (scheme.nominationsCloseOn && scheme.status !== 'approved')
    lines.push(t('status.until', { date: scheme.nominationsCloseOn }))
  // The manager's "why" is always that only the approver acts while the list waits, which they
  // are: no line for them (they see the list only once it was sent to them).
  if (can.why && scheme.status !== 'submitted' && standing !== 'manager') lines.push(can.why)
  return { lines, tone }
}

/** The outlook's words for a list (people are added, not yet invited). */
export type NominationOutlook = { summary: string; lines: OutlookLine[] }

// ---------------------------------------------------------------------------------------------
// Changes.

type ListInput = { employeeId: string; schemeId: string }

/** The membership, locked, with the approver; or the refusal (not enrolled, not found). */
async function lockList(
  tx: Tx,
  actor: ListActor,
  input: ListInput,
): Promise<
  Outcome<{ membership: Membership; state: ListState; standing: Standing; approverId: string | null }>
> {
  if (!isUuid(input.employeeId) || !isUuid(input.schemeId)) return refuseNotFound()
  const standing = standingOf(actor, input.employeeId)
  if (!standing) return refuseNotFound()
  const membership = await lockMembership(tx, input.schemeId, input.employeeId)
  if (!membership) {
    if (standing === 'manager') return refuseNotFound()
    return notEnrolled(tx, input.employeeId, standing === 'admin')
  }
  // A manager acts only on a direct report's list (checked here, under the lock, not from the page).
  if (standing === 'manager' && membership.employeeManagerId !== actor.id) return refuseNotFound()
  const [member] = await tx
    .select({ approverId: schemeMembers.nominationApproverId })
    .from(schemeMembers)
    .where(and(eq(schemeMembers.schemeId, input.schemeId), eq(schemeMembers.employeeId, input.employeeId)))
  const approverId = member?.approverId ?? null
  const state: ListState = {
    ...membership,
    approverId,
  }
  return ok({ membership, state, standing, approverId })
}

function standingOf(actor: ListActor, employeeId: string): Standing | null {
  if (actor.role === 'admin') return 'admin'
  if (actor.role !== 'employee') return null
  return actor.id === employeeId ? 'employee' : 'manager'
}

/** The list's people not yet invited, for the limit and duplicate checks. */
async function pendingNominees(tx: Tx, input: ListInput) {
  return tx
    .select({
      id: nominees.id,
      email: nominees.email,
      name: nominees.name,
      relationship: nominees.relationship,
    })
    .from(nominees)
    .where(
      and(
        eq(nominees.schemeId, input.schemeId),
        eq(nominees.employeeId, input.employeeId),
        isNull(nominees.assignmentId),
      ),
    )
    .orderBy(asc(nominees.createdAt), asc(nominees.id))
}

/** After a change by the employee or an admin: an approved list with new people is a draft again. */
function statusAfterEdit(current: NominationStatus | null): NominationStatus {
  if (current === 'submitted' || current === 'sent_back') return current
  return 'draft'
}

export type AddInput = ListInput & {
  name: string
  email?: string
  personId?: string
  relationship: string
}

export type AddResult = { name: string; email: string; remaining: number }

/**
 * Adds one person to the list: typed (name and address) or picked from the directory (a colleague
 * of the same company, whose address the server looks up). The invitation rules apply now (not
 * self, not twice, the maximum, no account that cannot be invited, the fatigue cap) and again at
 * approval.
 */
export async function addNominee(actor: ListActor, input: AddInput): Promise<Outcome<AddResult>> {
  return addPeople(actor, input, [{ name: input.name, email: input.email, personId: input.personId }]).then(
    (outcome) => {
      if (!outcome.ok) return outcome
      const [first] = outcome.value.results
      if (!first || !first.ok) {
        const message = first && !first.ok ? first.message : NOMINATION_MESSAGES.person
        // A directory pick has no field of its own on the page: its refusal is the form's.
        if (!first || first.field === 'personId') return refuse(message)
        return { ok: false, fieldErrors: { [first.field]: [message] } }
      }
      return ok({ name: first.name, email: first.email, remaining: outcome.value.remaining })
    },
  )
}

/** Adds (a typed person, a directory pick or a pasted list) per person acting, an hour. */
export const NOMINATE_LIMIT = { limit: 60, windowMs: 60 * 60 * 1000 } satisfies RateLimitRule

type Candidate = { name: string; email?: string; personId?: string; line?: string }
type LineResult =
  | { ok: true; line: string; name: string; email: string }
  | { ok: false; line: string; message: string; field: 'email' | 'name' | 'personId' }

/**
 * A pasted list of addresses, checked line by line under one lock: every line gets its verdict
 * (added, or why not), and the lines that pass are added even when others do not.
 */
export async function addPastedNominees(
  actor: ListActor,
  input: ListInput & { text: string; relationship: string },
): Promise<Outcome<{ results: LineResult[]; remaining: number }>> {
  const entries = parsePastedList(input.text)
  if (!entries.length) return refuse(NOMINATION_WORDS.pasteNothing)
  if (entries.length > PASTE_MAX_LINES) return refuse(NOMINATION_MESSAGES.pasteTooManyLines)
  return addPeople(actor, input, entries)
}

async function addPeople(
  actor: ListActor,
  input: ListInput & { relationship: string },
  candidates: Candidate[],
): Promise<Outcome<{ results: LineResult[]; remaining: number }>> {
  if (!isUuid(input.employeeId) || !isUuid(input.schemeId)) return refuseNotFound()
  // Adding shows the address of a colleague picked from the directory: add → remove → add cannot
  // walk the client's directory for addresses faster than this.
  const limited = await hit(`nominate:${actor.id}`, NOMINATE_LIMIT)
  if (limited.limited) return refuseLimited(limited, inviteMessages.inviteTooMany)
  try {
    return await retryOnConflict(() =>
      getDb().transaction(async (tx): Promise<Outcome<{ results: LineResult[]; remaining: number }>> => {
        const locked = await lockList(tx, actor, input)
        if (!locked.ok) return locked
        const { membership, state, standing } = locked.value
        const refusal = editRefusal(state, standing, actor.id)
        if (refusal) return refuse(refusal)
        const onBehalf = standing !== 'employee'
        const pending = await pendingNominees(tx, input)
        const emails = pending.map((p) => p.email)
        const results: LineResult[] = []
        for (const candidate of candidates) {
          const line = candidate.line ?? candidate.email ?? candidate.name
          let name = candidate.name
          let email = candidate.email
          if (candidate.personId) {
            const person = await directoryPerson(tx, membership, input.employeeId, candidate.personId)
            if (!person) {
              results.push({ ok: false, line, message: NOMINATION_WORDS.person, field: 'personId' })
              continue
            }
            email = person.email
            name = name || person.name
          }
          const fields = InviteFieldsSchema.safeParse({ name, email, relationship: input.relationship })
          if (!fields.success) {
            const issue = fields.error.issues[0]!
            const field = String(issue.path[0]) === 'name' ? 'name' : 'email'
            results.push({ ok: false, line, message: issue.message, field })
            continue
          }
          const vetted = await vetRater(tx, membership, {
            employeeId: input.employeeId,
            schemeId: input.schemeId,
            email: fields.data.email,
            onBehalf,
            nominated: { count: emails.length, emails },
          })
          if (!vetted.ok) {
            const message =
              vetted.fieldErrors?.email?.[0] ?? vetted.formErrors?.[0] ?? INVITE_MESSAGES.unreadable
            results.push({ ok: false, line, message, field: 'email' })
            continue
          }
          const existing = vetted.value.existing
          // Read without the person's lock: nothing is requested of them yet (approval checks again,
          // locked, in respondent-id order), and a paste checking people in its own order must not
          // hold locks another employee's paste takes in the opposite order.
          if (
            existing &&
            (await atRequestCap(tx, { respondentId: existing.id, schemeId: input.schemeId }, { lock: false }))
          ) {
            results.push({ ok: false, line, message: inviteMessages.requestCap, field: 'email' })
            continue
          }
          const [row] = await tx
            .insert(nominees)
            .values({
              schemeId: input.schemeId,
              employeeId: input.employeeId,
              email: fields.data.email,
              name: fields.data.name,
              relationship: fields.data.relationship,
              addedBy: actor.id,
              addedByApprover: state.nominationStatus === 'submitted' && standing !== 'employee',
            })
            .returning({ id: nominees.id })
          await recordAudit(tx, actor, {
            action: 'nomination.add',
            entity: 'nominee',
            entityId: row!.id,
            details: {
              employeeId: input.employeeId,
              schemeId: input.schemeId,
              email: fields.data.email,
              relationship: fields.data.relationship,
              standing,
            },
          })
          emails.push(fields.data.email)
          results.push({ ok: true, line, name: fields.data.name, email: fields.data.email })
        }
        if (results.some((r) => r.ok))
          await tx
            .update(schemeMembers)
            .set({ nominationStatus: statusAfterEdit(state.nominationStatus) })
            .where(
              and(eq(schemeMembers.schemeId, input.schemeId), eq(schemeMembers.employeeId, input.employeeId)),
            )
        const limit = colleagueLimit(membership.maxColleagues)
        const live = await liveCount(tx, input)
        return ok({ results, remaining: remainingSlots(limit, live + emails.length) })
      }),
    )
  } catch (error) {
    // Two tabs adding the same address at once: the unique index answers, as a message.
    if (pgErrorCode(error) === '23505') return refuse(inviteMessages.duplicate('That address'))
    throw error
  }
}

async function liveCount(tx: Tx, input: ListInput) {
  const [row] = await tx
    .select({ live: sql<number>`count(*)::int`.mapWith(Number) })
    .from(assignments)
    .where(
      and(
        eq(assignments.schemeId, input.schemeId),
        eq(assignments.subjectId, input.employeeId),
        ne(assignments.relationship, 'self'),
        ne(assignments.status, 'revoked'),
      ),
    )
  return row?.live ?? 0
}

/**
 * A colleague picked from the directory: an enabled employee of the same company as the list's
 * employee (never themself). The address is looked up here, so the page never carries it.
 */
async function directoryPerson(tx: Tx, membership: Membership, employeeId: string, personId: string) {
  if (!isUuid(personId) || personId === employeeId) return null
  const [person] = await tx
    .select({
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.email})`,
    })
    .from(users)
    .where(
      and(
        eq(users.id, personId),
        eq(users.role, 'employee'),
        isNull(users.disabledAt),
        eq(users.companyId, membership.companyId),
      ),
    )
    .limit(1)
  return person ?? null
}

/**
 * One pasted entry per line (or per ";"): "name@example.com", "Ana Silva <ana@example.com>",
 * "Ana Silva, ana@example.com" or "ana@example.com, Ana Silva". A line without a name is named
 * from the address ("ana.silva@…" → "Ana Silva").
 */
export function parsePastedList(text: string): Candidate[] {
  const entries: Candidate[] = []
  for (const raw of text.split(/[\n;]+/)) {
    const line = raw.replace(/\s+/g, ' ').trim()
    if (!line) continue
    const angle = /^(.*?)<([^<>]*)>\s*$/.exec(line)
    let email: string
    let name: string
    if (angle) {
      email = angle[2]!.trim()
      name = angle[1]!
        .trim()
        .replace(/,$/, '')
        .trim()
        .replace(/^["']|["']$/g, '')
        .trim()
    } else {
      const parts = line
        .split(/[,\t]| (?=\S+@)/)
        .map((p) => p.trim())
        .filter(Boolean)
      const at = parts.findIndex((p) => p.includes('@'))
      email = at >= 0 ? parts[at]! : line
      name = parts
        .filter((_, i) => i !== at)
        .join(' ')
        .replace(/^["']|["']$/g, '')
        .trim()
    }
    email = email
      .replace(/^mailto:/i, '')
      .trim()
      .toLowerCase()
    entries.push({ name: name || nameFromAddress(email), email, line })
  }
  return entries
}

function nameFromAddress(email: string) {
  const local = email.split('@')[0] ?? ''
  const words = local
    .split(/[._\-+]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
  return words.join(' ').slice(0, 100) || email.slice(0, 100)
}

/** Takes someone not yet invited off the list. */
export async function removeNominee(
  actor: ListActor,
  input: ListInput & { nomineeId: string },
): Promise<Outcome<{ name: string }>> {
  if (!isUuid(input.nomineeId)) return refuseNotFound()
  return getDb().transaction(async (tx) => {
    const locked = await lockList(tx, actor, input)
    if (!locked.ok) return locked
    const { state, standing } = locked.value
    const refusal = editRefusal(state, standing, actor.id)
    if (refusal) return refuse(refusal)
    const [row] = await tx
      .select({
        id: nominees.id,
        name: nominees.name,
        email: nominees.email,
        assignmentId: nominees.assignmentId,
      })
      .from(nominees)
      .where(
        and(
          eq(nominees.id, input.nomineeId),
          eq(nominees.schemeId, input.schemeId),
          eq(nominees.employeeId, input.employeeId),
        ),
      )
    if (!row) return refuse(NOMINATION_WORDS.nominee)
    if (row.assignmentId) return refuse(NOMINATION_WORDS.invited(row.name))
    await tx.delete(nominees).where(eq(nominees.id, row.id))
    if (standing !== 'manager' && state.nominationStatus === 'approved')
      await setStatus(tx, input, { nominationStatus: 'draft' })
    await recordAudit(tx, actor, {
      action: 'nomination.remove',
      entity: 'nominee',
      entityId: row.id,
      details: { employeeId: input.employeeId, schemeId: input.schemeId, email: row.email, standing },
    })
    return ok({ name: row.name })
  })
}

async function setStatus(tx: Tx, input: ListInput, values: Partial<typeof schemeMembers.$inferInsert>) {
  await tx
    .update(schemeMembers)
    .set(values)
    .where(and(eq(schemeMembers.schemeId, input.schemeId), eq(schemeMembers.employeeId, input.employeeId)))
}

/** The address of the list's page for a viewer other than its employee. */
export function listHref(schemeId: string, employeeId?: string) {
  const params = new URLSearchParams({ scheme: schemeId })
  if (employeeId) params.set('employee', employeeId)
  return `${NOMINATIONS_PAGE_PATH}?${params.toString()}`
}

type MailScheme = { id: string; name: string; brandId: string | null; closesAt: Date; timeZone: string }

function schemeOfMembership(membership: Membership, schemeId: string): MailScheme {
  return {
    id: schemeId,
    name: membership.schemeName,
    brandId: membership.brandId,
    closesAt: membership.closesAt,
    timeZone: membership.timeZone,
  }
}

/**
 * A nomination e-mail, in the scheme's brand: its link is a page behind sign-in (no one-time
 * code), and every one names the scheme and its answering deadline.
 */
async function mailAboutList(
  tx: Tx,
  scheme: MailScheme,
  mail: {
    to: string
    template: 'nomination_submitted' | 'nomination_sent_back' | 'nomination_approved' | 'nomination_reminder'
    href: string
    values: Record<string, string>
  },
) {
  await enqueueEmail(tx, {
    to: mail.to,
    template: mail.template,
    brandId: scheme.brandId,
    values: {
      ...mail.values,
      link: new URL(mail.href, getEnv().APP_URL).toString(),
      schemeName: scheme.name,
      dueDate: formatDate(scheme.closesAt, scheme.timeZone),
    },
    dates: { dueDate: { at: scheme.closesAt, timeZone: scheme.timeZone } },
    entity: 'nomination',
    entityId: scheme.id,
    linkExpiresAt: null,
  })
}

/**
 * Sends the list for approval: to the employee's manager when the scheme asks for the manager's and
 * one is recorded (e-mailed a link to review it), else to the administrators (their queue on the
 * scheme page).
 */
export async function submitList(
  actor: ListActor,
  input: ListInput,
): Promise<Outcome<{ approverName: string; count: number }>> {
  return getDb().transaction(async (tx) => {
    const locked = await lockList(tx, actor, input)
    if (!locked.ok) return locked
    const { membership, state, standing } = locked.value
    const refusal = submitRefusal(state, standing, actor.id)
    if (refusal) return refuse(refusal)
    const pending = await pendingNominees(tx, input)
    if (!pending.length) return refuse(NOMINATION_WORDS.empty)
    const manager =
      membership.nominationApproval === 'manager' && membership.employeeManagerId
        ? await enabledEmployee(tx, membership.employeeManagerId)
        : null
    const now = new Date()
    await setStatus(tx, input, {
      nominationStatus: 'submitted',
      nominationSubmittedAt: now,
      nominationApproverId: manager?.id ?? null,
      nominationDecidedAt: null,
      nominationDecidedBy: null,
      nominationComment: null,
      nominationRemindersSent: 0,
      nominationRemindedAt: null,
    })
    const employeeName = membership.employeeName || membership.employeeEmail
    if (manager)
      await mailAboutList(tx, schemeOfMembership(membership, input.schemeId), {
        to: manager.email,
        template: 'nomination_submitted',
        href: listHref(input.schemeId, input.employeeId),
        values: { recipientName: manager.name, employeeName },
      })
    await recordAudit(tx, actor, {
      action: 'nomination.submit',
      entity: 'scheme_member',
      entityId: input.schemeId,
      details: {
        employeeId: input.employeeId,
        schemeId: input.schemeId,
        approverId: manager?.id ?? null,
        nominees: pending.length,
        standing,
      },
    })
    return ok({ approverName: manager?.name ?? APPROVER_ADMIN, count: pending.length })
  })
}

async function enabledEmployee(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      id: users.id,
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.email})`,
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'employee'), isNull(users.disabledAt)))
    .limit(1)
  return row ?? null
}

/** Takes a submitted list back to change it (the employee, or an admin for them). */
export async function withdrawList(actor: ListActor, input: ListInput): Promise<Outcome<null>> {
  return getDb().transaction(async (tx) => {
    const locked = await lockList(tx, actor, input)
    if (!locked.ok) return locked
    const { state, standing } = locked.value
    if (standing === 'manager') return refuse(NOMINATION_WORDS.notApprover)
    if (state.nominationStatus !== 'submitted') return refuse(NOMINATION_WORDS.notSubmitted)
    const closed = closedMessage(state)
    if (closed) return refuse(closed)
    if (standing === 'employee') {
      if (state.nominationChooser === 'admin') return refuse(NOMINATION_WORDS.adminChooses)
      if (pastDeadline(state))
        return refuse(NOMINATION_WORDS.deadlinePassed(formatDate(state.nominationsCloseAt!, state.timeZone)))
    }
    await setStatus(tx, input, {
      nominationStatus: 'draft',
      nominationApproverId: null,
      nominationSubmittedAt: null,
    })
    await recordAudit(tx, actor, {
      action: 'nomination.withdraw',
      entity: 'scheme_member',
      entityId: input.schemeId,
      details: { employeeId: input.employeeId, schemeId: input.schemeId, standing },
    })
    return ok(null)
  })
}

export type ApproveResult = { invited: number; problems: string[] }

/**
 * Approves the list: every nominee not yet invited is invited now, in this transaction, through the
 * one invitation path. All or nothing: if anyone on the list can no longer be invited (the maximum,
 * the fatigue cap, an account that cannot be invited), nothing is sent and the approver reads who,
 * in the same neutral words the invitation form uses.
 */
export async function approveList(actor: ListActor, input: ListInput): Promise<Outcome<ApproveResult>> {
  if (!isUuid(input.employeeId) || !isUuid(input.schemeId)) return refuseNotFound()
  // Only someone who may approve this list now gets as far as the limits: the employee (or a
  // manager who is not its approver) posting "approve" must not use up the invitation limits of
  // the people on the list, which would stop anyone inviting them (checked again under the lock).
  const allowed = await getDb().transaction(async (tx): Promise<Outcome<null>> => {
    const locked = await lockList(tx, actor, input)
    if (!locked.ok) return locked
    const refusal = decideRefusal(locked.value.state, locked.value.standing, actor.id)
    return refusal ? refuse(refusal) : ok(null)
  })
  if (!allowed.ok) return allowed
  // The invitation limits count every address the approval would e-mail (read before the lock;
  // a person added meanwhile is counted at the next approval), so approve → revoke → nominate
  // cannot mail someone without end either.
  for (const nominee of await pendingNominees(getDb(), input)) {
    const limited = await hitInviteLimits(input.employeeId, nominee.email)
    if (limited) return limited
  }
  try {
    return await retryOnConflict(() =>
      getDb().transaction(async (tx): Promise<Outcome<ApproveResult>> => {
        const locked = await lockList(tx, actor, input)
        if (!locked.ok) return locked
        const { membership, state, standing } = locked.value
        const refusal = decideRefusal(state, standing, actor.id)
        if (refusal) return refuse(refusal)
        const pending = await pendingNominees(tx, input)
        // The approver took everyone off: approving would invite nobody yet tell the employee so.
        if (!pending.length) return refuse(NOMINATION_WORDS.approveEmpty)
        // The per-person cap locks in one order for every approval: existing accounts by id, then
        // new addresses by address (their accounts are created in that order, so two approvals
        // sharing two new people never wait on each other's new account in opposite orders).
        const ids = pending.length
          ? await tx
              .select({ id: users.id, email: users.email })
              .from(users)
              .where(
                sql`${users.email} IN (${sql.join(
                  pending.map((p) => sql`${p.email}`),
                  sql`, `,
                )})`,
              )
          : []
        const idOf = new Map(ids.map((u) => [u.email, u.id]))
        const keyOf = (email: string) => idOf.get(email) ?? `~${email}`
        const ordered = [...pending].sort((a, b) => {
          const [x, y] = [keyOf(a.email), keyOf(b.email)]
          return x < y ? -1 : x > y ? 1 : 0
        })
        const problems: string[] = []
        const invitedIds: Array<{ nomineeId: string; assignmentId: string }> = []
        for (const nominee of ordered) {
          const outcome = await inviteOne(tx, actor, membership, {
            employeeId: input.employeeId,
            schemeId: input.schemeId,
            name: nominee.name,
            email: nominee.email,
            relationship: nominee.relationship as Relationship,
            onBehalf: true,
            via: 'nomination',
          })
          if (!outcome.ok) {
            const message =
              outcome.fieldErrors?.email?.[0] ?? outcome.formErrors?.[0] ?? INVITE_MESSAGES.unreadable
            problems.push(`${nominee.name} (${nominee.email}): ${message}`)
            continue
          }
          invitedIds.push({ nomineeId: nominee.id, assignmentId: outcome.value.assignmentId })
        }
        if (problems.length) {
          // Nothing of this approval stays: the invitations written above are rolled back.
          throw new ApprovalRefused(problems)
        }
        for (const { nomineeId, assignmentId } of invitedIds)
          await tx.update(nominees).set({ assignmentId }).where(eq(nominees.id, nomineeId))
        const now = new Date()
        await setStatus(tx, input, {
          nominationStatus: 'approved',
          nominationDecidedAt: now,
          nominationDecidedBy: actor.id,
          nominationComment: null,
        })
        await mailAboutList(tx, schemeOfMembership(membership, input.schemeId), {
          to: membership.employeeEmail,
          template: 'nomination_approved',
          href: `/user/colleague-invite?${new URLSearchParams({ scheme: input.schemeId })}`,
          values: {
            recipientName: membership.employeeName || membership.employeeEmail,
            approverName: await approverWords(tx, standing, actor.id),
          },
        })
        await recordAudit(tx, actor, {
          action: 'nomination.approve',
          entity: 'scheme_member',
          entityId: input.schemeId,
          details: {
            employeeId: input.employeeId,
            schemeId: input.schemeId,
            invited: invitedIds.length,
            standing,
          },
        })
        // Whose list was approved, not who is on it (ADR 057).
        await enqueueWebhookEvents(tx, [
          {
            type: 'nomination.approved',
            schemeId: input.schemeId,
            data: { scheme_id: input.schemeId, employee_id: input.employeeId, state: 'approved' },
          },
        ])
        return ok({ invited: invitedIds.length, problems: [] })
      }),
    )
  } catch (error) {
    if (error instanceof ApprovalRefused) return refuse(NOMINATION_WORDS.approveProblems, ...error.problems)
    if (pgErrorCode(error) === '23505') return refuse(NOMINATION_WORDS.approveProblems)
    throw error
  }
}

/** Thrown inside the approval's transaction so that every invitation it wrote is rolled back. */
class ApprovalRefused extends Error {
  constructor(readonly problems: string[]) {
    super('approval refused')
  }
}

/** Who decided, as the employee's e-mail names them: the manager by name, an admin by role. */
async function approverWords(tx: Tx, standing: Standing, actorId: string) {
  return standing === 'admin' ? 'Your programme’s administrator' : approverName(tx, actorId)
}

async function approverName(tx: Tx, id: string) {
  const [row] = await tx
    .select({ name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.email})` })
    .from(users)
    .where(eq(users.id, id))
  return row?.name ?? 'Your approver'
}

/** Sends the list back to its employee with the approver's comment (nobody is invited). */
export async function sendBackList(
  actor: ListActor,
  input: ListInput & { comment: string },
): Promise<Outcome<{ employeeName: string }>> {
  return getDb().transaction(async (tx) => {
    const locked = await lockList(tx, actor, input)
    if (!locked.ok) return locked
    const { membership, state, standing } = locked.value
    const refusal = decideRefusal(state, standing, actor.id)
    if (refusal) return refuse(refusal)
    const now = new Date()
    await setStatus(tx, input, {
      nominationStatus: 'sent_back',
      nominationDecidedAt: now,
      nominationDecidedBy: actor.id,
      nominationComment: input.comment,
    })
    const employeeName = membership.employeeName || membership.employeeEmail
    await mailAboutList(tx, schemeOfMembership(membership, input.schemeId), {
      to: membership.employeeEmail,
      template: 'nomination_sent_back',
      href: listHref(input.schemeId),
      values: {
        recipientName: employeeName,
        approverName: await approverWords(tx, standing, actor.id),
        comment: input.comment,
      },
    })
    await recordAudit(tx, actor, {
      action: 'nomination.send_back',
      entity: 'scheme_member',
      entityId: input.schemeId,
      details: { employeeId: input.employeeId, schemeId: input.schemeId, comment: input.comment, standing },
    })
    return ok({ employeeName })
  })
}

/** "Mona's list" or "your list": the toast's words for whose list changed. */
export function whoseList(standing: Standing, employeeName: string) {
  return standing === 'employee' ? 'your list' : `${possessive(employeeName)} list`
}

// ---------------------------------------------------------------------------------------------
// Reminders to approvers.

/** A manager is reminded of a list waiting for them at most this many times. */
export const APPROVER_REMINDERS_MAX = 3
const APPROVER_REMINDER_BATCH = 50

/**
 * Reminds managers of lists waiting for their approval: every `reminder_cadence_days` of the
 * scheme (0: never) since the list was sent or the last reminder, at most APPROVER_REMINDERS_MAX
 * times, while the scheme is open. Claimed with FOR UPDATE SKIP LOCKED and the reminder written in
 * the same transaction, like the respondents' reminders: two workers never remind anyone twice.
 * Lists waiting for administrators have no e-mail: they sit in the scheme page's queue.
 */
export async function sendApproverReminders(now: Date = new Date()): Promise<number> {
  return getDb().transaction(async (tx) => {
    const rows = await queryRows<{
      scheme_id: string
      employee_id: string
      approver_email: string
      approver_name: string
      employee_name: string
      scheme_name: string
      closes_at: string
      time_zone: string
      brand_id: string | null
    }>(
      tx,
      sql`
      SELECT m.scheme_id, m.employee_id, a.email AS approver_email,
        coalesce(nullif(a.display_name, ''), a.email) AS approver_name,
        coalesce(nullif(e.display_name, ''), e.email) AS employee_name,
        s.name AS scheme_name, s.closes_at, s.time_zone,
        (SELECT c.brand_id FROM companies c WHERE c.id = coalesce(e.company_id, s.company_id)) AS brand_id
      FROM scheme_members m
      JOIN schemes s ON s.id = m.scheme_id
      JOIN users a ON a.id = m.nomination_approver_id
      JOIN users e ON e.id = m.employee_id
      WHERE m.nomination_status = 'submitted'
        AND m.nomination_approver_id IS NOT NULL
        AND a.disabled_at IS NULL
        -- Still the employee's manager: a former one can no longer act on the list (it waits in
        -- the administrators' queue), so a reminder would only send them to a page they cannot open.
        AND e.manager_id = m.nomination_approver_id
        AND s.reminder_cadence_days > 0
        AND ${schemeOpenSql(now, { scheme: 's' })}
        AND m.nomination_reminders_sent < ${APPROVER_REMINDERS_MAX}
        AND coalesce(m.nomination_reminded_at, m.nomination_submitted_at)
          <= ${now.toISOString()}::timestamptz - make_interval(days => s.reminder_cadence_days)
      ORDER BY m.nomination_submitted_at
      LIMIT ${APPROVER_REMINDER_BATCH}
      FOR UPDATE OF m SKIP LOCKED`,
    )
    for (const row of rows) {
      await tx
        .update(schemeMembers)
        .set({
          nominationRemindersSent: sql`${schemeMembers.nominationRemindersSent} + 1`,
          nominationRemindedAt: now,
        })
        .where(and(eq(schemeMembers.schemeId, row.scheme_id), eq(schemeMembers.employeeId, row.employee_id)))
      const scheme = {
        id: row.scheme_id,
        name: row.scheme_name,
        brandId: row.brand_id,
        closesAt: new Date(row.closes_at),
        timeZone: row.time_zone,
      }
      await mailAboutList(tx, scheme, {
        to: row.approver_email,
        template: 'nomination_reminder',
        href: listHref(row.scheme_id, row.employee_id),
        values: { recipientName: row.approver_name, employeeName: row.employee_name },
      })
    }
    return rows.length
  })
}
