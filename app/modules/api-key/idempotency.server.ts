import { createHash } from 'node:crypto'
import { and, eq, lt, sql } from 'drizzle-orm'
import { getDb } from '#db/client'
import { apiIdempotencyKeys } from '#db/schema/index'
import { pgErrorCode, PG_ERROR } from '#app/lib/pg-error'
import { problem } from './api.server'

/**
 * Idempotency keys (issue 21 §1, ADR 054 "Writes", the IETF Idempotency-Key header's rules): the
 * first request with a key claims it — a row inserted, "in progress", before anything is done,
 * the unique (key, Idempotency-Key) index deciding between two that race — and its answer is stored
 * in that row. The same key again:
 * - while the first still runs: 409, try again shortly (whatever the body);
 * - with the same body, once answered: the stored answer, with `Idempotent-Replayed: true`;
 * - with another body: 422 (`idempotency-key-reused`).
 * A key is kept a day (IDEMPOTENCY_TTL); older rows are deleted whenever a key is claimed. A claim
 * whose request died without answering (the process stopped) is taken over after STALE_CLAIM.
 */

export const IDEMPOTENCY_TTL = sql`interval '24 hours'`
const STALE_CLAIM = sql`interval '5 minutes'`

/** The SHA-256 of a body as parsed (so whitespace and key order inside it do not count twice). */
export function bodyHash(body: unknown) {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex')
}

type Claim = { kind: 'claimed'; id: string } | { kind: 'answer'; response: Response }

/**
 * Claims `idempotencyKey` for this API key and body; or the answer when it was claimed already
 * (the stored one, 409 while in progress, 422 for another body).
 */
export async function claimIdempotencyKey(
  keyId: string,
  idempotencyKey: string,
  hash: string,
): Promise<Claim> {
  const db = getDb()
  await db.delete(apiIdempotencyKeys).where(lt(apiIdempotencyKeys.createdAt, sql`now() - ${IDEMPOTENCY_TTL}`))
  try {
    const [claimed] = await db
      .insert(apiIdempotencyKeys)
      .values({ keyId, idempotencyKey, requestHash: hash })
      .onConflictDoNothing()
      .returning({ id: apiIdempotencyKeys.id })
    if (claimed) return { kind: 'claimed', id: claimed.id }
  } catch (error) {
    if (pgErrorCode(error) !== PG_ERROR.uniqueViolation) throw error
  }
  const [existing] = await db
    .select({
      id: apiIdempotencyKeys.id,
      requestHash: apiIdempotencyKeys.requestHash,
      status: apiIdempotencyKeys.status,
      responseBody: apiIdempotencyKeys.responseBody,
      stale: sql<boolean>`${apiIdempotencyKeys.createdAt} < now() - ${STALE_CLAIM}`,
    })
    .from(apiIdempotencyKeys)
    .where(and(eq(apiIdempotencyKeys.keyId, keyId), eq(apiIdempotencyKeys.idempotencyKey, idempotencyKey)))
    .limit(1)
  // Deleted between the two statements (it had just turned a day old): try once more.
  if (!existing) return claimIdempotencyKey(keyId, idempotencyKey, hash)
  if (existing.status === null) {
    if (existing.stale) {
      // The first request died without an answer: this one takes its place (one of several wins).
      const [taken] = await db
        .update(apiIdempotencyKeys)
        .set({ createdAt: sql`now()` })
        .where(
          and(
            eq(apiIdempotencyKeys.id, existing.id),
            sql`${apiIdempotencyKeys.status} IS NULL`,
            sql`${apiIdempotencyKeys.createdAt} < now() - ${STALE_CLAIM}`,
          ),
        )
        .returning({ id: apiIdempotencyKeys.id })
      if (taken) return { kind: 'claimed', id: taken.id }
    }
    return {
      kind: 'answer',
      response: problem(
        'conflict',
        'A request with this Idempotency-Key is still in progress. Try again in a few seconds to get its answer.',
        { headers: { 'Retry-After': '2' } },
      ),
    }
  }
  if (existing.requestHash !== hash)
    return {
      kind: 'answer',
      response: problem(
        'idempotency-key-reused',
        'This Idempotency-Key was used with another body. Send the same body to get its answer again, or a new key for a new request.',
      ),
    }
  return {
    kind: 'answer',
    response: new Response(existing.responseBody, {
      status: existing.status,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'Idempotent-Replayed': 'true',
      },
    }),
  }
}

/** Stores the answer of a claimed key (its body read as text; the response itself is answered as is). */
export async function storeIdempotentAnswer(claimId: string, response: Response): Promise<Response> {
  const body = await response.clone().text()
  await getDb()
    .update(apiIdempotencyKeys)
    .set({ status: response.status, responseBody: body })
    .where(eq(apiIdempotencyKeys.id, claimId))
  return response
}

/** Lets a claim go (the request failed on our side): a retry with the key runs afresh. */
export async function releaseIdempotencyKey(claimId: string) {
  await getDb().delete(apiIdempotencyKeys).where(eq(apiIdempotencyKeys.id, claimId))
}
