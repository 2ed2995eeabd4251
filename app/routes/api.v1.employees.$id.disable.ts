import type { Route } from './+types/api.v1.employees.$id.disable'
import { apiEndpoint, methodNotAllowed, parseQuery, problem } from '#app/modules/api-key/api.server'
import { NoQuery } from '#app/modules/api-key/api-schemas'
import { actorOf, apiSetEmployeeEnabled, ORPHAN_KEY } from '#app/modules/api-key/writes.server'

/**
 * POST /api/v1/employees/:id/disable (ADR 054 "Writes"): disables the employee as the admin page does (every session of theirs ends). Again: no change.
 */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST')
  return apiEndpoint(request, context, 'employees:write', async ({ key, ip }) => {
    const actor = actorOf(key, ip)
    if (!actor) return problem('forbidden', ORPHAN_KEY)
    const query = parseQuery(request, NoQuery)
    if (!query.ok) return query.response
    return apiSetEmployeeEnabled(actor, key, params.id.toLowerCase(), false)
  })
}

export function loader() {
  return methodNotAllowed('POST')
}
