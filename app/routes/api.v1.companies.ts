import type { Route } from './+types/api.v1.companies'
import { apiEndpoint, json, methodNotAllowed, parseQuery } from '#app/modules/api-key/api.server'
import { CompanyCreateBody, CompanyListQuery } from '#app/modules/api-key/api-schemas'
import { listCompanies } from '#app/modules/api-key/resources.server'
import { apiCreateCompany, apiWrite } from '#app/modules/api-key/writes.server'

/** GET /api/v1/companies (issue 21 §1, ADR 054): the companies the key may read, a page at a time. */
export function loader({ request, context }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'companies:read', async ({ key }) => {
    const query = parseQuery(request, CompanyListQuery)
    if (!query.ok) return query.response
    return json(await listCompanies({ companyId: key.companyId }, query.value))
  })
}

/** POST /api/v1/companies (ADR 054 "Writes"): creates a company; a restricted key may not (403). */
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('GET, POST')
  return apiWrite(request, context, 'companies:write', { body: CompanyCreateBody }, ({ actor, key, body }) =>
    apiCreateCompany(actor, key, body),
  )
}
