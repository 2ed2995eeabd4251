import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  auditLog,
  identityProviders,
  rateLimits,
  sessions,
  ssoLoginStates,
  userIdentities,
  users,
} from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { SSO_CALLBACK_PATH } from '#app/lib/identity-provider-values'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { resetEnvCache } from '#app/config/env.server'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { setPasswordWithCode } from '#app/modules/auth/auth.server'
import {
  confirmEnrolment,
  getSecondFactorState,
  startEnrolment,
  timeStep,
  totpCodeAt,
} from '#app/modules/auth/totp.server'
import { createIdentityProvider, updateIdentityProvider } from '#app/modules/sso/provider.server'
import { ssoFailureText } from '#app/modules/sso/failure'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { signInAtProvider, startTestProvider, type TestProvider } from '#tests/support/oidc-provider'
import { FACTORY_PASSWORD, freePort, postSignIn, sessionTokenFrom, setCookie, textOf } from './helpers'

/**
 * Single sign-on (issue 20 §1, ADR 049) against a real OpenID provider: `oidc-provider` runs in this
 * process, the built app discovers it, sends the browser there, and exchanges the code it answers
 * with at its token endpoint. Every path: the link on first use, the subject on the next, the
 * just-in-time account, and every way it can fail — each a page with words and an audit row.
 */
const db = useTestDatabase()
const server = useTestServer()

/** APP_URL in the tests: where the provider sends the browser back (then replayed to the test server). */
const CALLBACK = `http://localhost:3000${SSO_CALLBACK_PATH}`
const DOMAIN = 'contoso.test'

let idp: TestProvider
let company: { id: string }
let providerId: string

beforeAll(async () => {
  idp = await startTestProvider({ redirectUris: [CALLBACK] })
  company = await createCompany()
  const created = await createIdentityProvider(
    { id: (await createUser({ role: 'admin' })).id },
    {
      name: 'Contoso',
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      scopes: ['openid', 'email', 'profile'],
      domains: [DOMAIN],
      companyIds: [company.id],
      allowPassword: true,
      jitCompanyId: null,
    },
  )
  if (!created.ok) throw new Error(JSON.stringify(created))
  providerId = created.value.id
})

afterAll(async () => {
  await idp?.close()
})

beforeEach(async () => {
  await db().delete(rateLimits)
})

let accounts = 0
/** An account at the provider (its subject is also the login typed there). */
function providerAccount(email: string | undefined, extra: { emailVerified?: boolean; name?: string } = {}) {
  const sub = `sub-${++accounts}-${Math.random().toString(36).slice(2, 8)}`
  idp.accounts.set(sub, { sub, email, emailVerified: extra.emailVerified ?? true, name: extra.name })
  return sub
}

/** Through the whole flow as a browser would: the start, the provider's pages, the callback. */
async function signInThrough(
  email: string,
  login: string,
  options: { deny?: boolean; redirectTo?: string } = {},
) {
  const query = new URLSearchParams({ email })
  if (options.redirectTo) query.set('redirectTo', options.redirectTo)
  const start = await send(server, `/sign-in/sso?${query}`)
  expect(start.status, await start.clone().text()).toBe(302)
  const cookie = cookiesFrom(start)
  const back = await signInAtProvider(start.headers.get('Location')!, { login, deny: options.deny })
  expect(back.origin + back.pathname).toBe(CALLBACK)
  const callbackPath = back.pathname + back.search
  const callback = await send(server, callbackPath, { cookie })
  return { start, cookie, callbackPath, callback }
}

async function auditRows(action: string) {
  return db().select().from(auditLog).where(eq(auditLog.action, action))
}

describe('the happy path', () => {
  test('an employee signs in through the provider: the subject is linked on first use, the session is a normal one', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `erin.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const sub = providerAccount(employee.email)
    const { start, callback } = await signInThrough(employee.email, sub)

    // The start: a redirect to the provider's authorization endpoint with PKCE, state and nonce.
    const authorize = new URL(start.headers.get('Location')!)
    expect(authorize.origin).toBe(idp.issuer)
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorize.searchParams.get('state')).toBeTruthy()
    expect(authorize.searchParams.get('nonce')).toBeTruthy()
    expect(authorize.searchParams.get('redirect_uri')).toBe(CALLBACK)
    expect(authorize.searchParams.get('login_hint')).toBe(employee.email)
    const sso = setCookie(start, '__sso')!
    expect(sso.attributes.httponly).toBe(true)
    expect(String(sso.attributes.samesite).toLowerCase()).toBe('lax')

    expect(callback.status, textOf(await callback.clone().text())).toBe(302)
    expect(location(callback)).toBe('/user')
    const token = sessionTokenFrom(callback)!
    const [row] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.id, token.split('.')[0]!))
    expect(row?.userId).toBe(employee.id)
    expect(setCookie(callback, '__sso')?.attributes['max-age']).toBe('0')

    const home = await send(server, '/user', { cookie: `__session=${encodeURIComponent(token)}` })
    expect(home.status).toBe(200)

    const links = await db().select().from(userIdentities).where(eq(userIdentities.userId, employee.id))
    expect(links).toEqual([expect.objectContaining({ issuer: idp.issuer, subject: sub })])
    const signedIn = (await auditRows('auth.signed_in_with_sso')).filter((r) => r.actorId === employee.id)
    expect(signedIn).toHaveLength(1)
    expect(signedIn[0]!.details).toMatchObject({ via: 'sso', providerId, linked: true, created: false })
    expect((await auditRows('auth.sso_linked')).some((r) => r.entityId === employee.id)).toBe(true)
  })
})

/** The words a failure's page shows (its heading), as the page's own module words them. */
const titleOf = (failure: string) => ssoFailureText({ failure, providerName: null }).title

async function failureRows(reason: string) {
  return (await auditRows('auth.sso_failed')).filter(
    (r) => (r.details as { reason?: string } | null)?.reason === reason,
  )
}

/** A failure's page: the status, its heading in the page, no session cookie, and an audit row. */
async function expectFailurePage(response: Response, status: number, failure: string) {
  const html = await response.text()
  expect(response.status, textOf(html).slice(0, 400)).toBe(status)
  expect(textOf(html)).toContain(titleOf(failure))
  expect(textOf(html)).toContain('Back to sign in')
  expect(setCookie(response, '__session')).toBeUndefined()
  return html
}

/** Another provider, set up as an admin would (the test provider's issuer unless told). */
async function addProvider(
  name: string,
  domain: string,
  overrides: Partial<Parameters<typeof createIdentityProvider>[1]> = {},
) {
  const created = await createIdentityProvider(
    { id: (await createUser({ role: 'admin' })).id },
    {
      name,
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      scopes: ['openid', 'email', 'profile'],
      domains: [domain],
      companyIds: [],
      allowPassword: true,
      jitCompanyId: null,
      ...overrides,
    },
  )
  if (!created.ok) throw new Error(JSON.stringify(created))
  return created.value.id
}

describe('the subject link', () => {
  test('the next sign-in finds the account by its subject, whatever address the provider gives now', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `frank.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const other = await createUser({
      role: 'employee',
      email: `grace.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const sub = providerAccount(employee.email)
    expect((await signInThrough(employee.email, sub)).callback.status).toBe(302)

    // Renamed at the provider, even to a colleague's address, and not verified: the subject decides,
    // and the portal's own address stays as it is.
    idp.accounts.set(sub, { sub, email: other.email, emailVerified: false })
    const again = await signInThrough(employee.email, sub)
    expect(again.callback.status).toBe(302)
    const token = sessionTokenFrom(again.callback)!
    const [row] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.id, token.split('.')[0]!))
    expect(row?.userId).toBe(employee.id)
    const [after] = await db().select({ email: users.email }).from(users).where(eq(users.id, employee.id))
    expect(after?.email).toBe(employee.email)
    expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, other.id))).toEqual([])
  })

  test('an admin at a provider’s domain signs in through it and lands on the back office', async () => {
    const admin = await createUser({ role: 'admin', email: `ada.${accounts}@${DOMAIN}` })
    const { callback } = await signInThrough(admin.email, providerAccount(admin.email))
    expect(callback.status).toBe(302)
    expect(location(callback)).toBe('/admin')
  })

  test('an admin with an authenticator: straight in by default; with SSO_ADMINS_SKIP_TOTP=false the code is asked as after a password', async () => {
    const admin = await createUser({ role: 'admin', email: `abe.${accounts}@${DOMAIN}` })
    await startEnrolment({ id: admin.id })
    const key = decodeBase32IgnorePadding((await getSecondFactorState(admin.id)).setup!.secret.replace(/\s/g, ''))
    expect((await confirmEnrolment({ id: admin.id }, totpCodeAt(key, timeStep() - 1))).ok).toBe(true)
    const sub = providerAccount(admin.email)

    const relied = await signInThrough(admin.email, sub)
    expect(location(relied.callback)).toBe('/admin')
    expect(sessionTokenFrom(relied.callback)).toBeTruthy()

    process.env.SSO_ADMINS_SKIP_TOTP = 'false'
    resetEnvCache()
    server.build!.resetEnvCache()
    try {
      const asked = await signInThrough(admin.email, sub)
      expect(asked.callback.status).toBe(302)
      expect(location(asked.callback)).toBe('/sign-in/second-factor')
      expect(sessionTokenFrom(asked.callback)).toBeFalsy()
      expect(setCookie(asked.callback, '__second_factor')).toBeDefined()
    } finally {
      delete process.env.SSO_ADMINS_SKIP_TOTP
      resetEnvCache()
      server.build!.resetEnvCache()
    }
  })

  test('the sign-in returns to where it started (a path on this site only)', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `hal.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const sub = providerAccount(employee.email)
    const local = await signInThrough(employee.email, sub, { redirectTo: '/user/edit-profile' })
    expect(location(local.callback)).toBe('/user/edit-profile')
    for (const redirectTo of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const away = await signInThrough(employee.email, sub, { redirectTo })
      expect(away.callback.status).toBe(302)
      expect(location(away.callback)).toBe('/user')
      expect(away.callback.headers.get('Location')).not.toContain('evil.example')
    }
  })

  test('a disabled account, or one linked to another subject of this issuer, is not signed in', async () => {
    const disabled = await createUser({
      role: 'employee',
      email: `ivy.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const sub = providerAccount(disabled.email)
    expect((await signInThrough(disabled.email, sub)).callback.status).toBe(302)
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.id))
    await expectFailurePage((await signInThrough(disabled.email, sub)).callback, 403, 'unknown-user')

    const linked = await createUser({
      role: 'employee',
      email: `jay.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    expect((await signInThrough(linked.email, providerAccount(linked.email))).callback.status).toBe(302)
    // A second subject claiming the same verified address is somebody else.
    const impostor = providerAccount(linked.email)
    await expectFailurePage((await signInThrough(linked.email, impostor)).callback, 403, 'unknown-user')
    const rows = (await failureRows('unknown-user')).filter((r) => r.actorId === linked.id)
    expect(rows[0]?.details).toMatchObject({ detail: 'account linked to another subject', subject: impostor })
  })
})

describe('who may not sign in', () => {
  test('an unknown address (no just-in-time accounts): a page with words, audited, nobody created', async () => {
    const email = `nobody.${accounts}@${DOMAIN}`
    const { callback } = await signInThrough(email, providerAccount(email))
    const html = await expectFailurePage(callback, 403, 'unknown-user')
    expect(textOf(html)).toContain(email)
    expect(textOf(html)).toContain('use the link in your invitation e-mail')
    expect(await db().select().from(users).where(eq(users.email, email))).toEqual([])
    const [row] = (await failureRows('unknown-user')).filter(
      (r) => (r.details as { email?: string }).email === email,
    )
    expect(row).toMatchObject({ entity: 'identity_provider', entityId: providerId, actorId: null })
  })

  test('a colleague keeps their invite links: their address does not sign in through the provider', async () => {
    const colleague = await createUser({ role: 'colleague', email: `kim.${accounts}@${DOMAIN}` })
    await expectFailurePage(
      (await signInThrough(colleague.email, providerAccount(colleague.email))).callback,
      403,
      'unknown-user',
    )
    expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, colleague.id))).toEqual(
      [],
    )
  })

  test('an address the provider did not verify, or none at all, finds no account', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `lou.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const unverified = providerAccount(employee.email, { emailVerified: false })
    await expectFailurePage(
      (await signInThrough(employee.email, unverified)).callback,
      403,
      'unverified-email',
    )
    const none = providerAccount(undefined)
    await expectFailurePage((await signInThrough(employee.email, none)).callback, 403, 'unverified-email')
    expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, employee.id))).toEqual([])
  })

  test('an address outside the provider’s domains is not its to vouch for', async () => {
    const elsewhere = await createUser({ role: 'employee', email: `mo.${accounts}@elsewhere.test` })
    const sub = providerAccount(elsewhere.email)
    const { callback } = await signInThrough(`someone@${DOMAIN}`, sub)
    await expectFailurePage(callback, 403, 'domain-not-served')
    expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, elsewhere.id))).toEqual(
      [],
    )
  })
})

describe('just-in-time accounts', () => {
  test('with a company chosen, an unknown verified address becomes an employee of that company', async () => {
    const northwind = await createCompany()
    await addProvider('Northwind', 'northwind.test', {
      companyIds: [northwind.id],
      jitCompanyId: northwind.id,
    })
    const email = `new.${accounts}@northwind.test`
    const { callback } = await signInThrough(email, providerAccount(email, { name: 'Nia New' }))
    expect(callback.status, textOf(await callback.clone().text())).toBe(302)
    expect(location(callback)).toBe('/user')
    const [created] = await db().select().from(users).where(eq(users.email, email))
    expect(created).toMatchObject({
      role: 'employee',
      companyId: northwind.id,
      displayName: 'Nia New',
      passwordHash: null,
    })
    expect(created!.emailVerifiedAt).not.toBeNull()
    expect((await auditRows('employee.created_by_sso')).some((r) => r.entityId === created!.id)).toBe(true)
  })
})

describe('failures at the provider and at the callback', () => {
  test('cancelling at the provider (access_denied) ends on a page saying so, audited', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `ned.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const { callback, callbackPath } = await signInThrough(employee.email, providerAccount(employee.email), {
      deny: true,
    })
    expect(new URLSearchParams(callbackPath.split('?')[1]).get('error')).toBe('access_denied')
    await expectFailurePage(callback, 400, 'denied')
    expect((await failureRows('denied')).length).toBeGreaterThan(0)
  })

  test('a replayed callback fails (the state is used once), and so does the code', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `oli.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const { callback, callbackPath, cookie } = await signInThrough(
      employee.email,
      providerAccount(employee.email),
    )
    expect(callback.status).toBe(302)
    const sessionsBefore = (await db().select().from(sessions).where(eq(sessions.userId, employee.id))).length
    await expectFailurePage(await send(server, callbackPath, { cookie }), 400, 'expired')
    expect(await db().select().from(sessions).where(eq(sessions.userId, employee.id))).toHaveLength(
      sessionsBefore,
    )
    expect((await failureRows('expired')).length).toBeGreaterThan(0)
  })

  test('a forged state, another browser’s state, or none: a clear page; the real browser still finishes', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `pat.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const start = await send(server, `/sign-in/sso?${new URLSearchParams({ email: employee.email })}`)
    const cookie = cookiesFrom(start)
    const back = await signInAtProvider(start.headers.get('Location')!, {
      login: providerAccount(employee.email),
    })
    const path = back.pathname + back.search

    const forged = path.replace(/state=[^&]+/, 'state=forged-state-value')
    await expectFailurePage(await send(server, forged, { cookie }), 400, 'expired')
    // The same callback in a browser that did not start it (another __sso secret, or none).
    const otherBrowser = cookiesFrom(
      await send(server, `/sign-in/sso?${new URLSearchParams({ email: employee.email })}`),
    )
    await expectFailurePage(await send(server, path, { cookie: otherBrowser }), 400, 'expired')
    await expectFailurePage(await send(server, path), 400, 'invalid-callback')
    await expectFailurePage(await send(server, SSO_CALLBACK_PATH, { cookie }), 400, 'invalid-callback')

    const real = await send(server, path, { cookie })
    expect(real.status).toBe(302)
    expect(location(real)).toBe('/user')
  })

  test('a sign-in left at the provider past its 10 minutes has expired', async () => {
    const employee = await createUser({
      role: 'employee',
      email: `quinn.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const start = await send(server, `/sign-in/sso?${new URLSearchParams({ email: employee.email })}`)
    const back = await signInAtProvider(start.headers.get('Location')!, {
      login: providerAccount(employee.email),
    })
    await db()
      .update(ssoLoginStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
    await expectFailurePage(
      await send(server, back.pathname + back.search, { cookie: cookiesFrom(start) }),
      400,
      'expired',
    )
  })

  test('a provider that does not answer: the start ends on a page (503, Retry-After), audited', async () => {
    const down = await addProvider('Down Ltd', 'down.test', {
      issuer: `http://127.0.0.1:${await freePort()}`,
    })
    const response = await send(server, '/sign-in/sso?email=someone%40down.test')
    await expectFailurePage(response, 503, 'unreachable')
    expect(response.headers.get('Retry-After')).toBeTruthy()
    const [row] = (await failureRows('unreachable')).filter((r) => r.entityId === down)
    expect(row?.details).toMatchObject({ detail: expect.stringContaining('discovery') })
  })

  test('a provider that goes down between the start and the callback: the callback’s page says so', async () => {
    const spare = await startTestProvider({ redirectUris: [CALLBACK] })
    try {
      await addProvider('Flaky', 'flaky.test', {
        issuer: spare.issuer,
        clientId: spare.clientId,
        clientSecret: spare.clientSecret,
      })
      const sub = `flaky-${accounts++}`
      spare.accounts.set(sub, { sub, email: `rae@flaky.test`, emailVerified: true })
      const start = await send(server, '/sign-in/sso?email=rae%40flaky.test')
      const back = await signInAtProvider(start.headers.get('Location')!, { login: sub })
      await spare.close()
      await expectFailurePage(
        await send(server, back.pathname + back.search, { cookie: cookiesFrom(start) }),
        503,
        'unreachable',
      )
    } finally {
      await spare.close()
    }
  })

  test('a wrong client secret: the provider refuses the code exchange, the page asks for the administrator', async () => {
    await addProvider('Wrong Secret', 'wrongsecret.test', { clientSecret: 'not-the-secret' })
    const employee = await createUser({ role: 'employee', email: `sam.${accounts}@wrongsecret.test` })
    const { callback } = await signInThrough(employee.email, providerAccount(employee.email))
    await expectFailurePage(callback, 502, 'misconfigured')
    const [row] = await failureRows('misconfigured')
    expect(row?.details).toMatchObject({ detail: 'token: invalid_client' })
    expect(JSON.stringify(row)).not.toContain('not-the-secret')
  })

  test('a provider deleted while a sign-in is at it: the callback ends on a page', async () => {
    const gone = await addProvider('Gone', 'gone.test')
    const employee = await createUser({ role: 'employee', email: `tia.${accounts}@gone.test` })
    const start = await send(server, `/sign-in/sso?${new URLSearchParams({ email: employee.email })}`)
    const back = await signInAtProvider(start.headers.get('Location')!, {
      login: providerAccount(employee.email),
    })
    await db().delete(identityProviders).where(eq(identityProviders.id, gone))
    // Its sign-ins on their way went with it: the state is unknown now.
    await expectFailurePage(
      await send(server, back.pathname + back.search, { cookie: cookiesFrom(start) }),
      400,
      'expired',
    )
  })

  test('failed callbacks from one address are limited (429 with Retry-After), without more audit rows', async () => {
    await send(server, `${SSO_CALLBACK_PATH}?state=nothing`)
    const [key] = await db().select().from(rateLimits)
    expect(key?.key).toMatch(/^sso-callback:address:/)
    await db().update(rateLimits).set({ count: 100 }).where(eq(rateLimits.key, key!.key))
    const before = (await auditRows('auth.sso_failed')).length
    const limited = await send(server, `${SSO_CALLBACK_PATH}?state=nothing`)
    await expectFailurePage(limited, 429, 'too-many')
    expect(limited.headers.get('Retry-After')).toBeTruthy()
    expect(await auditRows('auth.sso_failed')).toHaveLength(before)
  })

  test('bad input to the start goes back to the sign-in page; a signed-in visitor goes home', async () => {
    for (const query of ['', '?email=', '?email=not-an-address', `?email=${'a'.repeat(300)}%40${DOMAIN}`]) {
      const response = await send(server, `/sign-in/sso${query}`)
      expect(response.status, query).toBe(302)
      expect(location(response)).toBe('/sign-in')
    }
    // A domain no provider signs in: the password form.
    const unserved = await send(
      server,
      '/sign-in/sso?email=x%40unserved.test&redirectTo=%2Fuser%2Fedit-profile',
    )
    expect(location(unserved)).toBe('/sign-in?redirectTo=%2Fuser%2Fedit-profile')
    const employee = await createUser({ role: 'employee', companyId: company.id })
    const signedIn = await send(server, `/sign-in/sso?email=x%40${DOMAIN}`, {
      cookie: await sessionCookieFor(employee.id),
    })
    expect(location(signedIn)).toBe('/user')
    expect((await send(server, '/sign-in/sso', { method: 'POST', form: {} })).status).toBe(405)
    expect((await send(server, SSO_CALLBACK_PATH, { method: 'POST', form: {} })).status).toBe(405)
  })
})

describe('the sign-in page with providers', () => {
  test('asks for the address first; the domain alone decides where it goes', async () => {
    const page = textOf(await (await send(server, '/sign-in')).text())
    expect(page).toContain('Continue')
    const html = await (await send(server, '/sign-in')).text()
    expect(html).not.toContain('type="password"')

    const known = await createUser({
      role: 'employee',
      email: `uma.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const answers = []
    for (const email of [known.email, `nobody-here@${DOMAIN}`]) {
      const response = await send(server, '/sign-in', {
        form: { intent: 'continue', email, redirectTo: '/user' },
      })
      expect(response.status).toBe(200)
      const body = await response.text()
      expect(textOf(body)).toContain('Continue with Contoso')
      expect(body).toContain(`/sign-in/sso?email=${encodeURIComponent(email)}`)
      answers.push(textOf(body).replaceAll(email, '<email>'))
    }
    // The same page for an address with an account and one without.
    expect(answers[0]).toBe(answers[1])

    const other = await send(server, '/sign-in', { form: { intent: 'continue', email: 'vic@unserved.test' } })
    expect(other.status).toBe(200)
    const otherHtml = await other.text()
    expect(otherHtml).toContain('type="password"')
    expect(otherHtml).toContain('value="vic@unserved.test"')

    const bad = await send(server, '/sign-in', { form: { intent: 'continue', email: 'not an address' } })
    expect(bad.status).toBe(400)
    expect(textOf(await bad.text())).toContain('Enter a valid e-mail address.')
  })
})

describe('password sign-in where a company’s provider allows none', () => {
  test('refused after the right password (a wrong one reads as always); allowed elsewhere and for admins', async () => {
    const fabrikam = await createCompany()
    await addProvider('Fabrikam', 'fabrikam.test', { companyIds: [fabrikam.id], allowPassword: false })
    const locked = await createUser({
      role: 'employee',
      email: `wes.${accounts}@fabrikam.test`,
      companyId: fabrikam.id,
    })
    // Even with an address outside the provider's domains: the company's rule.
    const elsewhere = await createUser({
      role: 'employee',
      email: `xan.${accounts}@private.test`,
      companyId: fabrikam.id,
    })

    for (const user of [locked, elsewhere]) {
      const right = await postSignIn(server, { email: user.email, password: FACTORY_PASSWORD })
      expect(right.status).toBe(400)
      const text = textOf(await right.text())
      expect(text).toContain(AUTH_ERROR_MESSAGES['auth/sso-required'])
      expect(text).not.toContain('E-mail me a one-time sign-in link')
      expect(sessionTokenFrom(right)).toBeUndefined()
      const wrong = await postSignIn(server, { email: user.email, password: 'not the password' })
      expect(wrong.status).toBe(400)
      expect(textOf(await wrong.text())).toContain(AUTH_ERROR_MESSAGES['auth/invalid-credential'])
    }

    // A company whose provider keeps passwords, and an admin at the provider's domain.
    const allowed = await createUser({
      role: 'employee',
      email: `yo.${accounts}@${DOMAIN}`,
      companyId: company.id,
    })
    const admin = await createUser({ role: 'admin', email: `zed.${accounts}@fabrikam.test` })
    for (const user of [allowed, admin]) {
      const response = await postSignIn(server, { email: user.email, password: FACTORY_PASSWORD })
      expect(response.status).toBe(302)
    }

    // Nor does an activation (or reset) link set a password for such an account; it stays unused.
    const { code } = await createActionCode(db(), { kind: 'activate_account', userId: locked.id })
    const result = await setPasswordWithCode('activate_account', code, 'a new password 123', {
      ip: '127.0.0.1',
      userAgent: null,
    })
    expect(result).toEqual({ ok: false, code: 'auth/sso-required' })

    // Switched back on: the password works again.
    const [fab] = await db().select().from(identityProviders).where(eq(identityProviders.name, 'Fabrikam'))
    await updateIdentityProvider({ id: admin.id }, fab!.id, {
      name: 'Fabrikam',
      issuer: fab!.issuer,
      clientId: fab!.clientId,
      clientSecret: null,
      scopes: fab!.scopes.split(' '),
      domains: ['fabrikam.test'],
      companyIds: [fabrikam.id],
      allowPassword: true,
      jitCompanyId: null,
    })
    expect((await postSignIn(server, { email: locked.email, password: FACTORY_PASSWORD })).status).toBe(302)
  })
})

describe('a provider set by variables (OIDC_*)', () => {
  const names = [
    'OIDC_ISSUER',
    'OIDC_CLIENT_ID',
    'OIDC_CLIENT_SECRET',
    'OIDC_DOMAINS',
    'OIDC_NAME',
    'OIDC_PASSWORD_SIGN_IN',
  ]
  const resetBoth = () => {
    server.build!.resetEnvCache()
    resetEnvCache()
  }
  afterAll(() => {
    for (const name of names) delete process.env[name]
    resetBoth()
  })

  test('signs in an employee at its domains like one set up in the back office', async () => {
    Object.assign(process.env, {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_DOMAINS: 'envco.test, envco.example',
      OIDC_NAME: 'Envco sign-in',
      OIDC_PASSWORD_SIGN_IN: 'false',
    })
    resetBoth()
    const employee = await createUser({ role: 'employee', email: `abe.${accounts}@envco.test` })
    const continued = await send(server, '/sign-in', { form: { intent: 'continue', email: employee.email } })
    expect(textOf(await continued.text())).toContain('Continue with Envco sign-in')
    const { callback } = await signInThrough(employee.email, providerAccount(employee.email))
    expect(callback.status).toBe(302)
    expect(location(callback)).toBe('/user')
    const [link] = await db()
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.userId, employee.id), eq(userIdentities.issuer, idp.issuer)))
    expect(link).toBeDefined()
    const [row] = (await auditRows('auth.signed_in_with_sso')).filter((r) => r.actorId === employee.id)
    expect(row?.details).toMatchObject({ providerId: null, provider: 'Envco sign-in' })

    // OIDC_PASSWORD_SIGN_IN=false: its domains' employees have no password sign-in.
    const right = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
    expect(right.status).toBe(400)
    expect(textOf(await right.text())).toContain(AUTH_ERROR_MESSAGES['auth/sso-required'])
  })
})
