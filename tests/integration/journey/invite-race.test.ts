import { and, eq, inArray } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { actionCodes, assignments, emailOutbox, users } from '#db/schema/index'
import { getHandle } from '#db/client'
import { inviteColleague, inviteMessages, revokeInvite } from '#app/modules/invite/invite.server'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { alertTexts } from '#tests/integration/auth/helpers'
import { enrolledEmployee, liveRaters } from './invite-helpers'

/**
 * The limit of 8 colleagues holds in the database transaction (DESIGN.md §4.3): concurrent invites
 * for one employee lock the employee's scheme membership row and take turns, so twenty at once
 * leave exactly eight. On Postgres (TEST_DATABASE_URL) these requests really run side by side on
 * separate connections; on PGlite (one connection) they interleave at every await, and must hold too.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/user/colleague-invite'
const N = 20
const LIMIT = 8

async function outboxRowsFor(assignmentIds: string[]) {
  if (!assignmentIds.length) return []
  return db().select().from(emailOutbox).where(inArray(emailOutbox.entityId, assignmentIds))
}

test(`${N} concurrent invite POSTs for one employee leave exactly ${LIMIT}, each with its e-mail`, async () => {
  const { scheme, employee } = await enrolledEmployee()
  const cookie = await sessionCookieFor(employee.id)
  const responses = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      send(server, PAGE, {
        cookie,
        form: {
          intent: 'invite',
          schemeId: scheme.id,
          name: `Colleague ${i}`,
          email: `race-http-${i}@example.test`,
          relationship: 'peer',
        },
      }),
    ),
  )
  const statuses = responses.map((r) => r.status)
  // Anything but an invitation (302) or the limit's refusal (400) says what it was, should it happen.
  const odd = await Promise.all(
    responses
      .filter((r) => r.status !== 302 && r.status !== 400)
      .map(
        async (r) =>
          `${r.status} ${r.headers.get('retry-after') ?? ''} ${(await r.clone().text()).slice(0, 300)}`,
      ),
  )
  expect(odd, 'answers other than 302 and 400').toEqual([])
  expect(statuses.filter((s) => s === 302)).toHaveLength(LIMIT)
  expect(statuses.filter((s) => s === 400)).toHaveLength(N - LIMIT)
  const limitMessage = inviteMessages.limit(LIMIT, false, '')
  for (const response of responses.filter((r) => r.status === 400))
    expect(alertTexts(await response.text())).toEqual([limitMessage])

  const live = await liveRaters(scheme.id, employee.id)
  expect(live).toHaveLength(LIMIT)
  const mails = await outboxRowsFor(live.map((a) => a.id))
  expect(mails).toHaveLength(LIMIT)
  expect(new Set(mails.map((m) => m.entityId))).toEqual(new Set(live.map((a) => a.id)))
  const codes = await db()
    .select()
    .from(actionCodes)
    .where(
      inArray(
        actionCodes.assignmentId,
        live.map((a) => a.id),
      ),
    )
  expect(codes).toHaveLength(LIMIT)
  // The refused ones left nothing behind: no stray assignment or e-mail for their addresses.
  const allMails = await db().select({ recipient: emailOutbox.recipient }).from(emailOutbox)
  expect(allMails.filter((m) => m.recipient.startsWith('race-http-'))).toHaveLength(LIMIT)
})

test(`${N} concurrent inviteColleague calls also leave exactly ${LIMIT} (the scheme's max_colleagues below 8 too)`, async () => {
  for (const max of [LIMIT, 3]) {
    const { scheme, employee } = await enrolledEmployee({ maxColleagues: max })
    const actor = { id: employee.id, role: 'employee' as const }
    const outcomes = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        inviteColleague(actor, {
          employeeId: employee.id,
          schemeId: scheme.id,
          name: `Colleague ${i}`,
          email: `race-fn-${max}-${i}@example.test`,
          relationship: 'other',
        }),
      ),
    )
    expect(outcomes.filter((o) => o.ok)).toHaveLength(max)
    for (const o of outcomes.filter((o) => !o.ok))
      expect(o).toEqual({ ok: false, formErrors: [inviteMessages.limit(max, false, '')] })
    const live = await liveRaters(scheme.id, employee.id)
    expect(live).toHaveLength(max)
    expect(await outboxRowsFor(live.map((a) => a.id))).toHaveLength(max)
  }
})

test('the same new address invited concurrently: one assignment for one employee, one account for two employees', async () => {
  const a = await enrolledEmployee()
  const b = await enrolledEmployee()
  const input = (w: typeof a) => ({
    employeeId: w.employee.id,
    schemeId: w.scheme.id,
    name: 'Dana Double',
    email: 'dana.double@example.test',
    relationship: 'peer',
  })
  const outcomes = await Promise.all([
    inviteColleague({ id: a.employee.id, role: 'employee' }, input(a)),
    inviteColleague({ id: a.employee.id, role: 'employee' }, input(a)),
    inviteColleague({ id: b.employee.id, role: 'employee' }, input(b)),
    inviteColleague({ id: b.employee.id, role: 'employee' }, input(b)),
  ])
  expect(outcomes.filter((o) => o.ok)).toHaveLength(2)
  for (const o of outcomes.filter((o) => !o.ok))
    expect(o).toEqual({
      ok: false,
      fieldErrors: { email: [inviteMessages.duplicate('dana.double@example.test')] },
    })
  const accounts = await db().select().from(users).where(eq(users.email, 'dana.double@example.test'))
  expect(accounts).toHaveLength(1)
  expect(await liveRaters(a.scheme.id, a.employee.id)).toHaveLength(1)
  expect(await liveRaters(b.scheme.id, b.employee.id)).toHaveLength(1)
})

test('revokes racing invites at the limit never leave more than the limit live', async () => {
  const { scheme, employee } = await enrolledEmployee({ maxColleagues: 2 })
  const actor = { id: employee.id, role: 'employee' as const }
  const first = await inviteColleague(actor, {
    employeeId: employee.id,
    schemeId: scheme.id,
    name: 'One',
    email: 'one@example.test',
    relationship: 'peer',
  })
  await inviteColleague(actor, {
    employeeId: employee.id,
    schemeId: scheme.id,
    name: 'Two',
    email: 'two@example.test',
    relationship: 'peer',
  })
  expect(first.ok).toBe(true)
  const results = await Promise.all([
    revokeInvite(actor, first.ok ? first.value.assignmentId : ''),
    ...Array.from({ length: 5 }, (_, i) =>
      inviteColleague(actor, {
        employeeId: employee.id,
        schemeId: scheme.id,
        name: `Late ${i}`,
        email: `late-${i}@example.test`,
        relationship: 'peer',
      }),
    ),
  ])
  expect(results[0]!.ok).toBe(true)
  // The freed place goes to at most one of the late invites (none, if they all ran before the revoke).
  expect(results.slice(1).filter((r) => r.ok).length).toBeLessThanOrEqual(1)
  expect((await liveRaters(scheme.id, employee.id)).length).toBeLessThanOrEqual(2)
  const [revoked] = await db()
    .select()
    .from(assignments)
    .where(and(eq(assignments.subjectId, employee.id), eq(assignments.status, 'revoked')))
  expect(revoked).toBeDefined()
})

test('runs on the database the suite was given', async () => {
  // Recorded so a reader of the output knows which concurrency the numbers above were proven under.
  const kind = getHandle().kind
  expect(['postgres', 'pglite']).toContain(kind)
  expect(kind === 'postgres').toBe(Boolean(process.env.TEST_DATABASE_URL))
})
