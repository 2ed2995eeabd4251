import type { AssignmentStatus } from '#db/enums'
import type { SchemePhase } from './state'

/**
 * A scheme's phase in words (client-safe, like the rest of this file). Kept apart from the schemas so that a page showing a badge (the
 * employee's home) does not load Zod with them.
 */
export const PHASE_LABELS: Record<SchemePhase, string> = {
  draft: 'Draft',
  upcoming: 'Launched, not open yet',
  open: 'Open',
  closed: 'Closed',
}

/**
 * An assignment's status in words, the same on every page that shows one: the employee's home, the
 * questionnaire's introduction, an employee's programmes and a scheme's participants (admin).
 */
export const ASSIGNMENT_STATUS_LABELS: Record<AssignmentStatus, string> = {
  pending: 'Not started',
  in_progress: 'In progress',
  submitted: 'Submitted',
  revoked: 'Withdrawn',
}
