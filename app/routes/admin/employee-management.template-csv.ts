import type { Route } from './+types/employee-management.template-csv'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { TEMPLATE_CSV } from '#app/modules/employee/import.server'

/** The CSV import's template: the header line the import expects (UTF-8 with a BOM, for Excel). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return new Response(TEMPLATE_CSV, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="employees-template.csv"',
      'Cache-Control': 'no-store',
    },
  })
}
