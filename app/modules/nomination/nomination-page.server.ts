import type { PageData } from '#app/lib/page-data'
import { ok, refuseNotFound } from '#app/lib/outcome'
import { getNominationPage, type ListTarget } from './nomination.server'
import { NOMINATIONS_PAGE_PATH } from './schemas'

/**
 * What an administrator reads before choosing an employee. Sent with the page, not written into its
 * script (the page's client JS has a budget).
 */
const PICK_EMPLOYEE =
  'As an administrator you build and approve lists of raters on an employee’s behalf, one employee at ' +
  'a time. Open a list from the queue on its scheme’s page, or find the employee on the employees page.'

/** This page's address for a scheme, keeping whose list it is when the viewer is not its employee. */
export function pageHref(target: ListTarget, schemeId: string | undefined) {
  const params = new URLSearchParams()
  if (schemeId) params.set('scheme', schemeId)
  if (target.standing !== 'employee') params.set('employee', target.employee.id)
  const search = params.toString()
  return search ? `${NOMINATIONS_PAGE_PATH}?${search}` : NOMINATIONS_PAGE_PATH
}

/** The page for a target (null: an admin still has to choose the employee). */
export async function loadNominationPage(
  target: ListTarget | null,
  viewerId: string,
  query: { scheme?: string },
) {
  if (!target) return ok({ state: 'pick-employee' as const, brand: null, explanation: PICK_EMPLOYEE })
  const page = await getNominationPage(target, viewerId, query.scheme)
  if (!page) return refuseNotFound()
  return ok({
    state: 'ready' as const,
    employee: target.employee,
    standing: target.standing,
    ...page,
    schemeHrefs: Object.fromEntries(page.schemes.map((s) => [s.id, pageHref(target, s.id)])),
    action: pageHref(target, page.scheme?.id),
    brand: page.scheme?.brand ?? null,
  })
}

export type NominationPageData = Extract<PageData<typeof loadNominationPage>, { ok: true }>['value']
