import type { Outcome, Refusal } from '#app/lib/outcome'

/** A Postgres error code from either driver (drizzle wraps the driver's error in `cause`). */
export function pgErrorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null
  const code = e?.cause?.code ?? e?.code
  return typeof code === 'string' ? code : undefined
}

/** The SQLSTATE codes the modules answer in words instead of a 500. */
export const PG_ERROR = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  /** A lock not granted within the transaction's `lock_timeout`. */
  lockNotAvailable: '55P03',
} as const

/**
 * Runs a transaction again when Postgres broke it off to resolve a deadlock or a serialization
 * conflict: those say "try again", not "this cannot be done", and the transaction wrote nothing.
 * Anything else is thrown at once.
 */
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      const code = pgErrorCode(error)
      const conflict = code === PG_ERROR.deadlockDetected || code === PG_ERROR.serializationFailure
      if (!conflict || attempt >= attempts) throw error
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20))
    }
  }
}

/**
 * Runs a change and answers `refusal()` when Postgres refuses it with this SQLSTATE (a unique or
 * foreign key that a concurrent change won the race for): the person gets words, not a 500.
 * Anything else is thrown.
 */
export async function refuseOnPgError<T>(
  code: string,
  refusal: () => Refusal,
  run: () => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  try {
    return await run()
  } catch (error) {
    if (pgErrorCode(error) === code) return refusal()
    throw error
  }
}
