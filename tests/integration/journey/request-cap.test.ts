import { and, eq, ne } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { assignments, companies, rateLimits } from '#db/schema/index'
import { getHandle } from '#db/client'
import { createCompany, createRaterAssignment, createScheme, createUser, enrolEmployee } from '#db/factories'
import { inviteColleague, inviteMessages, resendInvite } from '#app/modules/invite/invite.server'
import { REQUEST_CAP_MESSAGE } from '#app/modules/invite/request-cap.server'
import { useTestDatabase } from '#tests/support/database'
import { client, sessionCookieFor, signedIn, useTestServer } from '#tests/support/app'
import { fieldErrors } from '#tests/integration/auth/helpers'
import { enrolledEmployee, footprint } from './invite-helpers'

/**
 * The rater fatigue cap (issue 18 §4, ADR 038) on the invitation path: a person holding their
 * inviting company's cap of open feedback requests, across every scheme and company, cannot be
 * invited again; what counts as open follows the one phase rule; the refusal is the same neutral
 * words whatever lies behind it; and the last slot goes to exactly one of concurrent invitations.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/user/colleague-invite'
const DAY = 86_400_000

beforeEach(async () => {
  // The per-recipient invite limit (5 a day) would otherwise speak before the cap in these tests.
  await db().delete(rateLimits)
})

const refused = { ok: false, fieldErrors: { email: [REQUEST_CAP_MESSAGE] } }

type RequestState =
  'open' | 'in_progress' | 'submitted' | 'revoked' | 'closed' | 'past' | 'ended' | 'upcoming'

/**
 * One feedback request for `respondentId`, about a fresh employee in a fresh scheme (of `companyId`,
 * else a new company), in the given state.
 */
async function requestFor(respondentId: string, state: RequestState = 'open', companyId?: string) {
  const company = companyId ?? (await createCompany({})).id
  const scheme = await createScheme({
    companyId: company,
    ...(state === 'closed' ? { status: 'closed' as const } : {}),
    ...(state === 'past'
      ? { opensAt: new Date(Date.now() - 40 * DAY), closesAt: new Date(Date.now() - DAY) }
      : {}),
    ...(state === 'upcoming'
      ? { opensAt: new Date(Date.now() + DAY), closesAt: new Date(Date.now() + 30 * DAY) }
      : {}),
  })
  const subject = await createUser({ role: 'employee', companyId: company })
  await enrolEmployee(scheme, subject.id)
  const row = await createRaterAssignment({ scheme, subjectId: subject.id, respondentId })
  const status =
    state === 'in_progress' || state === 'submitted' || state === 'revoked' ? state : ('pending' as const)
  await db()
    .update(assignments)
    .set({ status, ...(state === 'ended' ? { closedAt: new Date() } : {}) })
    .where(eq(assignments.id, row.id))
  return row
}

async function requestsFor(
  respondentId: string,
  n: number,
  state: RequestState = 'open',
  companyId?: string,
) {
  for (let i = 0; i < n; i++) await requestFor(respondentId, state, companyId)
}

async function setCap(companyId: string, cap: number) {
  await db().update(companies).set({ feedbackRequestCap: cap }).where(eq(companies.id, companyId))
}

function inviteAs(w: { scheme: { id: string }; employee: { id: string } }, person: { email: string }) {
  return inviteColleague(
    { id: w.employee.id, role: 'employee' },
    {
      employeeId: w.employee.id,
      schemeId: w.scheme.id,
      name: 'Rita Rater',
      email: person.email,
      relationship: 'peer',
    },
  )
}

async function openRequestsOf(respondentId: string) {
  return db()
    .select({ id: assignments.id })
    .from(assignments)
    .where(
      and(
        eq(assignments.respondentId, respondentId),
        ne(assignments.relationship, 'self'),
        eq(assignments.status, 'pending'),
      ),
    )
}

describe('the rule', () => {
  test('below the cap the invitation goes out; at the cap (default 5) it is refused and writes nothing', async () => {
    const w = await enrolledEmployee()
    const person = await createUser({ role: 'colleague' })
    await requestsFor(person.id, 4)
    const first = await inviteAs(w, person)
    expect(first.ok).toBe(true)
    expect(await openRequestsOf(person.id)).toHaveLength(5)

    const other = await enrolledEmployee()
    const before = await footprint()
    expect(await inviteAs(other, person)).toEqual(refused)
    expect(await footprint()).toEqual(before)
  })

  test('submitted, revoked, closed, past, ended-early and self assignments do not count; in progress and upcoming do', async () => {
    const person = await createUser({ role: 'employee' })
    for (const state of ['submitted', 'revoked', 'closed', 'past', 'ended'] as const)
      await requestsFor(person.id, 2, state)
    // Their own self-assessments in five schemes are not requests from anyone.
    for (let i = 0; i < 5; i++) await enrolEmployee(await createScheme({}), person.id)
    await requestsFor(person.id, 2, 'in_progress')
    await requestsFor(person.id, 1, 'upcoming')
    await requestsFor(person.id, 1)
    // 4 count: one slot left under the default cap of 5.
    expect((await inviteAs(await enrolledEmployee(), person)).ok).toBe(true)
    expect(await inviteAs(await enrolledEmployee(), person)).toEqual(refused)
  })

  test('requests from other companies count, against the inviting scheme’s company’s own cap', async () => {
    const person = await createUser({ role: 'colleague' })
    await requestsFor(person.id, 3) // each in a company of its own
    const strict = await enrolledEmployee()
    await setCap(strict.company.id, 3)
    expect(await inviteAs(strict, person)).toEqual(refused)
    const lenient = await enrolledEmployee()
    await setCap(lenient.company.id, 10)
    expect((await inviteAs(lenient, person)).ok).toBe(true)
  })

  test('a brand-new address holds no request: it is invited even under a cap of 1, and then counts', async () => {
    const w = await enrolledEmployee()
    await setCap(w.company.id, 1)
    expect((await inviteAs(w, { email: 'brand.new@example.test' })).ok).toBe(true)
    const again = await enrolledEmployee()
    await setCap(again.company.id, 1)
    expect(await inviteAs(again, { email: 'brand.new@example.test' })).toEqual(refused)
  })

  test('the refusal is the same neutral words whatever the reason, and names no programme, count or cap', async () => {
    const outcomes = []
    // At the cap through one company's schemes, through several companies', in progress, upcoming.
    const shared = await createCompany({})
    const a = await createUser({ role: 'colleague' })
    await requestsFor(a.id, 5, 'open', shared.id)
    const b = await createUser({ role: 'colleague' })
    await requestsFor(b.id, 5)
    const c = await createUser({ role: 'employee' })
    await requestsFor(c.id, 3, 'in_progress')
    await requestsFor(c.id, 2, 'upcoming')
    for (const person of [a, b, c]) outcomes.push(await inviteAs(await enrolledEmployee(), person))
    // And under a cap of 2 with a request in the inviting company's own scheme.
    const d = await createUser({ role: 'colleague' })
    const own = await enrolledEmployee()
    await setCap(own.company.id, 2)
    await requestFor(d.id, 'open', own.company.id)
    await requestFor(d.id, 'open')
    outcomes.push(await inviteAs(own, d))
    for (const outcome of outcomes) expect(outcome).toEqual(refused)
    expect(REQUEST_CAP_MESSAGE).toBe(
      'This person has been asked for a lot of feedback recently; choose someone else.',
    )
    expect(REQUEST_CAP_MESSAGE).not.toMatch(/\d|scheme|programme|company|cap|limit/i)
  })

  test('resending an existing invitation is not a new request: it goes out even at the cap', async () => {
    const w = await enrolledEmployee()
    const person = await createUser({ role: 'colleague' })
    await requestsFor(person.id, 4)
    const invited = await inviteAs(w, person)
    expect(invited.ok).toBe(true)
    expect(await inviteAs(await enrolledEmployee(), person)).toEqual(refused)
    const resent = await resendInvite(
      { id: w.employee.id, role: 'employee' },
      invited.ok ? invited.value.assignmentId : '',
    )
    expect(resent.ok).toBe(true)
  })
})

describe('through the page', () => {
  test('the employee and an admin inviting on their behalf see the same words on the e-mail field', async () => {
    const w = await enrolledEmployee()
    const person = await createUser({ role: 'colleague' })
    await requestsFor(person.id, 5)
    const form = {
      intent: 'invite',
      schemeId: w.scheme.id,
      name: 'Rita Rater',
      email: person.email,
      relationship: 'peer',
    }
    const { post } = client(server, () => '')
    const own = await post(PAGE, form, await sessionCookieFor(w.employee.id))
    expect(own.status).toBe(400)
    const ownHtml = await own.text()
    expect(fieldErrors(ownHtml, 'email')).toEqual([inviteMessages.requestCap])

    const { cookie: adminCookie } = await signedIn({ role: 'admin' })
    const behalf = await post(`${PAGE}?employee=${w.employee.id}`, form, adminCookie)
    expect(behalf.status).toBe(400)
    expect(fieldErrors(await behalf.text(), 'email')).toEqual([inviteMessages.requestCap])
    expect(await openRequestsOf(person.id)).toHaveLength(5)
  })
})

describe('under concurrency', () => {
  const N = 5

  test(`${N} invitations of one person from different employees and schemes for the last slot: exactly one goes out`, async () => {
    const person = await createUser({ role: 'colleague' })
    await requestsFor(person.id, 4)
    const inviters = await Promise.all(Array.from({ length: N }, () => enrolledEmployee()))
    const outcomes = await Promise.all(inviters.map((w) => inviteAs(w, person)))
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1)
    for (const o of outcomes.filter((o) => !o.ok)) expect(o).toEqual(refused)
    expect(await openRequestsOf(person.id)).toHaveLength(5)
  })

  test(`${N} invitations of a brand-new address under a cap of 1: one account, exactly one request`, async () => {
    const inviters = await Promise.all(Array.from({ length: N }, () => enrolledEmployee()))
    for (const w of inviters) await setCap(w.company.id, 1)
    const outcomes = await Promise.all(inviters.map((w) => inviteAs(w, { email: 'newcomer@example.test' })))
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1)
    for (const o of outcomes.filter((o) => !o.ok)) expect(o).toEqual(refused)
    const ok = outcomes.find((o) => o.ok)
    expect(await openRequestsOf(ok!.ok ? ok!.value.colleagueId : '')).toHaveLength(1)
  })

  test('runs on the database the suite was given', () => {
    expect(getHandle().kind === 'postgres').toBe(Boolean(process.env.TEST_DATABASE_URL))
  })
})
