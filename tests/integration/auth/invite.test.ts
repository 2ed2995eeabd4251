import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { assignments, schemes, users } from '#db/schema/index'
import { createRaterAssignment, createScheme, createUser } from '#db/factories'
import { createActionCode } from '#app/modules/auth/action-codes.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { useTestDatabase } from '#tests/support/database'
import { location, send, useTestServer } from '#tests/support/app'
import { alertTexts, cookieHeader, sessionRow, sessionTokenFrom, setCookie } from './helpers'

/**
 * A colleague has no password: the invite link is how they sign in (DESIGN.md §1). Without
 * Turnstile configured the link is exchanged at once for a session and the questionnaire; it keeps
 * working (another device, a later day) until the answers are in or the scheme closes.
 */
const db = useTestDatabase()
const server = useTestServer()

const EXPIRED = AUTH_ERROR_MESSAGES['auth/expired-action-code']

async function invitation(options: { schemeStatus?: 'open' | 'closed'; closesAt?: Date } = {}) {
  const scheme = await createScheme({
    status: options.schemeStatus ?? 'open',
    ...(options.closesAt ? { closesAt: options.closesAt } : {}),
  })
  const employee = await createUser({ role: 'employee' })
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
  const response = await send(server, link)
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
  const first = sessionTokenFrom(await send(server, link))!
  const second = sessionTokenFrom(await send(server, link))!
  expect(first).toBeTruthy()
  expect(second).toBeTruthy()
  expect(second.split('.')[0]).not.toBe(first.split('.')[0])
})

test('after the answers are submitted the link answers 410', async () => {
  const { assignment, link } = await invitation()
  expect((await send(server, link)).status).toBe(302)
  await db()
    .update(assignments)
    .set({ status: 'submitted', submittedAt: new Date() })
    .where(eq(assignments.id, assignment.id))
  await expectExpired(link)
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
