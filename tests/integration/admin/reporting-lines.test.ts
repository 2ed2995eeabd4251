import crypto from 'node:crypto'
import pg from 'pg'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { auditLog, users } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, location, signedIn, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf } from '#tests/integration/auth/helpers'

/**
 * Reporting lines (issue 18 §1, ADR 041) through the real HTTP stack: an employee's manager,
 * department and job title on the add and edit forms, the rules (same company, never themself, no
 * circle, a manager does not move company away from their reports, the same words for every address
 * that is not this company's employee), the page's reporting line and the list's columns and filters.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/employee-management'
let adminCookie = ''
let adminEmail = ''
let acme = { id: '', name: '' }
let globex = { id: '', name: '' }

beforeAll(async () => {
  const signed = await signedIn({ role: 'admin' })
  adminCookie = signed.cookie
  adminEmail = signed.user.email
  acme = await createCompany({ name: `Acme Lines ${crypto.randomBytes(2).toString('hex')}` })
  globex = await createCompany({ name: `Globex Lines ${crypto.randomBytes(2).toString('hex')}` })
})

const admin$ = client(server, () => adminCookie)
const { get, follow } = admin$
const post = (path: string, form: Record<string, string>) => admin$.post(path, form, adminCookie)
const row = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!
const employee = (companyId = acme.id, extra: Partial<typeof users.$inferInsert> = {}) =>
  createUser({ role: 'employee', companyId, password: null, ...extra })

const editForm = (
  e: { id: string; email: string; displayName: string },
  overrides: Record<string, string> = {},
) => ({
  intent: 'update',
  employeeId: e.id,
  name: e.displayName,
  email: e.email,
  companyId: acme.id,
  phone: '',
  ...overrides,
})

const managerErrors = async (response: Response) => {
  expect(response.status).toBe(400)
  return fieldErrors(await response.text(), 'managerEmail')
}

describe('adding and editing', () => {
  test('an employee is added with a manager, department and job title; the page shows the line both ways', async () => {
    const boss = await employee(acme.id, { displayName: 'Bea Boss' })
    const email = `new.${crypto.randomBytes(3).toString('hex')}@example.test`
    const response = await post(PAGE, {
      intent: 'create',
      name: 'Nia New',
      email,
      companyId: acme.id,
      phone: '',
      jobTitle: '  Analyst ',
      department: 'Finance',
      managerEmail: boss.email.toUpperCase(),
    })
    expect(response.status).toBe(302)
    const created = (await db().select().from(users).where(eq(users.email, email)))[0]!
    expect(created).toMatchObject({ jobTitle: 'Analyst', department: 'Finance', managerId: boss.id })
    const [entry] = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, created.id), eq(auditLog.action, 'employee.create')))
    expect(entry!.details).toMatchObject({ managerId: boss.id, department: 'Finance', jobTitle: 'Analyst' })

    const own = textOf(await (await get(`${PAGE}/${created.id}`)).text())
    expect(own).toContain('Reporting line Reports to Bea Boss')
    const bossPage = textOf(await (await get(`${PAGE}/${boss.id}`)).text())
    expect(bossPage).toContain('One direct report')
    expect(bossPage).toContain('Nia New · Analyst')
  })

  test('editing sets, changes and clears them, audited as changes; an unchanged form saves nothing', async () => {
    const first = await employee()
    const second = await employee()
    const person = await employee()
    const path = `${PAGE}/${person.id}`
    const set = await post(
      path,
      editForm(person, { managerEmail: first.email, department: 'Ops', jobTitle: 'Lead' }),
    )
    expect(location(set)).toBe(path)
    expect(await row(person.id)).toMatchObject({ managerId: first.id, department: 'Ops', jobTitle: 'Lead' })
    const same = await post(
      path,
      editForm(person, { managerEmail: first.email, department: 'Ops', jobTitle: 'Lead' }),
    )
    expect(await follow(same)).toContain('Nothing to save')
    await post(path, editForm(person, { managerEmail: second.email, department: 'Ops', jobTitle: 'Lead' }))
    expect((await row(person.id)).managerId).toBe(second.id)
    // Empty fields clear them.
    await post(path, editForm(person))
    expect(await row(person.id)).toMatchObject({ managerId: null, department: null, jobTitle: null })
    const changes = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, person.id), eq(auditLog.action, 'employee.update')))
      .orderBy(auditLog.at)
    expect(changes.map((c) => Object.keys((c.details as { changes: object }).changes).sort())).toEqual([
      ['department', 'jobTitle', 'managerId'],
      ['managerId'],
      ['department', 'jobTitle', 'managerId'],
    ])
  })

  test('every address that is not an employee of this company gets the same words, and nothing changes', async () => {
    const person = await employee()
    const before = await row(person.id)
    const outsider = await employee(globex.id)
    const colleague = await createUser({ role: 'colleague' })
    const words = `No employee of ${acme.name} has this address. A manager must be an employee of the same company.`
    for (const address of [outsider.email, colleague.email, adminEmail, 'nobody.at.all@example.test']) {
      const errors = await managerErrors(
        await post(`${PAGE}/${person.id}`, editForm(person, { managerEmail: address })),
      )
      expect(errors).toEqual([words])
    }
    expect(await row(person.id)).toEqual(before)
  })

  test.each([
    ['a malformed address', { managerEmail: 'boss@' }, 'managerEmail', 'Enter the manager’s e-mail address'],
    [
      'a department that is too long',
      { department: 'd'.repeat(101) },
      'department',
      '100 characters or fewer',
    ],
    ['a job title on two lines', { jobTitle: 'Head\nof things' }, 'jobTitle', ''],
  ])('refuses %s with a message on its field', async (_label, overrides, field, words) => {
    const person = await employee()
    const before = await row(person.id)
    const response = await post(`${PAGE}/${person.id}`, editForm(person, overrides))
    expect(response.status).toBe(400)
    const errors = fieldErrors(await response.text(), field)
    expect(errors.length).toBe(1)
    expect(errors[0]).toContain(words)
    expect(await row(person.id)).toEqual(before)
  })

  test('nobody is their own manager, and no circle is closed: directly or through others', async () => {
    const a = await employee(acme.id, { displayName: 'Ann Top' })
    const b = await employee(acme.id, { displayName: 'Ben Middle', managerId: a.id })
    const c = await employee(acme.id, { displayName: 'Cat Bottom', managerId: b.id })
    expect(
      await managerErrors(await post(`${PAGE}/${a.id}`, editForm(a, { managerEmail: a.email }))),
    ).toEqual(['An employee cannot be their own manager. Enter someone else’s address, or leave it empty.'])
    expect(
      await managerErrors(await post(`${PAGE}/${a.id}`, editForm(a, { managerEmail: b.email }))),
    ).toEqual([
      'Ben Middle already reports to this employee, directly or through others: they cannot also be their manager.',
    ])
    expect(
      await managerErrors(await post(`${PAGE}/${a.id}`, editForm(a, { managerEmail: c.email }))),
    ).toEqual([
      'Cat Bottom already reports to this employee, directly or through others: they cannot also be their manager.',
    ])
    expect((await row(a.id)).managerId).toBeNull()
  })

  test('two admins closing a circle at the same moment: one change wins, the other is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await employee()
      const b = await employee()
      const [one, two] = await Promise.all([
        post(`${PAGE}/${a.id}`, editForm(a, { managerEmail: b.email })),
        post(`${PAGE}/${b.id}`, editForm(b, { managerEmail: a.email })),
      ])
      expect([one.status, two.status].sort()).toEqual([302, 400])
      const managers = [(await row(a.id)).managerId, (await row(b.id)).managerId]
      expect(managers.filter(Boolean)).toHaveLength(1)
    }
  })

  test.runIf(inject('testDatabase').kind === 'postgres')(
    'while an import holds the reporting lines, an edit waits a few seconds, then says to try again',
    async () => {
      const person = await employee()
      const boss = await employee()
      // Another connection holds the lock, as a long CSV import does.
      const holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
      await holder.connect()
      try {
        await holder.query('BEGIN')
        await holder.query(`SELECT pg_advisory_xact_lock(hashtext('reporting-lines'))`)
        const started = Date.now()
        const response = await post(`${PAGE}/${person.id}`, editForm(person, { managerEmail: boss.email }))
        expect(response.status).toBe(400)
        expect(textOf(await response.text())).toContain(
          'Another change to reporting lines (an import, or another administrator’s edit) is being saved. Try again in a moment.',
        )
        expect(Date.now() - started).toBeGreaterThanOrEqual(4_500)
        expect((await row(person.id)).managerId).toBeNull()
        await holder.query('COMMIT')
        const again = await post(`${PAGE}/${person.id}`, editForm(person, { managerEmail: boss.email }))
        expect(again.status).toBe(302)
        expect((await row(person.id)).managerId).toBe(boss.id)
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined)
        await holder.end()
      }
    },
  )

  test('a manager cannot move to another company while people report to them', async () => {
    const boss = await employee(acme.id, { displayName: 'Moving Boss' })
    await employee(acme.id, { managerId: boss.id })
    const response = await post(`${PAGE}/${boss.id}`, editForm(boss, { companyId: globex.id }))
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'companyId')).toEqual([
      `This employee manages an employee of ${acme.name}. Give them another manager before moving this employee to another company.`,
    ])
    expect((await row(boss.id)).companyId).toBe(acme.id)
  })
})

describe('the list', () => {
  const listed = (page: string) =>
    [
      ...page.matchAll(/<th scope="row"[^>]*><a[^>]*href="\/admin\/employee-management\/([0-9a-f-]{36})"/g),
    ].map((m) => m[1]!)

  test('shows job title, department and manager; filters by manager and by a company’s department', async () => {
    const company = await createCompany({ name: `Initech ${crypto.randomBytes(2).toString('hex')}` })
    const boss = await employee(company.id, {
      displayName: 'Lee Lead',
      department: 'Sales',
      jobTitle: 'Head of sales',
    })
    const r1 = await employee(company.id, { displayName: 'Rae One', department: 'Sales', managerId: boss.id })
    const r2 = await employee(company.id, {
      displayName: 'Rex Two',
      department: 'Support',
      managerId: boss.id,
    })
    const other = await employee(company.id, { displayName: 'Oli Other', department: 'Support' })

    const all = await (await get(`${PAGE}?company=${company.id}`)).text()
    expect(new Set(listed(all))).toEqual(new Set([boss.id, r1.id, r2.id, other.id]))
    expect(textOf(all)).toContain('Lee Lead Head of sales · Sales')
    expect(all).toContain('<option value="Sales">Sales</option>')

    const reports = await (await get(`${PAGE}?manager=${boss.id}`)).text()
    expect(new Set(listed(reports))).toEqual(new Set([r1.id, r2.id]))
    expect(textOf(reports)).toContain('Showing the direct reports of Lee Lead')

    const support = await (await get(`${PAGE}?company=${company.id}&department=Support`)).text()
    expect(new Set(listed(support))).toEqual(new Set([r2.id, other.id]))
    // A department without a company, or junk, is no filter rather than a failure.
    expect((await get(`${PAGE}?department=Support`)).status).toBe(200)
    const junk = await get(`${PAGE}?manager=not-a-uuid&department=${'x'.repeat(500)}&company=${company.id}`)
    expect(junk.status).toBe(200)
    expect(listed(await junk.text())).toHaveLength(0)
  })
})
