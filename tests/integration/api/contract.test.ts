import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, test } from 'vitest'
import type { z } from 'zod'
import { eq } from 'drizzle-orm'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { releaseParticipant } from '#app/modules/report/release.server'
import { apiIdempotencyKeys, schemes } from '#db/schema/index'
import { API_SCOPES, type ApiScope } from '#db/enums'
import { createApiKey } from '#app/modules/api-key/api-key.server'
import { API_COMPONENTS, type ApiComponent } from '#app/modules/api-key/openapi.server'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer, type RequestOptions } from '#tests/support/app'

/**
 * The contract test of the REST API (issue 21 §1, ADR 054): reads /api/v1/openapi.json, calls
 * every operation it documents and checks each answer — its status, its media type and its body —
 * against the response the document gives for that status, with the Zod schema the document was
 * generated from (an answer with a field the schema lacks fails too). Every documented problem
 * status is provoked where a request can provoke it (500 cannot be: tests/integration/api/rest-api
 * covers it through the endpoint wrapper). And every /api/v1 route of app/routes.ts is documented.
 */
const db = useTestDatabase()
const server = useTestServer()

type Operation = {
  operationId: string
  parameters: Array<{ name: string; in: string; required?: boolean }>
  requestBody?: { content: Record<string, unknown> }
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>
  security?: unknown[]
}
type Document = {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> }
}

let document: Document
const ids = {
  company: '',
  employee: '',
  brand: '',
  otherEmployee: '',
  questionnaire: '',
  /** A closed scheme with a released report: what the read operations and the 409 of enrolling use. */
  scheme: '',
  /** A draft scheme with someone enrolled: enrolled into, then launched (then a launch is a 409). */
  draft: '',
}
/** The id of each key made here, by the key. */
const keyIds = new Map<string, string>()
const keys = { good: '', limited: '' }
/** A key with every scope but one, by the scope it lacks: what provokes each operation's 403. */
const without = new Map<string, string>()
let makeKey: (scopes: ApiScope[], requestsPerMinute?: number) => Promise<string>

/**
 * Each operation that takes a body: a body it accepts, made afresh for every call (so a create
 * meets no conflict with the call before). The test fails for an operation missing here.
 */
const unique = () => Math.random().toString(36).slice(2)
const goodBodies: Record<string, () => unknown> = {
  createCompany: () => ({ name: `Contract ${unique()}`, brand_id: ids.brand }),
  renameCompany: () => ({ name: `Contract renamed ${unique()}` }),
  createEmployee: () => ({
    email: `contract-${unique()}@example.test`,
    display_name: 'Contract Person',
    company_id: ids.company,
  }),
  updateEmployee: () => ({ job_title: `Title ${unique()}` }),
  bulkUpsertEmployees: () => ({
    company_id: ids.company,
    rows: [{ email: `bulk-${unique()}@example.test`, display_name: 'Bulk Person' }],
  }),
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestOptions => ({
  method,
  headers: { ...withKey(keys.good), 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
})

/**
 * Problems that only an operation's own request provokes, where the generic ways below cannot: a
 * rename to a taken name, another account's address, an Idempotency-Key still in progress or used
 * with another body.
 */
const provoke: Record<string, Partial<Record<string, () => Promise<Response>>>> = {
  renameCompany: {
    '409': async () => {
      const taken = await createCompany({ name: `Taken ${unique()}` })
      return send(server, `/api/v1/companies/${ids.company}`, json('PATCH', { name: taken.name }))
    },
  },
  updateEmployee: {
    '409': async () => {
      const other = await send(server, `/api/v1/employees/${ids.otherEmployee}`, {
        headers: withKey(keys.good),
      })
      const { email } = (await other.json()) as { email: string }
      return send(server, `/api/v1/employees/${ids.employee}`, json('PATCH', { email }))
    },
  },
  bulkUpsertEmployees: {
    '409': async () => {
      const idempotencyKey = `in-progress-${unique()}`
      await db()
        .insert(apiIdempotencyKeys)
        .values({ keyId: keyIds.get(keys.good)!, idempotencyKey, requestHash: 'running' })
      return send(
        server,
        '/api/v1/employees/bulk',
        json('POST', goodBodies.bulkUpsertEmployees!(), { 'Idempotency-Key': idempotencyKey }),
      )
    },
    '422': async () => {
      const headers = { 'Idempotency-Key': `reused-${unique()}` }
      const first = await send(
        server,
        '/api/v1/employees/bulk',
        json('POST', goodBodies.bulkUpsertEmployees!(), headers),
      )
      expect(first.status).toBe(200)
      return send(server, '/api/v1/employees/bulk', json('POST', goodBodies.bulkUpsertEmployees!(), headers))
    },
  },
}

beforeAll(async () => {
  const admin = await createUser({ role: 'admin' })
  const company = await createCompany()
  const employee = await createUser({ role: 'employee', companyId: company.id })
  ids.company = company.id
  ids.employee = employee.id
  ids.brand = company.brandId
  ids.otherEmployee = (await createUser({ role: 'employee', companyId: company.id })).id
  // A scheme with a released report (three peers answered), then closed.
  const questionnaire = await createQuestionnaire()
  ids.questionnaire = questionnaire.id
  const [question] = await questionsOf(questionnaire.id)
  const scheme = await createScheme({
    companyId: company.id,
    questionnaireId: questionnaire.id,
    minRaters: 3,
  })
  ids.scheme = scheme.id
  const self = await enrolEmployee(scheme, employee.id)
  await createResponse({
    assignmentId: self!.id,
    submitted: true,
    answers: [{ questionId: question!.id, numericValue: 4 }],
  })
  for (let i = 0; i < 3; i++) {
    const rater = await createUser({ role: 'colleague' })
    const assignment = await createRaterAssignment({ scheme, subjectId: employee.id, respondentId: rater.id })
    await createResponse({
      assignmentId: assignment.id,
      submitted: true,
      answers: [{ questionId: question!.id, numericValue: 3 + (i % 2) }],
    })
  }
  const released = await releaseParticipant({ id: admin.id }, scheme.id, employee.id)
  expect(released.ok).toBe(true)
  await db().update(schemes).set({ status: 'closed', closedAt: new Date() }).where(eq(schemes.id, scheme.id))
  const draft = await createScheme({
    companyId: company.id,
    questionnaireId: questionnaire.id,
    status: 'draft',
  })
  ids.draft = draft.id
  goodBodies.createScheme = () => ({
    name: `Contract scheme ${Math.random()}`,
    company_id: ids.company,
    questionnaire_id: ids.questionnaire,
    time_zone: 'Europe/Berlin',
    opens_at: '2030-03-02T09:00',
    closes_at: '2030-03-27T18:00',
  })
  goodBodies.enrolEmployees = () => ({ employee_ids: [ids.employee] })
  makeKey = async (scopes, requestsPerMinute) => {
    const created = await createApiKey(
      { id: admin.id },
      { name: `contract ${Math.random()}`, scopes, companyId: null, expiresInDays: null, requestsPerMinute },
    )
    if (!created.ok) throw new Error('refused')
    keyIds.set(created.value.key, created.value.id)
    return created.value.key
  }
  keys.good = await makeKey([...API_SCOPES])
  keys.limited = await makeKey([...API_SCOPES], 1)
  const response = await send(server, '/api/v1/openapi.json')
  expect(response.status).toBe(200)
  document = (await response.json()) as Document
})

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  )

/** The Zod schema a documented response's body is checked with. */
function schemaFor(operation: Operation, status: string): { media: string; schema: z.ZodType | null } {
  const response = operation.responses[status]
  expect(response, `${operation.operationId} documents ${status}`).toBeDefined()
  const [media, content] = Object.entries(response!.content ?? {})[0]!
  const ref = content.schema.$ref
  if (!ref) return { media, schema: null }

  const name = ref.replace('#/components/schemas/', '') as ApiComponent
  expect(document.components.schemas[name], ref).toBeDefined()
  return { media, schema: API_COMPONENTS[name] }
}

async function check(operation: Operation, status: string, response: Response) {
  const { media, schema } = schemaFor(operation, status)
  expect(`${operation.operationId} ${response.status}`).toBe(`${operation.operationId} ${status}`)
  expect(`${operation.operationId} ${status} ${response.headers.get('Content-Type')?.split(';')[0]}`).toBe(
    `${operation.operationId} ${status} ${media}`,
  )
  if (!media.includes('json')) return await response.text()
  const body: unknown = await response.json()
  if (schema) {
    const parsed = schema.safeParse(body)
    expect(parsed.error?.issues ?? [], `${operation.operationId} ${status}`).toEqual([])
    // Nothing the schema does not name (Zod drops unknown keys: the parse must equal the body).
    expect(parsed.data).toEqual(body)
  }
  return body
}

function concrete(path: string) {
  if (path.startsWith('/api/v1/companies')) return path.replace('{id}', ids.company)
  if (path.startsWith('/api/v1/employees')) return path.replace('{id}', ids.employee)
  if (path.endsWith('/enrolments') || path.endsWith('/launch')) return path.replace('{id}', ids.draft)
  return path.replace('{id}', ids.scheme)
}

/** Where an operation's 409 is provoked, when not by sending its body twice: enrolling into a closed scheme. */
const conflictAt: Record<string, () => string> = {
  enrolEmployees: () => `/api/v1/schemes/${ids.scheme}/enrolments`,
}
const withKey = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` })

async function keyWithout(scope: string) {
  if (!without.has(scope)) without.set(scope, await makeKey(API_SCOPES.filter((s) => s !== scope)))
  return without.get(scope)!
}

/** The scope an operation needs, as its description says it (`Needs the scope \`x:y\``). */
const scopeOf = (operation: Operation & { description?: string }) =>
  /Needs the scope `([^`]+)`/.exec(operation.description ?? '')?.[1] ?? null

/** A request as the operation takes it: its method, its required headers, and a body if it has one. */
function request(
  method: string,
  operation: Operation,
  key: string | null,
  body: unknown = operation.requestBody ? goodBodies[operation.operationId]?.() : undefined,
  contentType = 'application/json',
): RequestOptions {
  const headers: Record<string, string> = key ? withKey(key) : {}
  for (const p of operation.parameters)
    if (p.in === 'header' && p.required) headers[p.name] = `contract-${Math.random()}`
  if (body === undefined) return { method: method.toUpperCase(), headers }
  headers['Content-Type'] = contentType
  return {
    method: method.toUpperCase(),
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }
}

const successOf = (operation: Operation) => Object.keys(operation.responses).find((s) => s.startsWith('2'))!

describe('the document', () => {
  test('is OpenAPI 3.1 with a bearer scheme, and every reference resolves', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    )
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!)
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs)
      expect(document.components.schemas[ref.replace('#/components/schemas/', '')], ref).toBeDefined()
  })

  test('documents every /api/v1 route of the app', () => {
    const routes = [...readFileSync('app/routes.ts', 'utf8').matchAll(/route\('(api\/v1\/[^']+)'/g)]
      .map((m) => `/${m[1]!}`.replace(/:(\w+)/g, '{$1}'))
      .filter((path) => !path.endsWith('*'))
    expect(routes.sort()).toEqual(Object.keys(document.paths).sort())
  })
})

describe('every operation against its documented answers', () => {
  test('every operation that takes a body has one here', () => {
    const withBody = operations().filter(({ operation }) => operation.requestBody)
    for (const { operation } of withBody)
      expect(goodBodies, operation.operationId).toHaveProperty(operation.operationId)
  })

  test('its success with a good key', async () => {
    for (const { path, method, operation } of operations()) {
      const response = await send(server, concrete(path), request(method, operation, keys.good))
      const body = await check(operation, successOf(operation), response)
      if (typeof body === 'string')
        expect(body.split('\r\n').length, operation.operationId).toBeGreaterThan(2)
      else if (method === 'get' && path.endsWith('s'))
        expect((body as { data: unknown[] }).data.length, operation.operationId).toBeGreaterThan(0)
    }
  })

  test('every problem a request can provoke', async () => {
    let provoked = 0
    for (const { path, method, operation } of operations()) {
      const statuses = Object.keys(operation.responses).filter((s) => !s.startsWith('2'))
      const at = (key: string | null, body?: unknown, contentType?: string, where = concrete(path)) =>
        send(server, where, request(method, operation, key, body, contentType))
      for (const status of statuses) {
        let response: Response | null = null
        const custom = provoke[operation.operationId]?.[status]
        if (custom) response = await custom()
        else if (status === '401') response = await at(null)
        else if (status === '403') response = await at(await keyWithout(scopeOf(operation as never)!))
        else if (status === '400')
          response = operation.requestBody
            ? await at(keys.good, { ...(goodBodies[operation.operationId]!() as object), unknown_field: 1 })
            : await send(server, `${concrete(path)}?unknown=1`, request(method, operation, keys.good))
        else if (status === '404')
          response = await at(
            keys.good,
            undefined,
            undefined,
            path.replace('{id}', '00000000-0000-4000-8000-000000000000'),
          )
        else if (status === '409') {
          const body = operation.requestBody ? goodBodies[operation.operationId]!() : undefined
          const where = conflictAt[operation.operationId]?.()
          await at(keys.good, body, undefined, where)
          response = await at(keys.good, body, undefined, where)
        } else if (status === '413')
          response = await at(keys.good, JSON.stringify({ pad: 'x'.repeat(5_000_000) }))
        else if (status === '415')
          response = await at(keys.good, 'name=x', 'application/x-www-form-urlencoded')
        else if (status === '429') {
          await at(keys.limited)
          response = await at(keys.limited)
          expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0)
        } else if (status === '500') continue
        expect(response, `${operation.operationId} ${status} is provoked`).not.toBeNull()
        const body = (await check(operation, status, response!)) as { status: number }
        expect(body.status).toBe(Number(status))
        provoked++
      }
      // An operation with a key documents 401, 429 and 500; the document itself needs none.
      if (operation.security?.length === 0) expect(statuses).toEqual([])
      else expect(statuses).toEqual(expect.arrayContaining(['401', '429', '500']))
    }
    expect(provoked).toBeGreaterThanOrEqual(15)
  })
})
