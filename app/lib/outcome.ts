/**
 * The one answer of every domain change (Shelf's per-domain services, epic-stack's note editor):
 * either the value, or a refusal the route turns into a reply — field and form messages (400),
 * `notFound` (404: "not found" and "not yours" are the same answer), or a rate limit (429 with
 * Retry-After). Modules never build HTTP responses; routes never decide rules.
 */
export type Refusal = {
  ok: false
  notFound?: boolean
  formErrors?: string[]
  fieldErrors?: Record<string, string[]>
  /** Set when refused by a rate limit: the route answers 429 with this Retry-After. */
  retryAfterSeconds?: number
}

export type Outcome<T> = { ok: true; value: T } | Refusal

/**
 * Who acts in an admin or employee change, for ownership checks and the audit log. A change made
 * through the REST API acts as the admin who created the key, and names the key (`apiKeyId`): the
 * audit entry records both.
 */
export type Actor = { id: string; ip?: string | null; apiKeyId?: string }

export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value })

/** A refusal shown above the form. */
export const refuse = (...formErrors: string[]): Refusal => ({ ok: false, formErrors })

/** A refusal shown beside one field. */
export const refuseField = (field: string, ...messages: string[]): Refusal => ({
  ok: false,
  fieldErrors: { [field]: messages },
})

/**
 * A refusal answered as 404 ("not found" and "not yours" alike). Named apart from the guards'
 * `notFound()`, which throws the 404 Response in a route: a module refuses, a route throws.
 */
export const refuseNotFound = (): Refusal => ({ ok: false, notFound: true })

/** The HTTP status a refusal is answered with. */
export function refusalStatus(refusal: Refusal): 400 | 404 | 429 {
  if (refusal.notFound) return 404
  if (refusal.retryAfterSeconds !== undefined) return 429
  return 400
}

/** A refusal with each of its messages (the form's and every field's) written anew by `say`; success as it is. */
export function sayOutcome<T>(outcome: Outcome<T>, say: (message: string) => string): Outcome<T> {
  if (outcome.ok) return outcome
  return {
    ...outcome,
    formErrors: outcome.formErrors?.map(say),
    fieldErrors: outcome.fieldErrors
      ? Object.fromEntries(Object.entries(outcome.fieldErrors).map(([field, list]) => [field, list.map(say)]))
      : undefined,
  }
}
