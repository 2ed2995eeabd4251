import type { Route } from './+types/api.v1.schemes.$id.enrolments'
import { json, methodNotAllowed, notFound } from '#app/modules/api-key/api.server'
import { EnrolmentBody } from '#app/modules/api-key/scheme-api-schemas'
import { apiSchemeHead, enrolApiEmployees, refusalProblem } from '#app/modules/api-key/schemes-api.server'
import { apiWrite } from '#app/modules/api-key/writes.server'

/**
 * POST /api/v1/schemes/:id/enrolments (issue 21 §1, ADR 059): enrols employees by id, as the scheme
 * page's "enrol the chosen" does; per-id problems, and someone already enrolled is no error.
 */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST')
  return apiWrite(
    request,
    context,
    'schemes:write',
    { body: EnrolmentBody },
    async ({ actor, key, body }) => {
      const scheme = await apiSchemeHead({ companyId: key.companyId }, params.id)
      if (!scheme) return notFound()
      const outcome = await enrolApiEmployees(actor, scheme.id, body)
      return outcome.ok ? json(outcome.value) : refusalProblem(outcome)
    },
  )
}

export function loader() {
  return methodNotAllowed('POST')
}
