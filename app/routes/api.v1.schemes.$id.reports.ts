import type { Route } from './+types/api.v1.schemes.$id.reports'
import { apiEndpoint, json, methodNotAllowed, notFound, parseQuery } from '#app/modules/api-key/api.server'
import { ReportListQuery } from '#app/modules/api-key/scheme-api-schemas'
import { listReportSummaries } from '#app/modules/api-key/reports-api.server'
import { apiSchemeHead } from '#app/modules/api-key/schemes-api.server'

/**
 * GET /api/v1/schemes/:id/reports (issue 21 §1, ADR 059): the released reports' figures, under
 * exactly the report page's anonymity rules; a report not released is absent.
 */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'reports:read', async ({ key }) => {
    const query = parseQuery(request, ReportListQuery)
    if (!query.ok) return query.response
    const restriction = { companyId: key.companyId }
    const scheme = await apiSchemeHead(restriction, params.id)
    if (!scheme) return notFound()
    return json(await listReportSummaries(restriction, scheme.id, query.value))
  })
}

export function action() {
  return methodNotAllowed('GET')
}
