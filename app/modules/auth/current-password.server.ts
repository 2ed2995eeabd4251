import { eq } from 'drizzle-orm'
import { getDb } from '#db/client'
import { users } from '#db/schema/index'
import type { Outcome } from '#app/lib/outcome'
import {
  hit,
  peek,
  refuseLimited,
  reset,
  type RateLimitRule,
} from '#app/modules/rate-limit/rate-limit.server'
import { AUTH_ERROR_MESSAGES } from './errors'
import { verifyPassword } from './password.server'

/**
 * The current password, asked again before a change that would hand the account over: a new
 * password or e-mail address (the profile forms), turning the second factor off (ADR 048). A session
 * left open on a shared computer must not be enough.
 */

/** Wrong current passwords, counted per account across every form that asks for it. */
export const CURRENT_PASSWORD_LIMIT: RateLimitRule = { limit: 5, windowMs: 15 * 60 * 1000 }

export const WRONG_CURRENT_PASSWORD = 'That is not your current password.'

const passwordKey = (userId: string) => `profile:current-password:${userId}`

export type PasswordCheck =
  { ok: true } | { ok: false; limited: true; retryAfterSeconds: number } | { ok: false; limited: false }

/**
 * Checks the password; wrong guesses are rate-limited per account: 5 in 15 minutes, then every
 * attempt is refused (even a right one) until the window ends.
 */
export async function checkCurrentPassword(userId: string, password: string): Promise<PasswordCheck> {
  const key = passwordKey(userId)
  const state = await peek(key, CURRENT_PASSWORD_LIMIT)
  if (state.limited) return { ok: false, limited: true, retryAfterSeconds: state.retryAfterSeconds }
  const [row] = await getDb()
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  if (!(await verifyPassword(row?.passwordHash, password))) {
    await hit(key, CURRENT_PASSWORD_LIMIT)
    return { ok: false, limited: false }
  }
  await reset(key)
  return { ok: true }
}

/** A refused check as the form's answer: the limit's message (429), or beside the password field. */
export function refusedPassword(check: Exclude<PasswordCheck, { ok: true }>): Outcome<never> {
  return check.limited
    ? refuseLimited(check, () => AUTH_ERROR_MESSAGES['auth/too-many-requests'])
    : { ok: false, fieldErrors: { currentPassword: [WRONG_CURRENT_PASSWORD] } }
}
