import type { Route } from './+types/answer-management.export-csv'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { startExport } from '#app/modules/answers-admin/export.server'
import { parseResponseFilters } from '#app/modules/answers-admin/schemas'

/**
 * The answers as CSV (ADR 023), with the list's filters: streamed at constant memory, raters as
 * anonymous labels; names and addresses only with `identities=1`, which is audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const url = new URL(request.url)
  const { query, problems } = parseResponseFilters(url.searchParams)
  const identities = url.searchParams.get('identities')
  if (problems.length || (identities !== null && identities !== '1'))
    return new Response(
      [
        ...problems,
        ...(identities !== null && identities !== '1'
          ? ['The identities option in this link was not understood.']
          : []),
      ].join('\n') + '\nNothing was exported: go back to answer management and choose the filters again.\n',
      { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } },
    )
  const { fileName, body } = await startExport({ id: user.id, ip: context.ip || null }, query, {
    identities: identities === '1',
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    },
  })
}
