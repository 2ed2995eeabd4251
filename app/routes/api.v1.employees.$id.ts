import type { Route } from './+types/api.v1.employees.$id'
import { apiEndpoint, json, methodNotAllowed, notFound, parseQuery } from '#app/modules/api-key/api.server'
import { EmployeeUpdateBody, NoQuery } from '#app/modules/api-key/api-schemas'
import { getEmployee } from '#app/modules/api-key/resources.server'
import { apiUpdateEmployee, apiWrite } from '#app/modules/api-key/writes.server'

/** GET /api/v1/employees/:id (issue 21 §1, ADR 054): another company's employee is not found for a restricted key. */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'employees:read', async ({ key }) => {
    const query = parseQuery(request, NoQuery)
    if (!query.ok) return query.response
    const employee = await getEmployee({ companyId: key.companyId }, params.id)
    return employee ? json(employee) : notFound()
  })
}

/** PATCH /api/v1/employees/:id (ADR 054 "Writes"): a partial update; null clears an optional field. */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'PATCH') return methodNotAllowed('GET, PATCH')
  return apiWrite(request, context, 'employees:write', { body: EmployeeUpdateBody }, ({ actor, key, body }) =>
    apiUpdateEmployee(actor, key, params.id.toLowerCase(), body),
  )
}
