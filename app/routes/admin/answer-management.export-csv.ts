import type { Route } from './+types/answer-management.export-csv'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { startExport } from '#app/modules/response/export.server'
import { parseResponseFilters } from '#app/modules/response/schemas'
import { answersSentences } from '#app/modules/response/messages.server'
import { getFixedT } from '#app/modules/i18n/i18n.server'

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
  // The refusals in the admin's language; the CSV itself keeps its columns and values as they are.
  const t = await getFixedT(request, 'answers')
  if (problems.length) return plainText(400, [...problems, t('export.chooseAgain')])
  const outcome = await startExport(
    { id: user.id, ip: context.ip || null },
    query,
    url.searchParams.get('identities'),
  )
  if (!outcome.ok) {
    const say = await answersSentences(request)
    return plainText(400, [...(outcome.formErrors ?? []).map(say), t('export.nothingExported')])
  }
  const { fileName, body } = outcome.value
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    },
  })
}
