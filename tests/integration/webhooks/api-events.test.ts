import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { webhookDeliveries } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { createApiKey } from '#app/modules/api-key/api-key.server'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'
import { insertEndpoint } from './helpers'

/**
 * The REST API's writes are changes like the back office's (ADR 054 "Writes", ADR 057): an employee
 * created, changed, disabled or upserted in bulk through the API queues the same webhook events, and
 * a write the API refuses queues none.
 */
const db = useTestDatabase()
const server = useTestServer()

let companyId = ''
let key = ''

beforeAll(async () => {
  const admin = await createUser({ role: 'admin' })
  companyId = (await createCompany({ name: 'API Hooked' })).id
  await insertEndpoint({ events: ['employee.created', 'employee.updated'], companyId })
  const created = await createApiKey(
    { id: admin.id },
    { name: 'hooks', scopes: ['employees:write'], companyId, expiresInDays: null },
  )
  if (!created.ok) throw new Error('refused')
  key = created.value.key
})

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(server, path, { method: 'POST', json: body, headers: { Authorization: `Bearer ${key}`, ...headers } })

async function events(type: string) {
  const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, type))
  return rows.map((row) => (row.payload as { data: Record<string, unknown> }).data)
}

test('create, update, disable and bulk upsert through the API queue their events; a refused write none', async () => {
  const created = await post('/api/v1/employees', {
    email: 'hooked@example.test',
    display_name: 'Hooked One',
  })
  expect(created.status).toBe(201)
  const { id } = (await created.json()) as { id: string }
  expect(await events('employee.created')).toEqual([expect.objectContaining({ employee_id: id })])

  const patched = await send(server, `/api/v1/employees/${id}`, {
    method: 'PATCH',
    json: { job_title: 'Lead' },
    headers: { Authorization: `Bearer ${key}` },
  })
  expect(patched.status).toBe(200)
  expect((await post(`/api/v1/employees/${id}/disable`, {})).status).toBe(200)
  expect((await events('employee.updated')).length).toBe(2)

  const bulk = await post(
    '/api/v1/employees/bulk',
    {
      company_id: companyId,
      rows: [
        { email: 'bulk.one@example.test', display_name: 'Bulk One' },
        { email: 'bulk.two@example.test', display_name: 'Bulk Two' },
      ],
    },
    { 'Idempotency-Key': 'hooks-1' },
  )
  expect(bulk.status).toBe(200)
  expect((await events('employee.created')).length).toBe(3)

  // Refused (a taken address): nothing queued. Replayed (same key, same body): nothing again.
  expect(
    (await post('/api/v1/employees', { email: 'hooked@example.test', display_name: 'Again' })).status,
  ).toBe(409)
  const replay = await post(
    '/api/v1/employees/bulk',
    {
      company_id: companyId,
      rows: [
        { email: 'bulk.one@example.test', display_name: 'Bulk One' },
        { email: 'bulk.two@example.test', display_name: 'Bulk Two' },
      ],
    },
    { 'Idempotency-Key': 'hooks-1' },
  )
  expect(replay.headers.get('Idempotent-Replayed')).toBe('true')
  expect((await events('employee.created')).length).toBe(3)
  expect((await events('employee.updated')).length).toBe(2)
})
