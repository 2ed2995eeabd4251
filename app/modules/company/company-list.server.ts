import { listNotices } from '#app/lib/list-page.server'
import { listBrandOptions } from '#app/modules/brand/brand.server'
import { NEAR_CAP_SHOWN } from '#app/modules/invite/request-cap.server'
import { companyInUseMessage, getCompany, listCompanies } from './company.server'
import type { CompanyListQuery } from './schemas'

/**
 * The companies page's data (the page-props rule: the route returns this, its components type
 * their props from it): one page of the list, the brands to choose from, and the company whose
 * inline edit form (`?edit=<id>`) or delete confirmation (`?delete=<id>`) is open.
 */
export async function loadCompanyList(
  query: CompanyListQuery,
  open: { edit: string | null; delete: string | null },
) {
  const [page, brandOptions, editing, deleting] = await Promise.all([
    listCompanies(query),
    listBrandOptions(),
    getCompany(open.edit, { nearCap: true }),
    getCompany(open.delete),
  ])
  return {
    query: { q: query.q, sort: query.sort },
    page,
    brandOptions,
    editing: editing
      ? {
          id: editing.id,
          name: editing.name,
          brandId: editing.brandId,
          feedbackRequestCap: editing.feedbackRequestCap,
          erasureRaterAnswers: editing.erasureRaterAnswers,
          nearCap: editing.nearCap ?? [],
          nearCapShown: NEAR_CAP_SHOWN,
        }
      : null,
    deleting: deleting
      ? {
          id: deleting.id,
          name: deleting.name,
          blockedBy:
            deleting.employeeCount || deleting.schemeCount
              ? companyInUseMessage(deleting.name, deleting.employeeCount, deleting.schemeCount)
              : null,
          // The same, for the page to say in its language (companies:inUse).
          inUse:
            deleting.employeeCount || deleting.schemeCount
              ? {
                  name: deleting.name,
                  employees: deleting.employeeCount ?? 0,
                  schemes: deleting.schemeCount ?? 0,
                  count: (deleting.employeeCount ?? 0) + (deleting.schemeCount ?? 0),
                }
              : null,
        }
      : null,
    notices: listNotices(
      page,
      ((open.edit && !editing) || (open.delete && !deleting)) &&
        'That company does not exist (it may have been deleted).',
    ),
  }
}
