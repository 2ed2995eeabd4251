import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { auditLog, emailOutbox, rateLimits, users } from '#db/schema/index'
import { createUser } from '#db/factories'
import { createSmtpTransport, processOutboxOnce, type MailTransport } from '#app/modules/email/outbox.server'
import { EMAIL_TAKEN, WRONG_CURRENT_PASSWORD } from '#app/modules/user/profile.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import {
  FACTORY_PASSWORD,
  alertTexts,
  fieldErrors,
  postSignIn,
  sessionRowsOf,
  textOf,
  titleOf,
} from '#tests/integration/auth/helpers'

/**
 * /admin/profile: an admin changes their own name, password and e-mail address, with the employee
 * profile's module and rules (app/modules/user/profile.server.ts), from the admin layout.
 */
const db = useTestDatabase()
const server = useTestServer()
let catcher: SmtpCatcher
let transport: MailTransport

const PAGE = '/admin/profile'
const APP_URL = 'http://localhost:3000'
const NEW_PASSWORD = 'an admin’s new passphrase'

beforeAll(async () => {
  catcher = await startSmtpCatcher()
  transport = createSmtpTransport(catcher.url)
})

afterAll(async () => {
  transport?.close?.()
  await catcher?.close()
})

beforeEach(async () => {
  await db().delete(rateLimits)
})

async function admin(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser({ role: 'admin', ...overrides })
  return { ...user, cookie: await sessionCookieFor(user.id) }
}

const post = (cookie: string, form: Record<string, string>) => send(server, PAGE, { cookie, form })

async function page(cookie: string) {
  const response = await send(server, PAGE, { cookie })
  expect(response.status).toBe(200)
  return response.text()
}

const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!

function headerOf(html: string) {
  return /<header[\s\S]*?<\/header>/.exec(html)![0]
}

test('the admin layout’s header links to the page; it shows the name, password and e-mail forms', async () => {
  const me = await admin({ displayName: 'Alex Admin' })
  const dashboard = await send(server, '/admin', { cookie: me.cookie })
  const header = headerOf(await dashboard.text())
  const link = /<a([^>]*href="\/admin\/profile"[^>]*)>([^<]*)<\/a>/.exec(header)
  expect(link, 'a link to /admin/profile in the header').not.toBeNull()
  expect(link![1]).toContain('aria-label="Alex Admin, your profile"')
  expect(link![2]).toBe('Alex Admin')

  const html = await page(me.cookie)
  expect(titleOf(html)).toBe('Your profile · Panorama')
  // The admin layout, not the employees' one.
  expect(html).toContain('aria-label="Administration"')
  for (const intent of ['profile', 'password', 'email'])
    expect(html).toContain(`name="intent" value="${intent}"`)
  expect(html).not.toContain('name="intent" value="photo"')
  expect(html).toMatch(/name="displayName"[^>]*value="Alex Admin"|value="Alex Admin"[^>]*name="displayName"/)
  expect(textOf(html)).toContain(`You sign in with ${me.email}`)
})

test('the name: saved, audited, shown in the header; an empty name is refused beside the field', async () => {
  const me = await admin({ displayName: 'Alex Admin' })
  const empty = await post(me.cookie, { intent: 'profile', displayName: '  ' })
  expect(empty.status).toBe(400)
  expect(fieldErrors(await empty.text(), 'displayName')).toEqual(['Enter your name.'])

  const saved = await post(me.cookie, { intent: 'profile', displayName: 'Alexandra Admin' })
  expect(saved.status).toBe(302)
  expect(location(saved)).toBe(PAGE)
  const html = await page(cookiesFrom(saved, me.cookie))
  expect(textOf(html)).toContain('Profile saved')
  expect(textOf(headerOf(html))).toContain('Alexandra Admin')
  expect((await userRow(me.id)).displayName).toBe('Alexandra Admin')
  const audit = await db()
    .select({ action: auditLog.action, actorId: auditLog.actorId })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, me.id)))
  expect(audit).toEqual([{ action: 'user.profile_updated', actorId: me.id }])
})

describe('the password', () => {
  test('needs the current one; then this session stays, every other ends, and the new one signs in', async () => {
    const me = await admin()
    const elsewhere = await sessionCookieFor(me.id)
    const wrong = await post(me.cookie, {
      intent: 'password',
      currentPassword: 'not it',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    })
    expect(wrong.status).toBe(400)
    expect(fieldErrors(await wrong.text(), 'currentPassword')).toEqual([WRONG_CURRENT_PASSWORD])

    const short = await post(me.cookie, {
      intent: 'password',
      currentPassword: FACTORY_PASSWORD,
      newPassword: 'short',
      confirmPassword: 'short',
    })
    expect(short.status).toBe(400)
    expect(fieldErrors(await short.text(), 'newPassword')).toEqual(['Use at least 8 characters.'])

    const changed = await post(me.cookie, {
      intent: 'password',
      currentPassword: FACTORY_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    })
    expect(changed.status).toBe(302)
    expect(location(changed)).toBe(PAGE)
    expect((await send(server, PAGE, { cookie: me.cookie })).status).toBe(200)
    expect(location(await send(server, PAGE, { cookie: elsewhere }))).toBe(
      `/sign-in?redirectTo=${encodeURIComponent(PAGE)}`,
    )
    expect(await sessionRowsOf(me.id)).toHaveLength(1)
    expect((await postSignIn(server, { email: me.email, password: FACTORY_PASSWORD })).status).toBe(400)
    const signedIn = await postSignIn(server, { email: me.email, password: NEW_PASSWORD })
    expect(location(signedIn)).toBe('/admin')
  })
})

describe('the e-mail address', () => {
  test('changes once the link sent to the new address is confirmed; then the admin signs in with it', async () => {
    const me = await admin({ displayName: 'Mo Admin' })
    const newEmail = `mo.admin-${me.id.slice(0, 8)}@example.test`
    const requested = await post(me.cookie, { intent: 'email', newEmail, currentPassword: FACTORY_PASSWORD })
    expect(requested.status).toBe(302)
    expect(textOf(await page(cookiesFrom(requested, me.cookie)))).toContain(
      `Pending change to ${newEmail} — check your inbox.`,
    )
    expect((await userRow(me.id)).email).toBe(me.email)

    await processOutboxOnce({ transport })
    const message = await catcher.waitFor((m) => m.envelopeTo.includes(newEmail), 10_000)
    const link = extractLinks(message.text).find((l) =>
      l.startsWith(`${APP_URL}/verification?mode=verifyEmail&code=`),
    )!
    const url = new URL(link)
    const opened = await send(server, url.pathname + url.search)
    const confirmed = await send(server, location(opened)!, { cookie: cookiesFrom(opened), form: {} })
    expect(location(confirmed)).toBe('/verification?mode=verifyEmail&done=1')
    expect((await userRow(me.id)).email).toBe(newEmail)
    expect(location(await postSignIn(server, { email: newEmail, password: FACTORY_PASSWORD }))).toBe('/admin')
  })

  test('an address another account has is refused beside the field, and nothing is sent', async () => {
    const me = await admin()
    const other = await createUser({ role: 'employee' })
    await db().delete(emailOutbox)
    const taken = await post(me.cookie, {
      intent: 'email',
      newEmail: other.email,
      currentPassword: FACTORY_PASSWORD,
    })
    expect(taken.status).toBe(400)
    expect(fieldErrors(await taken.text(), 'newEmail')).toEqual([EMAIL_TAKEN])
    expect(await db().select().from(emailOutbox)).toHaveLength(0)
  })
})

test('a photo, or any other form, is not this page’s: 400 and nothing changes', async () => {
  const me = await admin()
  const before = await userRow(me.id)
  const forms: Record<string, string>[] = [
    { intent: 'photo', remove: 'true' },
    { intent: 'delete-account' },
    {},
  ]
  for (const form of forms) {
    const response = await post(me.cookie, form)
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toContain(
      'This form could not be read. Reload the page and try again.',
    )
  }
  expect(await userRow(me.id)).toEqual(before)
})

test('employees, colleagues and visitors do not reach it, nor change an admin by posting', async () => {
  const me = await admin({ displayName: 'Untouched Admin' })
  const employee = await sessionCookieFor((await createUser({ role: 'employee' })).id)
  const colleague = await sessionCookieFor((await createUser({ role: 'colleague' })).id)
  expect(location(await send(server, PAGE, { cookie: employee }))).toBe('/user')
  expect(location(await send(server, PAGE, { cookie: colleague }))).toBe('/user/thank-you')
  expect(location(await send(server, PAGE))).toBe(`/sign-in?redirectTo=${encodeURIComponent(PAGE)}`)
  for (const cookie of [employee, colleague, null]) {
    const response = await send(server, PAGE, {
      cookie,
      form: { intent: 'profile', displayName: 'Hijacked' },
    })
    expect(response.status).toBe(302)
  }
  expect((await userRow(me.id)).displayName).toBe('Untouched Admin')
})
