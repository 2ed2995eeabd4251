import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'

/**
 * Fixed-window counters in Postgres, so a limit holds across every app instance. One statement
 * either starts a new window or counts into the current one.
 */
export type RateLimitRule = { limit: number; windowMs: number }

export const SIGN_IN_LIMITS = {
  /** Failed attempts for one account. */
  account: { limit: 5, windowMs: 15 * 60 * 1000 },
  /** All attempts from one address. */
  ip: { limit: 30, windowMs: 15 * 60 * 1000 },
} satisfies Record<string, RateLimitRule>

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

export async function reset(key: string) {
  await getDb().execute(sql`DELETE FROM rate_limits WHERE key = ${key}`)
}
