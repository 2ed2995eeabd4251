import { and, eq, gt, isNotNull, lt, sql } from 'drizzle-orm'
import type { TFunction } from 'i18next'
import { getDb, type Tx } from '#db/client'
import { secondFactorChallenges, totpCredentials, users } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import { hashSecret } from '#app/lib/secret-hash.server'
import { refuse, type Outcome } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'
import type { Toast } from '#app/modules/toast/toast.server'
import type { TrustedDevice } from './device.server'
import type { Role } from './permissions'
import {
  createSession,
  newToken,
  secretMatches,
  sessionCookie,
  tokenParts,
  type SessionResult,
  type SignInMethod,
} from './session.server'
import {
  confirmEnrolmentIn,
  isLimited,
  RECOVERY_CODE_COUNT,
  startEnrolmentIn,
  TOO_MANY_CODES,
  underCodeLimit,
  useCodeIn,
  WRONG_CODE,
} from './totp.server'

/**
 * The second step of signing in (ADR 048). After a good password (or an e-mailed sign-in or reset
 * link) a user with an authenticator — or an admin who must have one and has none — gets no session
 * yet: a challenge, held in its own short-lived cookie, that opens nothing but /sign-in/second-factor.
 * There a code (or a recovery code) turns it into the same database session as any other sign-in; an
 * admin without an authenticator sets one up first. Single sign-on calls {@link openSignIn} with
 * `method: 'sso'`: admins then rely on the provider's MFA unless SSO_ADMINS_SKIP_TOTP is false.
 */

export const CHALLENGE_COOKIE = '__second_factor'
/** Long enough to find the phone or set up an app, short enough that a forgotten tab is no way in. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000
/** Wrong codes one challenge takes before it ends (the password is then asked again). */
export const CHALLENGE_MAX_ATTEMPTS = 5
export const SECOND_FACTOR_PATH = '/sign-in/second-factor'
/** Where an admin who must set up a second factor is sent from every other page. */
export const SECOND_FACTOR_SETUP_PATH = '/admin/profile'

export type SecondFactorStep = 'none' | 'verify' | 'enrol'

/**
 * What a sign-in must pass before it becomes a session: nothing, a code, or (an admin on an install
 * that requires a second factor, who has none) setting up an authenticator. Admins signing in
 * through SSO rely on the provider's MFA while SSO_ADMINS_SKIP_TOTP holds (the default).
 */
export function secondFactorStep(
  user: { role: Role; totpEnabled: boolean },
  { via }: { via: SignInMethod },
): SecondFactorStep {
  const env = getEnv()
  if (via === 'sso' && env.SSO_ADMINS_SKIP_TOTP) return 'none'
  if (user.totpEnabled) return 'verify'
  return user.role === 'admin' && env.ADMIN_TOTP_REQUIRED ? 'enrol' : 'none'
}

/** Whether a sign-in by this user, this way, must pass a second step (for the SSO callback). */
export function secondFactorRequired(
  user: { role: Role; totpEnabled: boolean },
  options: { via: SignInMethod },
) {
  return secondFactorStep(user, options) !== 'none'
}

/**
 * A live session that must set up a second factor before anything else: an admin's, opened before
 * ADMIN_TOTP_REQUIRED was set or before their authenticator was turned off. The guards send it to
 * {@link SECOND_FACTOR_SETUP_PATH}.
 */
export function mustSetUpSecondFactor(result: Pick<SessionResult, 'user' | 'session'>) {
  return secondFactorStep(result.user, { via: result.session.signInMethod }) === 'enrol'
}

async function hasAuthenticator(tx: Tx, userId: string) {
  const [credential] = await tx
    .select({ userId: totpCredentials.userId })
    .from(totpCredentials)
    .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.confirmedAt)))
  return Boolean(credential)
}

export type OpenedSignIn =
  | { kind: 'session'; token: string; expiresAt: Date }
  | { kind: 'second-factor'; token: string; expiresAt: Date; step: 'verify' | 'enrol' }

/**
 * A sign-in whose first factor has passed: a session, or a challenge when a second step is due. In
 * the caller's transaction (the link and reset sign-ins use their code in the same one).
 */
export async function openSignIn(
  tx: Tx,
  /** `totpEnabled` when the caller read it with the user already (else one statement reads it). */
  user: { id: string; role: Role; totpEnabled?: boolean },
  meta: { ip?: string | null; userAgent?: string | null; method?: SignInMethod },
): Promise<OpenedSignIn> {
  const method = meta.method ?? 'password'
  const totpEnabled = user.totpEnabled ?? (await hasAuthenticator(tx, user.id))
  const step = secondFactorStep({ role: user.role, totpEnabled }, { via: method })
  if (step === 'none') {
    const { token, session } = await createSession(user.id, { ...meta, method }, tx)
    return { kind: 'session', token, expiresAt: session.expiresAt }
  }
  // The set-up's secret is made now, on this POST: the step's page (a GET) only shows it.
  if (step === 'enrol') await startEnrolmentIn(tx, user.id)
  const { id, secret } = newToken()
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS)
  await tx.insert(secondFactorChallenges).values({
    id,
    secretHash: hashSecret(secret),
    userId: user.id,
    step,
    signInMethod: method,
    expiresAt,
  })
  return { kind: 'second-factor', token: `${id}.${secret}`, expiresAt, step }
}

// ---- the challenge's cookie ----

function cookieAttributes(maxAge: number, expires: Date) {
  return [
    'Path=/sign-in',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAge}`,
    `Expires=${expires.toUTCString()}`,
    ...(getEnv().secure ? ['Secure'] : []),
  ]
}

/** The Set-Cookie that carries a challenge to the second step (only paths under /sign-in see it). */
export function challengeCookie(token: string, expiresAt: Date) {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000))
  return [`${CHALLENGE_COOKIE}=${encodeURIComponent(token)}`, ...cookieAttributes(maxAge, expiresAt)].join(
    '; ',
  )
}

export function clearChallengeCookie() {
  return [`${CHALLENGE_COOKIE}=`, ...cookieAttributes(0, new Date(0))].join('; ')
}

/** Whether the browser sent a challenge cookie at all (live or not). */
export function hasChallengeCookie(request: Request) {
  return readChallengeToken(request) !== null
}

function readChallengeToken(request: Request): string | null {
  const header = request.headers.get('Cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === CHALLENGE_COOKIE) {
      try {
        return decodeURIComponent(rest.join('='))
      } catch {
        return null
      }
    }
  }
  return null
}

// ---- the challenge ----

export type Challenge = {
  id: string
  userId: string
  email: string
  role: Role
  /** What the page asks for now: a code, the set-up, or (set-up confirmed) "Continue". */
  step: 'verify' | 'enrol' | 'enrolled'
  signInMethod: SignInMethod
  expiresAt: Date
}

/** The request's live challenge (cookie, secret, expiry, attempts, an enabled user), else null. */
export async function readChallenge(request: Request): Promise<Challenge | null> {
  const parts = tokenParts(readChallengeToken(request))
  if (!parts) return null
  const [row] = await getDb()
    .select({
      id: secondFactorChallenges.id,
      secretHash: secondFactorChallenges.secretHash,
      userId: secondFactorChallenges.userId,
      step: secondFactorChallenges.step,
      signInMethod: secondFactorChallenges.signInMethod,
      enrolledAt: secondFactorChallenges.enrolledAt,
      expiresAt: secondFactorChallenges.expiresAt,
      email: users.email,
      role: users.role,
      totpConfirmedAt: totpCredentials.confirmedAt,
    })
    .from(secondFactorChallenges)
    .innerJoin(users, and(eq(users.id, secondFactorChallenges.userId), sql`${users.disabledAt} IS NULL`))
    .leftJoin(totpCredentials, eq(totpCredentials.userId, users.id))
    .where(
      and(
        eq(secondFactorChallenges.id, parts.id),
        gt(secondFactorChallenges.expiresAt, sql`now()`),
        lt(secondFactorChallenges.attempts, CHALLENGE_MAX_ATTEMPTS),
      ),
    )
    .limit(1)
  if (!row || !secretMatches(parts.secret, row.secretHash)) return null
  const step =
    row.step === 'verify'
      ? 'verify'
      : row.enrolledAt
        ? 'enrolled'
        : // Set up meanwhile from another browser: a code is what is asked now.
          row.totpConfirmedAt
          ? 'verify'
          : 'enrol'
  return {
    id: row.id,
    userId: row.userId,
    email: row.email,
    role: row.role,
    step,
    signInMethod: row.signInMethod === 'sso' ? 'sso' : 'password',
    expiresAt: row.expiresAt,
  }
}

type Meta = { ip: string; userAgent: string | null }

/** A sign-in completed: the session's cookie value, for the user's home. */
export type SecondFactorDone = {
  token: string
  expiresAt: Date
  user: { id: string; role: Role }
  method: 'totp' | 'recovery' | 'setup'
  recoveryCodesLeft: number
}

export type VerifyRefusal =
  | { ok: false; reason: 'wrong'; message: string; attemptsLeft: number }
  | { ok: false; reason: 'limited'; message: string; retryAfterSeconds: number }
  /** The challenge is gone (expired, used, or out of attempts): the password is asked again. */
  | { ok: false; reason: 'ended' }

/**
 * A code (or a recovery code) for a challenge: right, the challenge becomes a session, in one
 * transaction with the code's use; wrong, it counts against the challenge (5, then it ends) and the
 * account's code limit, and is recorded.
 */
export async function verifyChallenge(
  challenge: Challenge,
  code: string,
  meta: Meta & { device?: TrustedDevice | null },
): Promise<({ ok: true } & SecondFactorDone) | VerifyRefusal> {
  const actor = { id: challenge.userId, ip: meta.ip }
  const result = await underCodeLimit(challenge.userId, meta.device, () =>
    getDb().transaction(async (tx) => {
      const [live] = await tx
        .select({ attempts: secondFactorChallenges.attempts })
        .from(secondFactorChallenges)
        .where(
          and(
            eq(secondFactorChallenges.id, challenge.id),
            gt(secondFactorChallenges.expiresAt, sql`now()`),
            lt(secondFactorChallenges.attempts, CHALLENGE_MAX_ATTEMPTS),
          ),
        )
        .for('update')
      if (!live) return { ok: false as const, ended: true, attemptsLeft: 0 }
      const used = await useCodeIn(tx, challenge.userId, code)
      if (!used.ok) {
        const attempts = live.attempts + 1
        if (attempts >= CHALLENGE_MAX_ATTEMPTS)
          await tx.delete(secondFactorChallenges).where(eq(secondFactorChallenges.id, challenge.id))
        else
          await tx
            .update(secondFactorChallenges)
            .set({ attempts })
            .where(eq(secondFactorChallenges.id, challenge.id))
        await recordAudit(tx, actor, {
          action: 'auth.second_factor_failed',
          entity: 'user',
          entityId: challenge.userId,
          details: { attempt: attempts },
        })
        return {
          ok: false as const,
          ended: attempts >= CHALLENGE_MAX_ATTEMPTS,
          attemptsLeft: CHALLENGE_MAX_ATTEMPTS - attempts,
        }
      }
      await tx.delete(secondFactorChallenges).where(eq(secondFactorChallenges.id, challenge.id))
      const { token, session } = await createSession(
        challenge.userId,
        { ...meta, method: challenge.signInMethod },
        tx,
      )
      await recordAudit(tx, actor, {
        action: 'auth.signed_in_with_second_factor',
        entity: 'user',
        entityId: challenge.userId,
        details: { with: used.method, recoveryCodesLeft: used.recoveryCodesLeft },
      })
      return {
        ok: true as const,
        token,
        expiresAt: session.expiresAt,
        method: used.method,
        recoveryCodesLeft: used.recoveryCodesLeft,
      }
    }),
  )
  if (isLimited(result))
    return {
      ok: false,
      reason: 'limited',
      message: TOO_MANY_CODES,
      retryAfterSeconds: result.retryAfterSeconds,
    }
  if (!result.ok) {
    if (result.ended) return { ok: false, reason: 'ended' }
    return { ok: false, reason: 'wrong', message: WRONG_CODE, attemptsLeft: result.attemptsLeft }
  }
  return {
    ok: true,
    token: result.token,
    expiresAt: result.expiresAt,
    user: { id: challenge.userId, role: challenge.role },
    method: result.method,
    recoveryCodesLeft: result.recoveryCodesLeft,
  }
}

/**
 * The set-up of an admin who must have a second factor, confirmed by its first code: the
 * authenticator is on and the recovery codes are shown once; the challenge waits for "Continue".
 */
export async function confirmChallengeSetUp(
  challenge: Challenge,
  code: string,
  meta: Meta,
): Promise<Outcome<{ recoveryCodes: string[] }>> {
  return getDb().transaction(async (tx) => {
    const [live] = await tx
      .select({ id: secondFactorChallenges.id })
      .from(secondFactorChallenges)
      .where(
        and(
          eq(secondFactorChallenges.id, challenge.id),
          eq(secondFactorChallenges.step, 'enrol'),
          sql`${secondFactorChallenges.enrolledAt} IS NULL`,
          gt(secondFactorChallenges.expiresAt, sql`now()`),
        ),
      )
      .for('update')
    if (!live) return refuse('This sign-in has ended. Please sign in again.')
    const confirmed = await confirmEnrolmentIn(tx, { id: challenge.userId, ip: meta.ip }, code)
    if (!confirmed.ok) return confirmed
    await tx
      .update(secondFactorChallenges)
      .set({ enrolledAt: sql`now()` })
      .where(eq(secondFactorChallenges.id, challenge.id))
    return confirmed
  })
}

/** "Continue" once the recovery codes are saved: the set-up challenge becomes a session. */
export async function finishChallengeSetUp(
  challenge: Challenge,
  meta: Meta,
): Promise<SecondFactorDone | null> {
  return getDb().transaction(async (tx) => {
    const [ended] = await tx
      .delete(secondFactorChallenges)
      .where(
        and(
          eq(secondFactorChallenges.id, challenge.id),
          isNotNull(secondFactorChallenges.enrolledAt),
          gt(secondFactorChallenges.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: secondFactorChallenges.id })
    if (!ended) return null
    const { token, session } = await createSession(
      challenge.userId,
      { ...meta, method: challenge.signInMethod },
      tx,
    )
    await recordAudit(
      tx,
      { id: challenge.userId, ip: meta.ip },
      {
        action: 'auth.signed_in_with_second_factor',
        entity: 'user',
        entityId: challenge.userId,
        details: { with: 'setup' },
      },
    )
    return {
      token,
      expiresAt: session.expiresAt,
      user: { id: challenge.userId, role: challenge.role },
      method: 'setup',
      recoveryCodesLeft: RECOVERY_CODE_COUNT,
    }
  })
}

/**
 * After a recovery code: how many are left, and a nudge to make new ones when few are. `t` is the
 * second-factor namespace in the request's language (getFixedT(request, 'second-factor')).
 */
export function recoveryCodeToast(done: SecondFactorDone, t: TFunction<'second-factor'>): Toast | null {
  if (done.method !== 'recovery') return null
  const left = done.recoveryCodesLeft
  return {
    kind: left <= 3 ? 'error' : 'info',
    title: t('recoveryToast.title'),
    description:
      left === 0
        ? t('recoveryToast.last')
        : t(left <= 3 ? 'recoveryToast.leftFew' : 'recoveryToast.left', { count: left }),
  }
}

/** "Cancel": the challenge ends (the set-up's unconfirmed secret stays until replaced). */
export async function cancelChallenge(challenge: Challenge) {
  await getDb().delete(secondFactorChallenges).where(eq(secondFactorChallenges.id, challenge.id))
}

/**
 * Where a sign-in goes next, and the cookie it carries: the second step (keeping where the person
 * was going), or the session. For every route that signs someone in.
 */
export function afterFirstFactor(opened: OpenedSignIn, redirectTo?: string | null) {
  if (opened.kind === 'session')
    return { secondFactor: false as const, cookie: sessionCookie(opened.token, opened.expiresAt) }
  const query = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ''
  return {
    secondFactor: true as const,
    location: `${SECOND_FACTOR_PATH}${query}`,
    cookie: challengeCookie(opened.token, opened.expiresAt),
  }
}
