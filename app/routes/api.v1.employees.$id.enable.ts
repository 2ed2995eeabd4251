import type { Route } from './+types/api.v1.employees.$id.enable'
import { apiEndpoint, methodNotAllowed, parseQuery, problem } from '#app/modules/api-key/api.server'
import { NoQuery } from '#app/modules/api-key/api-schemas'
import { actorOf, apiSetEmployeeEnabled, ORPHAN_KEY } from '#app/modules/api-key/writes.server'

/**
 * POST /api/v1/employees/:id/enable (ADR 054 "Writes"): enables a disabled employee again, as the admin page does. Again: no change.
 */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST')
  return apiEndpoint(request, context, 'employees:write', async ({ key, ip }) => {
    const actor = actorOf(key, ip)
    if (!actor) return problem('forbidden', ORPHAN_KEY)
    const query = parseQuery(request, NoQuery)
    if (!query.ok) return query.response
    return apiSetEmployeeEnabled(actor, key, params.id.toLowerCase(), true)
  })
}

export function loader() {
  return methodNotAllowed('POST')
}
