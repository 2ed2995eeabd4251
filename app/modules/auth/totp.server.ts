import crypto from 'node:crypto'
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding'
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp'
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import { renderSVG } from 'uqr'
import { getDb, type Tx } from '#db/client'
import { getEnv } from '#app/config/env.server'
import { recoveryCodes, totpCredentials, users } from '#db/schema/index'
import { refuse, refuseField, type Actor, type Outcome } from '#app/lib/outcome'
import { decryptSecret, encryptSecret, NO_KEY_MESSAGE, SecretBoxError } from '#app/lib/secret-box.server'
import { hashSecret } from '#app/lib/secret-hash.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { reportServerError } from '#app/modules/monitoring/sentry.server'
import { hit, refund, reset, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import { AUTH_ERROR_MESSAGES } from './errors'
import { RECOVERY_CODE_PATTERN, TOTP_CODE_PATTERN } from './schemas'
import type { TrustedDevice } from './device.server'

/**
 * A TOTP authenticator and its recovery codes (ADR 048): RFC 6238 with the parameters every
 * authenticator app supports (HMAC-SHA1, 6 digits, 30 seconds), a 160-bit secret encrypted at rest,
 * one step of clock drift either way, and every code good once: a code is accepted only for a time
 * step later than the last one used. Ten recovery codes of 80 random bits each, shown once and
 * stored as SHA-256 only (the Lucia guide's way for high-entropy secrets), each good once.
 */

export const TOTP_PERIOD_SECONDS = 30
export const TOTP_DIGITS = 6
/** Steps of clock drift accepted on either side of now. */
export const TOTP_DRIFT_STEPS = 1
export const TOTP_ISSUER = 'Panorama'
export const RECOVERY_CODE_COUNT = 10

/**
 * Wrong codes (authenticator or recovery) per account, from any page that asks for one: 5 in 15
 * minutes, then every code is refused until the window ends. A browser that signed in to the account
 * before (its `__device` cookie, ADR 007) counts apart, so someone who has the password cannot lock
 * the owner's own browsers out with wrong codes.
 */
export const SECOND_FACTOR_LIMITS = {
  account: { limit: 5, windowMs: 15 * 60 * 1000 },
  device: { limit: 5, windowMs: 15 * 60 * 1000 },
} as const satisfies Record<string, RateLimitRule>

export const WRONG_CODE =
  'That code is not right. Enter the current code from your authenticator app, or a recovery code.'
export const WRONG_SETUP_CODE =
  'That code is not right. Check that the app shows Panorama with your address, and enter its current code.'
export const TOO_MANY_CODES = AUTH_ERROR_MESSAGES['auth/too-many-requests']
export const NO_SETUP = 'Start the set-up again: it was cancelled or finished elsewhere.'
export const ALREADY_ON = 'Two-factor sign-in is already on for your account.'
export const NOT_ON = 'Two-factor sign-in is not on for your account.'

// ---- codes ----

/** The time step of an instant (RFC 6238's T). */
export function timeStep(now = Date.now()) {
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS)
}

/** The code an authenticator shows for a step (tests and the e2e spec compute codes this way). */
export function totpCodeAt(key: Uint8Array, step: number) {
  return generateHOTP(key, BigInt(step), TOTP_DIGITS)
}

/**
 * The step a six-digit code belongs to, within the drift allowed around `now` and later than the
 * last step used; null when there is none (wrong, too old, or already used).
 */
export function matchingStep(
  key: Uint8Array,
  code: string,
  lastUsedStep: number | null,
  now = Date.now(),
): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const current = timeStep(now)
  let found: number | null = null
  // Every step in the window is computed and compared in constant time, whichever matches.
  for (let step = current - TOTP_DRIFT_STEPS; step <= current + TOTP_DRIFT_STEPS; step++) {
    const expected = Buffer.from(totpCodeAt(key, step))
    const matches = crypto.timingSafeEqual(expected, Buffer.from(code))
    if (matches && found === null && (lastUsedStep === null || step > lastUsedStep)) found = step
  }
  return found
}

/** A new recovery code: 80 random bits as 16 base32 letters and digits, in groups of four. */
export function newRecoveryCode() {
  const raw = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(10)))
  return raw.match(/.{4}/g)!.join('-')
}

/** A recovery code as typed (any case, spaces or hyphens anywhere) in the form it is hashed, else null. */
export function normalizeRecoveryCode(input: string) {
  const compact = input.toLowerCase().replace(/[\s-]/g, '')
  return RECOVERY_CODE_PATTERN.test(compact) ? compact : null
}

export type CodeInput = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string }

/** What someone typed in a code field: six digits, a recovery code, or neither (null). */
export function readCode(input: string): CodeInput | null {
  const compact = input.replace(/[\s-]/g, '')
  if (TOTP_CODE_PATTERN.test(compact)) return { kind: 'totp', code: compact }
  const recovery = normalizeRecoveryCode(input)
  return recovery ? { kind: 'recovery', code: recovery } : null
}

// ---- the secret at rest ----

const secretContext = (userId: string) => `totp:${userId}`

function sealKey(userId: string, key: Uint8Array) {
  return encryptSecret(Buffer.from(key).toString('base64url'), secretContext(userId))
}

/** The secret of a stored credential; null (and reported once per call) when it cannot be read. */
function openKey(userId: string, sealed: string): Uint8Array | null {
  try {
    return new Uint8Array(Buffer.from(decryptSecret(sealed, secretContext(userId)), 'base64url'))
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error
    // The operator must learn that the key changed: recovery codes still work meanwhile.
    reportServerError(error)
    return null
  }
}

// ---- enrolment ----

/**
 * A new secret waiting for its first code (the set-up shows it), replacing an earlier unconfirmed one;
 * a confirmed authenticator is never replaced this way (false).
 */
export async function startEnrolmentIn(tx: Tx, userId: string): Promise<boolean> {
  const key = crypto.getRandomValues(new Uint8Array(20))
  const rows = await tx
    .insert(totpCredentials)
    .values({ userId, secret: sealKey(userId, key) })
    .onConflictDoUpdate({
      target: totpCredentials.userId,
      set: { secret: sql`excluded.secret`, lastUsedStep: null, createdAt: sql`now()` },
      setWhere: isNull(totpCredentials.confirmedAt),
    })
    .returning({ userId: totpCredentials.userId })
  return rows.length > 0
}

/** "Set up two-factor sign-in" on the profile: a new secret to scan. */
export async function startEnrolment(actor: Actor): Promise<Outcome<void>> {
  // The secret is sealed with SECRET_KEY (app/lib/secret-box.server.ts): without one, say so.
  if (!getEnv().SECRET_KEY) return refuse(NO_KEY_MESSAGE)
  const started = await getDb().transaction((tx) => startEnrolmentIn(tx, actor.id))
  return started ? { ok: true, value: undefined } : refuse(ALREADY_ON)
}

/** "Cancel" during the set-up: the unconfirmed secret goes. */
export async function cancelEnrolment(actor: Actor): Promise<Outcome<void>> {
  await getDb()
    .delete(totpCredentials)
    .where(and(eq(totpCredentials.userId, actor.id), isNull(totpCredentials.confirmedAt)))
  return { ok: true, value: undefined }
}

/** What the set-up shows: the QR code to scan and the same secret as text to type. */
export type EnrolmentView = { qrCode: string; secret: string; uri: string }

function enrolmentView(email: string, key: Uint8Array): EnrolmentView {
  const uri = createTOTPKeyURI(TOTP_ISSUER, email, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS)
  // Drawn on the server (no script), sent as an image: a data: URL is allowed by the page's CSP.
  const svg = renderSVG(uri, { ecc: 'M', border: 2, pixelSize: 6 })
  const qrCode = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
  // Authenticator apps take the secret in upper-case base32; groups of four are easier to copy.
  const secret = encodeBase32UpperCaseNoPadding(key)
    .match(/.{1,4}/g)!
    .join(' ')
  return { qrCode, secret, uri }
}

export type SecondFactorState = {
  enabled: boolean
  enabledAt: string | null
  recoveryCodesLeft: number
  /** The set-up under way (a secret waiting for its first code), else null. */
  setup: EnrolmentView | null
}

/** Where a user's second factor stands, for their profile or the sign-in step: one statement. */
export async function getSecondFactorState(userId: string): Promise<SecondFactorState> {
  const [row] = await getDb()
    .select({
      email: users.email,
      secret: totpCredentials.secret,
      confirmedAt: totpCredentials.confirmedAt,
      codesLeft: sql<number>`(SELECT count(*)::int FROM ${recoveryCodes} WHERE ${recoveryCodes.userId} = ${users.id} AND ${recoveryCodes.usedAt} IS NULL)`,
    })
    .from(users)
    .leftJoin(totpCredentials, eq(totpCredentials.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1)
  const enabled = Boolean(row?.confirmedAt)
  let setup: EnrolmentView | null = null
  if (row?.secret && !enabled) {
    const key = openKey(userId, row.secret)
    setup = key ? enrolmentView(row.email, key) : null
  }
  return {
    enabled,
    enabledAt: row?.confirmedAt?.toISOString() ?? null,
    recoveryCodesLeft: enabled ? Number(row?.codesLeft ?? 0) : 0,
    setup,
  }
}

/** A fresh set of recovery codes for the user (the earlier ones stop working); the plain codes, once. */
async function replaceRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashSecret(normalizeRecoveryCode(code)!) })))
  return codes
}

/**
 * The first good code turns the authenticator on (and uses that code's step), with a new set of
 * recovery codes. In the caller's transaction: the sign-in step confirms the set-up and marks its
 * challenge in the same one.
 */
export async function confirmEnrolmentIn(
  tx: Tx,
  actor: Actor,
  code: string,
): Promise<Outcome<{ recoveryCodes: string[] }>> {
  const [row] = await tx
    .select({ secret: totpCredentials.secret, confirmedAt: totpCredentials.confirmedAt })
    .from(totpCredentials)
    .where(eq(totpCredentials.userId, actor.id))
    .for('update')
  if (!row) return refuse(NO_SETUP)
  if (row.confirmedAt) return refuse(ALREADY_ON)
  const key = openKey(actor.id, row.secret)
  if (!key) return refuse(NO_SETUP)
  const step = matchingStep(key, code.replace(/[\s-]/g, ''), null)
  if (step === null) return refuseField('code', WRONG_SETUP_CODE)
  await tx
    .update(totpCredentials)
    .set({ confirmedAt: sql`now()`, lastUsedStep: step })
    .where(eq(totpCredentials.userId, actor.id))
  const codes = await replaceRecoveryCodes(tx, actor.id)
  await recordAudit(tx, actor, { action: 'auth.second_factor_enabled', entity: 'user', entityId: actor.id })
  return { ok: true, value: { recoveryCodes: codes } }
}

export function confirmEnrolment(actor: Actor, code: string) {
  return getDb().transaction((tx) => confirmEnrolmentIn(tx, actor, code))
}

// ---- using a code ----

export type CodeUse = { ok: true; method: 'totp' | 'recovery'; recoveryCodesLeft: number } | { ok: false }

/**
 * Uses a code of the user's confirmed authenticator, or one of their recovery codes, in the caller's
 * transaction (the credential row locked, so two requests cannot both use one code): the step is
 * remembered, the recovery code marked used.
 */
export async function useCodeIn(tx: Tx, userId: string, input: string): Promise<CodeUse> {
  const code = readCode(input)
  const [row] = await tx
    .select({ secret: totpCredentials.secret, lastUsedStep: totpCredentials.lastUsedStep })
    .from(totpCredentials)
    .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.confirmedAt)))
    .for('update')
  if (!row || !code) return { ok: false }
  if (code.kind === 'totp') {
    const key = openKey(userId, row.secret)
    const step = key ? matchingStep(key, code.code, row.lastUsedStep) : null
    if (step === null) return { ok: false }
    await tx.update(totpCredentials).set({ lastUsedStep: step }).where(eq(totpCredentials.userId, userId))
  } else {
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, hashSecret(code.code)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id })
    if (!used) return { ok: false }
  }
  const [left] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
  return { ok: true, method: code.kind, recoveryCodesLeft: Number(left?.n ?? 0) }
}

/** The counter a code attempt for this user counts against: the trusted browser's own, or the account's. */
function limitKey(userId: string, device: TrustedDevice | null | undefined) {
  return device && device.uid === userId
    ? { key: `second-factor:device:${device.id}`, rule: SECOND_FACTOR_LIMITS.device }
    : { key: `second-factor:account:${userId}`, rule: SECOND_FACTOR_LIMITS.account }
}

export type Limited = { limited: true; retryAfterSeconds: number }

/**
 * Runs a code check under the second factor's limits: counted before the check (a parallel burst
 * cannot slip under the limit), forgiven when the code was right.
 */
export async function underCodeLimit<T extends { ok: boolean }>(
  userId: string,
  device: TrustedDevice | null | undefined,
  check: () => Promise<T>,
): Promise<T | Limited> {
  const { key, rule } = limitKey(userId, device)
  const state = await hit(key, rule)
  if (state.limited) {
    await refund(key)
    return { limited: true, retryAfterSeconds: state.retryAfterSeconds }
  }
  const result = await check()
  if (result.ok) await reset(key)
  return result
}

export const isLimited = (value: object): value is Limited => 'limited' in value && value.limited === true

// ---- on the profile ----

/** Recovery codes all spent or written down wrong: a new set, for a current code. */
export async function regenerateRecoveryCodes(
  actor: Actor,
  code: string,
): Promise<Outcome<{ recoveryCodes: string[] }>> {
  const result = await underCodeLimit(actor.id, null, () =>
    getDb().transaction(async (tx) => {
      const [on] = await tx
        .select({ userId: totpCredentials.userId })
        .from(totpCredentials)
        .where(and(eq(totpCredentials.userId, actor.id), isNotNull(totpCredentials.confirmedAt)))
      if (!on) return { ok: false as const, off: true }
      const used = await useCodeIn(tx, actor.id, code)
      if (!used.ok) {
        await recordAudit(tx, actor, {
          action: 'auth.second_factor_failed',
          entity: 'user',
          entityId: actor.id,
        })
        return { ok: false as const, off: false }
      }
      const codes = await replaceRecoveryCodes(tx, actor.id)
      await recordAudit(tx, actor, {
        action: 'auth.recovery_codes_replaced',
        entity: 'user',
        entityId: actor.id,
        details: { with: used.method },
      })
      return { ok: true as const, codes }
    }),
  )
  if (isLimited(result))
    return { ok: false, formErrors: [TOO_MANY_CODES], retryAfterSeconds: result.retryAfterSeconds }
  if (!result.ok) return result.off ? refuse(NOT_ON) : refuseField('code', WRONG_CODE)
  return { ok: true, value: { recoveryCodes: result.codes } }
}

/**
 * Turns the second factor off (the password was checked by the caller): a code proves the
 * authenticator or a recovery code is at hand, then the secret and every recovery code go.
 */
export async function removeSecondFactor(actor: Actor, code: string): Promise<Outcome<void>> {
  const result = await underCodeLimit(actor.id, null, () =>
    getDb().transaction(async (tx) => {
      const used = await useCodeIn(tx, actor.id, code)
      if (!used.ok) {
        const [on] = await tx
          .select({ userId: totpCredentials.userId })
          .from(totpCredentials)
          .where(and(eq(totpCredentials.userId, actor.id), isNotNull(totpCredentials.confirmedAt)))
        if (on)
          await recordAudit(tx, actor, {
            action: 'auth.second_factor_failed',
            entity: 'user',
            entityId: actor.id,
          })
        return { ok: false as const, off: !on }
      }
      await tx.delete(totpCredentials).where(eq(totpCredentials.userId, actor.id))
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, actor.id))
      await recordAudit(tx, actor, {
        action: 'auth.second_factor_disabled',
        entity: 'user',
        entityId: actor.id,
        details: { with: used.method },
      })
      return { ok: true as const }
    }),
  )
  if (isLimited(result))
    return { ok: false, formErrors: [TOO_MANY_CODES], retryAfterSeconds: result.retryAfterSeconds }
  if (!result.ok) return result.off ? refuse(NOT_ON) : refuseField('code', WRONG_CODE)
  return { ok: true, value: undefined }
}
