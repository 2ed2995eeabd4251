import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { assignments, schemes, sessions, users } from '#db/schema/index'
import { createRaterAssignment, createScheme, createUser } from '#db/factories'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import {
  alertTexts,
  cookieHeader,
  openInvite,
  sessionRow,
  sessionRowsOf,
  sessionTokenFrom,
  setCookie,
  textOf,
} from './helpers'

/**
 * A colleague has no password: the invite link is how they sign in (DESIGN.md §1). Its GET only
 * moves the code out of the address bar and shows one button, "Continue as a colleague giving
 * feedback on …" (pressed by script when there is one); the POST exchanges it for a session, or
 * carries on with the one the browser already has (ADR 007). The link keeps working (another
 * device, a later day) until the answers are in or the scheme closes.
 */
const db = useTestDatabase()
const server = useTestServer()

const EXPIRED = AUTH_ERROR_MESSAGES['auth/expired-action-code']

async function invitation(options: { schemeStatus?: 'open' | 'closed'; closesAt?: Date } = {}) {
  const scheme = await createScheme({
    status: options.schemeStatus ?? 'open',
    ...(options.closesAt ? { closesAt: options.closesAt } : {}),
  })
  const employee = await createUser({ role: 'employee', displayName: 'Erin Employee' })
  const colleague = await createUser({ role: 'colleague', emailVerifiedAt: null })
  const assignment = await createRaterAssignment({
    scheme,
    subjectId: employee.id,
    respondentId: colleague.id,
  })
  const { code } = await createActionCode(db(), {
    kind: 'colleague_invite',
    assignmentId: assignment.id,
    expiresAt: scheme.closesAt,
  })
  return { scheme, employee, colleague, assignment, code, link: `/verification?mode=invite&code=${code}` }
}

async function expectExpired(link: string) {
  const response = await send(server, link)
  expect(response.status).toBe(410)
  expect(alertTexts(await response.text()).join(' ')).toContain(EXPIRED)
  expect(setCookie(response, '__session')).toBeUndefined()
}

test('the link signs the colleague in and opens their questionnaire; the code never stays in the address', async () => {
  const { colleague, assignment, code, link, scheme } = await invitation()
  const response = await openInvite(server, link)
  expect(response.status).toBe(302)
  expect(location(response)).toBe(`/questionnaire/${scheme.questionnaireId}`)
  expect(response.headers.get('Location')).not.toContain(code)

  const token = sessionTokenFrom(response)!
  expect(token).toBeTruthy()
  const session = (await sessionRow(token.split('.')[0]!))!
  expect(session.userId).toBe(colleague.id)
  expect(setCookie(response, '__session')!.attributes.httponly).toBe(true)

  const page = await send(server, `/questionnaire/${scheme.questionnaireId}`, { cookie: cookieHeader(token) })
  expect(page.status).toBe(200)
  // Their home is this open assignment; employee and admin pages stay closed to them.
  const home = await send(server, '/sign-in', { cookie: cookieHeader(token) })
  expect(location(home)).toBe(`/assignment/${assignment.id}`)
  const user = await send(server, '/user', { cookie: cookieHeader(token) })
  expect(location(user)).toBe(`/assignment/${assignment.id}`)

  // Following the e-mailed link proved the address.
  const [row] = await db().select().from(users).where(eq(users.id, colleague.id))
  expect(row!.emailVerifiedAt).toBeInstanceOf(Date)
})

test('the link keeps working while the assignment is open (another device), each time a new session', async () => {
  const { link } = await invitation()
  const first = sessionTokenFrom(await openInvite(server, link))!
  const second = sessionTokenFrom(await openInvite(server, link))!
  expect(first).toBeTruthy()
  expect(second).toBeTruthy()
  expect(second.split('.')[0]).not.toBe(first.split('.')[0])
})

test('after the answers are submitted the link answers 410: the feedback is in, nothing more is needed', async () => {
  const { assignment, link } = await invitation()
  expect((await openInvite(server, link)).status).toBe(302)
  // The interstitial shown before the answers went in (another tab) says the same once pressed.
  const pending = cookiesFrom(await send(server, link))
  await db()
    .update(assignments)
    .set({ status: 'submitted', submittedAt: new Date() })
    .where(eq(assignments.id, assignment.id))
  for (const response of [
    await send(server, link),
    await send(server, '/verification?mode=invite', { cookie: pending }),
    await send(server, '/verification?mode=invite', { cookie: pending, form: {} }),
  ]) {
    expect(response.status).toBe(410)
    const text = textOf(await response.text())
    expect(text).toContain('Your feedback is in. Thank you!')
    expect(text).toContain('Nothing more is needed from you')
    expect(text).not.toContain(EXPIRED)
    expect(text).not.toContain('password')
    expect(setCookie(response, '__session')).toBeUndefined()
  }
})

test('a revoked assignment answers 410', async () => {
  const { assignment, link } = await invitation()
  await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, assignment.id))
  await expectExpired(link)
})

test('once the scheme is closed (by status or by date) the link answers 410', async () => {
  const closed = await invitation()
  await db().update(schemes).set({ status: 'closed' }).where(eq(schemes.id, closed.scheme.id))
  await expectExpired(closed.link)

  const past = await invitation()
  await db()
    .update(schemes)
    .set({ closesAt: new Date(Date.now() - 60_000) })
    .where(eq(schemes.id, past.scheme.id))
  await expectExpired(past.link)
})

test('a disabled colleague cannot use the link', async () => {
  const { colleague, link } = await invitation()
  await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, colleague.id))
  await expectExpired(link)
})

test('a made-up code, or an invite code used in another mode, answers 410', async () => {
  await expectExpired(`/verification?mode=invite&code=${'Q'.repeat(32)}`)
  const { code } = await invitation()
  await expectExpired(`/verification?mode=resetPassword&code=${code}`)
  await expectExpired(`/verification?mode=setup&code=${code}`)
})

test('a GET never signs anyone in: it moves the code into a cookie and shows one button, whoever sends it', async () => {
  const { colleague, code, link } = await invitation()
  const visits: Record<string, string>[] = [
    {},
    { 'Sec-Fetch-Site': 'cross-site', Referer: 'https://evil.example/' },
  ]
  for (const headers of visits) {
    const response = await send(server, link, { headers })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/verification?mode=invite')
    expect(setCookie(response, '__session')).toBeUndefined()
    const page = await send(server, '/verification?mode=invite', { cookie: cookiesFrom(response) })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).not.toContain(code)
    expect(html).toMatch(/<form[^>]*method="post"/)
    expect(textOf(html)).toContain('Continue as a colleague giving feedback on Erin Employee')
    expect(setCookie(page, '__session')).toBeUndefined()
  }
  expect(await sessionRowsOf(colleague.id)).toHaveLength(0)
})

test('opening the link again in a browser signed in as that colleague carries on with its session: no new row', async () => {
  const { colleague, link, scheme } = await invitation()
  const first = await openInvite(server, link)
  const token = sessionTokenFrom(first)!
  for (let i = 0; i < 3; i++) {
    const again = await openInvite(server, link, { cookie: cookieHeader(token) })
    expect(again.status).toBe(302)
    expect(location(again)).toBe(`/questionnaire/${scheme.questionnaireId}`)
    expect(setCookie(again, '__session')).toBeUndefined()
  }
  expect((await sessionRowsOf(colleague.id)).map((r) => r.id)).toEqual([token.split('.')[0]])
})

test('a browser signed in as someone else is told so and not switched by script; pressing on signs that account out here', async () => {
  const { colleague, link, scheme } = await invitation()
  const employee = await createUser({ role: 'employee', displayName: 'Sam Signed-In' })
  const cookie = await sessionCookieFor(employee.id)
  const opened = await send(server, link, { cookie })
  const jar = cookiesFrom(opened, cookie)
  const page = await send(server, '/verification?mode=invite', { cookie: jar })
  expect(textOf(await page.text())).toContain(
    'This browser is signed in as Sam Signed-In. Continuing signs that account out here.',
  )
  const pressed = await send(server, '/verification?mode=invite', { cookie: jar, form: {} })
  expect(pressed.status).toBe(302)
  expect(location(pressed)).toBe(`/questionnaire/${scheme.questionnaireId}`)
  expect((await sessionRow(sessionTokenFrom(pressed)!.split('.')[0]!))!.userId).toBe(colleague.id)
  // The replaced session is ended, not left behind.
  expect(await db().select().from(sessions).where(eq(sessions.userId, employee.id))).toHaveLength(0)
})

test('an employee asked for feedback who is signed in as themself goes straight to the questionnaire', async () => {
  const scheme = await createScheme()
  const subject = await createUser({ role: 'employee' })
  const peer = await createUser({ role: 'employee' })
  const assignment = await createRaterAssignment({ scheme, subjectId: subject.id, respondentId: peer.id })
  const { code } = await createActionCode(db(), {
    kind: 'colleague_invite',
    assignmentId: assignment.id,
    expiresAt: scheme.closesAt,
  })
  const cookie = await sessionCookieFor(peer.id)
  const response = await openInvite(server, `/verification?mode=invite&code=${code}`, { cookie })
  expect(response.status).toBe(302)
  expect(location(response)).toBe(`/questionnaire/${scheme.questionnaireId}`)
  expect(setCookie(response, '__session')).toBeUndefined()
  expect(await sessionRowsOf(peer.id)).toHaveLength(1)
})

test('a cross-site POST is refused and opens nothing', async () => {
  const { colleague, link } = await invitation()
  const jar = cookiesFrom(await send(server, link))
  const response = await send(server, '/verification?mode=invite', {
    cookie: jar,
    form: {},
    headers: { Origin: 'https://evil.example' },
  })
  expect(response.status).toBeGreaterThanOrEqual(400)
  expect(setCookie(response, '__session')).toBeUndefined()
  expect(await sessionRowsOf(colleague.id)).toHaveLength(0)
})
