import type { Route } from './+types/api.v1.schemes.$id.launch'
import { json, methodNotAllowed, notFound } from '#app/modules/api-key/api.server'
import {
  apiSchemeHead,
  getApiScheme,
  launchApiScheme,
  refusalProblem,
} from '#app/modules/api-key/schemes-api.server'
import { apiWrite } from '#app/modules/api-key/writes.server'

/**
 * POST /api/v1/schemes/:id/launch (issue 21 §1, ADR 059): the scheme page's launch (draft → open,
 * the programme e-mails in the same transaction); its refusals are 409 problems in its own words.
 */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST')
  return apiWrite(request, context, 'schemes:write', {}, async ({ actor, key }) => {
    const restriction = { companyId: key.companyId }
    const scheme = await apiSchemeHead(restriction, params.id)
    if (!scheme) return notFound()
    const outcome = await launchApiScheme(actor, scheme.id)
    if (!outcome.ok) return refusalProblem(outcome)
    return json(await getApiScheme(restriction, scheme.id))
  })
}

export function loader() {
  return methodNotAllowed('POST')
}
