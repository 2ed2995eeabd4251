import type { Route } from './+types/company-management.$companyId.heatmap'
import { HeatmapView } from '#app/modules/cohort/components/heatmap-view'
import { COHORT_HANDLE, cohortPrintLinks, cohortTitle } from './cohort-meta'
import { cohortReadOnlyAction, heatmapLoader } from './cohort-routes.server'

/**
 * Participants × competencies of a company’s schemes (issue 19 §4, ADR 045). The guard, the 404 and the
 * read-only POST are cohort-routes.server.ts's, shared with its sibling routes.
 */
export const handle = COHORT_HANDLE

export const links: Route.LinksFunction = cohortPrintLinks

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  cohortTitle(matches, 'heatmap', loaderData?.heatmap.header.name)

export function loader({ request, params }: Route.LoaderArgs) {
  return heatmapLoader(request, 'company', params.companyId)
}

export function action({ request }: Route.ActionArgs) {
  return cohortReadOnlyAction(request)
}

export default function HeatmapPage({ loaderData }: Route.ComponentProps) {
  return <HeatmapView heatmap={loaderData.heatmap} view={loaderData.view} pageQuery={loaderData.pageQuery} />
}
