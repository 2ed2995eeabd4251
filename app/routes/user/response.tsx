import { data } from 'react-router'
import type { Route } from './+types/response'
import { NotBuiltYet } from '#app/components/not-built'
import { requireReportAccess } from '#app/modules/assignment/access.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'

/** /user/response-:rid (STYLE.md §1: a slug whose loader strips "response-"). */
export const handle: RouteHandle = { layout: 'user', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Feedback report · Panorama' }]

function ridOf(slug: string | undefined) {
  if (!slug?.startsWith('response-')) notFound()
  return slug.slice('response-'.length)
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const rid = ridOf(params.responseSlug)
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/response'] })
  const report = await requireReportAccess(rid, user)
  return { report }
}

export async function action({ request, params }: Route.ActionArgs) {
  const rid = ridOf(params.responseSlug)
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/response'] })
  await requireReportAccess(rid, user)
  return data({ notBuilt: true }, { status: 405 })
}

export default function Report({ loaderData }: Route.ComponentProps) {
  return (
    <NotBuiltYet title={`Feedback report: ${loaderData.report.subjectName || 'employee'}`}>
      <p className="text-slate-700">Scheme: {loaderData.report.schemeName}</p>
    </NotBuiltYet>
  )
}
