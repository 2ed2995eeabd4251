import type { NominationApproval, NominationChooser, NominationStatus } from '#db/enums'

/**
 * A scheme's nomination settings in words (issue 18 §2, ADR 042), and each one's one-line hint: the
 * scheme form's choices, the scheme's details and the pages that say how a list is made. Client-safe
 * (no server imports, no Zod), so a page showing one label does not load more.
 */

/** Who puts together each employee's list of raters. */
export const NOMINATION_CHOOSER_LABELS: Record<NominationChooser, string> = {
  employee: 'The employee',
  admin: 'Administrators only',
  employee_admin_edits: 'The employee, and administrators may change it',
}

export const NOMINATION_CHOOSER_HINTS: Record<NominationChooser, string> = {
  employee: 'Each employee chooses who gives them feedback; administrators can still act on their behalf.',
  admin: 'Administrators choose for each employee, who sees the list but cannot change it.',
  employee_admin_edits:
    'Each employee chooses, and administrators may add or remove people until the list is approved.',
}

/** Who approves a list before anyone on it is invited. */
export const NOMINATION_APPROVAL_LABELS: Record<NominationApproval, string> = {
  none: 'No approval',
  manager: 'The employee’s manager',
  admin: 'An administrator or coach',
}

export const NOMINATION_APPROVAL_HINTS: Record<NominationApproval, string> = {
  none: 'Employees invite colleagues directly; the fewest per group below are shown as warnings only.',
  manager:
    'The manager recorded for the employee approves the list; for someone with no manager recorded, administrators approve it.',
  admin:
    'Someone with an administrator’s account (a coach, for instance) approves each list before anyone is invited.',
}

/** Where an employee's list stands ("not begun" is a membership with no status yet). */
export const NOMINATION_STATUS_LABELS: Record<NominationStatus | 'not_begun', string> = {
  not_begun: 'Not begun',
  draft: 'Draft',
  submitted: 'Submitted',
  sent_back: 'Sent back',
  approved: 'Approved',
}

/**
 * The page where an administrator reviews one employee's list and acts on their behalf
 * (/user/nominations with `employee`, ADR 042): the scheme page's queue links there.
 */
export const reviewListHref = (schemeId: string, employeeId: string) =>
  `/user/nominations?${new URLSearchParams({ scheme: schemeId, employee: employeeId })}`
