import { and, eq, isNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { auditLog, emailOutbox, rateLimits, sessions, users } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { ADMIN_MESSAGES, setAdminDisabled } from '#app/modules/administrator/administrator.server'
import { createSmtpTransport, processOutboxOnce, type MailTransport } from '#app/modules/email/outbox.server'
import { useTestDatabase } from '#tests/support/database'
import {
  client,
  cookiesFrom,
  location,
  send,
  sessionCookieFor,
  signedIn,
  useTestServer,
} from '#tests/support/app'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import { alertTexts, fieldErrors, textOf } from '#tests/integration/auth/helpers'

/**
 * Administrators through the real HTTP stack: the list, inviting by e-mail (the invitee chooses
 * their own password from the link), disabling and enabling with its two rules — never yourself,
 * never the last active admin, also when two admins disable each other at the same moment — and
 * seeing and ending an admin's sessions.
 */
const db = useTestDatabase()
const server = useTestServer()

const LIST = '/admin/admin-management'
const APP_URL = 'http://localhost:3000'
let me = { id: '', email: '' }
let myCookie = ''
let catcher: SmtpCatcher
let transport: MailTransport

beforeAll(async () => {
  catcher = await startSmtpCatcher()
  transport = createSmtpTransport(catcher.url)
  ;({ user: me, cookie: myCookie } = await signedIn({ role: 'admin', displayName: 'Ada Admin' }))
})

afterAll(async () => {
  transport?.close?.()
  await catcher?.close()
})

beforeEach(async () => {
  await db().delete(rateLimits)
})

const { post } = client(server, () => myCookie)
const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!
const activeAdmins = async () =>
  db()
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))

describe('the list', () => {
  test('shows admins with their state and live sessions; searches name and e-mail; only for admins', async () => {
    const invited = await createUser({ role: 'admin', displayName: 'Ivy Invited', password: null })
    await createUser({ role: 'employee', displayName: 'Eve Employee' })
    const page = await send(server, LIST, { cookie: myCookie })
    expect(page.status).toBe(200)
    const text = textOf(await page.text())
    expect(text).toContain('Ada Admin')
    expect(text).toContain('Ivy Invited')
    expect(text).toContain('Invited')
    expect(text).not.toContain('Eve Employee')

    const byMail = textOf(
      await (
        await send(server, `${LIST}?q=${encodeURIComponent(invited.email.slice(0, 8))}`, { cookie: myCookie })
      ).text(),
    )
    expect(byMail).toContain('Ivy Invited')
    // The header names the signed-in admin; the list marks their own row "(you)".
    expect(byMail).not.toContain('(you)')
    expect(text).toContain('(you)')
    // A wildcard typed into the box is a character, not "everything".
    const literal = textOf(await (await send(server, `${LIST}?q=%25`, { cookie: myCookie })).text())
    expect(literal).toContain('No administrator’s name or e-mail contains “%”.')

    const employee = await createUser({ role: 'employee' })
    const refused = await send(server, LIST, { cookie: await sessionCookieFor(employee.id) })
    expect([302, 403, 404]).toContain(refused.status)
  })
})

describe('inviting', () => {
  test('creates an admin without a password and e-mails a link with which they choose it and sign in', async () => {
    await db().delete(emailOutbox)
    const response = await post(LIST, { intent: 'invite', name: 'Nia New', email: '  Nia.New@Example.TEST ' })
    expect(response.status).toBe(302)
    const [invited] = await db().select().from(users).where(eq(users.email, 'nia.new@example.test'))
    expect(invited).toMatchObject({
      role: 'admin',
      displayName: 'Nia New',
      passwordHash: null,
      disabledAt: null,
    })
    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.recipient, 'nia.new@example.test'))
    expect(mails.map((m) => m.templateKey)).toEqual(['admin_invite'])
    const audit = await db().select().from(auditLog).where(eq(auditLog.entityId, invited!.id))
    expect(audit.map((a) => a.action)).toEqual(['admin.invited'])

    await processOutboxOnce({ transport })
    const message = await catcher.waitFor((m) => m.envelopeTo.includes('nia.new@example.test'), 10_000)
    expect(message.text).toContain('Ada Admin has invited you')
    const link = extractLinks(message.text).find((l) =>
      l.startsWith(`${APP_URL}/verification?mode=activate&code=`),
    )
    expect(link).toBeDefined()
    const url = new URL(link!)
    const opened = await send(server, url.pathname + url.search)
    expect(opened.status).toBe(302)
    const cookie = cookiesFrom(opened)
    const chosen = await send(server, '/verification?mode=activate', {
      cookie,
      form: { password: 'a passphrase of her own', confirmPassword: 'a passphrase of her own' },
    })
    expect(chosen.status).toBe(302)
    expect(location(chosen)).toBe('/admin')
    expect((await userRow(invited!.id)).passwordHash).not.toBeNull()
  })

  test('refuses an address that has any account with one neutral message, and bad input field by field', async () => {
    const company = await createCompany({})
    const employee = await createUser({ role: 'employee', companyId: company.id })
    const colleague = await createUser({ role: 'colleague' })
    for (const email of [employee.email, colleague.email, me.email, me.email.toUpperCase()]) {
      const before = await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
      const response = await post(LIST, { intent: 'invite', name: 'Someone', email })
      expect(response.status, email).toBe(400)
      expect(fieldErrors(await response.text(), 'email')).toEqual([ADMIN_MESSAGES.cannotInvite])
      expect(
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(users),
      ).toEqual(before)
    }
    for (const [form, field] of [
      [{ name: '', email: 'x@example.test' }, 'name'],
      [{ name: 'Bad\u0000Name', email: 'x@example.test' }, 'name'],
      [{ name: 'A'.repeat(101), email: 'x@example.test' }, 'name'],
      [{ name: 'Xavier', email: 'not-an-address' }, 'email'],
      [{ name: 'Xavier', email: '' }, 'email'],
    ] as const) {
      const response = await post(LIST, { intent: 'invite', ...form })
      expect(response.status, JSON.stringify(form)).toBe(400)
      expect(fieldErrors(await response.text(), field).length, JSON.stringify(form)).toBeGreaterThan(0)
    }
    const unknown = await post(LIST, { intent: 'dance' })
    expect(unknown.status).toBe(400)
  })
})

describe('disabling and enabling', () => {
  test('ends their sessions, stops them signing in, is audited; enabling lets them back', async () => {
    const other = await createUser({ role: 'admin', displayName: 'Otto Other' })
    const otherCookie = await sessionCookieFor(other.id)
    const page = `${LIST}/${other.id}`
    const confirm = await send(server, `${page}?disable`, { cookie: myCookie })
    expect(textOf(await confirm.text())).toContain('Disable Otto Other?')

    const response = await post(page, { intent: 'disable', adminId: other.id })
    expect(response.status).toBe(302)
    expect((await userRow(other.id)).disabledAt).not.toBeNull()
    expect(await db().select().from(sessions).where(eq(sessions.userId, other.id))).toEqual([])
    const locked = await send(server, '/admin', { cookie: otherCookie })
    expect(locked.status).toBe(302)

    const enabled = await post(page, { intent: 'enable', adminId: other.id })
    expect(enabled.status).toBe(302)
    expect((await userRow(other.id)).disabledAt).toBeNull()
    const actions = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, other.id))
      .orderBy(auditLog.at)
    expect(actions.map((a) => a.action)).toEqual(['admin.disabled', 'admin.enabled'])
  })

  test('never yourself', async () => {
    const response = await post(`${LIST}/${me.id}`, { intent: 'disable', adminId: me.id })
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toContain(ADMIN_MESSAGES.self)
    expect((await userRow(me.id)).disabledAt).toBeNull()
  })

  test('never the last active admin with a password, even when two disable each other at once', async () => {
    // Start from exactly two usable admins.
    await db()
      .update(users)
      .set({ disabledAt: new Date() })
      .where(and(eq(users.role, 'admin'), sql`${users.id} <> ${me.id}`))
    for (let round = 0; round < 5; round++) {
      const a = await createUser({ role: 'admin' })
      const b = await createUser({ role: 'admin' })
      await db()
        .update(users)
        .set({ disabledAt: new Date() })
        .where(and(eq(users.role, 'admin'), sql`${users.id} NOT IN (${a.id}, ${b.id})`))
      const [cookieA, cookieB] = [await sessionCookieFor(a.id), await sessionCookieFor(b.id)]
      const [ra, rb] = await Promise.all([
        post(`${LIST}/${b.id}`, { intent: 'disable', adminId: b.id }, cookieA),
        post(`${LIST}/${a.id}`, { intent: 'disable', adminId: a.id }, cookieB),
      ])
      const statuses = [ra.status, rb.status].sort()
      // One wins; the other is refused (or, if its own account went first, sent to sign in).
      expect(statuses[0], `round ${round}`).toBeLessThan(500)
      expect(statuses[1], `round ${round}`).toBeLessThan(500)
      expect(await activeAdmins(), `round ${round}`).toHaveLength(1)
    }
    // Through the module too, many at once: still one left.
    const trio = [
      await createUser({ role: 'admin' }),
      await createUser({ role: 'admin' }),
      await createUser({ role: 'admin' }),
    ]
    await db()
      .update(users)
      .set({ disabledAt: new Date() })
      .where(
        and(
          eq(users.role, 'admin'),
          sql`${users.id} NOT IN (${trio[0]!.id}, ${trio[1]!.id}, ${trio[2]!.id})`,
        ),
      )
    await Promise.all(
      trio.flatMap((actor) =>
        trio.filter((t) => t.id !== actor.id).map((target) => setAdminDisabled(actor, target.id, true)),
      ),
    )
    expect(await activeAdmins()).toHaveLength(1)
    const last = (await activeAdmins())[0]!
    const refused = await setAdminDisabled({ id: last.id }, last.id, true)
    expect(refused).toMatchObject({ ok: false, formErrors: [ADMIN_MESSAGES.self] })
    // Put the suite's own admin back for the tests after this one.
    await db().update(users).set({ disabledAt: null }).where(eq(users.id, me.id))
  })

  test('an invited admin without a password does not count as the one left', async () => {
    await db()
      .update(users)
      .set({ disabledAt: new Date() })
      .where(and(eq(users.role, 'admin'), sql`${users.id} <> ${me.id}`))
    const other = await createUser({ role: 'admin' })
    const invited = await createUser({ role: 'admin', password: null })
    // Two usable admins (me and other) and an invited one: I may disable other…
    const first = await post(`${LIST}/${other.id}`, { intent: 'disable', adminId: other.id })
    expect(first.status).toBe(302)
    // …but then I am the last usable one, whoever asks: the invited admin cannot sign in to run the portal.
    const last = await setAdminDisabled({ id: invited.id }, me.id, true)
    expect(last).toMatchObject({ ok: false, formErrors: [ADMIN_MESSAGES.last] })
    expect((await userRow(me.id)).disabledAt).toBeNull()
  })
})

describe('sessions and invitations', () => {
  test('lists an admin’s live sessions and ends one or all of them; mine keeps the one I use', async () => {
    const other = await createUser({ role: 'admin', displayName: 'Sam Sessions' })
    await sessionCookieFor(other.id)
    await sessionCookieFor(other.id)
    const page = `${LIST}/${other.id}`
    const html = await (await send(server, page, { cookie: myCookie })).text()
    expect(textOf(html)).toContain('Signed-in sessions')
    const ids = (
      await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, other.id))
    ).map((s) => s.id)
    expect(ids).toHaveLength(2)
    const one = await post(page, { intent: 'end-session', adminId: other.id, sessionId: ids[0]! })
    expect(one.status).toBe(302)
    expect(
      (await db().select().from(sessions).where(eq(sessions.userId, other.id))).map((s) => s.id),
    ).toEqual([ids[1]])
    const all = await post(page, { intent: 'end-sessions', adminId: other.id })
    expect(all.status).toBe(302)
    expect(await db().select().from(sessions).where(eq(sessions.userId, other.id))).toEqual([])

    // On my own page "end all" keeps the session I am using.
    await sessionCookieFor(me.id)
    const mine = await post(`${LIST}/${me.id}`, { intent: 'end-sessions', adminId: me.id })
    expect(mine.status).toBe(302)
    const still = await send(server, LIST, { cookie: myCookie })
    expect(still.status).toBe(200)
  })

  test('resends an invitation only while there is no password; unknown and foreign ids are 404', async () => {
    const invited = await createUser({ role: 'admin', password: null })
    const resent = await post(`${LIST}/${invited.id}`, { intent: 'resend', adminId: invited.id })
    expect(resent.status).toBe(302)
    const active = await createUser({ role: 'admin' })
    const refused = await post(`${LIST}/${active.id}`, { intent: 'resend', adminId: active.id })
    expect(refused.status).toBe(400)
    expect(alertTexts(await refused.text())).toContain(ADMIN_MESSAGES.alreadyActive)
    // A form posted to one admin's page naming another is not applied to either.
    const crossed = await post(`${LIST}/${invited.id}`, { intent: 'disable', adminId: active.id })
    expect(crossed.status).toBe(400)
    expect((await userRow(active.id)).disabledAt).toBeNull()

    const employee = await createUser({ role: 'employee' })
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', employee.id]) {
      expect((await send(server, `${LIST}/${id}`, { cookie: myCookie })).status, id).toBe(404)
      expect((await post(`${LIST}/${id}`, { intent: 'disable', adminId: id })).status, id).toBe(404)
    }
  })
})
