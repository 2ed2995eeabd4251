import type { Route } from './+types/api.v1.companies.$id'
import {
  apiEndpoint,
  json,
  methodNotAllowed,
  notFound,
  parseQuery,
  problem,
} from '#app/modules/api-key/api.server'
import { NoQuery } from '#app/modules/api-key/api-schemas'
import { getCompany } from '#app/modules/api-key/resources.server'

/**
 * GET /api/v1/companies/:id (issue 21 §1, ADR 054). A key restricted to a company is refused any
 * other before anything is read, so the answer says nothing about whether that company exists.
 */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'companies:read', async ({ key }) => {
    const query = parseQuery(request, NoQuery)
    if (!query.ok) return query.response
    const id = params.id.toLowerCase()
    if (key.companyId && key.companyId !== id)
      return problem('forbidden', 'This key is restricted to another company.')
    const company = await getCompany(id)
    return company ? json(company) : notFound()
  })
}

export function action() {
  return methodNotAllowed('GET')
}
