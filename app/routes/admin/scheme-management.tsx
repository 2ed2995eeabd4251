import { data } from 'react-router'
import type { Route } from './+types/scheme-management'
import { NotBuiltYet } from '#app/components/not-built'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'

// The page and its guard exist; its feature is built by its own issue.
export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Scheme management · Panorama' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return null
}

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data({ notBuilt: true }, { status: 405 })
}

export default function SchemeManagement() {
  return <NotBuiltYet title="Scheme management" />
}
