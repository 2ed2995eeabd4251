import type { Route } from './+types/api.v1.schemes.$id.participants'
import { apiEndpoint, json, methodNotAllowed, notFound, parseQuery } from '#app/modules/api-key/api.server'
import { ParticipantListQuery } from '#app/modules/api-key/scheme-api-schemas'
import { apiSchemeHead, listApiParticipants } from '#app/modules/api-key/schemes-api.server'

/**
 * GET /api/v1/schemes/:id/participants (issue 21 §1, ADR 059): each participant's self-assessment,
 * list of raters and report state, and how many colleagues were invited and answered — never who.
 */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return apiEndpoint(request, context, 'schemes:read', async ({ key }) => {
    const query = parseQuery(request, ParticipantListQuery)
    if (!query.ok) return query.response
    const scheme = await apiSchemeHead({ companyId: key.companyId }, params.id)
    if (!scheme) return notFound()
    return json(await listApiParticipants(scheme, query.value))
  })
}

export function action() {
  return methodNotAllowed('GET')
}
