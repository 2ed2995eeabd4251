import type { Route } from './+types/api.v1.employees.$id.enable'
import { methodNotAllowed } from '#app/modules/api-key/api.server'
import { apiSetEmployeeEnabled, apiWrite } from '#app/modules/api-key/writes.server'

/**
 * POST /api/v1/employees/:id/enable (ADR 054 "Writes"): enables a disabled employee again, as the admin page does. Again: no change.
 */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST')
  return apiWrite(request, context, 'employees:write', {}, ({ actor, key }) =>
    apiSetEmployeeEnabled(actor, key, params.id.toLowerCase(), true),
  )
}

export function loader() {
  return methodNotAllowed('POST')
}
