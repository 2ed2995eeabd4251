import {
  assignmentPhaseSql,
  deadlineOf,
  deadlineSql,
  schemePhase,
  schemePhaseSql,
} from '#app/modules/scheme/state'
import type { AssignmentStatus, SchemeStatus } from '#db/enums'
import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm'
import { getDb } from '#db/client'
import { assignments, brands, companies, responses, schemeMembers, schemes } from '#db/schema/index'
import { daysLeft, formatDate, formatDateTime } from '#app/lib/dates'
import type { BrandLook } from '#app/components/brand-look'
import { brandLookOf } from '#app/modules/brand/look.server'
import { ASSIGNMENT_SUMMARY, selectAssignmentsWithBrand } from '#app/modules/assignment/assignment-row.server'
import { colleagueLimit } from '#app/modules/invite/invite.server'
import { listSharedWithYou, type SharedWithYou } from '#app/modules/plan/plan.server'
import { MANAGER_SEES_REPORT_NOTE, planHref } from '#app/modules/plan/words'
import { releaseStatus, type ReleaseStatus } from '#app/modules/report/release-status'
import { answersNeeded, enoughAnswers } from '#app/modules/report/threshold'
import { ASSIGNMENT_STATUS_LABELS } from '#app/modules/scheme/labels'
import {
  INVITE_STATUS_LABELS,
  inviteStatusOf,
  RELATIONSHIP_LABELS,
  type InviteStatus,
  type Relationship,
} from '#app/modules/invite/schemas'

/**
 * The employee's home (/user): every scheme they take part in, with its brand and deadline, their
 * self-assessment and its one next step, the colleagues they invited and how far each has got (never
 * what anyone answered), how many more they may invite, and the report once it exists.
 *
 * Two queries whatever the number of schemes, colleagues or requests, all bound to the signed-in
 * employee: their memberships (with brand, self-assessment and, per scheme, every live invitation
 * about them as JSON), and the feedback other employees asked of them (their own rater assignments: never anything about the
 * other people asked). Nothing here takes an id from the request, so there is nothing to tamper with.
 */

/** open: answering and inviting; upcoming: published but not yet open; closed: read-only. */
export type SchemePhase = 'upcoming' | 'open' | 'closed'

export type SelfStatus = 'pending' | 'in_progress' | 'submitted'

export type NextAction = {
  kind: 'start' | 'continue' | 'view'
  href: string
  label: string
}

export type HomeColleague = {
  id: string
  name: string
  email: string
  relationship: Relationship
  relationshipLabel: string
  status: Exclude<InviteStatus, 'revoked'>
  statusLabel: string
}

export type HomeScheme = {
  id: string
  name: string
  companyName: string
  brand: { name: string; logoFileId: string | null; primaryColor: string; accentColor: string }
  phase: SchemePhase
  opensAt: string
  opensOn: string
  closesAt: string
  /** "30 June 2026", the date the e-mails use too. */
  deadline: string
  /** Whole days until the deadline (0 on its last day); null once closed. */
  daysLeft: number | null
  self: {
    assignmentId: string
    status: SelfStatus
    statusLabel: string
    submittedOn: string | null
    action: NextAction | null
  } | null
  colleagues: HomeColleague[]
  invite: {
    limit: number
    live: number
    remaining: number
    /** The invite page for this scheme while it is open, else null. */
    href: string | null
  }
  report: {
    /** /user/response-<rid> once the self-assessment is submitted, else null. */
    href: string | null
    answered: number
    minRaters: number
    enough: boolean
    /** How many more colleague answers the report needs before it shows colleagues' views. */
    needed: number
    /** What the report page says of its release too (release-status.ts). */
    release: ReleaseStatus
    /**
     * The development plan once the report is released with colleagues' views (ADR 043): its
     * page, how many focus areas it has, and the manager it is shared with (null: not shared).
     */
    plan: { href: string; focusAreas: number; sharedWith: string | null } | null
  }
  /** The scheme lets the manager read the released report without consent: said before inviting. */
  managerSeesReportNote: string | null
}

/** Feedback someone asked of this employee: one of their own rater assignments. */
export type FeedbackRequest = {
  id: string
  /** Whose feedback it is. */
  subjectName: string
  schemeName: string
  brand: BrandLook | null
  phase: SchemePhase
  status: SelfStatus
  /** "Not started", "In progress", "Submitted", or "Closed" when the programme ended first. */
  statusLabel: string
  /** "30 June 2026 at 23:59 BST", in the programme's time zone. */
  deadline: string
  deadlineIso: string
  action: NextAction | null
}

/** A list of raters sent to this employee, as a manager, for approval (issue 18 §3, ADR 042). */
export type WaitingList = {
  schemeId: string
  schemeName: string
  employeeId: string
  employeeName: string
  submittedOn: string
  people: number
  href: string
}

export type EmployeeHome = {
  schemes: HomeScheme[]
  requests: FeedbackRequest[]
  /** "Nominations waiting for you": lists this employee must approve (few: a partial index). */
  waiting: WaitingList[]
  /** "Shared with you": direct reports' released reports this employee may read as their manager. */
  shared: SharedWithYou[]
}

/** The most waiting lists the home page shows (a manager of a large team sees the oldest first). */
const WAITING_SHOWN = 20

/** An employee takes part in a handful of schemes; this only bounds a pathological account. */
const MAX_SCHEMES = 100

/**
 * The one phase rule (app/modules/scheme/state.ts): the scheme's, and for a feedback request its
 * round ended early by a release (`roundEndedAt`) too. Drafts never reach the home page.
 */
function phaseOf(
  times: { status: SchemeStatus; opensAt: Date; closesAt: Date; roundEndedAt?: Date | null },
  now: Date,
): SchemePhase {
  const phase = schemePhase(times, now)
  return phase === 'draft' ? 'upcoming' : phase
}

/** Where an assignment stands, which decides the one way into it. */
type NextActionInput = {
  phase: SchemePhase
  assignmentId: string
  questionnaireId: string
  status: SelfStatus
  hasResponse: boolean
}

/** The way into a feedback request, worded for someone answering about a colleague. */
export function requestAction(input: NextActionInput): NextAction | null {
  const action = nextAction(input)
  if (!action) return null
  const label = {
    start: 'Give your feedback',
    continue: 'Continue your feedback',
    view: 'View your answers',
  }[action.kind]
  return { ...action, label }
}

/** The one obvious thing to do next with the self-assessment, if there is one. */
export function nextAction(input: NextActionInput): NextAction | null {
  const { phase, assignmentId, questionnaireId, status } = input
  const assignmentHref = `/assignment/${assignmentId}`
  if (status === 'submitted') return { kind: 'view', href: assignmentHref, label: 'View your answers' }
  if (phase === 'closed') {
    // Answering is over; what was saved can still be read.
    return input.hasResponse ? { kind: 'view', href: assignmentHref, label: 'View your answers' } : null
  }
  if (phase === 'upcoming') return null
  if (status === 'in_progress' || input.hasResponse)
    return { kind: 'continue', href: assignmentHref, label: 'Continue your self-assessment' }
  // The questionnaire's introduction first (length, sections, deadline); the assignment id tells it
  // which assignment to open when one questionnaire serves two schemes.
  return {
    kind: 'start',
    href: `/questionnaire/${questionnaireId}?assignment=${assignmentId}`,
    label: 'Start your self-assessment',
  }
}

/** An invited colleague as the scheme query's JSON gives it. */
type ColleagueRow = {
  id: string
  relationship: Exclude<Relationship, 'self'>
  status: AssignmentStatus
  respondentName: string | null
  displayName: string | null
  email: string
  reopened: boolean
}

function toHomeColleague(r: ColleagueRow): HomeColleague {
  const status = inviteStatusOf(r.status, r.reopened) as HomeColleague['status']
  return {
    id: r.id,
    name: r.respondentName || r.displayName || r.email,
    email: r.email,
    relationship: r.relationship,
    relationshipLabel: RELATIONSHIP_LABELS[r.relationship],
    status,
    statusLabel: INVITE_STATUS_LABELS[status],
  }
}

export async function getEmployeeHome(
  employeeId: string,
  now: Date = new Date(),
  /**
   * The reader's Intl locale (intlLocale of their language, ADR 050): the dates are written in it,
   * and the report's release sentences come as keys too (`release.messages`). English by default.
   */
  locale?: string,
): Promise<EmployeeHome> {
  const db = getDb()
  const selfAssignment = and(
    eq(assignments.schemeId, schemes.id),
    eq(assignments.subjectId, schemeMembers.employeeId),
    eq(assignments.relationship, 'self'),
  )
  const phase = schemePhaseSql(now)
  const orderOf = (p: SQL) => sql`CASE ${p} WHEN 'open' THEN 0 WHEN 'upcoming' THEN 1 ELSE 2 END`
  const [schemeRows, requestRows, waitingRows, shared] = await Promise.all([
    db
      .select({
        id: schemes.id,
        name: schemes.name,
        status: schemes.status,
        opensAt: schemes.opensAt,
        closesAt: schemes.closesAt,
        timeZone: schemes.timeZone,
        maxColleagues: schemes.maxColleagues,
        minRaters: schemes.minRaters,
        companyName: companies.name,
        brandName: brands.name,
        logoFileId: brands.logoFileId,
        primaryColor: brands.primaryColor,
        accentColor: brands.accentColor,
        selfId: assignments.id,
        selfStatus: assignments.status,
        questionnaireId: assignments.questionnaireId,
        selfResponseId: responses.id,
        selfSubmittedAt: responses.submittedAt,
        reportRelease: schemes.reportRelease,
        managerSeesReport: schemes.managerSeesReport,
        // The plan and its share (ADR 043): a live share counts only while its manager still is.
        plan: sql<{ areas: number; sharedWith: string | null }>`jsonb_build_object(
          'areas', (SELECT count(*) FROM plan_focus_areas fa
            JOIN development_plans p ON p.id = fa.plan_id
            WHERE p.scheme_id = ${schemes.id} AND p.employee_id = ${schemeMembers.employeeId}),
          'sharedWith', (SELECT coalesce(nullif(x.display_name, ''), x.email) FROM report_shares sh
            JOIN users x ON x.id = sh.manager_id JOIN users e ON e.id = sh.employee_id
            WHERE sh.scheme_id = ${schemes.id} AND sh.employee_id = ${schemeMembers.employeeId}
              AND sh.revoked_at IS NULL AND e.manager_id = sh.manager_id))`,
        // The latest release of this employee's report (ADR 022, 024): when, and what it shows.
        release: sql<{ at: string; shown: boolean; answers: number } | null>`(
          SELECT jsonb_build_object('at', rr.released_at, 'shown', rr.colleagues_shown,
            'answers', (SELECT count(*) FROM report_release_responses x WHERE x.release_id = rr.id))
          FROM report_releases rr
          WHERE rr.scheme_id = ${schemes.id} AND rr.subject_id = ${schemeMembers.employeeId}
          ORDER BY rr.released_at DESC, rr.id DESC
          LIMIT 1)`,
        // The colleagues this employee invited to this scheme (withdrawn invitations are history: they
        // no longer count, and the invite page lists them), in the order they were invited.
        colleagues: sql<ColleagueRow[]>`(
          SELECT coalesce(json_agg(json_build_object(
              'id', ra.id, 'relationship', ra.relationship, 'status', ra.status,
              'respondentName', ra.respondent_name, 'displayName', ru.display_name, 'email', ru.email,
              'reopened', EXISTS (SELECT 1 FROM responses rr2
                WHERE rr2.assignment_id = ra.id AND rr2.reopened_at IS NOT NULL))
            ORDER BY coalesce(ra.invited_at, ra.created_at), ra.id), '[]'::json)
          FROM assignments ra
          JOIN users ru ON ru.id = ra.respondent_id
          WHERE ra.scheme_id = ${schemes.id} AND ra.subject_id = ${schemeMembers.employeeId}
            AND ra.relationship <> 'self' AND ra.status <> 'revoked')`,
      })
      .from(schemeMembers)
      .innerJoin(schemes, eq(schemes.id, schemeMembers.schemeId))
      .innerJoin(companies, eq(companies.id, schemes.companyId))
      .innerJoin(brands, eq(brands.id, companies.brandId))
      .leftJoin(assignments, selfAssignment)
      .leftJoin(responses, eq(responses.assignmentId, assignments.id))
      // A draft scheme is still being set up by the consultancy: its people see it once it is published.
      .where(and(eq(schemeMembers.employeeId, employeeId), ne(schemes.status, 'draft')))
      // Running schemes first (soonest deadline first), then upcoming ones, then closed (latest first).
      .orderBy(
        orderOf(phase),
        sql`CASE WHEN ${phase} = 'closed' THEN NULL ELSE ${schemes.closesAt} END ASC`,
        sql`${schemes.closesAt} DESC`,
        asc(schemes.id),
      )
      .limit(MAX_SCHEMES),
    // Feedback asked of this employee: their own rater assignments, and nothing of anyone else's.
    selectAssignmentsWithBrand(
      { ...ASSIGNMENT_SUMMARY, questionnaireId: assignments.questionnaireId, responseId: responses.id },
      db,
    )
      .where(
        and(
          eq(assignments.respondentId, employeeId),
          ne(assignments.relationship, 'self'),
          ne(assignments.status, 'revoked'),
          ne(schemes.status, 'draft'),
        ),
      )
      // Still to answer first (soonest deadline first), then answered, then closed programmes.
      .orderBy(
        orderOf(assignmentPhaseSql(now)),
        sql`${assignments.status} = 'submitted'`,
        asc(deadlineSql()),
        asc(assignments.id),
      )
      .limit(MAX_SCHEMES),
    // Lists waiting for this employee's approval, through the partial index on the approver.
    db
      .select({
        schemeId: schemeMembers.schemeId,
        schemeName: schemes.name,
        employeeId: schemeMembers.employeeId,
        employeeName: sql<string>`(SELECT coalesce(nullif(e.display_name, ''), e.email) FROM users e
          WHERE e.id = ${schemeMembers.employeeId})`,
        submittedAt: schemeMembers.nominationSubmittedAt,
        timeZone: schemes.timeZone,
        people: sql<number>`(SELECT count(*) FROM nominees n WHERE n.scheme_id = ${schemeMembers.schemeId}
          AND n.employee_id = ${schemeMembers.employeeId} AND n.assignment_id IS NULL)::int`.mapWith(Number),
      })
      .from(schemeMembers)
      .innerJoin(schemes, eq(schemes.id, schemeMembers.schemeId))
      .where(
        and(
          eq(schemeMembers.nominationApproverId, employeeId),
          eq(schemeMembers.nominationStatus, 'submitted'),
          // Still their manager: a former manager can no longer open or act on the list.
          sql`EXISTS (SELECT 1 FROM users e WHERE e.id = ${schemeMembers.employeeId}
            AND e.manager_id = ${employeeId}::uuid)`,
        ),
      )
      .orderBy(asc(schemeMembers.nominationSubmittedAt), asc(schemeMembers.employeeId))
      .limit(WAITING_SHOWN),
    // Reports shared with this employee as a manager (one statement, ADR 043).
    listSharedWithYou(employeeId, locale),
  ])
  const waiting: WaitingList[] = waitingRows.map((w) => ({
    schemeId: w.schemeId,
    schemeName: w.schemeName,
    employeeId: w.employeeId,
    employeeName: w.employeeName,
    submittedOn: w.submittedAt ? formatDate(w.submittedAt, w.timeZone, locale) : '',
    people: w.people,
    href: `/user/nominations?${new URLSearchParams({ scheme: w.schemeId, employee: w.employeeId })}`,
  }))

  const list: HomeScheme[] = schemeRows.map((r) => {
    const phase = phaseOf(r, now)
    const colleagues = r.colleagues.map(toHomeColleague)
    const limit = colleagueLimit(r.maxColleagues)
    const live = colleagues.length
    const remaining = Math.max(0, limit - live)
    const answered = colleagues.filter((c) => c.status === 'answered').length
    const selfStatus = (r.selfStatus === 'revoked' ? null : r.selfStatus) as SelfStatus | null
    const submitted = selfStatus === 'submitted' && Boolean(r.selfResponseId)
    return {
      id: r.id,
      name: r.name,
      companyName: r.companyName,
      brand: {
        name: r.brandName,
        logoFileId: r.logoFileId,
        primaryColor: r.primaryColor,
        accentColor: r.accentColor,
      },
      phase,
      opensAt: r.opensAt.toISOString(),
      opensOn: formatDate(r.opensAt, r.timeZone, locale),
      closesAt: r.closesAt.toISOString(),
      deadline: formatDate(r.closesAt, r.timeZone, locale),
      daysLeft: phase === 'closed' ? null : daysLeft(r.closesAt, r.timeZone, now),
      self:
        r.selfId && selfStatus && r.questionnaireId
          ? {
              assignmentId: r.selfId,
              status: selfStatus,
              statusLabel: ASSIGNMENT_STATUS_LABELS[selfStatus],
              submittedOn: r.selfSubmittedAt ? formatDate(r.selfSubmittedAt, r.timeZone, locale) : null,
              action: nextAction({
                phase,
                assignmentId: r.selfId,
                questionnaireId: r.questionnaireId,
                status: selfStatus,
                hasResponse: Boolean(r.selfResponseId),
              }),
            }
          : null,
      colleagues,
      invite: {
        limit,
        live,
        remaining,
        href: phase === 'open' ? `/user/colleague-invite?scheme=${r.id}` : null,
      },
      report: {
        href: submitted ? `/user/response-${r.selfResponseId}` : null,
        answered,
        minRaters: r.minRaters,
        enough: enoughAnswers(answered, r.minRaters),
        needed: answersNeeded(answered, r.minRaters),
        release: releaseStatus({
          viewer: 'employee',
          reportRelease: r.reportRelease,
          closesAt: r.closesAt.toISOString(),
          timeZone: r.timeZone,
          schemeClosed: phase === 'closed',
          releasedAt: r.release ? new Date(r.release.at).toISOString() : null,
          colleaguesShown: r.release?.shown ?? false,
          releasedAnswers: Number(r.release?.answers ?? 0),
          answeredNow: answered,
          minRaters: r.minRaters,
          locale,
        }),
        plan:
          submitted && r.release?.shown && Number(r.release.answers) >= r.minRaters
            ? {
                href: planHref(r.selfResponseId!),
                focusAreas: Number(r.plan?.areas ?? 0),
                sharedWith: r.plan?.sharedWith ?? null,
              }
            : null,
      },
      managerSeesReportNote: r.managerSeesReport ? MANAGER_SEES_REPORT_NOTE : null,
    }
  })
  const requests: FeedbackRequest[] = requestRows.map((r) => {
    const phase = phaseOf({ ...r, status: r.schemeStatus }, now)
    const status = r.status as SelfStatus
    const subjectName = r.subjectName.trim() || r.subjectEmail
    const deadline = deadlineOf(r)
    return {
      id: r.id,
      subjectName,
      schemeName: r.schemeName,
      brand: brandLookOf(r),
      phase,
      status,
      statusLabel: phase === 'closed' && status !== 'submitted' ? 'Closed' : ASSIGNMENT_STATUS_LABELS[status],
      deadline: formatDateTime(deadline, r.timeZone, locale),
      deadlineIso: deadline.toISOString(),
      action: requestAction({
        phase,
        assignmentId: r.id,
        questionnaireId: r.questionnaireId,
        status,
        hasResponse: Boolean(r.responseId),
      }),
    }
  })
  return { schemes: list, requests, waiting, shared }
}
