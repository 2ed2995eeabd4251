import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { and, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import {
  auditLog,
  rateLimits,
  recoveryCodes,
  secondFactorChallenges,
  sessions,
  totpCredentials,
  users,
} from '#db/schema/index'
import { createScheme, createUser } from '#db/factories'
import { resetEnvCache } from '#app/config/env.server'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { CHALLENGE_MAX_ATTEMPTS, CHALLENGE_TTL_MS } from '#app/modules/auth/second-factor.server'
import { createSession } from '#app/modules/auth/session.server'
import {
  confirmEnrolment,
  getSecondFactorState,
  RECOVERY_CODE_COUNT,
  startEnrolment,
  timeStep,
  TOTP_PERIOD_SECONDS,
  totpCodeAt,
  WRONG_CODE,
  WRONG_SETUP_CODE,
} from '#app/modules/auth/totp.server'
import { NO_KEY_MESSAGE } from '#app/lib/secret-box.server'
import { hashSecret } from '#app/lib/secret-hash.server'
import { useTestDatabase } from '#tests/support/database'
import { usePreviewLanguages } from '#tests/support/languages'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import {
  FACTORY_PASSWORD,
  alertTexts,
  decodeEntities,
  fieldErrors,
  postSignIn,
  sessionRowsOf,
  sessionTokenFrom,
  setCookie,
  textOf,
  titleOf,
} from './helpers'

/**
 * Admins' second factor (issue 20 §2, ADR 048) through the real stack: setting up an authenticator
 * on the profile, the sign-in's second step (a code, a recovery code), its limits, single use, the
 * half-signed-in state that opens nothing, the install-wide requirement, the e-mailed links, turning
 * it off, and bad input everywhere.
 */
const db = useTestDatabase()
const server = useTestServer()

const STEP = '/sign-in/second-factor'
const PROFILE = '/admin/profile'

beforeEach(async () => {
  await db().delete(rateLimits)
})

const DATABASE_URL_AT_START = process.env.DATABASE_URL

function setEnv(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  resetEnvCache()
  server.build!.resetEnvCache()
}

afterEach(() =>
  setEnv({
    ADMIN_TOTP_REQUIRED: undefined,
    SSO_ADMINS_SKIP_TOTP: undefined,
    SECRET_KEY: undefined,
    NODE_ENV: 'test',
    DATABASE_URL: DATABASE_URL_AT_START,
    SESSION_SECRET: undefined,
  }),
)

/**
 * The server checks a code a moment after the test computed it: near the end of a 30-second step the
 * two may fall in different steps. Starting well inside a step keeps "one step behind" exact.
 */
async function awayFromStepEdge() {
  const intoStep = Date.now() % (TOTP_PERIOD_SECONDS * 1000)
  const left = TOTP_PERIOD_SECONDS * 1000 - intoStep
  if (left < 4000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

const keyOf = (secret: string) => decodeBase32IgnorePadding(secret.replace(/\s/g, ''))
const codeAt = (key: Uint8Array, offset = 0) => totpCodeAt(key, timeStep() + offset)

/** An admin with an authenticator set up (by the module, one step back, so now and later steps are free). */
async function enrolledAdmin(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser({ role: 'admin', ...overrides })
  await awayFromStepEdge()
  await startEnrolment({ id: user.id })
  const key = keyOf((await getSecondFactorState(user.id)).setup!.secret)
  const confirmed = await confirmEnrolment({ id: user.id }, codeAt(key, -1))
  if (!confirmed.ok) throw new Error('set-up refused')
  return { ...user, key, codes: confirmed.value.recoveryCodes }
}

/** The password step: its answer, and the cookie jar it leaves (the challenge's cookie). */
async function passwordStep(email: string, options: { redirectTo?: string; cookie?: string } = {}) {
  const response = await postSignIn(
    server,
    { email, password: FACTORY_PASSWORD, redirectTo: options.redirectTo },
    { headers: options.cookie ? { Cookie: options.cookie } : undefined },
  )
  return { response, cookie: cookiesFrom(response, options.cookie ?? '') }
}

const verify = (cookie: string, code: string, extra: Record<string, string> = {}) =>
  send(server, STEP, { cookie, form: { intent: 'verify', code, ...extra } })

const auditOf = async (userId: string) =>
  (
    await db()
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.entityId, userId))
  ).map((r) => r.action)

const challengesOf = (userId: string) =>
  db().select().from(secondFactorChallenges).where(eq(secondFactorChallenges.userId, userId))

describe('setting up on the profile', () => {
  test('start, scan (QR code and key), a wrong code, the right one: on, with ten recovery codes shown once', async () => {
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)

    const before = await send(server, PROFILE, { cookie })
    expect(before.headers.get('Cache-Control')).toBe('no-store')
    const off = await before.text()
    expect(textOf(off)).toContain('Two-factor sign-in')
    expect(off).toContain('name="intent" value="two-factor-start"')

    const started = await send(server, PROFILE, { cookie, form: { intent: 'two-factor-start' } })
    expect(started.status).toBe(302)
    expect(location(started)).toBe(PROFILE)
    const setup = await (await send(server, PROFILE, { cookie })).text()
    expect(setup).toMatch(
      /<img src="data:image\/svg\+xml;base64,[\w+/=]+" alt="QR code for your authenticator app/,
    )
    const secret = decodeEntities(/data-testid="totp-secret"[^>]*>([^<]+)</.exec(setup)![1]!)
    expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/)
    const key = keyOf(secret)
    expect(key).toHaveLength(20)
    // The QR code carries the otpauth URI: issuer, account, the same key.
    const svg = Buffer.from(/data:image\/svg\+xml;base64,([\w+/=]+)/.exec(setup)![1]!, 'base64').toString()
    expect(svg).toMatch(/^<svg/)

    // The secret is stored encrypted, never as the key the page shows.
    const [row] = await db().select().from(totpCredentials).where(eq(totpCredentials.userId, admin.id))
    expect(row!.confirmedAt).toBeNull()
    expect(row!.secret).toMatch(/^v1\./)
    expect(row!.secret).not.toContain(secret.replace(/ /g, ''))
    expect(row!.secret.toLowerCase()).not.toContain(secret.replace(/ /g, '').toLowerCase())

    await awayFromStepEdge()
    const wrong = await send(server, PROFILE, {
      cookie,
      form: { intent: 'two-factor-confirm', code: codeAt(key, 5) },
    })
    expect(wrong.status).toBe(400)
    expect(fieldErrors(await wrong.text(), 'code')).toEqual([WRONG_SETUP_CODE])

    const right = await send(server, PROFILE, {
      cookie,
      form: { intent: 'two-factor-confirm', code: codeAt(key) },
    })
    expect(right.status).toBe(200)
    const shown = await right.text()
    const codes = [...shown.matchAll(/<li>([a-z2-7]{4}(?:-[a-z2-7]{4}){3})<\/li>/g)].map((m) => m[1]!)
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT)
    expect(textOf(shown)).toContain('They are shown only now')

    const [on] = await db().select().from(totpCredentials).where(eq(totpCredentials.userId, admin.id))
    expect(on!.confirmedAt).not.toBeNull()
    expect(on!.lastUsedStep).toBe(timeStep())
    // Only SHA-256 of each code is kept.
    const stored = await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, admin.id))
    expect(stored.map((r) => r.codeHash).sort()).toEqual(
      codes.map((c) => hashSecret(c.replace(/-/g, ''))).sort(),
    )
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace(/-/g, ''))
    expect(await auditOf(admin.id)).toContain('auth.second_factor_enabled')

    // Shown once: the page afterwards says it is on and how many codes are left, not the codes.
    const after = await (await send(server, PROFILE, { cookie })).text()
    expect(textOf(after)).toContain('10 recovery codes left')
    expect(after).not.toContain(codes[0])
    // The session the set-up happened in stays signed in.
    expect((await send(server, '/admin', { cookie })).status).toBe(200)
  })

  test('bad input and wrong states answer 400 in words, never 500', async () => {
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)
    const post = (form: Record<string, string>) => send(server, PROFILE, { cookie, form })

    // Confirming with no set-up under way.
    const none = await post({ intent: 'two-factor-confirm', code: '123456' })
    expect(none.status).toBe(400)
    expect(alertTexts(await none.text()).join(' ')).toMatch(/Start the set-up again/)

    await post({ intent: 'two-factor-start' })
    for (const [code, message] of [
      ['', 'Enter the six-digit code your authenticator app shows.'],
      ['abcdef', 'Enter the six digits your authenticator app shows.'],
      ['12345', 'Enter the six digits your authenticator app shows.'],
      ['abcd-efgh-ijkl-mnop', 'Enter the six digits your authenticator app shows.'],
      ['9'.repeat(5000), 'Enter the six digits your authenticator app shows.'],
    ] as const) {
      const response = await post({ intent: 'two-factor-confirm', code })
      expect(response.status, code.slice(0, 20)).toBe(400)
      expect(fieldErrors(await response.text(), 'code')).toEqual([message])
    }
    // Turning off or making codes while it is off.
    const codes = await post({ intent: 'two-factor-codes', code: '123456' })
    expect(codes.status).toBe(400)
    expect(alertTexts(await codes.text()).join(' ')).toMatch(/not on/)
    const disable = await post({
      intent: 'two-factor-disable',
      currentPassword: FACTORY_PASSWORD,
      code: '123456',
    })
    expect(disable.status).toBe(400)
    // An unknown intent, a JSON body.
    expect((await post({ intent: 'two-factor-everything' })).status).toBe(400)
    const json = await send(server, PROFILE, { cookie, json: { intent: 'two-factor-start' } })
    expect(json.status).toBe(400)
    // Nothing was turned on by any of it.
    expect((await getSecondFactorState(admin.id)).enabled).toBe(false)
  })

  test('a server with no SECRET_KEY (production on Postgres) refuses a set-up in words and stores nothing', async () => {
    const admin = await createUser({ role: 'admin' })
    setEnv({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://panorama@db.example/panorama',
      SESSION_SECRET: 's'.repeat(40),
      SECRET_KEY: undefined,
    })
    expect(await startEnrolment({ id: admin.id })).toMatchObject({ ok: false, formErrors: [NO_KEY_MESSAGE] })
    setEnv({ NODE_ENV: 'test', DATABASE_URL: DATABASE_URL_AT_START, SESSION_SECRET: undefined })
    expect(await db().select().from(totpCredentials).where(eq(totpCredentials.userId, admin.id))).toEqual([])
  })

  test('cancel drops the unconfirmed secret; starting again replaces it; an authenticator that is on is never replaced', async () => {
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)
    await send(server, PROFILE, { cookie, form: { intent: 'two-factor-start' } })
    const first = (await getSecondFactorState(admin.id)).setup!.secret
    await send(server, PROFILE, { cookie, form: { intent: 'two-factor-start' } })
    const second = (await getSecondFactorState(admin.id)).setup!.secret
    expect(second).not.toBe(first)
    const cancelled = await send(server, PROFILE, { cookie, form: { intent: 'two-factor-cancel' } })
    expect(cancelled.status).toBe(302)
    expect(
      await db().select().from(totpCredentials).where(eq(totpCredentials.userId, admin.id)),
    ).toHaveLength(0)

    const enrolled = await enrolledAdmin()
    const again = await send(server, PROFILE, {
      cookie: await sessionCookieFor(enrolled.id),
      form: { intent: 'two-factor-start' },
    })
    expect(again.status).toBe(400)
    expect(alertTexts(await again.text()).join(' ')).toMatch(/already on/)
    const [row] = await db().select().from(totpCredentials).where(eq(totpCredentials.userId, enrolled.id))
    expect(row!.confirmedAt).not.toBeNull()
  })
})

describe('signing in with a second factor', () => {
  test('the password step opens no session: a short-lived challenge cookie for the second step only', async () => {
    const admin = await enrolledAdmin()
    const { response, cookie } = await passwordStep(admin.email)
    expect(response.status).toBe(302)
    expect(location(response)).toBe(STEP)
    expect(setCookie(response, '__session')).toBeUndefined()
    expect(setCookie(response, '__device')).toBeUndefined()
    const challenge = setCookie(response, '__second_factor')!
    expect(challenge.attributes.httponly).toBe(true)
    expect(String(challenge.attributes.samesite).toLowerCase()).toBe('lax')
    expect(challenge.attributes.path).toBe('/sign-in')
    const maxAge = Number(challenge.attributes['max-age'])
    expect(maxAge).toBeGreaterThan(CHALLENGE_TTL_MS / 1000 - 30)
    expect(maxAge).toBeLessThanOrEqual(CHALLENGE_TTL_MS / 1000)
    expect(await sessionRowsOf(admin.id)).toHaveLength(0)
    // Only its hash is stored.
    const [row] = await challengesOf(admin.id)
    const [id, secret] = decodeURIComponent(challenge.value).split('.')
    expect(row!.id).toBe(id)
    expect(row!.secretHash).toBe(hashSecret(secret!))

    // It opens nothing else: the back office still asks to sign in, and its token is no session token.
    for (const jar of [cookie, `__session=${challenge.value}`])
      for (const path of ['/admin', PROFILE]) {
        const response = await send(server, path, { cookie: jar })
        expect(response.status).toBe(302)
        expect(location(response)).toBe(`/sign-in?${new URLSearchParams({ redirectTo: path })}`)
      }

    const page = await send(server, STEP, { cookie })
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('no-store')
    const html = await page.text()
    expect(titleOf(html)).toBe('Two-factor sign-in')
    expect(textOf(html)).toContain(`finish signing in as ${admin.email}`)
  })

  test('the right code signs in: session, trusted browser, challenge gone, audited', async () => {
    const admin = await enrolledAdmin()
    const { cookie } = await passwordStep(admin.email)
    const done = await verify(cookie, codeAt(admin.key))
    expect(done.status).toBe(302)
    expect(location(done)).toBe('/admin')
    const token = sessionTokenFrom(done)!
    expect(token).toBeTruthy()
    expect(setCookie(done, '__device')?.value).toBeTruthy()
    expect(setCookie(done, '__second_factor')?.attributes['max-age']).toBe('0')
    expect(await challengesOf(admin.id)).toHaveLength(0)
    const [session] = await sessionRowsOf(admin.id)
    expect(session!.signInMethod).toBe('password')
    expect((await send(server, '/admin', { cookie: `__session=${encodeURIComponent(token)}` })).status).toBe(
      200,
    )
    expect(await auditOf(admin.id)).toContain('auth.signed_in_with_second_factor')
  })

  test('where the person was going survives the second step; a foreign address does not', async () => {
    const admin = await enrolledAdmin()
    const first = await passwordStep(admin.email, { redirectTo: '/admin/brand-management?x=1' })
    expect(location(first.response)).toBe(`${STEP}?redirectTo=%2Fadmin%2Fbrand-management%3Fx%3D1`)
    const done = await verify(first.cookie, codeAt(admin.key), { redirectTo: '/admin/brand-management?x=1' })
    expect(done.headers.get('Location')).toBe('/admin/brand-management?x=1')

    const second = await passwordStep(admin.email)
    const evil = await verify(second.cookie, codeAt(admin.key, 1), { redirectTo: '//evil.example' })
    expect(evil.status).toBe(302)
    expect(evil.headers.get('Location')).toBe('/admin')
  })

  test('each code works once, within one step of clock drift either way', async () => {
    const admin = await enrolledAdmin()
    // Forget the set-up's step, so that the step behind now is free again.
    await db().update(totpCredentials).set({ lastUsedStep: null }).where(eq(totpCredentials.userId, admin.id))
    await awayFromStepEdge()

    // Computed once: should the clock pass into the next step meanwhile, each still proves its point.
    const now = timeStep()
    const [behindCode, nowCode, aheadCode] = [-1, 0, 1].map((offset) => totpCodeAt(admin.key, now + offset))

    const behind = await passwordStep(admin.email)
    expect((await verify(behind.cookie, behindCode!)).status).toBe(302)

    // The same code again, on a new challenge: refused.
    const replay = await passwordStep(admin.email)
    const refused = await verify(replay.cookie, behindCode!)
    expect(refused.status).toBe(400)
    expect(fieldErrors(await refused.text(), 'code')[0]).toBe(WRONG_CODE)

    // Codes too far from now: refused.
    for (const offset of [-3, 3]) {
      const far = await verify(replay.cookie, totpCodeAt(admin.key, now + offset))
      expect(far.status, `offset ${offset}`).toBe(400)
    }
    // One step ahead (a phone's clock a little fast) is fine; then nothing at or before it is.
    expect((await verify(replay.cookie, aheadCode!)).status).toBe(302)
    const after = await passwordStep(admin.email)
    expect((await verify(after.cookie, nowCode!)).status).toBe(400)
  })

  test('a recovery code signs in once, typed any way; the toast says how many are left', async () => {
    const admin = await enrolledAdmin()
    const code = admin.codes[3]!
    const { cookie } = await passwordStep(admin.email)
    const done = await verify(cookie, ` ${code.toUpperCase().replace(/-/g, ' ')} `)
    expect(done.status).toBe(302)
    expect(sessionTokenFrom(done)).toBeTruthy()
    expect(setCookie(done, '__toast')).toBeDefined()
    const home = await send(server, '/admin', { cookie: cookiesFrom(done) })
    expect(textOf(await home.text())).toContain(`${RECOVERY_CODE_COUNT - 1} recovery codes left`)
    const [used] = await db()
      .select()
      .from(recoveryCodes)
      .where(
        and(
          eq(recoveryCodes.userId, admin.id),
          eq(recoveryCodes.codeHash, hashSecret(code.replace(/-/g, ''))),
        ),
      )
    expect(used!.usedAt).not.toBeNull()

    const again = await passwordStep(admin.email)
    const refused = await verify(again.cookie, code)
    expect(refused.status).toBe(400)
    expect(fieldErrors(await refused.text(), 'code')[0]).toBe(WRONG_CODE)
    // Someone else's recovery code is no code of this account.
    const other = await enrolledAdmin()
    expect((await verify(again.cookie, other.codes[0]!)).status).toBe(400)
  })

  test('another SECRET_KEY: the app’s codes no longer match (the secret does not open), a recovery code still signs in', async () => {
    const admin = await enrolledAdmin()
    setEnv({ SECRET_KEY: 'ab'.repeat(32) })
    const { cookie } = await passwordStep(admin.email)
    const refused = await verify(cookie, codeAt(admin.key))
    expect(refused.status).toBe(400)
    expect(fieldErrors(await refused.text(), 'code')[0]).toBe(WRONG_CODE)
    const done = await verify(cookie, admin.codes[0]!)
    expect(done.status).toBe(302)
    expect(sessionTokenFrom(done)).toBeTruthy()
  })

  test('bad input answers 400 in words and costs no attempt; a missing or unknown intent is refused', async () => {
    const admin = await enrolledAdmin()
    const { cookie } = await passwordStep(admin.email)
    const notACode = 'That is not a code: enter the six digits from your app, or a recovery code.'
    for (const [code, message] of [
      ['', 'Enter the code from your authenticator app, or a recovery code.'],
      ['hello', notACode],
      ['12345', notACode],
      ['x'.repeat(10_000), notACode],
    ] as const) {
      const response = await verify(cookie, code)
      expect(response.status).toBe(400)
      const html = await response.text()
      expect(fieldErrors(html, 'code')).toEqual([message])
      expect(html).not.toContain('x'.repeat(100))
    }
    const [row] = await challengesOf(admin.id)
    expect(row!.attempts).toBe(0)
    const forms: Record<string, string>[] = [
      {},
      { intent: 'nonsense', code: '123456' },
      { intent: 'confirm', code: '123456' },
      { intent: 'continue' },
    ]
    for (const form of forms) {
      const response = await send(server, STEP, { cookie, form })
      expect(response.status).toBe(400)
    }
    const json = await send(server, STEP, { cookie, json: { intent: 'verify', code: codeAt(admin.key) } })
    expect(json.status).toBe(400)
    expect(await sessionRowsOf(admin.id)).toHaveLength(0)
  })

  test('five wrong codes end the challenge: the password is asked again; each is recorded', async () => {
    const admin = await enrolledAdmin()
    const { cookie } = await passwordStep(admin.email)
    for (let i = 1; i < CHALLENGE_MAX_ATTEMPTS; i++) {
      const wrong = await verify(cookie, codeAt(admin.key, 5))
      expect(wrong.status).toBe(400)
      expect(fieldErrors(await wrong.text(), 'code')).toEqual([
        WRONG_CODE,
        `${CHALLENGE_MAX_ATTEMPTS - i} ${CHALLENGE_MAX_ATTEMPTS - i === 1 ? 'try' : 'tries'} left before you need to sign in again.`,
      ])
    }
    const last = await verify(cookie, codeAt(admin.key, 5))
    expect(last.status).toBe(302)
    expect(location(last)).toBe('/sign-in')
    expect(setCookie(last, '__second_factor')?.attributes['max-age']).toBe('0')
    expect(await challengesOf(admin.id)).toHaveLength(0)
    // The right code on the dead challenge does nothing.
    const late = await verify(cookie, codeAt(admin.key))
    expect(late.status).toBe(302)
    expect(location(late)).toBe('/sign-in')
    expect(sessionTokenFrom(late)).toBeUndefined()
    expect((await auditOf(admin.id)).filter((a) => a === 'auth.second_factor_failed')).toHaveLength(
      CHALLENGE_MAX_ATTEMPTS,
    )
  })

  test('the step has its own limit per account (429 with Retry-After, even for the right code); the owner’s trusted browser is not held back', async () => {
    const admin = await enrolledAdmin()
    // The owner signed in from this browser before: it holds a device cookie for the account.
    const owner = await passwordStep(admin.email)
    const ownerDone = await verify(owner.cookie, codeAt(admin.key))
    const device = setCookie(ownerDone, '__device')!
    const deviceCookie = `__device=${device.value}`

    // Someone with the password, elsewhere: five wrong codes over two challenges.
    const a = await passwordStep(admin.email)
    for (let i = 0; i < 3; i++) await verify(a.cookie, '000000')
    const b = await passwordStep(admin.email)
    for (let i = 0; i < 2; i++) await verify(b.cookie, '000000')
    const limited = await verify(b.cookie, codeAt(admin.key, 1))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(alertTexts(await limited.text())).toEqual([
      'Too many attempts. Please wait a few minutes and try again.',
    ])
    expect(sessionTokenFrom(limited)).toBeUndefined()

    // The owner's browser counts apart.
    const mine = await passwordStep(admin.email, { cookie: deviceCookie })
    const done = await verify(mine.cookie, codeAt(admin.key, 1))
    expect(done.status).toBe(302)
    expect(sessionTokenFrom(done)).toBeTruthy()
  })

  test('without a live challenge the step sends to the password: none, forged, expired, a disabled account', async () => {
    expect(location(await send(server, STEP))).toBe('/sign-in')
    expect(location(await send(server, STEP, { form: { intent: 'verify', code: '123456' } }))).toBe(
      '/sign-in',
    )
    const forged = await send(server, STEP, { cookie: '__second_factor=abc.def' })
    expect(location(forged)).toBe('/sign-in')
    expect(setCookie(forged, '__toast')).toBeDefined()
    expect(location(await send(server, STEP, { cookie: '__second_factor=%E0%A4%A' }))).toBe('/sign-in')

    const admin = await enrolledAdmin()
    const expired = await passwordStep(admin.email)
    await db()
      .update(secondFactorChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(secondFactorChallenges.userId, admin.id))
    expect(location(await send(server, STEP, { cookie: expired.cookie }))).toBe('/sign-in')
    expect(location(await verify(expired.cookie, codeAt(admin.key)))).toBe('/sign-in')

    const disabled = await passwordStep(admin.email)
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, admin.id))
    expect(location(await verify(disabled.cookie, codeAt(admin.key)))).toBe('/sign-in')
    expect(await sessionRowsOf(admin.id)).toHaveLength(0)
  })

  test('cancel ends the challenge; a signed-in visitor is sent home', async () => {
    const admin = await enrolledAdmin()
    const { cookie } = await passwordStep(admin.email)
    const cancelled = await send(server, STEP, { cookie, form: { intent: 'cancel' } })
    expect(location(cancelled)).toBe('/sign-in')
    expect(await challengesOf(admin.id)).toHaveLength(0)

    const employee = await createUser({ role: 'employee' })
    const signedIn = await sessionCookieFor(employee.id)
    expect(location(await send(server, STEP, { cookie: signedIn }))).toBe('/user')
  })

  test('employees and admins without an authenticator sign in as before, in one step', async () => {
    for (const role of ['admin', 'employee'] as const) {
      const user = await createUser({ role })
      const { response } = await passwordStep(user.email)
      expect(location(response)).toBe(role === 'admin' ? '/admin' : '/user')
      expect(sessionTokenFrom(response)).toBeTruthy()
      expect(setCookie(response, '__second_factor')).toBeUndefined()
    }
  })
})

describe('links from e-mails still take the second factor', () => {
  async function follow(mode: 'signIn' | 'resetPassword', code: string, form: Record<string, string>) {
    const opened = await send(server, `/verification?mode=${mode}&code=${code}`)
    expect(opened.status).toBe(302)
    return send(server, `/verification?mode=${mode}`, { cookie: cookiesFrom(opened), form })
  }

  test('a one-time sign-in link leads to the second step, not into the back office', async () => {
    const admin = await enrolledAdmin()
    const { code } = await createActionCode(db(), { kind: 'sign_in_link', userId: admin.id })
    const response = await follow('signIn', code, {})
    expect(response.status).toBe(302)
    expect(location(response)).toBe(STEP)
    expect(sessionTokenFrom(response)).toBeUndefined()
    const done = await verify(cookiesFrom(response), codeAt(admin.key))
    expect(location(done)).toBe('/admin')
  })

  test('a password reset sets the password and ends other sessions; signing in still takes a code', async () => {
    const admin = await enrolledAdmin()
    const old = await createSession(admin.id)
    const { code } = await createActionCode(db(), { kind: 'reset_password', userId: admin.id })
    const response = await follow('resetPassword', code, {
      password: 'a brand new passphrase',
      confirmPassword: 'a brand new passphrase',
    })
    expect(location(response)).toBe(STEP)
    expect(sessionTokenFrom(response)).toBeUndefined()
    expect(await db().select().from(sessions).where(eq(sessions.id, old.session.id))).toHaveLength(0)
    const done = await verify(cookiesFrom(response), codeAt(admin.key))
    expect(location(done)).toBe('/admin')
  })
})

describe('turning it off and new recovery codes (profile)', () => {
  test('new recovery codes need a code; the old ones stop working', async () => {
    const admin = await enrolledAdmin()
    const cookie = await sessionCookieFor(admin.id)
    const wrong = await send(server, PROFILE, {
      cookie,
      form: { intent: 'two-factor-codes', code: '000000' },
    })
    expect(wrong.status).toBe(400)
    expect(fieldErrors(await wrong.text(), 'code')).toEqual([WRONG_CODE])

    const made = await send(server, PROFILE, {
      cookie,
      form: { intent: 'two-factor-codes', code: codeAt(admin.key) },
    })
    expect(made.status).toBe(200)
    const fresh = [...(await made.text()).matchAll(/<li>([a-z2-7]{4}(?:-[a-z2-7]{4}){3})<\/li>/g)].map(
      (m) => m[1]!,
    )
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT)
    expect(fresh).not.toContain(admin.codes[0])

    const { cookie: challenge } = await passwordStep(admin.email)
    expect((await verify(challenge, admin.codes[0]!)).status).toBe(400)
    expect((await verify(challenge, fresh[0]!)).status).toBe(302)
    expect(await auditOf(admin.id)).toContain('auth.recovery_codes_replaced')
  })

  test('turning it off needs the password and a code; then the password alone signs in', async () => {
    const admin = await enrolledAdmin()
    const cookie = await sessionCookieFor(admin.id)
    const post = (form: Record<string, string>) =>
      send(server, PROFILE, { cookie, form: { intent: 'two-factor-disable', ...form } })

    const missing = await post({})
    expect(missing.status).toBe(400)
    const missingHtml = await missing.text()
    expect(fieldErrors(missingHtml, 'currentPassword')).toEqual(['Enter your current password.'])
    expect(fieldErrors(missingHtml, 'code')).toEqual([
      'Enter the code from your authenticator app, or a recovery code.',
    ])

    const badPassword = await post({ currentPassword: 'not it', code: codeAt(admin.key) })
    expect(badPassword.status).toBe(400)
    expect(fieldErrors(await badPassword.text(), 'currentPassword')).toEqual([
      'That is not your current password.',
    ])

    const badCode = await post({ currentPassword: FACTORY_PASSWORD, code: '000000' })
    expect(badCode.status).toBe(400)
    expect(fieldErrors(await badCode.text(), 'code')).toEqual([WRONG_CODE])
    expect((await getSecondFactorState(admin.id)).enabled).toBe(true)

    // A recovery code will do (the phone is lost).
    const off = await post({ currentPassword: FACTORY_PASSWORD, code: admin.codes[0]! })
    expect(off.status).toBe(302)
    expect(location(off)).toBe(PROFILE)
    expect(
      await db().select().from(totpCredentials).where(eq(totpCredentials.userId, admin.id)),
    ).toHaveLength(0)
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, admin.id))).toHaveLength(0)
    expect(await auditOf(admin.id)).toContain('auth.second_factor_disabled')

    const { response } = await passwordStep(admin.email)
    expect(location(response)).toBe('/admin')
    expect(sessionTokenFrom(response)).toBeTruthy()
  })
})

describe('ADMIN_TOTP_REQUIRED', () => {
  test('an admin without an authenticator sets one up right after the password, before any page; then continues signed in', async () => {
    setEnv({ ADMIN_TOTP_REQUIRED: 'true' })
    const admin = await createUser({ role: 'admin' })
    const { response, cookie } = await passwordStep(admin.email, { redirectTo: '/admin/scheme-management' })
    expect(location(response)).toBe(`${STEP}?redirectTo=%2Fadmin%2Fscheme-management`)
    expect(sessionTokenFrom(response)).toBeUndefined()

    const page = await send(server, STEP, { cookie })
    const html = await page.text()
    expect(titleOf(html)).toBe('Set up two-factor sign-in')
    const key = keyOf(decodeEntities(/data-testid="totp-secret"[^>]*>([^<]+)</.exec(html)![1]!))

    // The code form of a verify step is not this step's.
    expect((await verify(cookie, codeAt(key))).status).toBe(400)
    await awayFromStepEdge()
    const wrong = await send(server, STEP, { cookie, form: { intent: 'confirm', code: codeAt(key, 4) } })
    expect(wrong.status).toBe(400)
    expect(fieldErrors(await wrong.text(), 'code')).toEqual([WRONG_SETUP_CODE])
    const confirmed = await send(server, STEP, { cookie, form: { intent: 'confirm', code: codeAt(key) } })
    expect(confirmed.status).toBe(200)
    expect(sessionTokenFrom(confirmed)).toBeUndefined()
    const shown = await confirmed.text()
    expect([...shown.matchAll(/<li>([a-z2-7]{4}(?:-[a-z2-7]{4}){3})<\/li>/g)]).toHaveLength(
      RECOVERY_CODE_COUNT,
    )

    // Reloaded, the page no longer shows the codes, only "Continue".
    const reloaded = await (await send(server, STEP, { cookie })).text()
    expect(titleOf(reloaded)).toBe('Set up two-factor sign-in')
    expect(reloaded).toContain('name="intent" value="continue"')
    expect(reloaded).not.toMatch(/<li>[a-z2-7]{4}-/)

    const done = await send(server, STEP, {
      cookie,
      form: { intent: 'continue', redirectTo: '/admin/scheme-management' },
    })
    expect(done.status).toBe(302)
    expect(location(done)).toBe('/admin/scheme-management')
    const token = sessionTokenFrom(done)!
    expect((await send(server, '/admin', { cookie: `__session=${encodeURIComponent(token)}` })).status).toBe(
      200,
    )
    expect((await getSecondFactorState(admin.id)).enabled).toBe(true)
    // Continue again (a second tab) does nothing.
    expect(location(await send(server, STEP, { cookie, form: { intent: 'continue' } }))).toBe('/sign-in')
  })

  test('a session opened before (no authenticator) reaches only its profile until it sets one up; SSO sessions rely on the provider', async () => {
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)
    const scheme = await createScheme()
    setEnv({ ADMIN_TOTP_REQUIRED: 'true' })
    for (const path of ['/admin', '/admin/employee-management', `/questionnaire/${scheme.questionnaireId}`]) {
      const response = await send(server, path, { cookie })
      expect(response.status, path).toBe(302)
      expect(location(response), path).toBe(PROFILE)
    }
    const profile = await send(server, PROFILE, { cookie })
    expect(profile.status).toBe(200)
    expect(alertTexts(await profile.text()).join(' ')).toContain('Set up two-factor sign-in to continue.')

    // Set up on the profile: the rest of the back office opens.
    await send(server, PROFILE, { cookie, form: { intent: 'two-factor-start' } })
    const key = keyOf((await getSecondFactorState(admin.id)).setup!.secret)
    const confirmed = await send(server, PROFILE, {
      cookie,
      form: { intent: 'two-factor-confirm', code: codeAt(key) },
    })
    expect(confirmed.status).toBe(200)
    expect((await send(server, '/admin', { cookie })).status).toBe(200)

    // An admin signed in through single sign-on relies on the provider's MFA by default…
    const sso = await createUser({ role: 'admin' })
    const { token } = await createSession(sso.id, { method: 'sso' })
    const ssoCookie = `__session=${encodeURIComponent(token)}`
    expect((await send(server, '/admin', { cookie: ssoCookie })).status).toBe(200)
    // …unless the install says otherwise.
    setEnv({ ADMIN_TOTP_REQUIRED: 'true', SSO_ADMINS_SKIP_TOTP: 'false' })
    expect(location(await send(server, '/admin', { cookie: ssoCookie }))).toBe(PROFILE)

    // Employees are never asked.
    const employee = await createUser({ role: 'employee' })
    expect((await send(server, '/user', { cookie: await sessionCookieFor(employee.id) })).status).toBe(200)
    const { response } = await passwordStep(employee.email)
    expect(location(response)).toBe('/user')
  })

  test('turning it off when it is required sends the admin straight back to setting up a new one', async () => {
    setEnv({ ADMIN_TOTP_REQUIRED: 'true' })
    const admin = await enrolledAdmin()
    const cookie = await sessionCookieFor(admin.id)
    const off = await send(server, PROFILE, {
      cookie,
      form: { intent: 'two-factor-disable', currentPassword: FACTORY_PASSWORD, code: codeAt(admin.key) },
    })
    expect(location(off)).toBe(PROFILE)
    expect(location(await send(server, '/admin', { cookie }))).toBe(PROFILE)
  })
})

describe('in German (ADR 050)', () => {
  const preview = usePreviewLanguages(server)

  test('the recovery code’s toast is written in the reader’s language, with its plural', async () => {
    preview('de')
    const german = { 'Accept-Language': 'de' }
    const admin = await enrolledAdmin()
    const { cookie } = await passwordStep(admin.email)
    const done = await send(server, STEP, {
      cookie,
      form: { intent: 'verify', code: admin.codes[0]! },
      headers: german,
    })
    expect(done.status).toBe(302)
    const home = textOf(
      await (await send(server, '/admin', { cookie: cookiesFrom(done), headers: german })).text(),
    )
    expect(home).toContain('Mit einem Wiederherstellungscode angemeldet')
    expect(home).toContain(`${RECOVERY_CODE_COUNT - 1} Wiederherstellungscodes übrig.`)
    expect(home).not.toContain('recovery codes left')
  })
})
