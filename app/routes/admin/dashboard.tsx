import { data, Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { getDashboardCounts } from '#app/modules/admin/dashboard.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard · Panorama admin' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return { counts: await getDashboardCounts() }
}

export async function action({ request }: Route.ActionArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return data({ notBuilt: true }, { status: 405 })
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { counts } = loaderData
  const tiles = [
    ['Companies', counts.companies, '/admin/company-management'],
    ['Brands', counts.brands, '/admin/brand-management'],
    ['Active employees', counts.employees, '/admin/employee-management'],
    ['Open schemes', counts.open_schemes, '/admin/scheme-management'],
    ['Submitted responses', counts.submitted, '/admin/answer-management'],
    ['E-mails waiting', counts.queued_emails, '/admin/email-management'],
    ['E-mails failed', counts.failed_emails, '/admin/email-management'],
  ] as const
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        Dashboard
      </h1>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {tiles.map(([label, value, to]) => (
          <li key={label}>
            <Link to={to} className="card block hover:border-indigo-300">
              <p className="text-sm text-slate-700">{label}</p>
              <p className="mt-1 text-3xl font-bold">{value}</p>
            </Link>
          </li>
        ))}
      </ul>
      <p className="text-sm text-slate-700">
        Scheme progress and recent activity arrive with the oversight release.
      </p>
    </section>
  )
}
