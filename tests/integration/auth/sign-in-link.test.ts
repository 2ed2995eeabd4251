import { fork } from 'node:child_process'
import path from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, onTestFinished, test } from 'vitest'
import { actionCodes, auditLog, emailOutbox, rateLimits, users } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { resetEnvCache } from '#app/config/env.server'
import { settleBackgroundWork } from '#app/lib/background.server'
import { ACTION_CODE_TTL_MS } from '#app/modules/action-code/action-code.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { SIGN_IN_LINK_LIMITS } from '#app/modules/rate-limit/rate-limit.server'
import { hashSecret } from '#app/lib/secret-hash.server'
import { CODE_MASK } from '#app/modules/email/mask'
import { createSmtpTransport, processOutboxOnce, type MailTransport } from '#app/modules/email/outbox.server'
import { SIGN_IN_LINK_SENT_MESSAGE } from '#app/routes/public/sign-in'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { captureLogs } from '#tests/support/logs'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import {
  FACTORY_PASSWORD,
  alertTexts,
  decodeEntities,
  postSignIn,
  sessionRowsOf,
  sessionTokenFrom,
  setCookie,
  textOf,
} from './helpers'

/**
 * Issue 15, A6: a spray of guesses from many addresses holds a new browser back for as long as it
 * runs (ADR 007: only browsers the account signed in from before get through). After a refusal the
 * sign-in page offers "E-mail me a one-time sign-in link": the same neutral answer for every
 * address, a short-lived single-use link through the real outbox and SMTP, signing in on the POST
 * of the page behind it and trusting that browser from then on.
 */
let catcher: SmtpCatcher
let transport: MailTransport

// Registered before useTestServer(): with SMTP configured the outbox logs no links (the local-run
// exception), so "the code is never logged" is checked as in production.
beforeAll(async () => {
  catcher = await startSmtpCatcher()
  transport = createSmtpTransport(catcher.url)
  process.env.SMTP_URL = catcher.url
  resetEnvCache()
})

const db = useTestDatabase()
const server = useTestServer()

afterAll(async () => {
  delete process.env.SMTP_URL
  resetEnvCache()
  server.build?.resetEnvCache()
  transport?.close?.()
  await catcher?.close()
})

beforeEach(async () => {
  await db().delete(rateLimits)
  await db().delete(emailOutbox)
  catcher.messages.length = 0
})

const APP_URL = 'http://localhost:3000'
const TOO_MANY = AUTH_ERROR_MESSAGES['auth/too-many-requests']
const EXPIRED = AUTH_ERROR_MESSAGES['auth/expired-action-code']
const OFFER = 'E-mail me a one-time sign-in link'

/** The page minus what legitimately differs between two renders (CSP nonces). */
const comparable = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""').replace(/'nonce-[^']*'/g, '')

/** As if a spray from many addresses were under way: the account's next turn is a minute away. */
async function sprayUnderWay(email: string) {
  await db()
    .insert(rateLimits)
    .values({
      key: `sign-in:account:${email}`,
      windowStart: new Date(),
      count: 40,
      nextAt: new Date(Date.now() + 60_000),
    })
    .onConflictDoUpdate({ target: rateLimits.key, set: { count: 40, nextAt: new Date(Date.now() + 60_000) } })
}

/** The offer's button posts this, as the page's form does (no JavaScript). */
async function askForLink(email: string, options: { cookie?: string } = {}) {
  const response = await send(server, '/sign-in', {
    form: { intent: 'sign-in-link', email },
    cookie: options.cookie,
  })
  const html = await response.text()
  // The lookup and the e-mail happen after the answer (ADR 007): wait for that work.
  await settleBackgroundWork()
  return { status: response.status, html }
}

/** Delivers the outbox over SMTP and returns the sign-in link of the message sent to `email`. */
async function deliveredLink(email: string) {
  await processOutboxOnce({ transport })
  const message = await catcher.waitFor((m) => m.envelopeTo.includes(email), 10_000)
  const links = extractLinks(message.text).filter((l) =>
    l.startsWith(`${APP_URL}/verification?mode=signIn&code=`),
  )
  expect(links, `a sign-in link in:\n${message.text}`).toHaveLength(1)
  expect(decodeEntities(message.html)).toContain(links[0])
  return { link: links[0]!, message }
}

const pathOf = (link: string) => new URL(link).pathname + new URL(link).search
const codeOf = (link: string) => new URL(link).searchParams.get('code')!

/** Opening the e-mailed link: the code moves into the `__action` cookie and leaves the address bar. */
async function follow(link: string, cookie?: string) {
  const response = await send(server, pathOf(link), { cookie })
  expect(response.status).toBe(302)
  expect(location(response)).toBe('/verification?mode=signIn')
  expect(response.headers.get('Location')).not.toContain(codeOf(link))
  // A GET signs nobody in (another site, a mail scanner).
  expect(sessionTokenFrom(response)).toBeUndefined()
  expect(setCookie(response, '__device')).toBeUndefined()
  return cookiesFrom(response, cookie)
}

const press = (cookie: string) => send(server, '/verification?mode=signIn', { cookie, form: {} })

const onlyDevice = (cookie: string) =>
  cookie
    .split('; ')
    .filter((c) => c.startsWith('__device='))
    .join('; ')

describe('the journey under an active spray', () => {
  test('refused, the page offers the link, the e-mailed link signs in on a press and trusts the browser; the code is used once and never logged', async () => {
    const brand = { name: 'Northwind Consulting' }
    const company = await createCompany({}, db())
    await db().execute(sql`UPDATE brands SET name = ${brand.name} WHERE id = ${company.brandId}`)
    const employee = await createUser({ role: 'employee', companyId: company.id })
    const admin = await createUser({ role: 'admin' })
    await sprayUnderWay(employee.email)
    const logs = captureLogs()
    onTestFinished(() => logs.stop())

    // The owner, in a new browser: refused at once, like everyone else during the spray…
    const refused = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
    expect(refused.status).toBe(429)
    const refusedHtml = await refused.text()
    expect(alertTexts(refusedHtml)).toEqual([TOO_MANY])
    // …and offered a way in that needs neither the password nor the limits.
    expect(textOf(refusedHtml)).toContain(OFFER)
    expect(refusedHtml).toMatch(/<input type="hidden" name="intent" value="sign-in-link"\/?>/)
    expect(refusedHtml).toContain(`name="email" value="${employee.email}"`)

    const asked = await askForLink(employee.email)
    expect(asked.status).toBe(200)
    expect(textOf(asked.html)).toContain(SIGN_IN_LINK_SENT_MESSAGE)
    // The code is short-lived (15 minutes) and only its hash is stored.
    const [row] = await db()
      .select()
      .from(actionCodes)
      .where(and(eq(actionCodes.userId, employee.id), eq(actionCodes.kind, 'sign_in_link')))
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(
      ACTION_CODE_TTL_MS.sign_in_link - 5_000,
    )
    expect(ACTION_CODE_TTL_MS.sign_in_link).toBe(15 * 60 * 1000)

    // The admin's outbox view, before delivery, shows the message with its code masked.
    const [queued] = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email))
    expect(queued!.templateKey).toBe('sign_in_link')
    const adminView = decodeEntities(
      await (
        await send(server, `/admin/email-management/outbox/${queued!.id}`, {
          cookie: await sessionCookieFor(admin.id),
        })
      ).text(),
    )
    expect(adminView).toContain(`code=${CODE_MASK}`)

    // Through the real SMTP exchange, in the brand of the employee's company.
    const { link, message } = await deliveredLink(employee.email)
    const code = codeOf(link)
    expect(row!.codeHash).toBe(hashSecret(code))
    expect(adminView).not.toContain(code)
    expect(message.subject).toBe(`Your sign-in link for the ${brand.name} feedback portal`)
    expect(message.text).toContain(`Hello ${employee.displayName},`)
    expect(message.html).toContain(brand.name)

    const cookie = await follow(link)
    const page = await send(server, '/verification?mode=signIn', { cookie })
    expect(page.status).toBe(200)
    const pageHtml = await page.text()
    expect(textOf(pageHtml)).toContain(`Sign in as ${employee.email}`)
    expect(pageHtml).toMatch(/<button type="submit"[^>]*>Sign in<\/button>/)
    expect(pageHtml).not.toContain(code)
    expect(sessionTokenFrom(page)).toBeUndefined()

    const signedIn = await press(cookie)
    expect(signedIn.status).toBe(302)
    expect(location(signedIn)).toBe('/user')
    expect(setCookie(signedIn, '__action')?.attributes['max-age']).toBe('0')
    // A normal database session…
    const token = sessionTokenFrom(signedIn)!
    expect((await sessionRowsOf(employee.id)).map((r) => r.id)).toEqual([token.split('.')[0]])
    const browser = cookiesFrom(signedIn, cookie)
    expect((await send(server, '/user', { cookie: browser })).status).toBe(200)
    // …and this browser is now trusted: while the spray goes on, its password gets it straight in.
    expect(setCookie(signedIn, '__device')).toBeDefined()
    const again = await postSignIn(
      server,
      { email: employee.email, password: FACTORY_PASSWORD },
      { headers: { Cookie: onlyDevice(browser) } },
    )
    expect(again.status).toBe(302)
    expect(location(again)).toBe('/user')
    // Another new browser is still held back (the link did not hand the spray a fresh start).
    const stranger = await postSignIn(server, { email: employee.email, password: FACTORY_PASSWORD })
    expect(stranger.status).toBe(429)
    await stranger.arrayBuffer()

    // Single use: the link again, or a replay of the press, shows the expired-link message.
    const reopened = await send(server, pathOf(link))
    expect(reopened.status).toBe(410)
    const reopenedText = alertTexts(await reopened.text()).join(' ')
    expect(reopenedText).toContain(EXPIRED)
    expect(reopenedText).toContain('A sign-in link works once, for 15 minutes.')
    const replay = await press(cookie)
    expect(replay.status).toBe(410)
    expect(alertTexts(await replay.text()).join(' ')).toContain(EXPIRED)
    expect(sessionTokenFrom(replay)).toBeUndefined()

    const audit = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, employee.id))
    expect(audit.map((a) => a.action).sort()).toEqual([
      'auth.sign_in_link_requested',
      'auth.signed_in_with_link',
    ])

    logs.stop()
    expect(logs.lines.length).toBeGreaterThan(0)
    const logged = JSON.stringify(logs.lines)
    expect(logged).not.toContain(code)
    expect(logged).not.toContain(token.split('.')[1]!)
  })

  test('the expired link shows the expired-link message, also when it expires between the page and the press', async () => {
    const employee = await createUser({ role: 'employee' })
    await askForLink(employee.email)
    const { link } = await deliveredLink(employee.email)
    const cookie = await follow(link)
    await db()
      .update(actionCodes)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(and(eq(actionCodes.userId, employee.id), eq(actionCodes.kind, 'sign_in_link')))
    const late = await press(cookie)
    expect(late.status).toBe(410)
    expect(alertTexts(await late.text()).join(' ')).toContain(EXPIRED)
    expect(sessionTokenFrom(late)).toBeUndefined()
    const opened = await send(server, pathOf(link))
    expect(opened.status).toBe(410)
    expect(alertTexts(await opened.text()).join(' ')).toContain(EXPIRED)
    expect(setCookie(opened, '__action')).toBeUndefined()
    expect(await sessionRowsOf(employee.id)).toHaveLength(0)
  })

  test('asking again voids the earlier link', async () => {
    const employee = await createUser({ role: 'employee' })
    await askForLink(employee.email)
    const { link: first } = await deliveredLink(employee.email)
    catcher.messages.length = 0
    await askForLink(employee.email)
    const { link: second } = await deliveredLink(employee.email)
    expect(second).not.toBe(first)
    expect((await send(server, pathOf(first))).status).toBe(410)
    expect((await press(await follow(second))).status).toBe(302)
  })

  test('a browser signed in as someone else is told so, and the press signs that account out here', async () => {
    const employee = await createUser({ role: 'employee' })
    const other = await createUser({ role: 'employee' })
    const otherCookie = await sessionCookieFor(other.id)
    await askForLink(employee.email)
    const { link } = await deliveredLink(employee.email)
    const cookie = await follow(link, otherCookie)
    const page = await send(server, '/verification?mode=signIn', { cookie })
    expect(textOf(await page.text())).toContain(`This browser is signed in as ${other.displayName}.`)
    const signedIn = await press(cookie)
    expect(signedIn.status).toBe(302)
    expect(await sessionRowsOf(other.id)).toHaveLength(0)
    expect(await sessionRowsOf(employee.id)).toHaveLength(1)
  })
})

describe('who gets a link', () => {
  test('an unknown address, a colleague, an account without a password and a disabled one: the same answer, no e-mail', async () => {
    const employee = await createUser({ role: 'employee' })
    const admin = await createUser({ role: 'admin' })
    const colleague = await createUser({ role: 'colleague' })
    const inactive = await createUser({ role: 'employee', password: null, emailVerifiedAt: null })
    const disabled = await createUser({ role: 'employee', disabledAt: new Date() })

    const known = await askForLink(employee.email)
    expect(known.status).toBe(200)
    expect(textOf(known.html)).toContain(SIGN_IN_LINK_SENT_MESSAGE)
    for (const email of ['nobody-at-all@example.test', colleague.email, inactive.email, disabled.email]) {
      const answer = await askForLink(email)
      expect(answer.status, email).toBe(known.status)
      // Nothing on the page (the address is not echoed, the offer is gone) tells them apart.
      expect(comparable(answer.html), email).toBe(comparable(known.html))
    }
    expect(known.html).not.toContain(employee.email)
    expect(await askForLink(admin.email)).toMatchObject({ status: 200 })

    const queued = await db()
      .select({ to: emailOutbox.recipient, key: emailOutbox.templateKey })
      .from(emailOutbox)
    expect(queued.sort((a, b) => a.to.localeCompare(b.to))).toEqual(
      [
        { to: admin.email, key: 'sign_in_link' },
        { to: employee.email, key: 'sign_in_link' },
      ].sort((a, b) => a.to.localeCompare(b.to)),
    )
  })

  test('a link issued before the account was disabled signs nobody in', async () => {
    const employee = await createUser({ role: 'employee' })
    await askForLink(employee.email)
    const { link } = await deliveredLink(employee.email)
    const cookie = await follow(link)
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, employee.id))
    const refused = await press(cookie)
    expect(refused.status).toBe(410)
    expect(alertTexts(await refused.text()).join(' ')).toContain(EXPIRED)
    expect(await sessionRowsOf(employee.id)).toHaveLength(0)
    expect((await send(server, pathOf(link))).status).toBe(410)
  })

  test('an invalid address is a field error, not a 500; a made-up code is the expired-link page', async () => {
    const response = await send(server, '/sign-in', { form: { intent: 'sign-in-link', email: 'nope' } })
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toEqual(['Enter a valid e-mail address.'])
    for (const code of ['A'.repeat(32), 'short', '%00'.repeat(20)]) {
      const opened = await send(server, `/verification?mode=signIn&code=${code}`)
      expect(opened.status, code).toBe(410)
      await opened.arrayBuffer()
    }
    expect((await send(server, '/verification?mode=signIn', { form: {} })).status).toBe(410)
  })
})

describe('limits', () => {
  test('per address: 3 links in 15 minutes and 10 a day, the answer never changing', async () => {
    const employee = await createUser({ role: 'employee' })
    const { account, accountDaily } = SIGN_IN_LINK_LIMITS
    expect([account.limit, accountDaily.limit]).toEqual([3, 10])
    const answers = new Set<string>()
    for (let i = 0; i < 5; i++) answers.add(comparable((await askForLink(employee.email)).html))
    expect(answers.size).toBe(1)
    expect(await db().select().from(emailOutbox)).toHaveLength(3)

    // The 15-minute windows pass, one after another, through the day: 10 links, then no more.
    for (let i = 0; i < 6; i++) {
      await db()
        .delete(rateLimits)
        .where(eq(rateLimits.key, `sign-in-link:account:${employee.email}`))
      for (let j = 0; j < 3; j++) answers.add(comparable((await askForLink(employee.email)).html))
    }
    expect(answers.size).toBe(1)
    expect(await db().select().from(emailOutbox)).toHaveLength(10)
  })

  test('per client address: 20 requests in 15 minutes, whatever the addresses asked for', async () => {
    const employee = await createUser({ role: 'employee' })
    expect(SIGN_IN_LINK_LIMITS.address.limit).toBe(20)
    for (let i = 0; i < 20; i++) await askForLink(`someone-${i}@example.test`)
    const answer = await askForLink(employee.email)
    expect(answer.status).toBe(200)
    expect(textOf(answer.html)).toContain(SIGN_IN_LINK_SENT_MESSAGE)
    expect(await db().select().from(emailOutbox)).toHaveLength(0)
  })
})

test('the answer goes before the lookup and the e-mail: with the outbox slowed to 1.5 s, a known address is answered at once', async () => {
  const employee = await createUser({ role: 'employee' })
  await db().execute(sql`
    CREATE OR REPLACE FUNCTION test_slow_mail() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$`)
  await db().execute(
    sql.raw(`CREATE TRIGGER test_slow_mail BEFORE INSERT ON email_outbox FOR EACH ROW
      WHEN (NEW.recipient = '${employee.email}') EXECUTE FUNCTION test_slow_mail()`),
  )
  // A client in a process of its own: one in this process would share the event loop (and an
  // in-process PGlite) with the work the server does after answering.
  const child = fork(path.resolve(import.meta.dirname, '../../support/timing-client.mjs'))
  onTestFinished(async () => {
    child.kill()
    await db().execute(sql`DROP TRIGGER IF EXISTS test_slow_mail ON email_outbox`)
  })
  await new Promise((resolve) => child.once('message', resolve))
  const reply = new Promise<{ status: number; ms: number }>((resolve) =>
    child.once('message', (m) => resolve(m as { status: number; ms: number })),
  )
  child.send({ url: `${server.url}/sign-in`, form: { intent: 'sign-in-link', email: employee.email } })
  const { status, ms } = await reply
  expect(status).toBe(200)
  expect(ms).toBeLessThan(1_000)
  await settleBackgroundWork()
  expect(await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email))).toHaveLength(
    1,
  )
})
