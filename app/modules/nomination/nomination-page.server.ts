import type { PageData } from '#app/lib/page-data'
import { ok, refuseNotFound } from '#app/lib/outcome'
import { getNominationPage, type ListTarget, type PageLanguage } from './nomination.server'
import { NOMINATIONS_PAGE_PATH } from './schemas'

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
  /** The request's language and the page's namespaces in it. */
  lang: PageLanguage,
) {
  if (!target)
    return ok({
      state: 'pick-employee' as const,
      brand: null,
      explanation: lang.t('pick.explanation'),
    })
  const page = await getNominationPage(target, viewerId, query.scheme, lang)
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
