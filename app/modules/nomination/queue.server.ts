import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import type { NominationStatus } from '#db/enums'
import { isUuid } from '#app/lib/ids'

/**
 * The administrators' queue of one scheme's nomination lists (issue 18 §3, ADR 042), on the scheme
 * page of a scheme that approves lists: the lists waiting for approval, oldest submission first, and
 * how many lists stand in each state. The list builder and the approval itself are
 * nomination.server.ts's; this module only reads.
 */

/** The most waiting lists the scheme page shows; the rest are counted ("N more"). */
export const NOMINATION_QUEUE_LIMIT = 50

export type NominationQueueRow = {
  employeeId: string
  /** The employee's name (their e-mail address when they have none). */
  name: string
  submittedAt: string
  /** Who must approve: the manager recorded at submission; null = administrators. */
  approverId: string | null
  approverName: string | null
  /** How many people are on the list. */
  nominees: number
}

export type NominationQueue = {
  rows: NominationQueueRow[]
  /** Waiting lists beyond the ones shown. */
  more: number
  /** The scheme's memberships by where their list stands; `not_begun`: no list yet. */
  counts: Record<NominationStatus | 'not_begun', number>
}

type Raw = {
  not_begun: number | string
  draft: number | string
  submitted: number | string
  sent_back: number | string
  approved: number | string
  employee_id: string | null
  name: string | null
  submitted_at: Date | string | null
  approver_id: string | null
  approver_name: string | null
  nominees: number | string | null
}

/**
 * One statement: the scheme's memberships counted by state (its primary key's range), joined to
 * the first {@link NOMINATION_QUEUE_LIMIT} submitted lists read in submission order from the partial
 * index scheme_members_nomination_waiting_index (few rows), each with its employee's and approver's
 * names and its nominees counted (the nominees (scheme_id, employee_id, email) index). The counts
 * row comes back even when nothing waits.
 */
export async function getNominationQueue(schemeId: string): Promise<NominationQueue | null> {
  if (!isUuid(schemeId)) return null
  const rows = await queryRows<Raw>(
    getDb(),
    sql`SELECT c.not_begun, c.draft, c.submitted, c.sent_back, c.approved,
        w.employee_id, w.name, w.submitted_at, w.approver_id, w.approver_name, w.nominees
      FROM (
        SELECT count(*) FILTER (WHERE nomination_status IS NULL)::int AS not_begun,
          count(*) FILTER (WHERE nomination_status = 'draft')::int AS draft,
          count(*) FILTER (WHERE nomination_status = 'submitted')::int AS submitted,
          count(*) FILTER (WHERE nomination_status = 'sent_back')::int AS sent_back,
          count(*) FILTER (WHERE nomination_status = 'approved')::int AS approved
        FROM scheme_members WHERE scheme_id = ${schemeId}
      ) c
      LEFT JOIN LATERAL (
        SELECT m.employee_id, m.nomination_submitted_at AS submitted_at,
          m.nomination_approver_id AS approver_id,
          coalesce(nullif(e.display_name, ''), e.email) AS name,
          coalesce(nullif(a.display_name, ''), a.email) AS approver_name,
          (SELECT count(*) FROM nominees n
            WHERE n.scheme_id = m.scheme_id AND n.employee_id = m.employee_id)::int AS nominees
        FROM scheme_members m
        JOIN users e ON e.id = m.employee_id
        LEFT JOIN users a ON a.id = m.nomination_approver_id
        WHERE m.scheme_id = ${schemeId} AND m.nomination_status = 'submitted'
        ORDER BY m.nomination_submitted_at, m.employee_id
        LIMIT ${NOMINATION_QUEUE_LIMIT}
      ) w ON true
      ORDER BY w.submitted_at, w.employee_id`,
  )
  const head = rows[0]
  const counts = {
    not_begun: Number(head?.not_begun ?? 0),
    draft: Number(head?.draft ?? 0),
    submitted: Number(head?.submitted ?? 0),
    sent_back: Number(head?.sent_back ?? 0),
    approved: Number(head?.approved ?? 0),
  }
  const waiting = rows
    .filter((r) => r.employee_id !== null)
    .map((r) => ({
      employeeId: r.employee_id!,
      name: r.name ?? '',
      // A submitted list always has its time; the epoch would only show a row written by hand.
      submittedAt: new Date(r.submitted_at ?? 0).toISOString(),
      approverId: r.approver_id,
      approverName: r.approver_id ? (r.approver_name ?? null) : null,
      nominees: Number(r.nominees ?? 0),
    }))
  return { rows: waiting, more: Math.max(0, counts.submitted - waiting.length), counts }
}
