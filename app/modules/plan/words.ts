import type { FocusStance } from '#db/enums'

/**
 * The development plan's words and limits without Zod (ADR 043): the pages' components import
 * these, so that a page showing a plan or a link to one loads no schema code; schemas.ts builds its
 * rules on the same numbers.
 */

/** A plan has one to three focus areas: few enough to act on (ADR 043). */
export const MAX_FOCUS_AREAS = 3
export const ACTIONS_MAX = 2000
export const SUPPORT_MAX = 1000
/** A check-in date at most this many days ahead: a plan is for the coming months, not years. */
export const TARGET_MAX_DAYS = 2 * 366

export const STANCE_LABELS: Record<FocusStance, string> = {
  strength: 'Strength to use',
  develop: 'Area to develop',
}

/** The employee's plan page for their report (its self response id, as /user/response-:rid). */
export const planHref = (rid: string) => `/user/development-plan/${rid}`
/** A report shared with its employee's manager, as the manager opens it. */
export const sharedHref = (rid: string) => `/user/shared/${rid}`

/** A focus area's name as the pages and e-mails say it: the competency, or the question's wording. */
export function focusTitle(area: { kind: string; category: string; questionText: string | null }): string {
  return area.kind === 'question' && area.questionText ? area.questionText : area.category
}

/** The day `days` after an ISO date ("2026-09-30"). */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/**
 * Said wherever an employee chooses who gives them feedback (their home, the invite page, their list
 * of raters) in a scheme whose managers read released reports: before they invite anyone. Sent as
 * page data, so the pages carry the sentence and no extra code.
 */
export const MANAGER_SEES_REPORT_NOTE =
  'In this programme your manager also reads your report once it is released — the colleagues’ views combined, never who said what, and not their comments. Keep this in mind when you choose whom to ask.'
