import { and, count, desc, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  apiIdempotencyKeys,
  apiKeys,
  auditLog,
  companies,
  emailOutbox,
  employeeImportRows,
  employeeImports,
  sessions,
  users,
} from '#db/schema/index'
import { API_SCOPES, type ApiScope } from '#db/enums'
import { createCompany, createUser } from '#db/factories'
import { createApiKey, revokeApiKey } from '#app/modules/api-key/api-key.server'
import { BULK_MAX_ROWS } from '#app/modules/api-key/api-schemas'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, type RequestOptions } from '#tests/support/app'
import { useQueryCountingServer } from '#tests/support/query-count'
import { openRequest } from '#tests/support/raw-http'

/**
 * The REST API's writes (issue 21 §1, ADR 054 "Writes") through the real HTTP stack: companies
 * created and renamed, employees created, updated, disabled and enabled through the back office's
 * own functions (their rules, audit entries and session ends), the idempotent bulk upsert through
 * the CSV import's checks — and every bad input a problem, never a 500.
 */
const counting = useQueryCountingServer()
const server = counting.server
const db = useTestDatabase()

let adminId = ''
const company = { a: '', b: '', aName: '', brandA: '' }
const people = { a1: '', a1Email: '', a2: '', b1: '', b1Email: '' }
const keys = { all: '', allId: '', restrictedA: '', readOnly: '', employeesOnly: '' }

async function newKey(
  scopes: ApiScope[],
  options: { companyId?: string | null; expiresInDays?: number | null; requestsPerMinute?: number } = {},
) {
  const created = await createApiKey(
    { id: adminId },
    {
      name: `writes ${Math.random()}`,
      scopes,
      companyId: options.companyId ?? null,
      expiresInDays: options.expiresInDays ?? null,
      requestsPerMinute: options.requestsPerMinute ?? 100_000,
    },
  )
  if (!created.ok) throw new Error('the key was refused')
  return created.value
}

beforeAll(async () => {
  adminId = (await createUser({ role: 'admin' })).id
  const a = await createCompany({ name: 'Writes Alpha' })
  const b = await createCompany({ name: 'Writes Beta' })
  Object.assign(company, { a: a.id, b: b.id, aName: a.name, brandA: a.brandId })
  const a1 = await createUser({ role: 'employee', companyId: a.id, email: 'writes-a1@example.test' })
  const a2 = await createUser({ role: 'employee', companyId: a.id, email: 'writes-a2@example.test' })
  const b1 = await createUser({ role: 'employee', companyId: b.id, email: 'writes-b1@example.test' })
  Object.assign(people, { a1: a1.id, a1Email: a1.email, a2: a2.id, b1: b1.id, b1Email: b1.email })
  const all = await newKey([...API_SCOPES])
  keys.all = all.key
  keys.allId = all.id
  keys.restrictedA = (await newKey([...API_SCOPES], { companyId: a.id })).key
  keys.readOnly = (await newKey(API_SCOPES.filter((s) => s.endsWith(':read')))).key
  keys.employeesOnly = (await newKey(['employees:read', 'employees:write'])).key
})

const unique = () => Math.random().toString(36).slice(2, 10)

function call(
  method: string,
  path: string,
  body?: unknown,
  options: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const key = options.key === undefined ? keys.all : options.key
  const request: RequestOptions = {
    method,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  }
  return send(server, path, request)
}

type ProblemBody = {
  type: string
  status: number
  detail: string
  errors?: Array<{ field: string; message: string }>
}

async function problemOf(response: Response, status: number): Promise<ProblemBody> {
  const text = await response.text()
  expect(`${response.status} ${text}`).toMatch(new RegExp(`^${status} `))
  expect(response.headers.get('Content-Type')).toBe('application/problem+json')
  const body = JSON.parse(text) as ProblemBody
  expect(body.status).toBe(status)
  return body
}

async function okOf<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  const text = await response.text()
  expect(`${response.status} ${text}`).toMatch(new RegExp(`^${status} `))
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
  return JSON.parse(text) as T
}

type Employee = {
  id: string
  email: string
  display_name: string
  company_id: string
  department: string | null
  job_title: string | null
  manager_id: string | null
  status: string
}

async function auditOf(action: string, entityId: string) {
  return db()
    .select({ actorId: auditLog.actorId, details: auditLog.details, ip: auditLog.ip })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.at))
}

async function auditCount(action: string) {
  const [row] = await db().select({ n: count() }).from(auditLog).where(eq(auditLog.action, action))
  return Number(row?.n ?? 0)
}

describe('companies', () => {
  test('POST creates one (201), audited as the back office does and as a write of the key', async () => {
    const writesBefore = await auditCount('api_key.write')
    const created = await okOf<{ id: string; name: string }>(
      await call('POST', '/api/v1/companies', { name: '  Initech  ', brand_id: company.brandA }),
      201,
    )
    expect(created.name).toBe('Initech')
    const [entry] = await auditOf('company.create', created.id)
    expect(entry).toMatchObject({
      actorId: adminId,
      details: expect.objectContaining({ apiKeyId: keys.allId }),
    })
    expect(await auditCount('api_key.write')).toBe(writesBefore + 1)
    // The name is unique ignoring case: the same again is a conflict.
    const conflict = await problemOf(
      await call('POST', '/api/v1/companies', { name: 'INITECH', brand_id: company.brandA }),
      409,
    )
    expect(conflict.detail).toContain('already exists')
  })

  test('bad bodies: wrong types, empty or missing name, unknown fields, several brands and none named', async () => {
    const wrongType = await problemOf(await call('POST', '/api/v1/companies', { name: 5 }), 400)
    expect(wrongType.errors).toEqual([{ field: 'name', message: 'Must be a string.' }])
    const empty = await problemOf(
      await call('POST', '/api/v1/companies', { name: ' ', brand_id: company.brandA }),
      400,
    )
    expect(empty.errors).toEqual([{ field: 'name', message: 'Enter the company’s name.' }])
    const long = await problemOf(
      await call('POST', '/api/v1/companies', { name: 'x'.repeat(101), brand_id: company.brandA }),
      400,
    )
    expect(long.errors?.[0]?.field).toBe('name')
    await problemOf(await call('POST', '/api/v1/companies', {}), 400)
    const unknown = await problemOf(
      await call('POST', '/api/v1/companies', { name: 'X', colour: 'red' }),
      400,
    )
    expect(unknown.detail).toBe('Unknown fields: colour.')
    // The factories made a brand per company: the brand must be named.
    const brand = await problemOf(
      await call('POST', '/api/v1/companies', { name: `Brandless ${unique()}` }),
      400,
    )
    expect(brand.errors).toEqual([expect.objectContaining({ field: 'brand_id' })])
    const badBrand = await problemOf(
      await call('POST', '/api/v1/companies', {
        name: `Gone ${unique()}`,
        brand_id: '00000000-0000-4000-8000-000000000000',
      }),
      400,
    )
    expect(badBrand.errors).toEqual([expect.objectContaining({ field: 'brand_id' })])
    const array = await problemOf(await call('POST', '/api/v1/companies', [1, 2]), 400)
    expect(array.detail).toBe('Some fields are not valid.')
  })

  test('a restricted key creates no company and renames only its own', async () => {
    await problemOf(
      await call(
        'POST',
        '/api/v1/companies',
        { name: `R ${unique()}`, brand_id: company.brandA },
        { key: keys.restrictedA },
      ),
      403,
    )
    await problemOf(
      await call(
        'PATCH',
        `/api/v1/companies/${company.b}`,
        { name: `R ${unique()}` },
        { key: keys.restrictedA },
      ),
      403,
    )
    const renamed = await okOf<{ name: string }>(
      await call(
        'PATCH',
        `/api/v1/companies/${company.a}`,
        { name: 'Writes Alpha Ltd' },
        { key: keys.restrictedA },
      ),
    )
    expect(renamed.name).toBe('Writes Alpha Ltd')
    const [entry] = await auditOf('company.update', company.a)
    expect(entry?.details).toMatchObject({
      changes: { name: { from: 'Writes Alpha', to: 'Writes Alpha Ltd' } },
    })
    // The company's other settings stay as they were.
    const [row] = await db().select().from(companies).where(eq(companies.id, company.a))
    expect(row).toMatchObject({ brandId: company.brandA, feedbackRequestCap: 5 })
  })

  test('PATCH: unknown id 404, a taken name 409, a read-only key 403', async () => {
    await problemOf(
      await call('PATCH', '/api/v1/companies/00000000-0000-4000-8000-000000000000', { name: 'Z' }),
      404,
    )
    await problemOf(await call('PATCH', `/api/v1/companies/${company.a}`, { name: 'writes beta' }), 409)
    await problemOf(
      await call('PATCH', `/api/v1/companies/${company.a}`, { name: 'Q' }, { key: keys.readOnly }),
      403,
    )
    await problemOf(await call('PATCH', `/api/v1/companies/${company.a}`, { name: null }), 400)
    expect((await call('PUT', `/api/v1/companies/${company.a}`, { name: 'Q' })).headers.get('Allow')).toBe(
      'GET, PATCH',
    )
  })
})

describe('employees', () => {
  test('POST creates an invited employee as the admin page does: audited, no e-mail sent', async () => {
    const emailsBefore = (await db().select({ n: count() }).from(emailOutbox))[0]!.n
    const created = await okOf<Employee>(
      await call('POST', '/api/v1/employees', {
        email: ' Grace.Hopper@Example.test ',
        display_name: 'Grace Hopper',
        company_id: company.a,
        department: 'Navy',
        job_title: null,
        manager_id: people.a1,
      }),
      201,
    )
    expect(created).toMatchObject({
      email: 'grace.hopper@example.test',
      display_name: 'Grace Hopper',
      company_id: company.a,
      department: 'Navy',
      job_title: null,
      manager_id: people.a1,
      status: 'invited',
    })
    const [entry] = await auditOf('employee.create', created.id)
    expect(entry).toMatchObject({
      actorId: adminId,
      details: expect.objectContaining({ apiKeyId: keys.allId }),
    })
    expect((await db().select({ n: count() }).from(emailOutbox))[0]!.n).toBe(emailsBefore)

    // The same address again, another company's employee's, an administrator's: 409.
    const again = await problemOf(
      await call('POST', '/api/v1/employees', {
        email: 'grace.hopper@example.test',
        display_name: 'G',
        company_id: company.a,
      }),
      409,
    )
    expect(again.detail).toContain('already an employee')
    await problemOf(
      await call('POST', '/api/v1/employees', {
        email: people.b1Email,
        display_name: 'B',
        company_id: company.a,
      }),
      409,
    )
  })

  test('a manager from another company, or not an employee, is refused on manager_id', async () => {
    for (const managerId of [people.b1, adminId, '00000000-0000-4000-8000-000000000000']) {
      const refused = await problemOf(
        await call('POST', '/api/v1/employees', {
          email: `m-${unique()}@example.test`,
          display_name: 'M',
          company_id: company.a,
          manager_id: managerId,
        }),
        400,
      )
      expect(refused.errors).toEqual([
        { field: 'manager_id', message: expect.stringContaining('must be an employee of the same company') },
      ])
    }
  })

  test('bad bodies: wrong types, a bad address, missing name, unknown fields, a company that does not exist', async () => {
    const types = await problemOf(
      await call('POST', '/api/v1/employees', {
        email: 1,
        display_name: ['x'],
        company_id: 'nope',
        department: 3,
      }),
      400,
    )
    expect(types.errors?.map((e) => e.field).sort()).toEqual([
      'company_id',
      'department',
      'display_name',
      'email',
    ])
    const address = await problemOf(
      await call('POST', '/api/v1/employees', {
        email: 'not-an-address',
        display_name: 'X',
        company_id: company.a,
      }),
      400,
    )
    expect(address.errors).toEqual([
      { field: 'email', message: 'Enter an e-mail address like name@example.com.' },
    ])
    const name = await problemOf(
      await call('POST', '/api/v1/employees', {
        email: `n-${unique()}@example.test`,
        display_name: '',
        company_id: company.a,
      }),
      400,
    )
    expect(name.errors).toEqual([{ field: 'display_name', message: 'Enter the employee’s name.' }])
    const line = await problemOf(
      await call('POST', '/api/v1/employees', {
        email: `n-${unique()}@example.test`,
        display_name: 'Two\nlines',
        company_id: company.a,
      }),
      400,
    )
    expect(line.errors?.[0]?.field).toBe('display_name')
    const unknown = await problemOf(
      await call('POST', '/api/v1/employees', {
        email: 'u@example.test',
        display_name: 'U',
        company_id: company.a,
        phone: '1',
      }),
      400,
    )
    expect(unknown.detail).toBe('Unknown fields: phone.')
    const gone = await problemOf(
      await call('POST', '/api/v1/employees', {
        email: `g-${unique()}@example.test`,
        display_name: 'G',
        company_id: '00000000-0000-4000-8000-000000000000',
      }),
      400,
    )
    expect(gone.errors).toEqual([
      { field: 'company_id', message: 'That company no longer exists. Choose another one.' },
    ])
    // No company named, and an unrestricted key: which one?
    const none = await problemOf(
      await call('POST', '/api/v1/employees', { email: `c-${unique()}@example.test`, display_name: 'C' }),
      400,
    )
    expect(none.errors).toEqual([{ field: 'company_id', message: 'Name the employee’s company.' }])
  })

  test('a restricted key: its company by default, another company refused (403), another’s employee not found', async () => {
    const created = await okOf<Employee>(
      await call(
        'POST',
        '/api/v1/employees',
        { email: `r-${unique()}@example.test`, display_name: 'R' },
        { key: keys.restrictedA },
      ),
      201,
    )
    expect(created.company_id).toBe(company.a)
    await problemOf(
      await call(
        'POST',
        '/api/v1/employees',
        { email: `r-${unique()}@example.test`, display_name: 'R', company_id: company.b },
        { key: keys.restrictedA },
      ),
      403,
    )
    await problemOf(
      await call('PATCH', `/api/v1/employees/${people.b1}`, { job_title: 'X' }, { key: keys.restrictedA }),
      404,
    )
    await problemOf(
      await call('POST', `/api/v1/employees/${people.b1}/disable`, undefined, { key: keys.restrictedA }),
      404,
    )
    await problemOf(
      await call(
        'PATCH',
        `/api/v1/employees/${created.id}`,
        { company_id: company.b },
        { key: keys.restrictedA },
      ),
      403,
    )
    // A key with employees:write only cannot touch companies.
    await problemOf(
      await call(
        'POST',
        '/api/v1/companies',
        { name: 'Nope', brand_id: company.brandA },
        { key: keys.employeesOnly },
      ),
      403,
    )
  })

  test('PATCH changes what is sent; null clears; a taken address is 409', async () => {
    const person = await okOf<Employee>(
      await call('POST', '/api/v1/employees', {
        email: `p-${unique()}@example.test`,
        display_name: 'Pat',
        company_id: company.a,
        department: 'Sales',
        job_title: 'Rep',
        manager_id: people.a1,
      }),
      201,
    )
    const patched = await okOf<Employee>(
      await call('PATCH', `/api/v1/employees/${person.id}`, { job_title: 'Lead', department: null }),
    )
    expect(patched).toMatchObject({
      display_name: 'Pat',
      job_title: 'Lead',
      department: null,
      manager_id: people.a1,
    })
    const [entry] = await auditOf('employee.update', person.id)
    expect(entry?.details).toMatchObject({
      apiKeyId: keys.allId,
      changes: { department: { from: 'Sales', to: null }, jobTitle: { from: 'Rep', to: 'Lead' } },
    })
    const cleared = await okOf<Employee>(
      await call('PATCH', `/api/v1/employees/${person.id}`, { manager_id: null }),
    )
    expect(cleared.manager_id).toBeNull()
    await problemOf(await call('PATCH', `/api/v1/employees/${person.id}`, { email: people.a1Email }), 409)
    await problemOf(await call('PATCH', `/api/v1/employees/${person.id}`, { manager_id: people.b1 }), 400)
    await problemOf(await call('PATCH', `/api/v1/employees/${person.id}`, { manager_id: person.id }), 400)
    await problemOf(await call('PATCH', `/api/v1/employees/${person.id}`, { display_name: null }), 400)
    await problemOf(await call('PATCH', '/api/v1/employees/00000000-0000-4000-8000-000000000000', {}), 404)
    // A circle of managers: a1 cannot report to someone who reports to a1.
    await okOf(await call('PATCH', `/api/v1/employees/${person.id}`, { manager_id: people.a1 }))
    const circle = await problemOf(
      await call('PATCH', `/api/v1/employees/${people.a1}`, { manager_id: person.id }),
      400,
    )
    expect(circle.errors?.[0]?.field).toBe('manager_id')
    // Nothing sent, nothing changed: no audit entry.
    const before = (await auditOf('employee.update', person.id)).length
    await okOf(await call('PATCH', `/api/v1/employees/${person.id}`, {}))
    expect((await auditOf('employee.update', person.id)).length).toBe(before)
  })

  test('disable ends every session, as the admin page does; enable lets them back; both audited', async () => {
    const person = await createUser({ role: 'employee', companyId: company.a })
    await sessionCookieFor(person.id)
    await sessionCookieFor(person.id)
    const disabled = await okOf<Employee>(await call('POST', `/api/v1/employees/${person.id}/disable`))
    expect(disabled.status).toBe('disabled')
    expect(await db().select().from(sessions).where(eq(sessions.userId, person.id))).toEqual([])
    expect((await auditOf('employee.disable', person.id))[0]?.details).toMatchObject({
      sessionsEnded: 2,
      apiKeyId: keys.allId,
    })
    // Again: nothing changes.
    expect((await okOf<Employee>(await call('POST', `/api/v1/employees/${person.id}/disable`))).status).toBe(
      'disabled',
    )
    expect(await auditOf('employee.disable', person.id)).toHaveLength(1)
    const enabled = await okOf<Employee>(await call('POST', `/api/v1/employees/${person.id}/enable`))
    expect(enabled.status).toBe('active')
    expect(await auditOf('employee.enable', person.id)).toHaveLength(1)
    await problemOf(
      await call('POST', `/api/v1/employees/${person.id}/enable`, undefined, { key: keys.readOnly }),
      403,
    )
    await problemOf(await call('POST', `/api/v1/employees/${person.id}/enable?force=1`), 400)
    await problemOf(await call('POST', `/api/v1/employees/${adminId}/disable`), 404)
    expect((await call('GET', `/api/v1/employees/${person.id}/disable`)).status).toBe(405)
  })
})

describe('what any write refuses', () => {
  test('expired, revoked and read-only keys; a key whose admin is gone', async () => {
    const body = { email: `k-${unique()}@example.test`, display_name: 'K', company_id: company.a }
    const expired = await newKey([...API_SCOPES], { expiresInDays: 30 })
    await db()
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, expired.id))
    expect(
      (await problemOf(await call('POST', '/api/v1/employees', body, { key: expired.key }), 401)).detail,
    ).toContain('expired')
    const revoked = await newKey([...API_SCOPES])
    await revokeApiKey({ id: adminId }, revoked.id)
    expect(
      (await problemOf(await call('POST', '/api/v1/employees', body, { key: revoked.key }), 401)).detail,
    ).toContain('revoked')
    await problemOf(await call('POST', '/api/v1/employees', body, { key: null }), 401)
    expect(
      (await problemOf(await call('POST', '/api/v1/employees', body, { key: keys.readOnly }), 403)).detail,
    ).toContain('employees:write')
    const orphan = await newKey([...API_SCOPES])
    await db().update(apiKeys).set({ createdBy: null }).where(eq(apiKeys.id, orphan.id))
    expect(
      (await problemOf(await call('POST', '/api/v1/employees', body, { key: orphan.key }), 403)).detail,
    ).toContain('no longer exists')
  })

  test('bodies: not JSON (415), too large (413), not UTF-8, not JSON at all, empty (400)', async () => {
    const path = '/api/v1/employees'
    await problemOf(
      await call('POST', path, 'email=x', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
      415,
    )
    await problemOf(
      await send(server, path, { method: 'POST', headers: { Authorization: `Bearer ${keys.all}` } }),
      415,
    )
    await problemOf(await call('POST', path, JSON.stringify({ display_name: 'x'.repeat(70 * 1024) })), 413)
    const latin1 = Buffer.from('{"email":"caf\xe9@example.test","display_name":"X"}', 'latin1')
    const notUtf8 = await problemOf(
      await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.all}`, 'Content-Type': 'application/json' },
        body: latin1,
      }),
      400,
    )
    expect(notUtf8.detail).toBe('The body is not valid JSON (UTF-8).')
    await problemOf(await call('POST', path, '{"email":'), 400)
    await problemOf(await call('POST', path, ''), 400)
    await problemOf(await call('POST', path, 'null'), 400)
  })

  test('a body whose Content-Length lies: longer than declared is cut there; chunked without one is 411; past the limit 413', async () => {
    const { hostname, port } = new URL(server.url)
    const target = { host: hostname, port: Number(port) }
    const padded = (bytes: number) =>
      Buffer.from(JSON.stringify({ company_id: company.a, rows: [{ pad: 'x'.repeat(bytes) }] }))
    const head = (lines: string) =>
      `POST /api/v1/employees/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.all}\r\nIdempotency-Key: lie-${unique()}\r\nContent-Type: application/json\r\n${lines}Connection: close\r\n\r\n`
    // Declares 20 bytes and sends 60 KiB more: the server reads 20 (not JSON), refuses, and is unhurt.
    const short = openRequest(target, head('Content-Length: 20\r\n'), padded(60 * 1024))
    const big = padded(2.5 * 1024 * 1024)
    const shortAnswer = await short.answer
    // (Node's HTTP parser reads the bytes past the declared length as the next request, and answers
    // that garbage with its own 400 as it closes the connection.)
    expect(shortAnswer.status).toBe(400)
    expect(shortAnswer.text).not.toContain('500')
    // Declares nothing (chunked): refused before it is read, as a problem.
    const chunked = openRequest(
      target,
      head('Transfer-Encoding: chunked\r\n'),
      Buffer.concat([Buffer.from(`${big.length.toString(16)}\r\n`), big, Buffer.from('\r\n0\r\n\r\n')]),
    )
    const answer = await chunked.answer
    expect(answer.status).toBe(411)
    expect(answer.text).toContain('/api/v1/problems#length-required')
    // Declares more than the bulk limit (2 MiB), or more than any request may (3 MiB): 413 problems.
    for (const bytes of [2.5 * 1024 * 1024, 4 * 1024 * 1024])
      await problemOf(
        await call('POST', '/api/v1/employees/bulk', padded(bytes).toString(), {
          headers: { 'Idempotency-Key': `lie-${unique()}` },
        }),
        413,
      )
    // And the server still answers.
    expect((await call('GET', '/api/v1/companies')).status).toBe(200)
  })
})

type BulkResult = {
  created: number
  updated: number
  unchanged: number
  problems: Array<{ row: number; field: string; message: string }>
}

const bulk = (body: unknown, idempotencyKey: string | null = `k-${unique()}`, key = keys.all) =>
  call('POST', '/api/v1/employees/bulk', body, {
    key,
    headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey },
  })

describe('bulk upsert', () => {
  test('creates the missing, updates the changed, leaves the unchanged alone; each bad row reported, the others written', async () => {
    const c = await createCompany({ name: `Bulk ${unique()}` })
    const existing = await createUser({
      role: 'employee',
      companyId: c.id,
      email: `bulk-old-${unique()}@example.test`,
      displayName: 'Old Name',
    })
    const same = await createUser({
      role: 'employee',
      companyId: c.id,
      email: `bulk-same-${unique()}@example.test`,
      displayName: 'Same',
    })
    const result = await okOf<BulkResult>(
      await bulk({
        company_id: c.id,
        rows: [
          { email: `bulk-new-${unique()}@example.test`, display_name: 'New Person', department: 'R&D' },
          { email: existing.email.toUpperCase(), display_name: 'New Name', job_title: 'Boss' },
          { email: same.email, display_name: 'Same' },
          { email: 'not an address', display_name: 'Broken' },
          { email: existing.email, display_name: 'Twice' },
          {
            email: `bulk-m-${unique()}@example.test`,
            display_name: 'Managed',
            manager_email: 'nobody@example.test',
          },
          { email: people.b1Email, display_name: 'Other company' },
          { email: `bulk-n-${unique()}@example.test`, display_name: '' },
        ],
      }),
    )
    expect(result).toEqual({
      created: 1,
      updated: 1,
      unchanged: 1,
      problems: [
        { row: 3, field: 'email', message: 'The e-mail address is not valid.' },
        { row: 4, field: 'email', message: 'The e-mail address is also on row 1, which is the one used.' },
        {
          row: 5,
          field: 'manager_email',
          message: expect.stringContaining('not that of an employee of this company'),
        },
        { row: 6, field: 'email', message: expect.stringContaining('belongs to another account') },
        { row: 7, field: 'display_name', message: 'The name is missing.' },
      ],
    })
    const [updated] = await db().select().from(users).where(eq(users.id, existing.id))
    expect(updated).toMatchObject({ displayName: 'New Name', jobTitle: 'Boss', companyId: c.id })
    // Audited as an import, by the key's admin, naming the key.
    const [entry] = await db()
      .select({ actorId: auditLog.actorId, details: auditLog.details, entityId: auditLog.entityId })
      .from(auditLog)
      .where(eq(auditLog.action, 'employee_import.import'))
      .orderBy(desc(auditLog.at))
      .limit(1)
    expect(entry).toMatchObject({
      actorId: adminId,
      details: expect.objectContaining({ apiKeyId: keys.allId, created: 1 }),
    })
    // The staged rows are gone once answered (ADR 054 "Writes"): no copy of the HR system's people.
    expect(await db().select().from(employeeImports).where(eq(employeeImports.id, entry!.entityId!))).toEqual(
      [],
    )
    expect(
      await db().select().from(employeeImportRows).where(eq(employeeImportRows.companyName, c.name)),
    ).toEqual([])
  })

  test('a row with nested unknown fields, wrong types, too many rows, no rows: 400 naming them, nothing written', async () => {
    const unknown = await problemOf(
      await bulk({
        company_id: company.a,
        rows: [
          { email: 'a@example.test', display_name: 'A' },
          { email: 'b@example.test', display_name: 'B', salary: 1 },
        ],
      }),
      400,
    )
    expect(unknown.detail).toBe('Unknown fields: rows.1.salary.')
    const types = await problemOf(
      await bulk({ company_id: company.a, rows: [{ email: 5, display_name: 'A' }] }),
      400,
    )
    expect(types.errors).toEqual([{ field: 'rows.0.email', message: 'Must be a string.' }])
    const many = Array.from({ length: BULK_MAX_ROWS + 1 }, (_, i) => ({
      email: `x${i}@example.test`,
      display_name: 'X',
    }))
    expect((await problemOf(await bulk({ company_id: company.a, rows: many }), 400)).errors).toEqual([
      { field: 'rows', message: `Must hold ${BULK_MAX_ROWS} rows at most.` },
    ])
    await problemOf(await bulk({ company_id: company.a, rows: [] }), 400)
    await problemOf(await bulk({ company_id: company.a, rows: 'all' }), 400)
    const missingCompany = await problemOf(
      await bulk({
        company_id: '00000000-0000-4000-8000-000000000000',
        rows: [{ email: 'z@example.test', display_name: 'Z' }],
      }),
      400,
    )
    expect(missingCompany.errors?.[0]?.field).toBe('company_id')
  })

  test('the Idempotency-Key header is required and must be printable', async () => {
    const body = { company_id: company.a, rows: [{ email: `i-${unique()}@example.test`, display_name: 'I' }] }
    const missing = await problemOf(await bulk(body, null), 400)
    expect(missing.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }])
    await problemOf(await bulk(body, 'x'.repeat(256)), 400)
    await problemOf(await bulk(body, 'tab\there'), 400)
  })

  test('a replay with the same key and body answers the stored answer without running again; another body is 422', async () => {
    const key = `replay-${unique()}`
    const body = {
      company_id: company.a,
      rows: [{ email: `rp-${unique()}@example.test`, display_name: 'Replay' }],
    }
    const first = await bulk(body, key)
    expect(first.headers.get('Idempotent-Replayed')).toBeNull()
    const firstBody = await okOf<BulkResult>(first)
    expect(firstBody.created).toBe(1)
    const importsBefore = await auditCount('employee_import.import')
    // The same body written otherwise (other spacing) is the same body.
    const replay = await bulk(JSON.stringify(body, null, 2), key)
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await okOf<BulkResult>(replay)).toEqual(firstBody)
    expect(await auditCount('employee_import.import')).toBe(importsBefore)
    const other = await problemOf(
      await bulk({ ...body, rows: [{ ...body.rows[0]!, display_name: 'Other' }] }, key),
      422,
    )
    expect(other.type).toBe('/api/v1/problems#idempotency-key-reused')
    // Keys are per API key: another key may use the same value.
    const restricted = await okOf<BulkResult>(await bulk({ rows: body.rows }, key, keys.restrictedA))
    expect(restricted).toEqual({ created: 0, updated: 0, unchanged: 1, problems: [] })
  })

  test('two requests with the same key at once: one runs, the other is 409 or its replay, never a second run', async () => {
    const key = `concurrent-${unique()}`
    const body = {
      company_id: company.a,
      rows: Array.from({ length: 200 }, (_, i) => ({
        email: `cc-${i}-${unique()}@example.test`,
        display_name: `C ${i}`,
      })),
    }
    const importsBefore = await auditCount('employee_import.import')
    const answers = await Promise.all([bulk(body, key), bulk(body, key), bulk(body, key)])
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1)
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true)
    const runs = answers.filter((a) => a.status === 200 && a.headers.get('Idempotent-Replayed') !== 'true')
    expect(runs).toHaveLength(1)
    for (const a of answers.filter((x) => x.status === 409)) {
      const p = await problemOf(a, 409)
      expect(p.detail).toContain('still in progress')
    }
    expect(await auditCount('employee_import.import')).toBe(importsBefore + 1)
  })

  test('an in-progress key is 409 until answered; keys older than a day are gone and the key runs again', async () => {
    const key = `old-${unique()}`
    await db().insert(apiIdempotencyKeys).values({ keyId: keys.allId, idempotencyKey: key, requestHash: 'x' })
    const body = {
      company_id: company.a,
      rows: [{ email: `old-${unique()}@example.test`, display_name: 'Old' }],
    }
    expect((await problemOf(await bulk(body, key), 409)).detail).toContain('in progress')
    await db()
      .update(apiIdempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(apiIdempotencyKeys.idempotencyKey, key))
    expect((await okOf<BulkResult>(await bulk(body, key))).created).toBe(1)
    const rows = await db()
      .select()
      .from(apiIdempotencyKeys)
      .where(eq(apiIdempotencyKeys.idempotencyKey, key))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ status: 200 })
    // The body is kept as its hash only.
    expect(rows[0]!.requestHash).toMatch(/^[0-9a-f]{64}$/)
  })

  test('a restricted key: its company by default, another refused before anything is claimed', async () => {
    const key = `restricted-${unique()}`
    const row = { email: `rb-${unique()}@example.test`, display_name: 'RB' }
    await problemOf(await bulk({ company_id: company.b, rows: [row] }, key, keys.restrictedA), 403)
    expect(
      await db().select().from(apiIdempotencyKeys).where(eq(apiIdempotencyKeys.idempotencyKey, key)),
    ).toEqual([])
    await problemOf(await bulk({ company_id: company.a, rows: [row] }, key, keys.readOnly), 403)
    expect((await okOf<BulkResult>(await bulk({ rows: [row] }, key, keys.restrictedA))).created).toBe(1)
  })

  test('1,000 rows in a bounded number of statements and in reasonable time; the same again is all unchanged', async () => {
    const c = await createCompany({ name: `Bulk scale ${unique()}` })
    const rows: Array<{ email: string; display_name: string; department: string; manager_email?: string }> =
      Array.from({ length: BULK_MAX_ROWS }, (_, i) => ({
        email: `scale-${i}-${unique()}@example.test`,
        display_name: `Person ${i}`,
        department: `Dept ${i % 10}`,
      }))
    // A chart: each of the first 10 manages a tenth of the others.
    for (let i = 10; i < rows.length; i++) rows[i]!.manager_email = rows[i % 10]!.email
    // Warmed up first (the server's first bulk compiles its code), so the time is the work's.
    await okOf(
      await bulk({
        company_id: company.a,
        rows: [{ email: `warm-${unique()}@example.test`, display_name: 'W' }],
      }),
    )
    const started = performance.now()
    const first = await counting.request('/api/v1/employees/bulk', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${keys.all}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': `scale-${unique()}`,
      },
      body: JSON.stringify({ company_id: c.id, rows }),
    })
    const elapsed = performance.now() - started
    expect(first.response.status).toBe(200)
    expect(JSON.parse(first.body)).toEqual({ created: BULK_MAX_ROWS, updated: 0, unchanged: 0, problems: [] })
    // 25 when written (the key, its limit and audit, the claim, one staging INSERT, the import's
    // transaction, the answer stored): a margin, but nothing that grows with the rows.
    expect(first.queries).toBeLessThanOrEqual(40)
    expect(elapsed).toBeLessThan(15_000)
    const [managed] = await db()
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.companyId, c.id), sql`${users.managerId} IS NOT NULL`))
    expect(Number(managed!.n)).toBe(BULK_MAX_ROWS - 10)

    const again = await counting.request('/api/v1/employees/bulk', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${keys.all}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': `scale-${unique()}`,
      },
      body: JSON.stringify({ company_id: c.id, rows }),
    })
    expect(JSON.parse(again.body)).toEqual({ created: 0, updated: 0, unchanged: BULK_MAX_ROWS, problems: [] })
    expect(again.queries).toBe(first.queries)
  })
})
