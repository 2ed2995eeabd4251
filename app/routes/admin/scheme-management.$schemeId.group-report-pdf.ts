import type { Route } from './+types/scheme-management.$schemeId.group-report-pdf'
import { groupReportPdfLoader } from './cohort-routes.server'

/**
 * The group report of a scheme as a branded PDF (issue 19 §4 and §7). Admins only,
 * recorded; the guard, the 404 and the 409 are cohort-routes.server.ts's, shared with its sibling routes.
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return groupReportPdfLoader(request, context, 'scheme', params.schemeId)
}
