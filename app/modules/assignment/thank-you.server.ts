import type { AssignmentStatus, Relationship } from '#db/enums'
import { deadlineOf, isSchemeOpen, schemeOpenSql, type SchemeTimes } from '#app/modules/scheme/state'
import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import { getDb } from '#db/client'
import { assignments, responses, schemes, users } from '#db/schema/index'
import { MAX_COLLEAGUES } from '#app/config/constants'
import { dateLabel, type DateLabel } from '#app/lib/dates'
import { isUuid } from '#app/lib/ids'
import type { BrandLook } from '#app/components/brand-look'
import { brandLookOf } from '#app/modules/brand/look.server'
import {
  ASSIGNMENT_SUMMARY,
  type AssignmentHeadline,
  schemeOf,
  selectAssignmentsWithBrand,
  subjectLabel,
  type Viewer,
} from './assignment-row.server'

export type OpenAssignment = {
  id: string
  relationship: Relationship
  subjectName: string
  status: AssignmentStatus
  deadline: DateLabel
}

export type ThankYouView = {
  role: 'employee' | 'colleague'
  /** The assignment the page is about (the one just submitted or saved), when there is one. */
  assignment: AssignmentHeadline | null
  /** The programme's brand (header, and its contact links override the portal's). */
  brand: BrandLook | null
  /** The employee's own scheme: what happens next. */
  scheme: {
    maxColleagues: number
    minRaters: number
    invited: number
    remaining: number
    colleaguesSubmitted: number
    selfSubmitted: boolean
    reportResponseId: string | null
    open: boolean
  } | null
  /** Other assignments still waiting for this person's answers. */
  open: OpenAssignment[]
  /**
   * "I need to change my answers" (ADR 039), for a submitted assignment whose round is open:
   * whether they can ask, have asked (the day), or were declined (with the team's reason, if any).
   * Null when it does not apply.
   */
  reopen: ReopenState | null
}

export type ReopenState =
  | { state: 'available' }
  | { state: 'requested'; requestedOn: DateLabel }
  | { state: 'declined'; reason: string | null }

/**
 * The page after submitting (or "finish later"): about `?assignment=<id>` when it is the visitor's,
 * else their most recent assignment. Three queries: the assignment with its brand and scheme
 * counts, and the list of what is still open.
 */
export async function getThankYou(
  viewer: Viewer & { role: 'employee' | 'colleague' },
  rawAssignmentId: string | null,
  /** The reader's Intl locale for the dates (intlLocale of their language); English by default. */
  locale?: string,
): Promise<ThankYouView> {
  const db = getDb()
  const wantedId = isUuid(rawAssignmentId) ? rawAssignmentId : null
  const raters = sql`(select count(*)::int from ${assignments} r where r.scheme_id = ${assignments.schemeId} and r.subject_id = ${viewer.id} and r.relationship <> 'self' and r.status <> 'revoked')`
  const ratersSubmitted = sql`(select count(*)::int from ${assignments} r where r.scheme_id = ${assignments.schemeId} and r.subject_id = ${viewer.id} and r.relationship <> 'self' and r.status = 'submitted')`
  const conditions: SQL[] = [eq(assignments.respondentId, viewer.id), ne(assignments.status, 'revoked')]
  // An employee's page is about their own self-assessment unless the link names another of theirs.
  if (viewer.role === 'employee' && !wantedId) conditions.push(eq(assignments.relationship, 'self'))
  const [row] = await selectAssignmentsWithBrand(
    {
      ...ASSIGNMENT_SUMMARY,
      maxColleagues: schemes.maxColleagues,
      minRaters: schemes.minRaters,
      responseId: responses.id,
      invited: sql<number>`${raters}`,
      colleaguesSubmitted: sql<number>`${ratersSubmitted}`,
      reopenRequestedAt: responses.reopenRequestedAt,
      // The team's latest "decline" of a request since the last submit (ADR 039): the audit entry is
      // the record of it ('' when declined without a reason). Read here, not in a statement of its own.
      declinedReason: sql<string | null>`(SELECT coalesce(l.details->>'reason', '') FROM audit_log l
        WHERE l.entity = 'response' AND l.entity_id = ${responses.id}::text AND l.action = 'response.reopen_decline'
          AND l.at > ${responses.submittedAt}
        ORDER BY l.at DESC LIMIT 1)`,
    },
    db,
  )
    .where(and(...conditions))
    .orderBy(
      // The assignment the link names first (when it is theirs), else the latest submitted, else the newest.
      ...(wantedId ? [sql`${assignments.id} = ${wantedId} desc`] : []),
      sql`${assignments.submittedAt} desc nulls last`,
      desc(assignments.createdAt),
    )
    .limit(1)

  const openRows = await db
    .select({
      id: assignments.id,
      relationship: assignments.relationship,
      status: assignments.status,
      dueAt: assignments.dueAt,
      subjectName: users.displayName,
      subjectEmail: users.email,
      closesAt: schemes.closesAt,
      timeZone: schemes.timeZone,
    })
    .from(assignments)
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(users, eq(users.id, assignments.subjectId))
    .where(
      and(
        eq(assignments.respondentId, viewer.id),
        inArray(assignments.status, ['pending', 'in_progress']),
        schemeOpenSql(),
      ),
    )
    .orderBy(asc(assignments.createdAt))
    .limit(20)

  const isSelf = row?.relationship === 'self'
  return {
    reopen: row ? reopenStateOf(row, locale) : null,
    role: viewer.role,
    assignment: row
      ? {
          id: row.id,
          status: row.status,
          relationship: row.relationship,
          subjectName: subjectLabel(row),
          schemeName: row.schemeName,
          deadline: dateLabel(deadlineOf(row), row.timeZone, locale),
        }
      : null,
    brand: brandLookOf(row),
    scheme:
      row && isSelf
        ? {
            maxColleagues: Math.min(row.maxColleagues, MAX_COLLEAGUES),
            minRaters: row.minRaters,
            invited: Number(row.invited),
            remaining: Math.max(0, Math.min(row.maxColleagues, MAX_COLLEAGUES) - Number(row.invited)),
            colleaguesSubmitted: Number(row.colleaguesSubmitted),
            selfSubmitted: row.status === 'submitted',
            reportResponseId: row.status === 'submitted' ? row.responseId : null,
            open: isSchemeOpen(schemeOf(row)),
          }
        : null,
    open: openRows
      .filter((o) => o.id !== row?.id)
      .map((o) => ({
        id: o.id,
        relationship: o.relationship,
        status: o.status,
        subjectName: subjectLabel(o),
        deadline: dateLabel(deadlineOf(o), o.timeZone, locale),
      })),
  }
}

/** Whether the page offers "I need to change my answers", and in which state (ADR 039). */
function reopenStateOf(
  row: {
    status: AssignmentStatus
    responseId: string | null
    reopenRequestedAt: Date | null
    declinedReason: string | null
    schemeStatus: SchemeTimes['status']
    opensAt: Date
    closesAt: Date
    roundEndedAt: Date | null
    timeZone: string
  },
  locale?: string,
): ReopenState | null {
  if (row.status !== 'submitted' || !row.responseId || !isSchemeOpen(schemeOf(row))) return null
  if (row.reopenRequestedAt)
    return { state: 'requested', requestedOn: dateLabel(row.reopenRequestedAt, row.timeZone, locale) }
  if (row.declinedReason !== null) return { state: 'declined', reason: row.declinedReason || null }
  return { state: 'available' }
}
