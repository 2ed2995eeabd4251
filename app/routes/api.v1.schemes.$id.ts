import type { Route } from './+types/api.v1.schemes.$id'
import { apiEndpoint, json, methodNotAllowed, notFound, parseQuery } from '#app/modules/api-key/api.server'
import { NoQuery } from '#app/modules/api-key/api-schemas'
import { getApiScheme } from '#app/modules/api-key/schemes-api.server'

/** GET /api/v1/schemes/:id (issue 21 §1, ADR 059): one scheme and its progress; another company's is not found. */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'schemes:read', async ({ key }) => {
    const query = parseQuery(request, NoQuery)
    if (!query.ok) return query.response
    const scheme = await getApiScheme({ companyId: key.companyId }, params.id)
    return scheme ? json(scheme) : notFound()
  })
}

export function action() {
  return methodNotAllowed('GET')
}
