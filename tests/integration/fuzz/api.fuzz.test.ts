import crypto from 'node:crypto'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { API_SCOPES } from '#db/enums'
import { getDb, queryRows } from '#db/client'
import { createApiKey } from '#app/modules/api-key/api-key.server'
import { createWorld } from '#tests/integration/journey/answer-helpers'
import { createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { changedTables, fingerprint, type Fingerprint } from '#tests/support/fingerprint'
import { send, useTestServer } from '#tests/support/app'

/**
 * The REST API's fuzz test (issue 21, "the fuzz test covers the API"): junk sent to every operation
 * of /api/v1/openapi.json — so an operation added later is fuzzed without touching this file — with
 * a key holding every scope (the page fuzz of actions.fuzz.test.ts reaches the API without one, and
 * so only its 401). The junk: ids that are not ids, query parameters unknown, repeated or of the
 * wrong type, bodies of the wrong type or shape (the documented example with a field set to junk,
 * removed, joined by an unknown one, nested deep), invalid JSON and UTF-8, wrong content types, junk
 * Idempotency-Keys and Authorization headers. (A body cut short of its Content-Length is a case of
 * tests/integration/api.)
 *
 * Every answer must be below 500 and JSON (a problem body for a refusal, never an HTML page), and a
 * refused request (4xx) must write nothing but what the API writes for any use of a key: its
 * last use (api_keys) and, for a write scope, the audit entry of that use (ADR 054).
 *   FUZZ_RUNS=3000 FUZZ_SEED=7 npx vitest run tests/integration/fuzz/api.fuzz.test.ts
 */
const RUNS = Number(process.env.FUZZ_RUNS) || 300
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : 21021
const VERBOSE = Boolean(process.env.FUZZ_VERBOSE)

useTestDatabase()
const server = useTestServer()

type Operation = {
  operationId: string
  parameters: Array<{ name: string; in: string; required?: boolean }>
  requestBody?: { content: Record<string, { example?: unknown }> }
  responses: Record<string, unknown>
}
const operations: Array<{ path: string; method: string; operation: Operation }> = []
const ids: string[] = []
/** Real ids by the body field that names one, so a mutated example reaches past "no such company". */
const realIds: Record<string, string> = {}
let key = ''

beforeAll(async () => {
  const w = await createWorld()
  const admin = await createUser({ role: 'admin' })
  ids.push(w.company.id, w.employee.id, w.colleague.id, w.scheme.id, w.questionnaire.id, admin.id)
  Object.assign(realIds, {
    company_id: w.company.id,
    questionnaire_id: w.questionnaire.id,
    manager_id: w.employee.id,
    employee_ids: w.colleague.id,
    brand_id: w.brand.id,
    // A path's own id, by its resource.
    companies: w.company.id,
    employees: w.employee.id,
    schemes: w.scheme.id,
  })
  const created = await createApiKey(
    { id: admin.id },
    {
      name: 'fuzz',
      scopes: [...API_SCOPES],
      companyId: null,
      expiresInDays: null,
      requestsPerMinute: 100_000,
    },
  )
  if (!created.ok) throw new Error('the key was refused')
  key = created.value.key
  const response = await send(server, '/api/v1/openapi.json')
  const document = (await response.json()) as { paths: Record<string, Record<string, Operation>> }
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods)) operations.push({ path, method, operation })
})

const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e308,
    -0,
    2 ** 53 + 1,
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'Lead\ud83d',
    '\u202e',
    'x'.repeat(5000),
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '__proto__',
    '00000000-0000-0000-0000-000000000000',
    'not-an-email',
    '2026-02-30',
    [],
    {},
    { __proto__: { admin: true } },
    [null],
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
)

const junkId = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    'new',
    '%00',
    '%FF%FE',
    '__proto__',
    'x'.repeat(300),
    '..%2F..',
    crypto.randomUUID(),
  ),
  fc.nat().map((n) => ids[n % Math.max(ids.length, 1)] ?? crypto.randomUUID()),
)

const bodyMutation = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), field: fc.nat(), value: junkValue }),
  fc.record({ kind: fc.constant('drop' as const), field: fc.nat() }),
  fc.record({ kind: fc.constant('unknown' as const), name: fc.string({ maxLength: 12 }), value: junkValue }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 10, max: 3000 }) }),
  fc.record({ kind: fc.constant('whole' as const), value: junkValue }),
  fc.record({ kind: fc.constant('row' as const), field: fc.nat(), value: junkValue }),
)

const apiCase = fc.record({
  operation: fc.nat(),
  // Half the cases keep the path's real id, no query and the example body as it is (or nearly):
  // what gets past the first checks to the endpoint's own.
  id: fc.option(junkId, { nil: undefined, freq: 2 }),
  query: fc.oneof(
    fc.constant([] as Array<[string, string]>),
    fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('limit', 'cursor', 'company_id', 'status', 'email', 'state'),
          fc.string({ maxLength: 8 }),
        ),
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.constantFrom('0', '-1', '201', '1e3', 'abc', '%00', 'x'.repeat(200)),
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  ),
  mutations: fc.oneof(fc.constant([]), fc.array(bodyMutation, { minLength: 1, maxLength: 3 })),
  encoding: fc.constantFrom(
    'json',
    'json',
    'json',
    'invalid-json',
    'invalid-utf8',
    'form',
    'none',
    'no-type',
  ),
  idempotency: fc.option(
    fc.oneof(fc.constantFrom('', ' ', 'x'.repeat(300), 'a\tb', 'same-key'), fc.string({ maxLength: 20 })),
    { nil: undefined },
  ),
  authorization: fc.constantFrom('good', 'good', 'good', 'good', 'junk', 'basic', 'empty'),
})
type ApiCase = typeof apiCase extends fc.Arbitrary<infer T> ? T : never

function deep(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

/** The documented example, changed by the case's mutations. */
function bodyOf(operation: Operation, mutations: ApiCase['mutations']): unknown {
  const example = Object.values(operation.requestBody?.content ?? {})[0]?.example
  // The example's ids made real (a uuid under a field named in realIds), and its addresses new.
  let body: unknown = JSON.parse(JSON.stringify(example ?? {}), (name, value: unknown) => {
    if (typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value) && realIds[name]) return realIds[name]
    if (Array.isArray(value) && realIds[name]) return value.map(() => realIds[name])
    if (typeof value === 'string' && /^[^@\s]+@[^@\s]+$/.test(value))
      return `${crypto.randomUUID()}@example.test`
    return value
  })
  for (const m of mutations) {
    const record =
      body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null
    const fields = record ? Object.keys(record) : []
    const field = fields.length ? fields[('field' in m ? m.field : 0) % fields.length]! : 'x'
    if (m.kind === 'set' && record) record[field] = m.value
    if (m.kind === 'drop' && record) delete record[field]
    if (m.kind === 'unknown' && record) record[m.name || 'extra'] = m.value
    if (m.kind === 'deep' && record) record[field] = deep(m.depth)
    if (m.kind === 'whole') body = m.value
    if (m.kind === 'row' && record) {
      // A list's first row (a bulk upsert's rows, an enrolment's ids) given a junk field.
      const list = Object.values(record).find(Array.isArray)
      const row = list?.[0]
      if (row && typeof row === 'object') {
        const names = Object.keys(row)
        if (names.length) (row as Record<string, unknown>)[names[m.field % names.length]!] = m.value
      } else if (list) list.push(m.value)
    }
  }
  return body
}

function build(c: ApiCase) {
  const { path, method, operation } = operations[c.operation % operations.length]!
  const own = realIds[path.split('/')[3] ?? ''] ?? ids[0]!
  let where = path.replace(/\{\w+\}/g, () =>
    c.id === undefined ? own : encodeURI(c.id).replaceAll('%25', '%'),
  )
  if (c.query.length)
    where += `?${c.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`
  const headers: Record<string, string> = {}
  if (c.authorization === 'good') headers.Authorization = `Bearer ${key}`
  if (c.authorization === 'junk') headers.Authorization = `Bearer pk_${'x'.repeat(40)}`
  if (c.authorization === 'basic') headers.Authorization = `Basic ${Buffer.from('a:b').toString('base64')}`
  if (c.authorization === 'empty') headers.Authorization = 'Bearer '
  // As bytes (UTF-8 read as Latin-1), without the controls no client can send in a header.
  if (c.idempotency !== undefined)
    headers['Idempotency-Key'] = Buffer.from(c.idempotency)
      .toString('latin1')
      .split('')
      .filter((ch) => ch === '\t' || (ch >= ' ' && ch !== '\u007f'))
      .join('')
      .trim()
  else
    for (const p of operation.parameters)
      if (p.in === 'header' && p.required) headers[p.name] = crypto.randomUUID()
  let body: string | Uint8Array<ArrayBuffer> | undefined
  if (method !== 'get' && c.encoding !== 'none') {
    const json = JSON.stringify(bodyOf(operation, c.mutations)) ?? 'null'
    if (c.encoding === 'json') {
      headers['Content-Type'] = 'application/json'
      body = json
    }
    if (c.encoding === 'invalid-json') {
      headers['Content-Type'] = 'application/json'
      body = json.slice(0, Math.max(1, json.length - 1)) + ',}'
    }
    if (c.encoding === 'invalid-utf8') {
      headers['Content-Type'] = 'application/json; charset=utf-8'
      body = new Uint8Array([...Buffer.from('{"name":"'), 0xff, 0xfe, 0xc3, 0x28, ...Buffer.from('"}')])
    }
    if (c.encoding === 'form') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      body = 'name=x&email=y'
    }
    if (c.encoding === 'no-type') body = json
  }
  const describe = `${method.toUpperCase()} ${where} (${c.encoding}, auth ${c.authorization}) ${String(body ?? '').slice(0, 400)}`
  return { method: method.toUpperCase(), where, headers, body, describe }
}

/** What a use of the key writes whatever the answer: the key's last use, a write scope's audit entry. */
async function otherAudit() {
  const [row] = await queryRows<{ n: number }>(
    getDb(),
    sql`SELECT count(*)::int AS n FROM audit_log WHERE action <> 'api_key.write'`,
  )
  return Number(row!.n)
}

const statuses = new Map<number, number>()
afterAll(() => {
  console.log(
    `api fuzz: ${RUNS} runs, seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  )
})

test(`no junk sent to any API operation answers 5xx, anything but JSON, or writes on a 4xx (seed ${SEED})`, async () => {
  expect(operations.length).toBeGreaterThan(3)
  let before: Fingerprint = await fingerprint()
  let audits = await otherAudit()
  await fc.assert(
    fc.asyncProperty(apiCase, async (c) => {
      const request = build(c)
      let response: Response
      let text: string
      try {
        response = await fetch(server.url + request.where, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          redirect: 'manual',
        })
        text = await response.text()
      } catch (error) {
        throw new Error(`${request.describe}\n→ the request failed: ${String(error)}`, { cause: error })
      }
      const status = response.status
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (VERBOSE) console.log(`${status} ${request.describe.slice(0, 300)}`)
      expect(status, `${request.describe}\n→ ${status} ${text.slice(0, 300)}`).toBeLessThan(500)
      const type = response.headers.get('Content-Type') ?? ''
      if (status !== 204) {
        expect(type, `${request.describe}\n→ ${status} ${type}`).toMatch(/json|text\/csv|ndjson/)
        if (status >= 400) {
          expect(type, request.describe).toContain('application/problem+json')
          const problem = JSON.parse(text) as { status: number; detail: string }
          expect(problem.status, request.describe).toBe(status)
          expect(problem.detail.length, request.describe).toBeGreaterThan(0)
        }
      }
      const after = await fingerprint()
      const afterAudits = await otherAudit()
      if (status >= 400) {
        const changed = changedTables(before, after).filter((t) => t !== 'api_keys' && t !== 'audit_log')
        expect(changed, `${request.describe}\n→ ${status} wrote rows`).toEqual([])
        expect(afterAudits, `${request.describe}\n→ ${status} audited more than the key's use`).toBe(audits)
      }
      before = after
      audits = afterAudits
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  )
}, 600_000)
