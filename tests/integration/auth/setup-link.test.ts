import { eq } from 'drizzle-orm'
import { describe, expect, test, vi } from 'vitest'
import { users } from '#db/schema/index'
import { createUser } from '#db/factories'
import { getEnv, parseEnv } from '#app/config/env.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { ensureFirstAdmin } from '#app/modules/auth/bootstrap.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, useTestServer } from '#tests/support/app'
import { alertTexts, fieldErrors, postSignIn, sessionTokenFrom, setCookie } from './helpers'

/**
 * A fresh deployment is administrable (DESIGN.md §6): with no admin, start-up prints a one-time
 * setup link; following it creates the first admin. ADMIN_EMAIL/ADMIN_PASSWORD do it instead.
 * The tests run in order on one database that starts without any admin.
 */
const db = useTestDatabase()
const server = useTestServer()

const EXPIRED = AUTH_ERROR_MESSAGES['auth/expired-action-code']

/** ensureFirstAdmin prints the link for the operator; keep it out of the test output but check it. */
async function issueLink() {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  try {
    const result = await ensureFirstAdmin(getEnv())
    const printed = write.mock.calls.map((c) => String(c[0])).join('')
    if (result.setupLink) expect(printed).toContain(result.setupLink)
    return result
  } finally {
    write.mockRestore()
  }
}

const pathOf = (link: string) => new URL(link).pathname + new URL(link).search

async function follow(link: string) {
  const response = await send(server, pathOf(link))
  expect(response.status).toBe(302)
  expect(location(response)).toBe('/verification?mode=setup')
  return cookiesFrom(response)
}

const admin = {
  displayName: 'First Admin',
  email: 'First.Admin@Example.test',
  password: 'a long admin passphrase',
  confirmPassword: 'a long admin passphrase',
}

describe('setup link', () => {
  test('with no admin, each start issues a link; any live one works (instances start together)', async () => {
    const first = await issueLink()
    expect(first.setupLink).toMatch(/^http:\/\/localhost:3000\/verification\?mode=setup&code=[\w-]{16,}$/)
    const second = await issueLink()
    expect(second.setupLink).not.toBe(first.setupLink)

    const earlier = await send(server, pathOf(first.setupLink!))
    expect(earlier.status).toBe(302)
    expect(location(earlier)).toBe('/verification?mode=setup')
  })

  test('following it and posting name, e-mail and password creates the admin and signs them in', async () => {
    const { setupLink } = await issueLink()
    const cookie = await follow(setupLink!)

    const form = await send(server, '/verification?mode=setup', { cookie })
    expect(form.status).toBe(200)
    const html = await form.text()
    for (const field of ['displayName', 'email', 'password', 'confirmPassword'])
      expect(html).toContain(`name="${field}"`)

    const weak = await send(server, '/verification?mode=setup', {
      cookie,
      form: { ...admin, password: 'short', confirmPassword: 'short' },
    })
    expect(weak.status).toBe(400)
    expect(fieldErrors(await weak.text(), 'password')).toEqual(['Use at least 8 characters.'])
    expect(await db().select().from(users).where(eq(users.role, 'admin'))).toHaveLength(0)

    const created = await send(server, '/verification?mode=setup', { cookie, form: admin })
    expect(created.status).toBe(302)
    expect(location(created)).toBe('/admin')
    const token = sessionTokenFrom(created)!
    expect(token).toBeTruthy()
    expect(setCookie(created, '__action')?.attributes['max-age']).toBe('0')

    const [row] = await db().select().from(users).where(eq(users.role, 'admin'))
    expect(row).toMatchObject({
      email: 'first.admin@example.test',
      displayName: 'First Admin',
      role: 'admin',
    })
    expect(row!.emailVerifiedAt).toBeInstanceOf(Date)
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/)

    const home = await send(server, '/admin', { cookie: `__session=${encodeURIComponent(token)}` })
    expect(home.status).toBe(200)

    // A second use of the same link (same cookie, or the link itself) is refused.
    const replay = await send(server, '/verification?mode=setup', {
      cookie,
      form: { ...admin, email: 'second@example.test' },
    })
    expect(replay.status).toBe(410)
    expect(alertTexts(await replay.text()).join(' ')).toContain(EXPIRED)
    const again = await send(server, pathOf(setupLink!))
    expect(again.status).toBe(410)
    expect(await db().select().from(users).where(eq(users.role, 'admin'))).toHaveLength(1)

    // And the admin signs in with the password they chose.
    const signIn = await postSignIn(server, { email: admin.email, password: admin.password })
    expect(signIn.status).toBe(302)
    expect(location(signIn)).toBe('/admin')
  })

  test('once an admin exists, start-up issues no link', async () => {
    expect(await db().select().from(users).where(eq(users.role, 'admin'))).toHaveLength(1)
    expect(await issueLink()).toEqual({})
  })
})

describe('ADMIN_EMAIL / ADMIN_PASSWORD', () => {
  test('create the first admin instead of a link, and only once', async () => {
    // A deployment that starts from scratch again: no admin.
    await db().delete(users).where(eq(users.role, 'admin'))
    await createUser({ role: 'employee' })
    const env = parseEnv({
      ...process.env,
      ADMIN_EMAIL: 'Ops@Example.test',
      ADMIN_PASSWORD: 'ops password 123',
    })

    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    let result: Awaited<ReturnType<typeof ensureFirstAdmin>>
    try {
      result = await ensureFirstAdmin(env)
      // No setup link is printed when the admin comes from the environment.
      expect(write.mock.calls.map((c) => String(c[0])).join('')).not.toContain('/verification?mode=setup')
    } finally {
      write.mockRestore()
    }
    expect(result).toEqual({ createdAdmin: 'ops@example.test' })

    const signIn = await postSignIn(server, { email: 'ops@example.test', password: 'ops password 123' })
    expect(signIn.status).toBe(302)
    expect(location(signIn)).toBe('/admin')

    // The next start finds the admin and changes nothing (the password is not reset to the env's).
    const [before] = await db().select().from(users).where(eq(users.email, 'ops@example.test'))
    expect(await ensureFirstAdmin({ ...env, ADMIN_PASSWORD: 'another password 456' })).toEqual({})
    const [after] = await db().select().from(users).where(eq(users.email, 'ops@example.test'))
    expect(after!.passwordHash).toBe(before!.passwordHash)
    expect(await db().select().from(users).where(eq(users.role, 'admin'))).toHaveLength(1)
  })
})
