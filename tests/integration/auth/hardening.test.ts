import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { companies, rateLimits, sessions } from '#db/schema/index'
import { createRaterAssignment, createScheme, createUser } from '#db/factories'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { createSession, pruneExpired } from '#app/modules/auth/session.server'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { openInvite } from './helpers'

/** Findings of the review: the invite link's reach, sign-out's origin check, housekeeping. */
const db = useTestDatabase()
const server = useTestServer()

test('an invite link for someone with an employee account sends them to sign in, and opens no session', async () => {
  const scheme = await createScheme()
  const subject = await createUser({ role: 'employee' })
  const peer = await createUser({ role: 'employee' })
  const assignment = await createRaterAssignment({ scheme, subjectId: subject.id, respondentId: peer.id })
  const { code } = await createActionCode(db(), {
    kind: 'colleague_invite',
    assignmentId: assignment.id,
    expiresAt: scheme.closesAt,
  })

  const response = await openInvite(server, `/verification?mode=invite&code=${code}`)
  expect(response.status).toBe(302)
  // The sign-in step wears the programme's brand (issue 7, item 22).
  const [company] = await db().select().from(companies).where(eq(companies.id, scheme.companyId))
  expect(location(response)).toBe(
    `/sign-in?${new URLSearchParams({ redirectTo: `/questionnaire/${scheme.questionnaireId}`, brand: company!.brandId })}`,
  )
  expect(response.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(false)
  expect(await db().select().from(sessions).where(eq(sessions.userId, peer.id))).toHaveLength(0)
})

test('sign-out refuses a cross-site POST and keeps the session', async () => {
  const user = await createUser({ role: 'employee' })
  const cookie = await sessionCookieFor(user.id)
  const refused = await send(server, '/sign-out', {
    method: 'POST',
    cookie,
    form: {},
    headers: { Origin: 'https://evil.example' },
  })
  expect(refused.status).toBe(403)
  expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1)

  const ok = await send(server, '/sign-out', { method: 'POST', cookie, form: {} })
  expect(ok.status).toBe(302)
  expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0)
})

test('housekeeping removes expired sessions and stale rate-limit windows, and nothing live', async () => {
  const user = await createUser({ role: 'employee' })
  const live = await createSession(user.id)
  const dead = await createSession(user.id)
  await db()
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(sessions.id, dead.session.id))
  await db()
    .insert(rateLimits)
    .values([
      { key: 'test:old', windowStart: new Date(Date.now() - 3 * 24 * 3600 * 1000), count: 3 },
      { key: 'test:current', windowStart: new Date(), count: 1 },
    ])

  await pruneExpired()

  const left = await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))
  expect(left.map((s) => s.id)).toEqual([live.session.id])
  const keys = await db()
    .select({ key: rateLimits.key })
    .from(rateLimits)
    .where(sql`${rateLimits.key} LIKE 'test:%'`)
  expect(keys.map((k) => k.key)).toEqual(['test:current'])
})

test('a body over 3 MB is refused before it is read, and so is a chunked body with no length', async () => {
  const user = await createUser({ role: 'admin' })
  const cookie = await sessionCookieFor(user.id)
  const big = await send(server, '/admin/brand-management', {
    method: 'POST',
    cookie,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    form: { intent: 'create', name: 'x'.repeat(3 * 1024 * 1024 + 10) },
  })
  expect(big.status).toBe(413)

  const chunked = await fetch(`${server.url}/admin/brand-management`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('intent=create&name=Streamed'))
        controller.close()
      },
    }),
    duplex: 'half',
    redirect: 'manual',
  } as RequestInit)
  expect(chunked.status).toBe(411)
})
