import type { Route } from './+types/employee-management.import-problems-csv'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { importErrorReport } from '#app/modules/employee/import.server'

/**
 * The rows of a CSV import that have problems, as a CSV to fix and upload again (streamed; cells a
 * spreadsheet would run as formulas are neutralised).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const report = await importErrorReport(params.importId)
  if (!report) notFound()
  // The stored name is the upload's (no folders, no control characters); quotes and non-ASCII are
  // left to the RFC 5987 form so the header stays valid whatever it holds.
  const ascii = report.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return new Response(report.body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(report.fileName)}`,
      'Cache-Control': 'no-store',
    },
  })
}
