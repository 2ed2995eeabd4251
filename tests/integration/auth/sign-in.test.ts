import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { rateLimits, sessions } from '#db/schema/index'
import { createUser } from '#db/factories'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { SESSION_TTL_MS } from '#app/modules/auth/session.server'
import { useTestDatabase } from '#tests/support/database'
import { location, send, useTestServer } from '#tests/support/app'
import {
  FACTORY_PASSWORD,
  alertTexts,
  fieldErrors,
  postSignIn,
  sessionRow,
  sessionRowsOf,
  sessionTokenFrom,
  setCookie,
  sha256Hex,
} from './helpers'

/**
 * Password sign-in through the real stack (Express → React Router action → Postgres): where it
 * lands, the cookie it sets, the session row behind it, and what a failure does and does not tell.
 */
const db = useTestDatabase()
const server = useTestServer()

const INVALID = AUTH_ERROR_MESSAGES['auth/invalid-credential']

// Every request here comes from 127.0.0.1, which has its own limit of 100 failures an hour; the
// limits have their own test file, so each test starts with fresh counters.
beforeEach(async () => {
  await db().delete(rateLimits)
})

describe('success', () => {
  test('an admin lands on /admin with an HttpOnly, SameSite=Lax session cookie backed by a hashed row', async () => {
    const admin = await createUser({ role: 'admin' })
    const before = Date.now()
    const response = await postSignIn(server, { email: admin.email, password: FACTORY_PASSWORD })

    expect(response.status).toBe(302)
    expect(location(response)).toBe('/admin')
    const cookie = setCookie(response, '__session')!
    expect(cookie).toBeDefined()
    expect(cookie.attributes.httponly).toBe(true)
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe('lax')
    expect(cookie.attributes.path).toBe('/')
    // APP_URL is http in tests: a Secure cookie would never come back over plain http.
    expect(cookie.attributes.secure).toBeUndefined()
    const maxAge = Number(cookie.attributes['max-age'])
    expect(maxAge).toBeGreaterThan(SESSION_TTL_MS / 1000 - 60)
    expect(maxAge).toBeLessThanOrEqual(SESSION_TTL_MS / 1000)

    const token = sessionTokenFrom(response)!
    const [id, secret, extra] = token.split('.')
    expect(id && secret && extra === undefined).toBe(true)
    const row = (await sessionRow(id!))!
    expect(row.userId).toBe(admin.id)
    // Only SHA-256(secret) is stored: a leaked sessions table does not sign anybody in.
    expect(row.secretHash).toBe(sha256Hex(secret!))
    expect(Object.values(row).map(String)).not.toContain(secret)
    expect(JSON.stringify(row)).not.toContain(secret)
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_TTL_MS - 5_000)
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + SESSION_TTL_MS + 5_000)

    // The cookie works: the admin home answers instead of sending us to sign in.
    const home = await send(server, '/admin', { cookie: `__session=${cookie.value}` })
    expect(home.status).toBe(200)
  })

  test('an employee lands on /user; the e-mail is matched case-insensitively', async () => {
    const employee = await createUser({ role: 'employee' })
    const response = await postSignIn(server, {
      email: `  ${employee.email.toUpperCase()} `,
      password: FACTORY_PASSWORD,
    })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/user')
    expect(sessionTokenFrom(response)).toBeTruthy()
  })

  test('every sign-in opens a new session; earlier ones stay', async () => {
    const employee = await createUser({ role: 'employee' })
    const first = sessionTokenFrom(
      await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD }),
    )!
    const second = sessionTokenFrom(
      await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD }),
    )!
    const [firstId] = first.split('.')
    const [secondId] = second.split('.')
    expect(firstId).not.toBe(secondId)
    const rows = await sessionRowsOf(employee.id)
    expect(rows.map((r) => r.id).sort()).toEqual([firstId, secondId].sort())
  })
})

describe('failure', () => {
  async function failureOf(email: string, password: string) {
    const response = await postSignIn(server, { email, password })
    const html = await response.text()
    return { status: response.status, alerts: alertTexts(html), cookie: setCookie(response, '__session') }
  }

  test('wrong password, unknown e-mail and a disabled account answer the same status and byte-identical text', async () => {
    const employee = await createUser({ role: 'employee' })
    const disabled = await createUser({ role: 'employee', disabledAt: new Date() })
    const wrong = await failureOf(employee.email, 'not the password')
    const unknown = await failureOf('nobody-here@example.test', 'not the password')
    const off = await failureOf(disabled.email, FACTORY_PASSWORD)

    expect(wrong.status).toBe(400)
    expect(wrong.alerts).toEqual([INVALID])
    expect(unknown).toEqual(wrong)
    expect(off).toEqual(wrong)
    expect(wrong.cookie).toBeUndefined()
    expect(await sessionRowsOf(employee.id)).toHaveLength(0)
    expect(await sessionRowsOf(disabled.id)).toHaveLength(0)
  })

  test('a colleague has no password and cannot sign in with any', async () => {
    const colleague = await createUser({ role: 'colleague' })
    expect(colleague.passwordHash).toBeNull()
    for (const password of [FACTORY_PASSWORD, 'anything at all', ' ']) {
      const result = await failureOf(colleague.email, password)
      expect(result.status).toBe(400)
      expect(result.alerts).toEqual([INVALID])
      expect(result.cookie).toBeUndefined()
    }
    expect(await sessionRowsOf(colleague.id)).toHaveLength(0)
  })

  test('an unknown e-mail costs an argon2 verification like a wrong password does', async () => {
    const employee = await createUser({ role: 'employee' })
    const time = async (email: string) => {
      // The account limit allows 5 failures: clear the counters so every attempt reaches argon2.
      await db().delete(rateLimits)
      const started = performance.now()
      const response = await postSignIn(server, { email, password: 'not the password' })
      await response.arrayBuffer()
      expect(response.status).toBe(400)
      return performance.now() - started
    }
    // Warm-up: the first unknown-address check computes the dummy hash once per process.
    await time('warm-up@example.test')
    await time(employee.email)
    const unknown: number[] = []
    const wrong: number[] = []
    // Interleaved, so load from other processes on this 2-core machine hits both series alike.
    for (let i = 0; i < 5; i++) {
      unknown.push(await time(`nobody-${i}@example.test`))
      wrong.push(await time(employee.email))
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    // Without the dummy verification an unknown address answers in a few ms against tens of ms
    // for argon2id (a ratio well under 0.2); the median keeps one stalled request from deciding.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.5)
  })
})

describe('redirectTo', () => {
  test('a path on this site is honoured, query string included', async () => {
    const admin = await createUser({ role: 'admin' })
    const response = await postSignIn(server, {
      email: admin.email,
      password: FACTORY_PASSWORD,
      redirectTo: '/admin/brand-management?x=1',
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/admin/brand-management?x=1')
  })

  test.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    ' //evil.example',
    '/\t/evil.example',
    // Only "//evil.example" once the dot segment is resolved: the normalised path is checked again.
    '/..//evil.example',
    '/.//evil.example',
  ])('%s is ignored: the role home instead', async (redirectTo) => {
    const employee = await createUser({ role: 'employee' })
    const response = await postSignIn(server, {
      email: employee.email,
      password: FACTORY_PASSWORD,
      redirectTo,
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/user')
  })

  test('an encoded look-alike stays a path on this site', async () => {
    const employee = await createUser({ role: 'employee' })
    const response = await postSignIn(server, {
      email: employee.email,
      password: FACTORY_PASSWORD,
      redirectTo: '/%2F%2Fevil.example',
    })
    expect(response.status).toBe(302)
    const target = response.headers.get('Location')!
    expect(target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\')).toBe(true)
    expect(new URL(target, server.url).origin).toBe(server.url)
  })
})

describe('bad input answers 400 with the field message, never 500', () => {
  test('empty fields', async () => {
    const response = await postSignIn(server, { email: '', password: '' })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, 'email')).toEqual(['Enter your e-mail address.'])
    expect(fieldErrors(html, 'password')).toEqual(['Enter your password.'])
  })

  test('an invalid e-mail address', async () => {
    const response = await postSignIn(server, { email: 'not-an-address', password: 'whatever' })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, 'email')).toEqual(['Enter a valid e-mail address.'])
    expect(fieldErrors(html, 'password')).toEqual([])
  })

  test('missing fields altogether', async () => {
    const response = await send(server, '/sign-in', { form: {} })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, 'email')).toEqual(['Enter your e-mail address.'])
    expect(fieldErrors(html, 'password')).toEqual(['Enter your password.'])
  })

  test('a 10 KB password is refused before any hashing, and never echoed back', async () => {
    const employee = await createUser({ role: 'employee' })
    const password = 'p'.repeat(10 * 1024)
    const response = await postSignIn(server, { email: employee.email, password })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, 'password')).toHaveLength(1)
    expect(html).not.toContain(password.slice(0, 200))
    // Refused by the schema, so it did not count as a failed attempt against the account.
    const counters = await db()
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `sign-in:account:${employee.email}`))
    expect(counters).toHaveLength(0)
  })

  test('a multipart form works like an urlencoded one', async () => {
    const employee = await createUser({ role: 'employee' })
    const multipart = new FormData()
    multipart.set('email', employee.email)
    multipart.set('password', FACTORY_PASSWORD)
    const response = await send(server, '/sign-in', { form: multipart })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/user')
  })

  // request.formData() throws on a body that is not a form: the action answers 400, so nobody can
  // make it answer 500 (and page the error tracker).
  test.each([
    ['a JSON body', { 'Content-Type': 'application/json' }, '{"email":"a@example.test","password":"x"}'],
    ['a broken multipart body', { 'Content-Type': 'multipart/form-data; boundary=x' }, 'not multipart'],
  ])('%s answers 400, not 500', async (_name, headers, body) => {
    const response = await fetch(`${server.url}/sign-in`, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
    })
    await response.arrayBuffer()
    expect(response.status, 'a malformed form body must be a client error').toBe(400)
  })
})

test('no session row is written for any failed attempt', async () => {
  const before = await db().select({ id: sessions.id }).from(sessions)
  await postSignIn(server, { email: 'nobody@example.test', password: 'x' })
  await postSignIn(server, { email: '', password: '' })
  const after = await db().select({ id: sessions.id }).from(sessions)
  expect(after).toHaveLength(before.length)
})
