import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { assignments, auditLog, brands, companies, questionnaires, schemes, users } from '#db/schema/index'
import {
  createBrand,
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { describeAction, listRunningSchemes, setupProgress } from '#app/modules/dashboard/overview.server'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { useTestDatabase } from '#tests/support/database'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * The dashboard (issue 9, section 4): the getting-started checklist ticks itself off as an empty
 * install fills up, running programmes show their progress, and recent activity reads as sentences.
 */
const db = useTestDatabase()
const server = useTestServer()

const mainText = (html: string) => textOf(/<main[\s\S]*<\/main>/.exec(html)![0])

async function dashboard(cookie: string) {
  const response = await send(server, '/admin', { cookie })
  expect(response.status).toBe(200)
  return mainText(await response.text())
}

describe('getting started', () => {
  test('an empty install shows the checklist; each step ticks itself off; it goes once all are done', async () => {
    // Start from nothing: the test database may hold other files' rows.
    await db().execute(sql`TRUNCATE schemes, questionnaires, companies, brands CASCADE`)
    await db().delete(users).where(eq(users.role, 'employee'))
    const admin = await createUser({ role: 'admin' })
    const cookie = await sessionCookieFor(admin.id)
    expect(await setupProgress()).toEqual({
      brand: false,
      company: false,
      questionnaire: false,
      scheme: false,
      employees: false,
      launch: false,
    })
    let text = await dashboard(cookie)
    expect(text).toContain('Getting started')
    expect(text).toContain('0 of 6 steps done')

    const brand = await createBrand({})
    const company = await createCompany({ brandId: brand.id })
    const questionnaire = await createQuestionnaire({ status: 'published' })
    text = await dashboard(cookie)
    expect(text).toContain('3 of 6 steps done')
    const scheme = await createScheme({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      status: 'draft',
    })
    await createUser({ role: 'employee', companyId: company.id })
    expect(await setupProgress()).toMatchObject({ scheme: true, employees: true, launch: false })
    await db().update(schemes).set({ status: 'open' }).where(eq(schemes.id, scheme.id))
    text = await dashboard(cookie)
    expect(text).not.toContain('Getting started')
    expect(await db().select().from(brands)).toHaveLength(1)
    expect(await db().select().from(companies)).toHaveLength(1)
    expect(await db().select().from(questionnaires)).toHaveLength(1)
  })
})

describe('running programmes', () => {
  test('open and upcoming schemes with their progress, soonest deadline first; drafts and closed ones not', async () => {
    const company = await createCompany({})
    const soon = await createScheme({
      companyId: company.id,
      name: 'Soon',
      closesAt: new Date(Date.now() + 2 * 86_400_000),
    })
    await createScheme({
      companyId: company.id,
      name: 'Upcoming',
      opensAt: new Date(Date.now() + 86_400_000),
      closesAt: new Date(Date.now() + 3 * 86_400_000),
    })
    await createScheme({
      companyId: company.id,
      name: 'Draft one',
      status: 'draft',
      closesAt: new Date(Date.now() + 86_400_000),
    })
    await createScheme({
      companyId: company.id,
      name: 'Closed one',
      status: 'closed',
      closesAt: new Date(Date.now() + 86_400_000),
    })
    const [a, b] = [
      await createUser({ role: 'employee', companyId: company.id }),
      await createUser({ role: 'employee', companyId: company.id }),
    ]
    const selfA = await enrolEmployee(soon, a.id)
    await enrolEmployee(soon, b.id)
    await db().update(assignments).set({ status: 'submitted' }).where(eq(assignments.id, selfA!.id))
    for (const [i, status] of (['submitted', 'in_progress', 'revoked'] as const).entries()) {
      const rater = await createUser({ role: 'colleague' })
      const row = await createRaterAssignment({ scheme: soon, subjectId: a.id, respondentId: rater.id })
      await db().update(assignments).set({ status }).where(eq(assignments.id, row.id))
      void i
    }
    const running = (await listRunningSchemes()).filter(
      (s) => s.companyName === (company as { name: string }).name,
    )
    expect(running.map((s) => s.name)).toEqual(['Soon', 'Upcoming'])
    expect(running[0]).toMatchObject({
      phase: 'open',
      enrolled: 2,
      selfSubmitted: 1,
      invited: 2,
      answered: 1,
    })
    expect(running[1]).toMatchObject({ phase: 'upcoming', enrolled: 0 })

    const admin = await createUser({ role: 'admin' })
    const text = await dashboard(await sessionCookieFor(admin.id))
    expect(text).toContain('Running programmes')
    expect(text).toContain('Self-assessments submitted 1 of 2')
    expect(text).toContain('Colleagues who answered 1 of 2')
  })
})

describe('running programmes, counted in words', () => {
  test('one running beside one left open past its closing time: “the one that closes soonest” (issue 15, B12)', async () => {
    await db().execute(sql`TRUNCATE schemes CASCADE`)
    const company = await createCompany({})
    await createScheme({ companyId: company.id, name: 'Still running' })
    // Launched and past its closing time, not yet closed by the worker: open, but not running.
    await createScheme({
      companyId: company.id,
      name: 'Past its time',
      opensAt: new Date(Date.now() - 3 * 86_400_000),
      closesAt: new Date(Date.now() - 86_400_000),
    })
    const admin = await createUser({ role: 'admin' })
    const text = await dashboard(await sessionCookieFor(admin.id))
    expect(text).toContain('Showing the one that closes soonest of 2 open schemes.')
  })
})

describe('recent activity', () => {
  test('the latest audit entries as sentences with who did them', async () => {
    const admin = await createUser({ role: 'admin', displayName: 'Dana Dashboard' })
    await db()
      .insert(auditLog)
      .values({ actorId: admin.id, action: 'company.create', entity: 'company', entityId: null })
    const text = await dashboard(await sessionCookieFor(admin.id))
    expect(text).toContain('Dana Dashboard created a company')
    expect(describeAction('brand.delete', 'brand')).toBe('deleted a brand')
    expect(describeAction('invite.create', 'assignment')).toBe('invited a colleague')
    expect(describeAction('something.odd', 'thing')).toBe('something: odd')
    // The article follows the noun's first sound (issue 15, B12).
    expect(describeAction('email_template.update', 'email_template')).toBe('changed an email template')
    expect(describeAction('assignment.delete', 'assignment')).toBe('deleted an assignment')
    expect(describeAction('user.disabled', 'user')).toBe('disabled a user')
  })
})
