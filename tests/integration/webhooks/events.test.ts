import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '#db/client'
import { employeeImportRows, employeeImports, schemes, webhookDeliveries } from '#db/schema/index'
import {
  createCompany,
  createQuestionnaire,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { saveAnswers } from '#app/modules/assignment/save-answers.server'
import { createEmployee, disableEmployee, updateEmployee } from '#app/modules/employee/employee.server'
import { runImport } from '#app/modules/employee/import.server'
import { addNominee, approveList, submitList } from '#app/modules/nomination/nomination.server'
import { releaseParticipant } from '#app/modules/report/release.server'
import { closeDueSchemes } from '#app/modules/scheme/clock.server'
import { closeScheme, launchScheme } from '#app/modules/scheme/scheme.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { useTestDatabase } from '#tests/support/database'
import { deliveriesOf, insertEndpoint } from './helpers'

/**
 * Every webhook event is queued by the change it reports, in the same transaction (ADR 057): one
 * delivery per endpoint that wants it and may see its company; a change refused or rolled back
 * queues nothing; the payload is ids and states, never names, addresses or answers.
 */
const db = useTestDatabase()

let companyId = ''
let otherCompanyId = ''
let all = { id: '', secret: '' }
let mine = { id: '', secret: '' }
let theirs = { id: '', secret: '' }
let onlyLaunch = { id: '', secret: '' }
let disabled = { id: '', secret: '' }
let admin = { id: '' }

beforeAll(async () => {
  companyId = (await createCompany({ name: 'Hooked Company' })).id
  otherCompanyId = (await createCompany({ name: 'Other Company' })).id
  all = await insertEndpoint()
  mine = await insertEndpoint({ companyId })
  theirs = await insertEndpoint({ companyId: otherCompanyId })
  onlyLaunch = await insertEndpoint({ events: ['scheme.launched'] })
  disabled = await insertEndpoint({ enabled: false })
  admin = await createUser({ role: 'admin' })
})

/** The deliveries queued since `since` (a count of rows), per endpoint. */
async function newDeliveries(type: string) {
  return db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, type))
}

async function count(type: string) {
  return (await newDeliveries(type)).length
}

function payloadOf(row: { payload: unknown }) {
  return row.payload as { type: string; timestamp: string; data: Record<string, unknown> }
}

describe('employees', () => {
  test('employee.created: to every endpoint for all companies or this one, none to another company’s, none disabled', async () => {
    const outcome = await createEmployee(admin, {
      name: 'Petra Payload',
      email: 'petra.payload@example.test',
      phone: null,
      companyId,
      department: 'Secret Department',
      jobTitle: null,
      managerEmail: null,
    } as never)
    expect(outcome.ok).toBe(true)
    const id = outcome.ok ? outcome.value.id : ''
    const rows = await newDeliveries('employee.created')
    expect(rows.map((r) => r.endpointId).sort()).toEqual([all.id, mine.id].sort())
    for (const row of rows) {
      const payload = payloadOf(row)
      expect(payload.type).toBe('employee.created')
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp)
      expect(payload.data).toEqual({ employee_id: id, company_id: companyId, enabled: true })
      // Ids and states only: no name, address or department.
      expect(JSON.stringify(payload)).not.toMatch(/Petra|payload@|Secret Department/)
    }
    expect((await deliveriesOf(theirs.id)).length).toBe(0)
    expect((await deliveriesOf(disabled.id)).length).toBe(0)
    expect((await deliveriesOf(onlyLaunch.id)).length).toBe(0)
  })

  test('a refused change queues nothing (the company is gone)', async () => {
    const before = await count('employee.created')
    const outcome = await createEmployee(admin, {
      name: 'Nobody',
      email: 'nobody.refused@example.test',
      phone: null,
      companyId: '00000000-0000-4000-8000-000000000000',
      department: null,
      jobTitle: null,
      managerEmail: null,
    } as never)
    expect(outcome.ok).toBe(false)
    expect(await count('employee.created')).toBe(before)
  })

  test('employee.updated names the fields changed, not their values; disabling says enabled: false', async () => {
    const employee = await createUser({ role: 'employee', companyId, displayName: 'Ulla Update' })
    const outcome = await updateEmployee(admin, employee.id, {
      name: 'Ulla Renamed',
      email: employee.email,
      phone: null,
      companyId,
      department: null,
      jobTitle: 'Chief Secret Officer',
      managerEmail: null,
    } as never)
    expect(outcome.ok).toBe(true)
    const updated = (await newDeliveries('employee.updated')).filter(
      (r) => payloadOf(r).data.employee_id === employee.id,
    )
    expect(updated.length).toBe(2)
    expect(payloadOf(updated[0]!).data).toEqual({
      employee_id: employee.id,
      company_id: companyId,
      enabled: true,
      changed: ['name', 'jobTitle'],
    })
    expect(JSON.stringify(updated.map((r) => r.payload))).not.toMatch(/Ulla|Chief Secret/)

    expect((await disableEmployee(admin, employee.id)).ok).toBe(true)
    const after = (await newDeliveries('employee.updated')).filter(
      (r) => payloadOf(r).data.employee_id === employee.id && payloadOf(r).data.enabled === false,
    )
    expect(after.length).toBe(2)
    expect(payloadOf(after[0]!).data.changed).toEqual(['enabled'])
  })
})

describe('the CSV import', () => {
  test('each account created or changed is an event, queued by the statement that writes it', async () => {
    const existing = await createUser({ role: 'employee', companyId, displayName: 'Ivo Imported' })
    const [upload] = await db()
      .insert(employeeImports)
      .values({ createdBy: admin.id, fileName: 'people.csv', rowCount: 2 })
      .returning({ id: employeeImports.id })
    const fresh = `iris.import.${upload!.id.slice(0, 8)}@example.test`
    await db()
      .insert(employeeImportRows)
      .values([
        { importId: upload!.id, line: 2, name: 'Iris Import', email: fresh, companyName: 'Hooked Company' },
        {
          importId: upload!.id,
          line: 3,
          name: 'Ivo Renamed',
          email: existing.email,
          companyName: 'Hooked Company',
          jobTitle: 'Importer',
        },
      ])
    const outcome = await runImport(admin, upload!.id, null, { updateNames: true })
    expect(outcome.ok && outcome.value).toMatchObject({ created: 1, updated: 1 })
    const created = (await newDeliveries('employee.created')).filter((r) => r.endpointId === all.id)
    const updated = (await newDeliveries('employee.updated')).filter(
      (r) => r.endpointId === all.id && payloadOf(r).data.employee_id === existing.id,
    )
    expect(updated.map((r) => payloadOf(r).data)).toEqual([
      { employee_id: existing.id, company_id: companyId, enabled: true },
    ])
    const newId = created.map((r) => payloadOf(r).data.employee_id).at(-1)
    expect(newId).not.toBe(existing.id)
    expect(JSON.stringify([...created, ...updated].map((r) => r.payload))).not.toMatch(
      /Iris|Ivo|Importer|import\./,
    )
  })
})

describe('transactions', () => {
  test('a transaction that rolls back after queueing leaves no delivery', async () => {
    const before = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
    )[0]!.n
    await expect(
      getDb().transaction(async (tx) => {
        await tx
          .update(schemes)
          .set({ name: 'never' })
          .where(sql`false`)
        await enqueueWebhookEvents(tx, [
          { type: 'employee.created', companyId, data: { employee_id: crypto.randomUUID(), enabled: true } },
        ])
        const [n] = await tx.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries)
        // Inside the transaction the rows are there…
        expect(Number(n!.n)).toBeGreaterThan(Number(before))
        throw new Error('the change fails after its events were queued')
      }),
    ).rejects.toThrow('the change fails')
    // …and gone with it.
    const after = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
    )[0]!.n
    expect(Number(after)).toBe(Number(before))
  })
})

describe('schemes', () => {
  test('scheme.launched and scheme.closed (by an admin), with the scheme’s company and state', async () => {
    const questionnaire = await createQuestionnaire()
    const scheme = await createScheme({ companyId, questionnaireId: questionnaire.id, status: 'draft' })
    const employee = await createUser({ role: 'employee', companyId })
    await enrolEmployee(scheme, employee.id)
    expect((await launchScheme(admin, scheme.id)).ok).toBe(true)
    const launched = (await newDeliveries('scheme.launched')).filter(
      (r) => payloadOf(r).data.scheme_id === scheme.id,
    )
    expect(launched.map((r) => r.endpointId).sort()).toEqual([all.id, mine.id, onlyLaunch.id].sort())
    expect(payloadOf(launched[0]!).data).toEqual({
      scheme_id: scheme.id,
      company_id: companyId,
      state: 'open',
    })

    // A second launch is refused: nothing more.
    expect((await launchScheme(admin, scheme.id)).ok).toBe(false)
    expect(
      (await newDeliveries('scheme.launched')).filter((r) => payloadOf(r).data.scheme_id === scheme.id)
        .length,
    ).toBe(3)

    expect((await closeScheme(admin, scheme.id)).ok).toBe(true)
    const closed = (await newDeliveries('scheme.closed')).filter(
      (r) => payloadOf(r).data.scheme_id === scheme.id,
    )
    expect(closed.map((r) => r.endpointId).sort()).toEqual([all.id, mine.id].sort())
    expect(payloadOf(closed[0]!).data).toEqual({
      scheme_id: scheme.id,
      company_id: companyId,
      state: 'closed',
      closed_by: 'admin',
    })
  })

  test('scheme.closed by the clock: queued by the statement that closes it, once', async () => {
    const scheme = await createScheme({
      companyId: otherCompanyId,
      opensAt: new Date(Date.now() - 3 * 86_400_000),
      closesAt: new Date(Date.now() - 60_000),
      status: 'open',
    })
    await closeDueSchemes(new Date())
    await closeDueSchemes(new Date())
    const closed = (await newDeliveries('scheme.closed')).filter(
      (r) => payloadOf(r).data.scheme_id === scheme.id,
    )
    expect(closed.map((r) => r.endpointId).sort()).toEqual([all.id, theirs.id].sort())
    expect(payloadOf(closed[0]!).data).toMatchObject({
      state: 'closed',
      closed_by: 'clock',
      company_id: otherCompanyId,
    })
    expect(payloadOf(closed[0]!).timestamp).toBe(new Date(scheme.closesAt).toISOString())
  })
})

describe('answers, lists and reports', () => {
  test('assignment.submitted: a self-assessment by its id; the payload holds no answer text', async () => {
    const questionnaire = await createQuestionnaire({
      questions: [
        {
          section: 'Only',
          kind: 'textarea',
          text: 'What should I keep doing?',
          raterText: 'What should {{name}} keep doing?',
          category: 'Open',
        },
      ],
    })
    const scheme = await createScheme({ companyId, questionnaireId: questionnaire.id })
    const employee = await createUser({ role: 'employee', companyId })
    const self = (await enrolEmployee(scheme, employee.id))!
    const [question] = await questionsOf(questionnaire.id)
    const form = new FormData()
    form.append('intent', 'submit')
    form.append('section', '1')
    form.append(`q-${question!.id}`, 'A very private answer about the coffee machine')
    const outcome = await saveAnswers(self.id, { id: employee.id, role: 'employee' }, form)
    expect(outcome.kind).toBe('submitted')
    const rows = (await newDeliveries('assignment.submitted')).filter(
      (r) => payloadOf(r).data.scheme_id === scheme.id,
    )
    expect(rows.map((r) => r.endpointId).sort()).toEqual([all.id, mine.id].sort())
    expect(payloadOf(rows[0]!).data).toEqual({
      scheme_id: scheme.id,
      company_id: companyId,
      employee_id: employee.id,
      assignment_id: self.id,
      kind: 'self',
      state: 'submitted',
    })
    expect(JSON.stringify(rows.map((r) => r.payload))).not.toContain('coffee')

    // The report released for that employee: report.released, its release and state, no figures.
    const released = await releaseParticipant(admin, scheme.id, employee.id, { kind: 'self-only' })
    expect(released.ok).toBe(true)
    const reports = (await newDeliveries('report.released')).filter(
      (r) => payloadOf(r).data.scheme_id === scheme.id,
    )
    expect(reports.map((r) => r.endpointId).sort()).toEqual([all.id, mine.id].sort())
    expect(payloadOf(reports[0]!).data).toEqual({
      release_id: released.ok ? released.value.releaseId : '',
      scheme_id: scheme.id,
      company_id: companyId,
      employee_id: employee.id,
      state: 'released',
      colleagues_shown: false,
    })
    expect(JSON.stringify(reports.map((r) => r.payload))).not.toContain('coffee')
  })

  test('nomination.approved: whose list, never who is on it', async () => {
    const manager = await createUser({ role: 'employee', companyId })
    const report = await createUser({ role: 'employee', companyId, managerId: manager.id })
    const scheme = await createScheme({ companyId, nominationApproval: 'manager' })
    await enrolEmployee(scheme, report.id)
    const ref = { employeeId: report.id, schemeId: scheme.id }
    const actor = { id: report.id, role: 'employee' as const }
    const nominee = `nina.nominee.${report.id.slice(0, 8)}@example.test`
    expect(
      (await addNominee(actor, { ...ref, name: 'Nina Nominee', email: nominee, relationship: 'peer' })).ok,
    ).toBe(true)
    expect((await submitList(actor, ref)).ok).toBe(true)
    expect(await count('nomination.approved')).toBe(0)
    expect((await approveList({ id: manager.id, role: 'employee' }, ref)).ok).toBe(true)
    const rows = await newDeliveries('nomination.approved')
    expect(rows.map((r) => r.endpointId).sort()).toEqual([all.id, mine.id].sort())
    expect(payloadOf(rows[0]!).data).toEqual({
      scheme_id: scheme.id,
      company_id: companyId,
      employee_id: report.id,
      state: 'approved',
    })
    expect(JSON.stringify(rows.map((r) => r.payload))).not.toMatch(/Nina|nominee/)
  })
})
