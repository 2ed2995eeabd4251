import type { AssignmentStatus } from '#db/enums'

/**
 * An assignment's status in words, the same on every page that shows one: the employee's home, the
 * questionnaire's introduction, an employee's programmes and a scheme's participants (admin).
 * Client-safe.
 */
export const ASSIGNMENT_STATUS_LABELS: Record<AssignmentStatus, string> = {
  pending: 'Not started',
  in_progress: 'In progress',
  submitted: 'Submitted',
  revoked: 'Withdrawn',
}
