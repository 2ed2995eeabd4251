import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { actionCodes, emailOutbox, rateLimits, users } from '#db/schema/index'
import { createUser } from '#db/factories'
import { settleBackgroundWork } from '#app/lib/background.server'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { createSmtpTransport, processOutboxOnce, type MailTransport } from '#app/modules/email/outbox.server'
import { RESET_SENT_MESSAGE } from '#app/routes/public/forgot-password'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import {
  FACTORY_PASSWORD,
  alertTexts,
  fieldErrors,
  postSignIn,
  sessionRow,
  sessionRowsOf,
  sessionTokenFrom,
  setCookie,
  textOf,
} from './helpers'

/**
 * Forgot password → e-mail → link → new password, end to end: the request goes through the HTTP
 * stack, the message through the outbox and a real SMTP exchange, and the test follows the link
 * it finds in the delivered e-mail. Account activation shares the second half of the flow.
 */
const db = useTestDatabase()
const server = useTestServer()
let catcher: SmtpCatcher
let transport: MailTransport

const APP_URL = 'http://localhost:3000'
const EXPIRED = AUTH_ERROR_MESSAGES['auth/expired-action-code']
const NEW_PASSWORD = 'a brand new passphrase'

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

/** The page minus what legitimately differs between two renders (CSP nonces). */
const comparable = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""').replace(/'nonce-[^']*'/g, '')

async function forgot(email: string) {
  const response = await send(server, '/forgot-password', { form: { email } })
  const html = await response.text()
  // Whether the address has an account is looked up after the answer (ADR 007): wait for that work.
  await settleBackgroundWork()
  return { status: response.status, html }
}

/** Delivers the outbox over SMTP and returns the reset link of the message sent to `email`. */
async function deliveredLink(email: string, mode: string) {
  await processOutboxOnce({ transport })
  const message = await catcher.waitFor((m) => m.envelopeTo.includes(email.toLowerCase()), 10_000)
  const links = extractLinks(message.text).filter((l) =>
    l.startsWith(`${APP_URL}/verification?mode=${mode}&code=`),
  )
  expect(links.length, `a ${mode} link in:\n${message.text}`).toBeGreaterThan(0)
  // The HTML part carries the same link.
  expect(message.html.replaceAll('&amp;', '&')).toContain(links[0])
  return links[0]!
}

/** Following an e-mailed link: the code moves into a cookie and leaves the address bar. */
async function follow(link: string, mode: string) {
  const url = new URL(link)
  const response = await send(server, url.pathname + url.search)
  expect(response.status).toBe(302)
  expect(location(response)).toBe(`/verification?mode=${mode}`)
  expect(response.headers.get('Location')).not.toContain(url.searchParams.get('code')!)
  const pending = setCookie(response, '__action')!
  expect(pending).toBeDefined()
  expect(pending.attributes.httponly).toBe(true)
  expect(String(pending.attributes.samesite).toLowerCase()).toBe('lax')
  // Short-lived: the form behind the link has an hour at most.
  expect(Number(pending.attributes['max-age'])).toBeGreaterThan(0)
  expect(Number(pending.attributes['max-age'])).toBeLessThanOrEqual(3600)
  return cookiesFrom(response)
}

function choose(mode: string, cookie: string, password: string, confirmPassword = password) {
  return send(server, `/verification?mode=${mode}`, { cookie, form: { password, confirmPassword } })
}

describe('forgot password', () => {
  test('an existing and an unknown address get the same answer; only the existing one gets an e-mail', async () => {
    const employee = await createUser({ role: 'employee' })
    await db().delete(emailOutbox)
    const known = await forgot(employee.email)
    const unknown = await forgot('nobody-at-all@example.test')

    expect(known.status).toBe(200)
    expect(unknown.status).toBe(known.status)
    expect(textOf(known.html)).toContain(RESET_SENT_MESSAGE)
    expect(textOf(unknown.html)).toContain(RESET_SENT_MESSAGE)
    // Nothing on the page (the form is reset, the address not echoed) tells the two apart.
    expect(comparable(unknown.html)).toBe(comparable(known.html))

    const queued = await db().select().from(emailOutbox)
    expect(queued.map((r) => [r.recipient, r.templateKey])).toEqual([[employee.email, 'reset_password']])
  })

  test('a colleague or a disabled account gets the same answer and no e-mail', async () => {
    const colleague = await createUser({ role: 'colleague' })
    const disabled = await createUser({ role: 'employee', disabledAt: new Date() })
    await db().delete(emailOutbox)
    for (const email of [colleague.email, disabled.email]) {
      const result = await forgot(email)
      expect(result.status).toBe(200)
      expect(textOf(result.html)).toContain(RESET_SENT_MESSAGE)
    }
    expect(await db().select().from(emailOutbox)).toHaveLength(0)
  })

  test('an invalid address is a field error, not a 500', async () => {
    const response = await send(server, '/forgot-password', { form: { email: 'nope' } })
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'email')).toEqual(['Enter a valid e-mail address.'])
  })
})

describe('reset link', () => {
  test('the whole journey: e-mail, link, form, validation, new password, other sessions ended, link used up', async () => {
    const employee = await createUser({ role: 'employee' })
    const otherDevice = await sessionCookieFor(employee.id)
    const anotherDevice = await sessionCookieFor(employee.id)
    await forgot(employee.email)

    const link = await deliveredLink(employee.email, 'resetPassword')
    const code = new URL(link).searchParams.get('code')!
    const cookie = await follow(link, 'resetPassword')

    const form = await send(server, '/verification?mode=resetPassword', { cookie })
    expect(form.status).toBe(200)
    const formHtml = await form.text()
    expect(formHtml).toContain('name="password"')
    expect(formHtml).toContain('name="confirmPassword"')
    expect(textOf(formHtml)).toContain(employee.email)
    expect(formHtml).not.toContain(code)

    const short = await choose('resetPassword', cookie, 'short')
    expect(short.status).toBe(400)
    expect(fieldErrors(await short.text(), 'password')).toEqual(['Use at least 8 characters.'])

    const mismatch = await choose('resetPassword', cookie, NEW_PASSWORD, `${NEW_PASSWORD}!`)
    expect(mismatch.status).toBe(400)
    expect(fieldErrors(await mismatch.text(), 'confirmPassword')).toEqual(['The passwords do not match.'])

    // The failed attempts did not use the code up.
    const done = await choose('resetPassword', cookie, NEW_PASSWORD)
    expect(done.status).toBe(302)
    expect(location(done)).toBe('/user')
    expect(setCookie(done, '__action')?.attributes['max-age']).toBe('0')
    const token = sessionTokenFrom(done)!
    expect(token).toBeTruthy()

    // Signed in with a new session; every session from before the reset is gone.
    const rows = await sessionRowsOf(employee.id)
    expect(rows.map((r) => r.id)).toEqual([token.split('.')[0]])
    for (const old of [otherDevice, anotherDevice]) {
      const response = await send(server, '/user', { cookie: old })
      expect(response.status).toBe(302)
    }
    expect((await send(server, '/user', { cookie: `__session=${encodeURIComponent(token)}` })).status).toBe(
      200,
    )

    // The new password works, the old one no longer does.
    const withOld = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
    expect(withOld.status).toBe(400)
    await withOld.arrayBuffer()
    const withNew = await postSignIn(server, { email: employee.email, password: NEW_PASSWORD })
    expect(withNew.status).toBe(302)
    expect(location(withNew)).toBe('/user')

    // The link is used up: following it again, or posting with the old cookie, says so.
    const again = await send(server, new URL(link).pathname + new URL(link).search)
    expect(again.status).toBe(410)
    expect(alertTexts(await again.text()).join(' ')).toContain(EXPIRED)
    const replay = await choose('resetPassword', cookie, 'yet another password')
    expect(replay.status).toBe(410)
    expect(alertTexts(await replay.text()).join(' ')).toContain(EXPIRED)
    const withReplayed = await postSignIn(server, { email: employee.email, password: 'yet another password' })
    expect(withReplayed.status).toBe(400)
  })

  test('an expired code answers 410 with the expired-link message', async () => {
    const employee = await createUser({ role: 'employee' })
    await forgot(employee.email)
    const link = await deliveredLink(employee.email, 'resetPassword')
    await db()
      .update(actionCodes)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(and(eq(actionCodes.userId, employee.id), eq(actionCodes.kind, 'reset_password')))
    const url = new URL(link)
    const response = await send(server, url.pathname + url.search)
    expect(response.status).toBe(410)
    expect(alertTexts(await response.text()).join(' ')).toContain(EXPIRED)
    expect(setCookie(response, '__action')).toBeUndefined()
  })

  test('a code that expires between the form and the submit is refused with 410', async () => {
    const employee = await createUser({ role: 'employee' })
    await forgot(employee.email)
    const cookie = await follow(await deliveredLink(employee.email, 'resetPassword'), 'resetPassword')
    await db()
      .update(actionCodes)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(actionCodes.userId, employee.id))
    const response = await choose('resetPassword', cookie, NEW_PASSWORD)
    expect(response.status).toBe(410)
    const unchanged = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
    expect(unchanged.status).toBe(302)
  })

  test('asking again voids the earlier link', async () => {
    const employee = await createUser({ role: 'employee' })
    await forgot(employee.email)
    const first = await deliveredLink(employee.email, 'resetPassword')
    catcher.messages.length = 0
    await forgot(employee.email)
    const second = await deliveredLink(employee.email, 'resetPassword')
    expect(second).not.toBe(first)
    const stale = await send(server, new URL(first).pathname + new URL(first).search)
    expect(stale.status).toBe(410)
    const cookie = await follow(second, 'resetPassword')
    expect((await choose('resetPassword', cookie, NEW_PASSWORD)).status).toBe(302)
  })

  test('a made-up or malformed code answers 410, never 500', async () => {
    for (const code of ['A'.repeat(32), 'short', '%00'.repeat(20), 'x'.repeat(5000)]) {
      const response = await send(server, `/verification?mode=resetPassword&code=${code}`)
      expect(response.status, code.slice(0, 20)).toBe(410)
      await response.arrayBuffer()
    }
    // No cookie at all: the form is not shown.
    const bare = await send(server, '/verification?mode=resetPassword')
    expect(bare.status).toBe(410)
    // A forged __action cookie (bad signature) is no better.
    const forged = await send(server, '/verification?mode=resetPassword', {
      cookie: '__action=eyJtb2RlIjoicmVzZXRQYXNzd29yZCJ9.bad',
    })
    expect(forged.status).toBe(410)
  })
})

describe('account activation', () => {
  test('an activation link sets the first password, verifies the address and ends other sessions', async () => {
    const employee = await createUser({ role: 'employee', password: null, emailVerifiedAt: null })
    const stray = await sessionCookieFor(employee.id)
    const { code } = await createActionCode(db(), { kind: 'activate_account', userId: employee.id })

    const cookie = await follow(`${APP_URL}/verification?mode=activate&code=${code}`, 'activate')
    const form = await send(server, '/verification?mode=activate', { cookie })
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('name="password"')

    // Before activation the account cannot sign in.
    const before = await postSignIn(server, { email: employee.email, password: NEW_PASSWORD })
    expect(before.status).toBe(400)

    const short = await choose('activate', cookie, '1234567')
    expect(short.status).toBe(400)
    expect(fieldErrors(await short.text(), 'password')).toEqual(['Use at least 8 characters.'])

    const done = await choose('activate', cookie, NEW_PASSWORD)
    expect(done.status).toBe(302)
    expect(location(done)).toBe('/user')
    const token = sessionTokenFrom(done)!
    expect((await sessionRowsOf(employee.id)).map((r) => r.id)).toEqual([token.split('.')[0]])
    expect(await sessionRow(decodeURIComponent(stray.split('=')[1]!).split('.')[0]!)).toBeUndefined()

    const [row] = await db().select().from(users).where(eq(users.id, employee.id))
    expect(row!.emailVerifiedAt).toBeInstanceOf(Date)
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/)

    const signIn = await postSignIn(server, { email: employee.email, password: NEW_PASSWORD })
    expect(signIn.status).toBe(302)
    expect(location(signIn)).toBe('/user')

    const again = await send(server, `/verification?mode=activate&code=${code}`)
    expect(again.status).toBe(410)
    const unused = await db()
      .select()
      .from(actionCodes)
      .where(and(eq(actionCodes.userId, employee.id), isNull(actionCodes.usedAt)))
    expect(unused).toHaveLength(0)
  })

  test('an activation code does not work as a reset code (the mode is part of the check)', async () => {
    const employee = await createUser({ role: 'employee', password: null })
    const { code } = await createActionCode(db(), { kind: 'activate_account', userId: employee.id })
    const response = await send(server, `/verification?mode=resetPassword&code=${code}`)
    expect(response.status).toBe(410)
    // …and a cookie made for one mode is not accepted by another.
    const cookie = await follow(`${APP_URL}/verification?mode=activate&code=${code}`, 'activate')
    const cross = await choose('resetPassword', cookie, NEW_PASSWORD)
    expect(cross.status).toBe(410)
  })

  test('a disabled account cannot be activated', async () => {
    const employee = await createUser({ role: 'employee', password: null, disabledAt: new Date() })
    const { code } = await createActionCode(db(), { kind: 'activate_account', userId: employee.id })
    const response = await send(server, `/verification?mode=activate&code=${code}`)
    expect(response.status).toBe(410)
  })
})
