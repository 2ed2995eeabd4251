import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { apiKeys, auditLog, users } from '#db/schema/index'
import type { ApiScope } from '#db/enums'
import { createCompany, createUser } from '#db/factories'
import { createApiKey, revokeApiKey } from '#app/modules/api-key/api-key.server'
import { apiEndpoint, json } from '#app/modules/api-key/api.server'
import { API_PAGE_MAX } from '#app/modules/api-key/api-schemas'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'

/**
 * The REST API (issue 21 §1, ADR 054) through the real HTTP stack: the key (missing, wrong, expired,
 * revoked), scopes and the company restriction, the per-key rate limit, keyset pagination and
 * filters, bad query strings — and that every answer is JSON, never an HTML page.
 */
const db = useTestDatabase()
const server = useTestServer()

let adminId = ''
const company = { a: '', b: '' }
const employees: Array<{ id: string; email: string; companyId: string }> = []
let disabledId = ''

async function newKey(
  scopes: ApiScope[],
  options: { companyId?: string | null; requestsPerMinute?: number; expiresInDays?: number | null } = {},
) {
  const created = await createApiKey(
    { id: adminId },
    {
      name: `key ${Math.random()}`,
      scopes,
      companyId: options.companyId ?? null,
      expiresInDays: options.expiresInDays ?? null,
      requestsPerMinute: options.requestsPerMinute,
    },
  )
  if (!created.ok) throw new Error('the key was refused')
  return created.value
}

const keys = { all: '', companyA: '', companiesOnly: '' }

beforeAll(async () => {
  adminId = (await createUser({ role: 'admin' })).id
  company.a = (await createCompany({ name: 'API Alpha' })).id
  company.b = (await createCompany({ name: 'API Beta' })).id
  for (let i = 0; i < 7; i++) {
    const companyId = i < 5 ? company.a : company.b
    const user = await createUser({ role: 'employee', companyId, email: `api-person-${i}@example.test` })
    employees.push({ id: user.id, email: user.email, companyId })
  }
  const disabled = await createUser({ role: 'employee', companyId: company.a, password: null })
  await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.id))
  disabledId = disabled.id
  // An invited employee (no password) and a colleague (never listed as an employee).
  employees.push({
    ...(await createUser({ role: 'employee', companyId: company.a, password: null })),
    companyId: company.a,
  })
  await createUser({ role: 'colleague' })
  keys.all = (await newKey(['companies:read', 'employees:read'])).key
  keys.companyA = (await newKey(['companies:read', 'employees:read'], { companyId: company.a })).key
  keys.companiesOnly = (await newKey(['companies:read'])).key
})

const call = (path: string, key: string | null = keys.all, init: { method?: string; header?: string } = {}) =>
  send(server, path, {
    method: init.method,
    headers:
      init.header !== undefined
        ? { Authorization: init.header }
        : key
          ? { Authorization: `Bearer ${key}` }
          : {},
  })

async function problemOf(response: Response, status: number) {
  expect(response.status).toBe(status)
  expect(response.headers.get('Content-Type')).toBe('application/problem+json')
  const body = (await response.json()) as {
    type: string
    title: string
    status: number
    detail: string
    errors?: unknown
  }
  expect(body.status).toBe(status)
  expect(body.type).toMatch(/^\/api\/v1\/problems#/)
  expect(body.title).toBeTruthy()
  expect(body.detail).toBeTruthy()
  return body
}

async function dataOf<T = Record<string, unknown>>(response: Response) {
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
  expect(response.headers.get('Cache-Control')).toContain('no-store')
  return (await response.json()) as T
}

type Page = {
  data: Array<{ id: string; email?: string; company_id?: string; status?: string }>
  next_cursor: string | null
}

describe('401: without a valid key', () => {
  test('missing, another scheme, a wrong key, a made-up key: 401 problems with WWW-Authenticate', async () => {
    for (const response of [
      await call('/api/v1/companies', null),
      await call('/api/v1/companies', null, { header: `Basic ${Buffer.from('a:b').toString('base64')}` }),
      await call('/api/v1/companies', null, { header: 'Bearer' }),
      await call('/api/v1/companies', `${keys.all.slice(0, -3)}abc`),
      await call('/api/v1/companies', 'pnr_nothing_here'),
      await call('/api/v1/employees/not-a-uuid', 'x'.repeat(5000)),
    ]) {
      await problemOf(response, 401)
      expect(response.headers.get('WWW-Authenticate')).toContain('Bearer')
    }
  })

  test('an expired key, and a revoked one', async () => {
    const expired = await newKey(['companies:read'], { expiresInDays: 30 })
    await db()
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, expired.id))
    expect((await problemOf(await call('/api/v1/companies', expired.key), 401)).detail).toContain('expired')

    const revoked = await newKey(['companies:read'])
    expect((await call('/api/v1/companies', revoked.key)).status).toBe(200)
    await revokeApiKey({ id: adminId }, revoked.id)
    expect((await problemOf(await call('/api/v1/companies', revoked.key), 401)).detail).toContain('revoked')
  })
})

describe('403: scopes and the company restriction', () => {
  test('a key without the scope', async () => {
    for (const path of ['/api/v1/employees', `/api/v1/employees/${employees[0]!.id}`])
      expect((await problemOf(await call(path, keys.companiesOnly), 403)).detail).toContain('employees:read')
  })

  test('a key restricted to a company: another company is refused, its employees are not found', async () => {
    await problemOf(await call(`/api/v1/companies/${company.b}`, keys.companyA), 403)
    await problemOf(await call(`/api/v1/employees?company_id=${company.b}`, keys.companyA), 403)
    const other = employees.find((e) => e.companyId === company.b)!
    await problemOf(await call(`/api/v1/employees/${other.id}`, keys.companyA), 404)

    const list = await dataOf<Page>(await call('/api/v1/companies', keys.companyA))
    expect(list.data.map((c) => c.id)).toEqual([company.a])
    const people = await dataOf<Page>(await call(`/api/v1/employees?limit=${API_PAGE_MAX}`, keys.companyA))
    expect(people.data.length).toBeGreaterThan(0)
    expect(people.data.every((e) => e.company_id === company.a)).toBe(true)
    expect(
      (await dataOf<{ id: string }>(await call(`/api/v1/companies/${company.a}`, keys.companyA))).id,
    ).toBe(company.a)
  })
})

describe('429: the per-key rate limit', () => {
  test('past its requests a minute, 429 with Retry-After; another key is not held back', async () => {
    const limited = await newKey(['companies:read'], { requestsPerMinute: 2 })
    expect((await call('/api/v1/companies', limited.key)).status).toBe(200)
    expect((await call('/api/v1/companies', limited.key)).status).toBe(200)
    const response = await call('/api/v1/companies', limited.key)
    await problemOf(response, 429)
    const retryAfter = Number(response.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect((await call('/api/v1/companies', keys.all)).status).toBe(200)
  })
})

describe('the last use', () => {
  test('noted, at most once a minute', async () => {
    const key = await newKey(['companies:read'])
    await call('/api/v1/companies', key.key)
    const [first] = await db().select().from(apiKeys).where(eq(apiKeys.id, key.id))
    expect(first!.lastUsedAt).not.toBeNull()
    expect(first!.lastUsedIp).toBeTruthy()
    await call('/api/v1/companies', key.key)
    const [second] = await db().select().from(apiKeys).where(eq(apiKeys.id, key.id))
    expect(second!.lastUsedAt!.getTime()).toBe(first!.lastUsedAt!.getTime())
  })
})

describe('pagination and filters', () => {
  test('employees page by page: every employee once, in id order, then next_cursor null', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3'
      const page: Page = await dataOf<Page>(await call(`/api/v1/employees${query}`))
      expect(page.data.length).toBeLessThanOrEqual(3)
      seen.push(...page.data.map((e) => e.id))
      cursor = page.next_cursor
      pages++
    } while (cursor && pages < 20)
    const expected = [...employees.map((e) => e.id), disabledId].sort()
    expect(seen).toEqual(expected)
    expect(pages).toBe(Math.ceil(expected.length / 3))
  })

  test('companies page by page', async () => {
    const first = await dataOf<Page>(await call('/api/v1/companies?limit=1'))
    expect(first.data).toHaveLength(1)
    const second = await dataOf<Page>(await call(`/api/v1/companies?limit=1&cursor=${first.next_cursor}`))
    expect(second.data).toHaveLength(1)
    expect(second.next_cursor).toBeNull()
    expect([first.data[0]!.id, second.data[0]!.id].sort()).toEqual([company.a, company.b].sort())
  })

  test('filters: company, e-mail (any case), status', async () => {
    const ofB = await dataOf<Page>(await call(`/api/v1/employees?company_id=${company.b}`))
    expect(ofB.data.map((e) => e.id).sort()).toEqual(
      employees
        .filter((e) => e.companyId === company.b)
        .map((e) => e.id)
        .sort(),
    )
    const byEmail = await dataOf<Page>(await call('/api/v1/employees?email=API-Person-3@Example.test'))
    expect(byEmail.data.map((e) => e.email)).toEqual(['api-person-3@example.test'])
    const disabled = await dataOf<Page>(await call('/api/v1/employees?status=disabled'))
    expect(disabled.data.map((e) => e.id)).toEqual([disabledId])
    const invited = await dataOf<Page>(await call(`/api/v1/employees?status=invited&company_id=${company.a}`))
    expect(invited.data.map((e) => e.id)).toEqual([employees.at(-1)!.id])
    expect(invited.data[0]!.status).toBe('invited')
  })

  test('one employee, with what the back office shows and nothing more', async () => {
    const one = await dataOf<Record<string, unknown>>(await call(`/api/v1/employees/${employees[0]!.id}`))
    expect(Object.keys(one).sort()).toEqual(
      [
        'company_id',
        'created_at',
        'department',
        'display_name',
        'email',
        'id',
        'job_title',
        'manager_id',
        'status',
        'updated_at',
      ].sort(),
    )
    expect(one.status).toBe('active')
    await problemOf(await call('/api/v1/employees/00000000-0000-4000-8000-000000000000'), 404)
    await problemOf(await call('/api/v1/employees/not-a-uuid'), 404)
    await problemOf(await call('/api/v1/companies/00000000-0000-4000-8000-000000000000'), 404)
  })
})

describe('400: bad query strings', () => {
  test('unknown parameters are named', async () => {
    const body = await problemOf(await call('/api/v1/employees?page=2&sort=name'), 400)
    expect(body.detail).toBe('Unknown query parameters: page, sort.')
    expect(body.errors).toEqual([
      { field: 'page', message: 'Is not a parameter of this endpoint.' },
      { field: 'sort', message: 'Is not a parameter of this endpoint.' },
    ])
    await problemOf(await call(`/api/v1/employees/${employees[0]!.id}?expand=all`), 400)
  })

  test('wrong types: each field with its reason', async () => {
    const body = await problemOf(
      await call('/api/v1/employees?limit=ten&company_id=acme&status=gone&email=nobody&cursor=zzz'),
      400,
    )
    const fields = (body.errors as Array<{ field: string }>).map((e) => e.field).sort()
    expect(fields).toEqual(['company_id', 'cursor', 'email', 'limit', 'status'])
  })

  test('a huge limit, a zero, a fraction, a repeated parameter', async () => {
    for (const query of [
      `limit=${API_PAGE_MAX + 1}`,
      'limit=1000000000000',
      'limit=0',
      'limit=2.5',
      'limit=-1',
    ]) {
      const body = await problemOf(await call(`/api/v1/companies?${query}`), 400)
      expect(body.errors).toEqual([expect.objectContaining({ field: 'limit' })])
    }
    const repeated = await problemOf(await call('/api/v1/companies?limit=1&limit=2'), 400)
    expect(repeated.errors).toEqual([{ field: 'limit', message: 'Is given more than once.' }])
  })
})

describe('JSON, never HTML', () => {
  test('unknown paths and methods under /api/v1 answer problems', async () => {
    await problemOf(await call('/api/v1/nothing'), 404)
    await problemOf(await call('/api/v1'), 404)
    await problemOf(await call('/api/v1/'), 404)
    await problemOf(await call('/api/v1/companies/x/y'), 404)
    await problemOf(await call('/api/v1/nothing', null), 404)
    for (const [path, allow] of [
      ['/api/v1/companies', 'GET, POST'],
      ['/api/v1/employees', 'GET, POST'],
      [`/api/v1/employees/${employees[0]!.id}`, 'GET, PATCH'],
      [`/api/v1/companies/${company.a}`, 'GET, PATCH'],
      ['/api/v1/openapi.json', 'GET'],
    ] as const) {
      const response = await call(path, keys.all, { method: 'DELETE' })
      await problemOf(response, 405)
      expect(response.headers.get('Allow')).toBe(allow)
    }
    for (const path of ['/api/v1/employees/bulk', `/api/v1/employees/${employees[0]!.id}/disable`]) {
      const response = await call(path, keys.all)
      await problemOf(response, 405)
      expect(response.headers.get('Allow')).toBe('POST')
    }
    const del = await call('/api/v1/nothing', keys.all, { method: 'DELETE' })
    await problemOf(del, 404)
  })

  test('what the server refuses before any endpoint runs: an address that does not decode, a body too large or of no length', async () => {
    const bad = await fetch(`${server.url}/api/v1/companies/%FF%FE`, {
      headers: { Authorization: `Bearer ${keys.all}` },
    })
    expect((await problemOf(bad, 400)).detail).toBe('The address is not valid UTF-8.')
    const huge = await fetch(`${server.url}/api/v1/employees`, {
      method: 'POST',
      headers: { ...{ Authorization: `Bearer ${keys.all}` }, 'Content-Type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(3_200_000) }),
    })
    await problemOf(huge, 413)
    const chunked = await fetch(`${server.url}/api/v1/employees`, {
      method: 'POST',
      headers: { ...{ Authorization: `Bearer ${keys.all}` }, 'Content-Type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{}'))
          controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)
    await problemOf(chunked, 411)
    // Pages keep their plain-text answer.
    const page = await fetch(`${server.url}/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'x'.repeat(3_200_000),
    })
    expect(page.status).toBe(413)
    expect(page.headers.get('Content-Type')).toMatch(/^text\/plain/)
  })
})

describe('a write scope', () => {
  test('every use is audited with the key, the method and the path', async () => {
    const key = await newKey(['employees:write'])
    const request = new Request('http://panorama.test/api/v1/employees', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key.key}` },
    })
    const response = await apiEndpoint(request, { ip: '192.0.2.7' }, 'employees:write', async () =>
      json({ done: true }),
    )
    expect(response.status).toBe(200)
    const audit = await db().select().from(auditLog).where(eq(auditLog.action, 'api_key.write'))
    expect(audit).toHaveLength(1)
    expect(audit[0]!.entityId).toBe(key.id)
    expect(audit[0]!.ip).toBe('192.0.2.7')
    expect(audit[0]!.details).toEqual({ scope: 'employees:write', method: 'POST', path: '/api/v1/employees' })
    // A read is not audited.
    await call('/api/v1/companies')
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'api_key.write'))).toHaveLength(1)
  })

  test('an error inside an endpoint is a 500 problem, not a page', async () => {
    const request = new Request('http://panorama.test/api/v1/companies', {
      headers: { Authorization: `Bearer ${keys.all}` },
    })
    const response = await apiEndpoint(request, {}, 'companies:read', () => Promise.reject(new Error('boom')))
    await problemOf(response, 500)
  })
})
