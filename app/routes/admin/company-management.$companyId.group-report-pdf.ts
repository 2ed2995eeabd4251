import type { Route } from './+types/company-management.$companyId.group-report-pdf'
import { groupReportPdfLoader } from './cohort-routes.server'

/**
 * The group report of a company’s schemes as a branded PDF (issue 19 §4 and §7). Admins only,
 * recorded; the guard, the 404 and the 409 are cohort-routes.server.ts's, shared with its sibling routes.
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return groupReportPdfLoader(request, context, 'company', params.companyId)
}
