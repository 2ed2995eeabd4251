import { data } from 'react-router'
import type { Route } from './+types/shared'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { loadSharedAccess } from '#app/modules/plan/plan.server'
import { languageOf } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import { loadSharedReport } from '#app/modules/plan/shared-report.server'
import { SharedReportPage } from '#app/modules/plan/components/shared-report-page'
import type { RouteHandle } from '#app/root'
import printSheet from '#app/modules/report/report.css?url'

/**
 * /user/shared/:rid — a direct report's released report, read by their manager (issue 19 §2, ADR
 * 043): with the employee's live consent or the scheme's "the manager sees the report at release",
 * and only while the reader is their manager. Figures only: no comments, no free-text answers.
 */
export const handle: RouteHandle = { layout: 'user', transition: true, i18n: ['report', 'shared', 'plan'] }

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: printSheet, media: 'print' }]

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const name = loaderData?.report.header.subjectName
  return [
    { title: name ? metaT(matches, 'shared:metaTitle', { name }) : metaT(matches, 'shared:metaFallback') },
  ]
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/shared'] })
  // Revoked, never shared, no longer their manager, not released: the same 404 as no report at all.
  const shared = await loadSharedReport(params.rid, user.id, languageOf(request, user))
  if (!shared) notFound()
  return { ...shared, brand: shared.report.header.brand }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/shared'] })
  if (!(await loadSharedAccess(params.rid, user.id))) notFound()
  // The shared report is read-only: nothing to post.
  return data({ readOnly: true }, { status: 405 })
}

export default function SharedReport({ loaderData }: Route.ComponentProps) {
  return <SharedReportPage access={loaderData.access} report={loaderData.report} />
}
