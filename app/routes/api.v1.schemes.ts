import type { Route } from './+types/api.v1.schemes'
import { apiEndpoint, json, methodNotAllowed, parseQuery, problem } from '#app/modules/api-key/api.server'
import { SchemeCreateBody, SchemeListQuery } from '#app/modules/api-key/scheme-api-schemas'
import {
  createApiScheme,
  getApiScheme,
  listApiSchemes,
  refusalProblem,
} from '#app/modules/api-key/schemes-api.server'
import { apiWrite } from '#app/modules/api-key/writes.server'

const RESTRICTED = 'This key is restricted to another company.'

/**
 * GET /api/v1/schemes (issue 21 §1, ADR 059): schemes with their progress, filtered by company and
 * state, a page at a time; a key restricted to a company sees its schemes only.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'schemes:read', async ({ key }) => {
    const query = parseQuery(request, SchemeListQuery)
    if (!query.ok) return query.response
    const asked = query.value.company_id?.toLowerCase()
    if (key.companyId && asked && asked !== key.companyId) return problem('forbidden', RESTRICTED)
    return json(await listApiSchemes({ companyId: key.companyId }, query.value))
  })
}

/** POST /api/v1/schemes: a draft scheme, checked as the admin's create form checks it (201). */
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('GET, POST')
  return apiWrite(
    request,
    context,
    'schemes:write',
    { body: SchemeCreateBody },
    async ({ actor, key, body }) => {
      const companyId = body.company_id.toLowerCase()
      if (key.companyId && companyId !== key.companyId) return problem('forbidden', RESTRICTED)
      const created = await createApiScheme(actor, { ...body, company_id: companyId })
      if (!created.ok) return 'response' in created ? created.response : refusalProblem(created)
      return json(await getApiScheme({ companyId: key.companyId }, created.value.id), 201)
    },
  )
}
