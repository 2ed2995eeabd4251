import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { assignments, auditLog, companies } from '#db/schema/index'
import { createBrand, createCompany, createRaterAssignment, createScheme, createUser } from '#db/factories'
import { FEEDBACK_REQUEST_CAP_DEFAULT } from '#app/config/constants'
import { FEEDBACK_REQUEST_CAP_MESSAGE } from '#app/modules/company/schemas'
import { NEAR_CAP_SHOWN } from '#app/modules/invite/request-cap.server'
import { useTestDatabase } from '#tests/support/database'
import { client, send, signedIn, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf } from '#tests/integration/auth/helpers'

/**
 * The company's feedback-request cap (issue 18 §4, ADR 038) in the back office: set on the company's
 * edit form (audited, every bad value a field message), and the people near it listed under the form.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/company-management'
let admin = { id: '' }
let adminCookie = ''
let brand = { id: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  brand = await createBrand({})
})

const admin$ = client(server, () => adminCookie)
const post = (form: Record<string, string>, { path = PAGE } = {}) => admin$.post(path, form)
const DAY = 86_400_000

const getRow = async (id: string) => (await db().select().from(companies).where(eq(companies.id, id)))[0]!
const auditFor = (entityId: string) =>
  db()
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'company'), eq(auditLog.entityId, entityId)))

async function editPage(companyId: string) {
  const response = await send(server, `${PAGE}?edit=${companyId}`, { cookie: adminCookie })
  expect(response.status).toBe(200)
  return response.text()
}

describe('the setting', () => {
  test('a new company has the default; the edit form shows it and saves a new value, audited', async () => {
    const company = await createCompany({ name: 'Capped Co', brandId: brand.id })
    expect((await getRow(company.id)).feedbackRequestCap).toBe(FEEDBACK_REQUEST_CAP_DEFAULT)
    const html = await editPage(company.id)
    expect(html).toMatch(
      /<label for="update-company-[\w-]+-feedbackRequestCap"[^>]*>Open feedback requests per person<\/label>/,
    )
    expect(html).toMatch(/name="feedbackRequestCap"[^>]*value="5"|value="5"[^>]*name="feedbackRequestCap"/)

    const response = await post(
      {
        intent: 'update',
        companyId: company.id,
        name: 'Capped Co',
        brandId: brand.id,
        feedbackRequestCap: '12',
      },
      { path: `${PAGE}?edit=${company.id}` },
    )
    expect(response.status).toBe(302)
    expect((await getRow(company.id)).feedbackRequestCap).toBe(12)
    expect(await auditFor(company.id)).toEqual([
      {
        action: 'company.update',
        actorId: admin.id,
        details: { changes: { feedbackRequestCap: { from: 5, to: 12 } } },
      },
    ])
  })

  test.each([
    ['0', { feedbackRequestCap: '0' }],
    ['51', { feedbackRequestCap: '51' }],
    ['-3', { feedbackRequestCap: '-3' }],
    ['2.5', { feedbackRequestCap: '2.5' }],
    ['text', { feedbackRequestCap: 'five' }],
    ['blank', { feedbackRequestCap: '' }],
    ['missing', {}],
  ])('refuses %s with the field’s message (400, not 500) and changes nothing', async (_label, cap) => {
    const company = await createCompany({ brandId: brand.id })
    const before = await getRow(company.id)
    const response = await post(
      { intent: 'update', companyId: company.id, name: company.name, brandId: brand.id, ...cap },
      { path: `${PAGE}?edit=${company.id}` },
    )
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, 'feedbackRequestCap')).toEqual([FEEDBACK_REQUEST_CAP_MESSAGE])
    expect(html).toContain('aria-invalid="true"')
    expect(await getRow(company.id)).toEqual(before)
    expect(await auditFor(company.id)).toEqual([])
  })
})

/** `n` open feedback requests for the person, each about a fresh subject in a scheme of its own company. */
async function openRequests(respondentId: string, n: number) {
  for (let i = 0; i < n; i++) {
    const scheme = await createScheme({})
    const subject = await createUser({ role: 'employee', companyId: scheme.companyId })
    await createRaterAssignment({ scheme, subjectId: subject.id, respondentId })
  }
}

describe('who is near the cap', () => {
  test('lists the company’s employees and its schemes’ raters with cap − 1 or more open requests, busiest first', async () => {
    const company = await createCompany({ name: 'Busy Co', brandId: brand.id })
    const scheme = await createScheme({ companyId: company.id })
    const subject = await createUser({ role: 'employee', companyId: company.id })

    const nearEmployee = await createUser({
      role: 'employee',
      companyId: company.id,
      displayName: 'Nora Near',
    })
    await openRequests(nearEmployee.id, 4)
    // As busy as Nora: the same count is ordered by name.
    const alsoEmployee = await createUser({
      role: 'employee',
      companyId: company.id,
      displayName: 'amy Also',
    })
    await openRequests(alsoEmployee.id, 4)
    const calmEmployee = await createUser({
      role: 'employee',
      companyId: company.id,
      displayName: 'Carl Calm',
    })
    await openRequests(calmEmployee.id, 3)
    // An outsider asked in one of the company's schemes, busy elsewhere: at the cap.
    const outsider = await createUser({ role: 'colleague', displayName: 'Olga Outside' })
    await createRaterAssignment({ scheme, subjectId: subject.id, respondentId: outsider.id })
    await openRequests(outsider.id, 4)
    // Busy, but nothing to do with this company.
    const stranger = await createUser({ role: 'colleague', displayName: 'Sam Stranger' })
    await openRequests(stranger.id, 6)
    // An employee whose requests are answered, revoked or closed: none of them open.
    const doneEmployee = await createUser({
      role: 'employee',
      companyId: company.id,
      displayName: 'Dora Done',
    })
    await openRequests(doneEmployee.id, 5)
    const closedScheme = await createScheme({
      opensAt: new Date(Date.now() - 40 * DAY),
      closesAt: new Date(Date.now() - DAY),
    })
    await db()
      .update(assignments)
      .set({ status: 'submitted' })
      .where(eq(assignments.respondentId, doneEmployee.id))
    const late = await createUser({ role: 'employee', companyId: closedScheme.companyId })
    await createRaterAssignment({ scheme: closedScheme, subjectId: late.id, respondentId: doneEmployee.id })

    const text = textOf(await editPage(company.id))
    expect(text).toContain('People near the feedback-request cap')
    expect(text).toContain(
      'at least 4 open requests across all programmes. At 5, new invitations to them are refused.',
    )
    expect(text).toContain(`Olga Outside ${outsider.email} 5 of 5 open · at the cap`)
    expect(text).toContain(`Nora Near ${nearEmployee.email} 4 of 5 open`)
    expect(text).toContain(`amy Also ${alsoEmployee.email} 4 of 5 open`)
    expect(text.indexOf('Olga Outside')).toBeLessThan(text.indexOf('amy Also'))
    expect(text.indexOf('amy Also')).toBeLessThan(text.indexOf('Nora Near'))
    for (const name of ['Carl Calm', 'Sam Stranger', 'Dora Done']) expect(text).not.toContain(name)

    // A stricter cap brings Carl in; the list follows the company's own setting.
    await db().update(companies).set({ feedbackRequestCap: 4 }).where(eq(companies.id, company.id))
    const stricter = textOf(await editPage(company.id))
    expect(stricter).toContain(`Carl Calm ${calmEmployee.email} 3 of 4 open`)
    expect(stricter).toContain(`Nora Near ${nearEmployee.email} 4 of 4 open · at the cap`)
  })

  test(`says so when nobody is near, and shows at most ${NEAR_CAP_SHOWN}`, async () => {
    const company = await createCompany({ brandId: brand.id })
    expect(textOf(await editPage(company.id))).toContain('Nobody is near the cap.')

    // Under a cap of 1, everyone with one open request is near it (cap − 1 is 0: one request at least).
    await db().update(companies).set({ feedbackRequestCap: 1 }).where(eq(companies.id, company.id))
    const scheme = await createScheme({ companyId: company.id })
    const subject = await createUser({ role: 'employee', companyId: company.id })
    for (let i = 0; i <= NEAR_CAP_SHOWN; i++) {
      const rater = await createUser({ role: 'colleague' })
      await createRaterAssignment({ scheme, subjectId: subject.id, respondentId: rater.id })
    }
    const text = textOf(await editPage(company.id))
    expect(text.match(/1 of 1 open · at the cap/g)).toHaveLength(NEAR_CAP_SHOWN)
    expect(text).toContain(`Showing the ${NEAR_CAP_SHOWN} people with the most open requests.`)
  })
})
