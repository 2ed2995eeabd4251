import type { Route } from './+types/api.v1.employees'
import { apiEndpoint, json, methodNotAllowed, parseQuery, problem } from '#app/modules/api-key/api.server'
import { EmployeeCreateBody, EmployeeListQuery } from '#app/modules/api-key/api-schemas'
import { listEmployees } from '#app/modules/api-key/resources.server'
import { apiCreateEmployee, apiWrite } from '#app/modules/api-key/writes.server'

/**
 * GET /api/v1/employees (issue 21 §1, ADR 054): filtered by company, address and status, a page at
 * a time; a key restricted to a company sees its employees only, and may not ask for another's.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'employees:read', async ({ key }) => {
    const query = parseQuery(request, EmployeeListQuery)
    if (!query.ok) return query.response
    const asked = query.value.company_id?.toLowerCase()
    if (key.companyId && asked && asked !== key.companyId)
      return problem('forbidden', 'This key is restricted to another company.')
    return json(await listEmployees({ companyId: key.companyId }, query.value))
  })
}

/** POST /api/v1/employees (ADR 054 "Writes"): adds an employee, invited, as the admin page does. */
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('GET, POST')
  return apiWrite(request, context, 'employees:write', { body: EmployeeCreateBody }, ({ actor, key, body }) =>
    apiCreateEmployee(actor, key, body),
  )
}
