import { data } from 'react-router'
import type { Route } from './+types/scheme-management.$schemeId.group-report'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { loadGroupReport } from '#app/modules/cohort/cohort.server'
import { pdfAvailable } from '#app/modules/pdf/browser.server'
import { GroupReportView } from '#app/modules/cohort/components/group-report-view'
import printSheet from '#app/modules/cohort/cohort.css?url'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

// The print sheet ("Save as PDF", and the branded PDF for the client's HR contact), print only.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: printSheet, media: 'print' }]

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminTitle(loaderData ? `Group report · ${loaderData.report.header.name}` : 'Group report')

/**
 * The group report of a scheme (issue 19 §4, ADR 045): from released reports only, each
 * participant counted through what their own report shows. Unknown or malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const report = (await loadGroupReport('scheme', params.schemeId)) ?? notFound()
  return { report, pdfAvailable: pdfAvailable() }
}

// Read-only: a POST is guarded like the page, then answered "method not allowed".
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data({ readOnly: true }, { status: 405 })
}

export default function GroupReportPage({ loaderData }: Route.ComponentProps) {
  return <GroupReportView report={loaderData.report} pdfAvailable={loaderData.pdfAvailable} />
}
