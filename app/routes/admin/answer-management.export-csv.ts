import type { Route } from './+types/answer-management.export-csv'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { startExport } from '#app/modules/response/export.server'
import { parseResponseFilters } from '#app/modules/response/schemas'

const plainText = (status: number, lines: string[]) =>
  new Response(lines.join('\n') + '\n', {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })

/**
 * The answers as CSV (ADR 023), with the list's filters: streamed at constant memory, raters as
 * anonymous labels. Names and addresses only with `identities=<grant>`, the short-lived link that
 * answer management's "export with names" form hands out after recording the reason (ADR 024).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const url = new URL(request.url)
  const { query, problems } = parseResponseFilters(url.searchParams)
  if (problems.length)
    return plainText(400, [
      ...problems,
      'Nothing was exported: go back to answer management and choose the filters again.',
    ])
  const outcome = await startExport(
    { id: user.id, ip: context.ip || null },
    query,
    url.searchParams.get('identities'),
  )
  if (!outcome.ok) return plainText(400, [...(outcome.formErrors ?? []), 'Nothing was exported.'])
  const { fileName, body } = outcome.value
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    },
  })
}
