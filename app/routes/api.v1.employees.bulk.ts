import type { Route } from './+types/api.v1.employees.bulk'
import { methodNotAllowed, problem } from '#app/modules/api-key/api.server'
import { BULK_MAX_BYTES, EmployeeBulkBody, IdempotencyKeyHeader } from '#app/modules/api-key/api-schemas'
import {
  bodyHash,
  claimIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from '#app/modules/api-key/idempotency.server'
import { apiBulkUpsert, bulkCompany, apiWrite } from '#app/modules/api-key/writes.server'

/**
 * POST /api/v1/employees/bulk (issue 21 §1, ADR 054 "Writes"): an HR system's upsert of up to 1,000
 * employees of one company, keyed by address, idempotent with an `Idempotency-Key` header. The body
 * and the company are checked first (nothing is claimed for a request refused outright); then the
 * key is claimed, the rows written, and the answer stored for replays.
 */
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST')
  const bulk = { body: EmployeeBulkBody, maxBytes: BULK_MAX_BYTES }
  return apiWrite(request, context, 'employees:write', bulk, async ({ actor, key, body }) => {
    const header = IdempotencyKeyHeader.safeParse(request.headers.get('Idempotency-Key') ?? undefined)
    if (!header.success)
      return problem('bad-request', 'This endpoint needs an Idempotency-Key header.', {
        errors: [{ field: 'Idempotency-Key', message: header.error.issues[0]!.message }],
      })
    const company = await bulkCompany(key, body.company_id)
    if (!company.ok) return company.response
    const claim = await claimIdempotencyKey(
      key.id,
      header.data,
      bodyHash({ ...body, company_id: company.company.id }),
    )
    if (claim.kind === 'answer') return claim.response
    try {
      const response = await apiBulkUpsert(actor, company.company, body)
      if (response.status >= 500) {
        await releaseIdempotencyKey(claim.id)
        return response
      }
      return await storeIdempotentAnswer(claim.id, response)
    } catch (error) {
      await releaseIdempotencyKey(claim.id)
      throw error
    }
  })
}

export function loader() {
  return methodNotAllowed('POST')
}
