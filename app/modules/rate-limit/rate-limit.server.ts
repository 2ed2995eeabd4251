import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import type { Refusal } from '#app/lib/outcome'

/**
 * Rate limits in Postgres, so a limit holds across every app instance: fixed-window counters
 * (`hit`, `peek`, `refund`, `reset`) and, for the sign-in slow-down, turns spaced in time (`takeTurn`).
 */
export type RateLimitRule = { limit: number; windowMs: number }

/**
 * Sign-in limits (ADR 007). Only failures count: a successful sign-in gives back what it counted.
 * A wrong password for one account from one address refuses that pair only; the account as a
 * whole is slowed down, never locked, for every other address; a browser that signed in to the
 * account before (a trusted device, device.server.ts) has a budget of its own.
 */
export const SIGN_IN_LIMITS = {
  /**
   * Failed sign-ins from one address, whatever the account. High enough for an office behind one
   * NAT address (250 people with a typo or two each on launch morning stay under it), low enough
   * that one address cannot spray guesses across every account.
   */
  address: { limit: 100, windowMs: 60 * 60 * 1000 },
  /** Failed sign-ins for one account from one address: then that pair alone waits out the window. */
  pair: { limit: 5, windowMs: 15 * 60 * 1000 },
  /** Failed sign-ins from a trusted device for its account (instead of the address and pair limits). */
  device: { limit: 5, windowMs: 15 * 60 * 1000 },
  /**
   * The account-wide slow-down, for browsers the account has not signed in from. After
   * `freeFailures` failures in the window, password checks on the account take turns spaced 1 s,
   * 2 s, 4 s … apart (at most `maxDelayMs`). An attempt waits for its turn on the server when it is
   * at most `maxHoldMs` away, else it is answered 429 with Retry-After: whoever asks, the account
   * gets at most one check per spacing, so a burst from many addresses cannot slip through either.
   */
  account: {
    windowMs: 60 * 60 * 1000,
    freeFailures: 4,
    baseDelayMs: 1_000,
    maxDelayMs: 30_000,
    maxHoldMs: 10_000,
  },
} as const

/**
 * Requests for a one-time sign-in link (ADR 007), the way in for a new browser while the limits
 * above hold it back. Every request counts (asking for a link is not a failure to give back), first
 * per client address, then per account: 3 in 15 minutes and 10 a day, so that nobody can fill
 * someone's inbox with links. An account's requests refused by the short window do not count
 * against its day.
 */
export const SIGN_IN_LINK_LIMITS = {
  address: { limit: 20, windowMs: 15 * 60 * 1000 },
  account: { limit: 3, windowMs: 15 * 60 * 1000 },
  accountDaily: { limit: 10, windowMs: 24 * 60 * 60 * 1000 },
} as const

export type SlowDownRule = (typeof SIGN_IN_LIMITS)['account']

export type RateLimitState = { count: number; limited: boolean; retryAfterSeconds: number }

function toState(
  row: { count: number | string; window_start: Date | string },
  rule: RateLimitRule,
  counted: boolean,
) {
  const count = Number(row.count)
  const windowEnd = new Date(row.window_start).getTime() + rule.windowMs
  const retryAfterSeconds = Math.max(1, Math.ceil((windowEnd - Date.now()) / 1000))
  return { count, limited: counted ? count > rule.limit : count >= rule.limit, retryAfterSeconds }
}

/** Counts one event and answers whether the key is now over its limit. */
export async function hit(key: string, rule: RateLimitRule): Promise<RateLimitState> {
  const seconds = rule.windowMs / 1000
  const rows = await queryRows<{ count: number; window_start: Date }>(
    getDb(),
    sql`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ${seconds}) THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ${seconds}) THEN now() ELSE rate_limits.window_start END
    RETURNING count, window_start`,
  )
  return toState(rows[0]!, rule, true)
}

/** Reads a key without counting: limited once `limit` events are in the current window. */
export async function peek(key: string, rule: RateLimitRule): Promise<RateLimitState> {
  const seconds = rule.windowMs / 1000
  const rows = await queryRows<{ count: number; window_start: Date }>(
    getDb(),
    sql`
    SELECT count, window_start FROM rate_limits
    WHERE key = ${key} AND window_start > now() - make_interval(secs => ${seconds})`,
  )
  const row = rows[0]
  if (!row) return { count: 0, limited: false, retryAfterSeconds: 0 }
  return toState(row, rule, false)
}

/**
 * A reached limit as a domain refusal: its message above the form (told how long to wait), answered
 * 429 with the limit's Retry-After.
 */
export const refuseLimited = (
  limit: { retryAfterSeconds: number },
  message: (retryAfterSeconds: number) => string,
): Refusal => ({
  ok: false,
  formErrors: [message(limit.retryAfterSeconds)],
  retryAfterSeconds: limit.retryAfterSeconds,
})

/** Gives back one event counted by `hit` (an attempt that turned out not to be a failure). */
export async function refund(key: string) {
  await getDb().execute(sql`UPDATE rate_limits SET count = greatest(count - 1, 0) WHERE key = ${key}`)
}

export async function reset(key: string) {
  await getDb().execute(sql`DELETE FROM rate_limits WHERE key = ${key}`)
}

/** Removes every key that starts with `prefix` (all the pairs of one account). */
export async function resetPrefix(prefix: string) {
  await getDb().execute(sql`DELETE FROM rate_limits WHERE starts_with(key, ${prefix})`)
}

/** How far apart checks are once `failures` failures (this attempt included) are in the window. */
export function spacingMs(failures: number, rule: SlowDownRule = SIGN_IN_LIMITS.account): number {
  if (failures <= rule.freeFailures) return 0
  return Math.min(rule.baseDelayMs * 2 ** (failures - rule.freeFailures - 1), rule.maxDelayMs)
}

export type Turn =
  { admitted: true; waitMs: number; failures: number } | { admitted: false; retryAfterSeconds: number }

/**
 * Books the next turn of a slowed-down key, counting this attempt as a failure until it proves
 * otherwise (`reset` on success). The turn is `max(now, next_at)`; the one after it is spaced by
 * `spacingMs` of the new count. One locked row per key, so concurrent callers on any instance
 * queue up instead of sharing a turn. A turn further than `maxHoldMs` away is not booked.
 */
export async function takeTurn(key: string, rule: SlowDownRule = SIGN_IN_LIMITS.account): Promise<Turn> {
  return getDb().transaction(async (tx) => {
    await tx.execute(
      sql`INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now(), 0) ON CONFLICT (key) DO NOTHING`,
    )
    const [row] = await queryRows<{
      count: number | string
      window_start: Date | string
      next_at: Date | string | null
      now: Date | string
    }>(
      tx,
      sql`SELECT count, window_start, next_at, clock_timestamp() AS now FROM rate_limits WHERE key = ${key} FOR UPDATE`,
    )
    const now = new Date(row!.now).getTime()
    const expired = new Date(row!.window_start).getTime() <= now - rule.windowMs
    const before = expired ? 0 : Number(row!.count)
    const nextAt = !expired && row!.next_at ? new Date(row!.next_at).getTime() : now
    const turn = Math.max(now, nextAt)
    if (turn - now > rule.maxHoldMs) {
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((turn - now) / 1000)) } as const
    }
    const failures = before + 1
    await tx.execute(sql`
      UPDATE rate_limits SET
        count = ${failures},
        window_start = ${expired ? sql`now()` : sql`window_start`},
        next_at = ${new Date(turn + spacingMs(failures, rule)).toISOString()}::timestamptz
      WHERE key = ${key}`)
    return { admitted: true, waitMs: turn - now, failures } as const
  })
}
