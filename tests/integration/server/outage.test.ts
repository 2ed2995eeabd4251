import pg from 'pg'
import { drizzle } from 'drizzle-orm/node-postgres'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { createUser } from '#db/factories'
import { isDatabaseBusyError, isDatabaseUnavailableError, schema } from '#db/client'
import { UNAVAILABLE_CONTENT } from '#app/components/error-boundary'
import { OUTAGE_RETRY_AFTER_SECONDS } from '#app/server/outage'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { captureLogs } from '#tests/support/logs'
import { freePort, textOf, titleOf } from '#tests/integration/auth/helpers'

/**
 * A database outage under a running server (issue 7, item 9): pages answer 503 with Retry-After and
 * say the service is briefly unavailable, signed in or not; the log says so once per outage and
 * says when it is over. Here the app's database handle is pointed at a port nobody listens on (a
 * real node-postgres pool, refused at connect); outage.process.test.ts does it to a real server.
 */
useTestDatabase()
const server = useTestServer()

const KEY = Symbol.for('panorama.db')
const store = globalThis as unknown as Record<symbol, unknown>
let deadPool: pg.Pool
let cookie: string

beforeAll(async () => {
  const user = await createUser({ role: 'admin' })
  cookie = await sessionCookieFor(user.id)
  deadPool = new pg.Pool({
    connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/gone`,
    connectionTimeoutMillis: 1_000,
  })
})

afterAll(async () => {
  await deadPool?.end()
})

afterEach(() => vi.restoreAllMocks())

const DOWN = 'database unavailable: answering 503 until it is back'
const UP = 'database available again'

/** Runs `fn` with the app's database unreachable, then gives it back. */
async function duringOutage(fn: () => Promise<void>) {
  const handle = store[KEY] as { db: unknown; kind: string; close: () => Promise<void> }
  expect(handle).toBeDefined()
  store[KEY] = {
    ...handle,
    kind: 'postgres',
    pool: deadPool,
    db: drizzle(deadPool, { schema, casing: 'snake_case' }),
  }
  try {
    await fn()
  } finally {
    store[KEY] = handle
  }
}

async function expectOutagePage(response: Response) {
  expect(response.status).toBe(503)
  expect(response.headers.get('Retry-After')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS))
  expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
  const html = await response.text()
  expect(textOf(html)).toContain(UNAVAILABLE_CONTENT.description)
  expect(textOf(html)).toContain('503')
  expect(titleOf(html)).toContain(UNAVAILABLE_CONTENT.title)
  expect(html).not.toContain('Internal Server Error')
  expect(html).not.toContain('ECONNREFUSED')
}

describe('while the database cannot be reached', () => {
  test('signed-in and public pages answer 503 + Retry-After + the page; the log says it once, then when it is back', async () => {
    expect((await send(server, '/admin', { cookie })).status).toBe(200)
    const logs = captureLogs()
    try {
      await duringOutage(async () => {
        // The first request meets the outage in its loaders; the rest are answered at once.
        await expectOutagePage(await send(server, '/admin', { cookie }))
        await expectOutagePage(await send(server, '/', { headers: { Accept: 'text/html' } }))
        await expectOutagePage(await send(server, '/sign-in'))
        for (let i = 0; i < 5; i++) await expectOutagePage(await send(server, '/admin', { cookie }))
        // A client-side navigation's data request gets the 503 too (the browser shows the 503 page).
        const data = await send(server, '/admin.data', { cookie })
        expect(data.status).toBe(503)
        expect(data.headers.get('Retry-After')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS))
        expect(data.headers.get('X-Remix-Response')).toBeNull()
        // Liveness still answers; readiness says what is wrong.
        expect((await send(server, '/healthz')).status).toBe(200)
        expect((await send(server, '/readyz')).status).toBe(503)
      })
      // Back: the probe notices within a second or two and pages work again.
      await expect
        .poll(async () => (await send(server, '/admin', { cookie })).status, {
          timeout: 10_000,
          interval: 200,
        })
        .toBe(200)
      await expect.poll(() => logs.count(UP), { timeout: 5_000 }).toBe(1)
      expect(logs.count(DOWN)).toBe(1)
      expect(logs.lines.find((l) => l.msg === DOWN)?.level).toBe('error')
      const up = logs.lines.find((l) => l.msg === UP)!
      expect(typeof up.downSeconds).toBe('number')
      expect(typeof up.downSince).toBe('string')
      // Not once per request: no per-request error lines at all.
      expect(logs.lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([DOWN])
      // The requests themselves are logged as usual, with their 503.
      expect(logs.lines.filter((l) => l.msg === 'request' && l.status === 503).length).toBeGreaterThanOrEqual(
        9,
      )

      // A second outage is a second event.
      await duringOutage(async () => {
        await expectOutagePage(await send(server, '/admin', { cookie }))
        await expectOutagePage(await send(server, '/admin', { cookie }))
      })
      await expect
        .poll(async () => (await send(server, '/admin', { cookie })).status, {
          timeout: 10_000,
          interval: 200,
        })
        .toBe(200)
      await expect.poll(() => logs.count(UP), { timeout: 5_000 }).toBe(2)
      expect(logs.count(DOWN)).toBe(2)
    } finally {
      logs.stop()
    }
  })
})

describe('the REST API while the database cannot be reached', () => {
  test('answers 503 problems with Retry-After, the first request (which meets it) and the rest', async () => {
    await duringOutage(async () => {
      for (let i = 0; i < 3; i++) {
        const response = await send(server, '/api/v1/companies', {
          headers: { Authorization: 'Bearer pnr_0123456789abcdef_x' },
        })
        expect(response.status).toBe(503)
        expect(response.headers.get('Content-Type')).toBe('application/problem+json')
        expect(response.headers.get('Retry-After')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS))
        expect(((await response.json()) as { status: number }).status).toBe(503)
      }
    })
    await expect
      .poll(async () => (await send(server, '/api/v1/companies')).status, { timeout: 10_000, interval: 200 })
      .toBe(401)
  })
})

describe('while every pooled connection is busy', () => {
  test('pages answer the outage page’s 503 with Retry-After, not a 500; a warning, no outage', async () => {
    const handle = store[KEY] as { db: unknown; kind: string; pool?: pg.Pool }
    if (handle.kind !== 'postgres' || !handle.pool) return // PGlite has no pool to exhaust.
    // A pool of one whose only connection is held: the next query waits 200 ms, then gives up.
    const tiny = new pg.Pool({
      connectionString: (handle.pool.options as { connectionString: string }).connectionString,
      max: 1,
      connectionTimeoutMillis: 200,
    })
    const held = await tiny.connect()
    const logs = captureLogs()
    store[KEY] = { ...handle, pool: tiny, db: drizzle(tiny, { schema, casing: 'snake_case' }) }
    try {
      await expectOutagePage(await send(server, '/admin', { cookie, headers: { Accept: 'text/html' } }))
      const data = await send(server, '/admin.data', { cookie })
      expect(data.status).toBe(503)
      expect(data.headers.get('Retry-After')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS))
    } finally {
      store[KEY] = handle
      held.release()
      await tiny.end()
      logs.stop()
    }
    const { lines } = logs
    expect(lines.filter((l) => l.msg === 'database busy: answering 503').length).toBeGreaterThanOrEqual(2)
    expect(lines.some((l) => l.msg === DOWN)).toBe(false)
    expect(lines.some((l) => l.msg === 'unhandled error')).toBe(false)
    // Not an outage: the next request is served at once.
    expect((await send(server, '/admin', { cookie })).status).toBe(200)
  })
})

describe('isDatabaseBusyError', () => {
  test('a busy pool is busy (503, try again), an outage or a failed query is not', () => {
    const busy = new Error('timeout exceeded when trying to connect')
    expect(isDatabaseBusyError(busy)).toBe(true)
    expect(isDatabaseBusyError(new Error('Failed query: select 1', { cause: busy }))).toBe(true)
    expect(isDatabaseBusyError(new Error('Connection terminated unexpectedly'))).toBe(false)
    expect(isDatabaseBusyError(Object.assign(new Error('x'), { code: '23505' }))).toBe(false)
    expect(isDatabaseBusyError(undefined)).toBe(false)
  })
})

describe('isDatabaseUnavailableError', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })
  const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause })

  test.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a connection exception (class 08)', withCode('08006')],
    ['an administrator shutting the server down', withCode('57P01')],
    ['a server starting up', withCode('57P03')],
    ['too many connections', withCode('53300')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['any of them wrapped by Drizzle', wrapped(withCode('ECONNREFUSED'))],
    ['a refused connection to every address', new AggregateError([withCode('ECONNREFUSED')])],
  ])('%s is an outage', (_name, error) => {
    expect(isDatabaseUnavailableError(error)).toBe(true)
  })

  test.each([
    ['a unique violation', wrapped(withCode('23505'))],
    ['a syntax error', withCode('42601')],
    ['a statement timeout', withCode('57014')],
    ['waiting for a client of a busy pool (overload)', new Error('timeout exceeded when trying to connect')],
    [
      'a closed handle (a bug, not an outage)',
      new Error('The database is not open: call openDatabase() at start-up'),
    ],
    ['a thrown Response', new Response(null, { status: 404 })],
    ['nothing', undefined],
  ])('%s is not', (_name, error) => {
    expect(isDatabaseUnavailableError(error)).toBe(false)
  })
})
