import type { Route } from './+types/api.v1.companies.$id'
import {
  apiEndpoint,
  json,
  methodNotAllowed,
  notFound,
  parseQuery,
  problem,
} from '#app/modules/api-key/api.server'
import { CompanyUpdateBody, NoQuery } from '#app/modules/api-key/api-schemas'
import { getCompany } from '#app/modules/api-key/resources.server'
import { apiRenameCompany, RESTRICTED_ELSEWHERE, apiWrite } from '#app/modules/api-key/writes.server'

/**
 * GET /api/v1/companies/:id (issue 21 §1, ADR 054). A key restricted to a company is refused any
 * other before anything is read, so the answer says nothing about whether that company exists.
 */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'companies:read', async ({ key }) => {
    const query = parseQuery(request, NoQuery)
    if (!query.ok) return query.response
    const id = params.id.toLowerCase()
    if (key.companyId && key.companyId !== id) return problem('forbidden', RESTRICTED_ELSEWHERE)
    const company = await getCompany(id)
    return company ? json(company) : notFound()
  })
}

/** PATCH /api/v1/companies/:id (ADR 054 "Writes"): renames it; a restricted key its own only. */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'PATCH') return methodNotAllowed('GET, PATCH')
  return apiWrite(
    request,
    context,
    'companies:write',
    { body: CompanyUpdateBody },
    async ({ actor, key, body }) => {
      const id = params.id.toLowerCase()
      if (key.companyId && key.companyId !== id) return problem('forbidden', RESTRICTED_ELSEWHERE)
      return apiRenameCompany(actor, key, id, body)
    },
  )
}
