import type { Route } from './+types/company-management.$companyId.group-report'
import { GroupReportView } from '#app/modules/cohort/components/group-report-view'
import type { RouteHandle } from '#app/root'
import { COHORT_HANDLE, cohortPrintLinks, cohortTitle } from './cohort-meta'
import { cohortReadOnlyAction, groupReportLoader } from './cohort-routes.server'

/**
 * The group report of a company’s schemes (issue 19 §4, ADR 045). The guard, the 404 and the
 * read-only POST are cohort-routes.server.ts's, shared with its sibling routes.
 */
// The "Over time" section is the report's (cycle-section.tsx): its words are in `report`.
export const handle: RouteHandle = { ...COHORT_HANDLE, i18n: ['cohort', 'report'] }

export const links: Route.LinksFunction = cohortPrintLinks

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  cohortTitle(matches, 'groupReport', loaderData?.report.header.name)

export function loader({ request, params }: Route.LoaderArgs) {
  return groupReportLoader(request, 'company', params.companyId)
}

export function action({ request }: Route.ActionArgs) {
  return cohortReadOnlyAction(request)
}

export default function GroupReportPage({ loaderData }: Route.ComponentProps) {
  return <GroupReportView report={loaderData.report} pdfAvailable={loaderData.pdfAvailable} />
}
