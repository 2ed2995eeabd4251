import { data } from 'react-router'
import type { Route } from './+types/scheme-management.$schemeId.heatmap'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { loadHeatmap } from '#app/modules/cohort/cohort.server'
import { heatmapQuery } from '#app/modules/cohort/schemas'
import { HeatmapView } from '#app/modules/cohort/components/heatmap-view'
import printSheet from '#app/modules/cohort/cohort.css?url'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: printSheet, media: 'print' }]

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminTitle(loaderData ? `Heatmap · ${loaderData.heatmap.header.name}` : 'Heatmap')

/**
 * Participants × competencies of a scheme (issue 19 §4, ADR 045), a page of participants
 * at a time (`?after=&name=`, by name; `?view=table` adds the self scores). Unknown or malformed
 * ids are a 404; a query it does not understand reads as the first page.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const query = heatmapQuery(new URL(request.url).searchParams)
  const heatmap = (await loadHeatmap('scheme', params.schemeId, query.after)) ?? notFound()
  return { heatmap, view: query.view, pageQuery: query.pageQuery }
}

// Read-only: a POST is guarded like the page, then answered "method not allowed".
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data({ readOnly: true }, { status: 405 })
}

export default function HeatmapPage({ loaderData }: Route.ComponentProps) {
  return <HeatmapView heatmap={loaderData.heatmap} view={loaderData.view} pageQuery={loaderData.pageQuery} />
}
