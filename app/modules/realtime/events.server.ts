import type { AssignmentStatus } from '#db/enums'
import { sql } from 'drizzle-orm'
import type { Tx } from '#db/client'

/**
 * Live updates cross app instances through Postgres LISTEN/NOTIFY (PGlite has it too). A change
 * publishes inside its own transaction, so listeners hear of it only once it is committed.
 */
export const EVENTS_CHANNEL = 'panorama_events'

export type PanoramaEvent = {
  type: 'assignment.updated'
  /** The employee whose feedback changed: their /user page refreshes. */
  subjectId: string
  /**
   * Who answers the assignment: an employee asked for feedback sees it on their /user page
   * ("Feedback requested from you"), which refreshes too. The stream tells them only their own
   * assignment's id and state.
   */
  respondentId?: string
  assignmentId: string
  status: AssignmentStatus
  /**
   * False when the subject must not hear of it: a reopened response (and its new submission) would
   * tell them which colleague an administrator reopened (issue 15 B4). The respondent and
   * administrators still do.
   */
  subjectSees?: boolean
}

export async function publishEvent(tx: Tx, event: PanoramaEvent) {
  await tx.execute(sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`)
}
