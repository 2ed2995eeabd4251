import type { Route } from './+types/api.v1.schemes.$id.answers'
import { apiEndpoint, problem, methodNotAllowed, notFound, parseQuery } from '#app/modules/api-key/api.server'
import { exportSchemeAnswers } from '#app/modules/api-key/reports-api.server'
import { AnswerExportQuery } from '#app/modules/api-key/scheme-api-schemas'
import { apiSchemeHead } from '#app/modules/api-key/schemes-api.server'
import { actorOf, ORPHAN_KEY } from '#app/modules/api-key/writes.server'

/**
 * GET /api/v1/schemes/:id/answers (issue 21 §1, ADR 059): the scheme's answers as answer
 * management's anonymous CSV (or, `?format=ndjson`, the same records as JSON lines), streamed at
 * constant memory; raters as labels, never names.
 */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'answers:read', async (call) => {
    const query = parseQuery(request, AnswerExportQuery)
    if (!query.ok) return query.response
    const scheme = await apiSchemeHead({ companyId: call.key.companyId }, params.id)
    if (!scheme) return notFound()
    const actor = actorOf(call.key, call.ip)
    if (!actor) return problem('forbidden', ORPHAN_KEY)
    const format = query.value.format ?? 'csv'
    const { fileName, body } = await exportSchemeAnswers(actor, scheme.id, format)
    return new Response(body, {
      headers: {
        'Content-Type':
          format === 'ndjson' ? 'application/x-ndjson; charset=utf-8' : 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'no-store',
      },
    })
  })
}

export function action() {
  return methodNotAllowed('GET')
}
