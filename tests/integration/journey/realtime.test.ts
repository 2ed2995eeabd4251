import crypto from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { getHandle, queryRows } from '#db/client'
import { createRaterAssignment, createResponse, createScheme, createUser, enrolEmployee } from '#db/factories'
import { reopenResponse } from '#app/modules/response/response.server'
import { publishEvent, type PanoramaEvent } from '#app/modules/realtime/events.server'
import {
  closeRealtime,
  eventStreamResponse,
  realtimeStatus,
  reconnectDelayMs,
} from '#app/modules/realtime/listener.server'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'

/**
 * /api/events through the real HTTP stack (the production build, with compression): the stream's
 * headers, delivery of committed events to the employee they are about and to no one else, nothing
 * before commit or after a rollback, the guards, clean-up when the browser leaves, one LISTEN per
 * process and, on Postgres, delivery across connections and recovery from a dropped listener.
 */
const db = useTestDatabase()
const server = useTestServer()
const onPostgres = inject('testDatabase').kind === 'postgres'

let employee = { id: '' }
let other = { id: '' }
let employeeCookie = ''
let otherCookie = ''

beforeAll(async () => {
  employee = await createUser({ role: 'employee' })
  other = await createUser({ role: 'employee' })
  employeeCookie = await sessionCookieFor(employee.id)
  otherCookie = await sessionCookieFor(other.id)
})

afterAll(async () => {
  // Before the database goes: the LISTEN connection must not outlive it.
  await closeRealtime()
})

type Frame = { event?: string; data?: string; comments: string[]; retry?: number }

function parseFrame(block: string): Frame {
  const frame: Frame = { comments: [] }
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comments.push(line.slice(1).trim())
    else if (line.startsWith('event:')) frame.event = line.slice(6).trim()
    else if (line.startsWith('data:'))
      frame.data = (frame.data ? frame.data + '\n' : '') + line.slice(5).trim()
    else if (line.startsWith('retry:')) frame.retry = Number(line.slice(6).trim())
  }
  return frame
}

/** Reads a text/event-stream body in the background, frame by frame. */
function readFrames(body: ReadableStream<Uint8Array>) {
  const frames: Frame[] = []
  const state = { ended: false }
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        buffer += decoder.decode(value, { stream: true })
        let cut: number
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          frames.push(parseFrame(buffer.slice(0, cut)))
          buffer = buffer.slice(cut + 2)
        }
      }
    } catch {
      // aborted
    }
    state.ended = true
  })()
  const waitFor = async (predicate: (f: Frame) => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = frames.find(predicate)
      if (found) return found
      if (Date.now() > deadline) return undefined
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  return { frames, state, waitFor }
}

async function openStream(cookie: string) {
  const controller = new AbortController()
  const response = await fetch(server.url + '/api/events', {
    headers: { Cookie: cookie, Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, deflate, br' },
    signal: controller.signal,
    redirect: 'manual',
  })
  expect(response.status).toBe(200)
  const reader = readFrames(response.body!)
  const events = () => reader.frames.filter((f) => f.event === 'assignment.updated')
  return { response, ...reader, events, close: () => controller.abort() }
}

const event = (subjectId: string, status: PanoramaEvent['status'] = 'submitted'): PanoramaEvent => ({
  type: 'assignment.updated',
  subjectId,
  assignmentId: crypto.randomUUID(),
  status,
})

const isEvent = (e: PanoramaEvent) => (f: Frame) =>
  f.event === 'assignment.updated' && JSON.parse(f.data ?? '{}').assignmentId === e.assignmentId

async function publish(e: PanoramaEvent) {
  await db().transaction(async (tx) => publishEvent(tx, e))
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('the stream', () => {
  test('answers as an uncompressed, uncached event stream that opens at once', async () => {
    const stream = await openStream(employeeCookie)
    try {
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/)
      expect(stream.response.headers.get('cache-control')).toMatch(/\bno-store\b/)
      expect(stream.response.headers.get('x-accel-buffering')).toBe('no')
      // compression() would hold events in its buffer: the stream must pass through as written.
      expect(stream.response.headers.get('content-encoding')).toBeNull()
      const first = await stream.waitFor(() => true, 2_000)
      expect(first).toMatchObject({ retry: 5000, comments: ['connected'] })
    } finally {
      stream.close()
    }
  })

  test('delivers a committed event to the employee it is about, with no more than its id and status', async () => {
    const stream = await openStream(employeeCookie)
    try {
      const e = event(employee.id, 'in_progress')
      await publish(e)
      const frame = await stream.waitFor(isEvent(e))
      expect(frame).toBeDefined()
      expect(JSON.parse(frame!.data!)).toEqual({ assignmentId: e.assignmentId, status: 'in_progress' })
    } finally {
      stream.close()
    }
  })

  test('never delivers another employee’s events', async () => {
    const mine = await openStream(employeeCookie)
    const theirs = await openStream(otherCookie)
    try {
      const forOther = event(other.id)
      const forMe = event(employee.id)
      await publish(forOther)
      await publish(forMe)
      // Notifications arrive in commit order: once mine is here, theirs would have been too.
      expect(await mine.waitFor(isEvent(forMe))).toBeDefined()
      expect(await theirs.waitFor(isEvent(forOther))).toBeDefined()
      expect(mine.events().map((f) => JSON.parse(f.data!).assignmentId)).toEqual([forMe.assignmentId])
      expect(theirs.events().map((f) => JSON.parse(f.data!).assignmentId)).toEqual([forOther.assignmentId])
    } finally {
      mine.close()
      theirs.close()
    }
  })

  test('nothing arrives before the publishing transaction commits, and nothing after a rollback', async () => {
    const stream = await openStream(employeeCookie)
    try {
      const pending = event(employee.id)
      await db().transaction(async (tx) => {
        await publishEvent(tx, pending)
        await new Promise((r) => setTimeout(r, 300))
        expect(stream.events()).toEqual([])
      })
      expect(await stream.waitFor(isEvent(pending))).toBeDefined()

      const rolledBack = event(employee.id)
      await expect(
        db().transaction(async (tx) => {
          await publishEvent(tx, rolledBack)
          throw new Error('the change failed')
        }),
      ).rejects.toThrow('the change failed')
      const marker = event(employee.id)
      await publish(marker)
      expect(await stream.waitFor(isEvent(marker))).toBeDefined()
      expect(stream.frames.some(isEvent(rolledBack))).toBe(false)
    } finally {
      stream.close()
    }
  })

  test('a reopened colleague’s response is never told to the employee it is about, only to the respondent', async () => {
    // Issue 15 B4: the employee keeps seeing the colleague as answered, so no event may say otherwise.
    const scheme = await createScheme({ minRaters: 1 })
    await enrolEmployee(scheme, employee.id)
    const assignment = await createRaterAssignment({ scheme, subjectId: employee.id, respondentId: other.id })
    const response = await createResponse({ assignmentId: assignment.id, answers: [], submitted: true })
    const admin = await createUser({ role: 'admin', password: null })
    const subject = await openStream(employeeCookie)
    const respondent = await openStream(otherCookie)
    try {
      expect(await reopenResponse({ id: admin.id }, response.id, 'A slip in question 2')).toMatchObject({
        ok: true,
      })
      const told = await respondent.waitFor(
        (f) => f.event === 'assignment.updated' && JSON.parse(f.data ?? '{}').assignmentId === assignment.id,
      )
      expect(JSON.parse(told!.data!)).toEqual({ assignmentId: assignment.id, status: 'in_progress' })
      // Notifications arrive in commit order: once the marker is here, the reopen would have been too.
      const marker = event(employee.id)
      await publish(marker)
      expect(await subject.waitFor(isEvent(marker))).toBeDefined()
      expect(subject.events().map((f) => JSON.parse(f.data!).assignmentId)).toEqual([marker.assignmentId])
    } finally {
      subject.close()
      respondent.close()
    }
  })

  test('ignores malformed payloads on the channel and keeps delivering', async () => {
    const stream = await openStream(employeeCookie)
    try {
      await db().execute(sql`SELECT pg_notify('panorama_events', 'not json')`)
      await db().execute(
        sql`SELECT pg_notify('panorama_events', ${JSON.stringify({ type: 'other', subjectId: employee.id })})`,
      )
      const e = event(employee.id)
      await publish(e)
      expect(await stream.waitFor(isEvent(e))).toBeDefined()
      expect(stream.events()).toHaveLength(1)
    } finally {
      stream.close()
    }
  })

  test('unsubscribes when the browser goes away', async () => {
    await waitUntil(() => realtimeStatus().subscribers === 0)
    const a = await openStream(employeeCookie)
    const b = await openStream(employeeCookie)
    await waitUntil(() => realtimeStatus().subscribers === 2)
    a.close()
    await waitUntil(() => realtimeStatus().subscribers === 1)
    // The other stream of the same employee keeps working.
    const e = event(employee.id)
    await publish(e)
    expect(await b.waitFor(isEvent(e))).toBeDefined()
    b.close()
    await waitUntil(() => realtimeStatus().subscribers === 0)
  })

  test('sends a heartbeat comment while idle', async () => {
    const controller = new AbortController()
    const response = await eventStreamResponse({
      subjectId: employee.id,
      signal: controller.signal,
      heartbeatMs: 50,
    })
    const stream = readFrames(response.body!)
    expect(await stream.waitFor((f) => f.comments.includes('heartbeat'), 2_000)).toBeDefined()
    controller.abort()
    await waitUntil(() => stream.state.ended)
  })
})

test('a stream ends at its maximum age (the browser reconnects through the guard)', async () => {
  const response = await eventStreamResponse({
    subjectId: employee.id,
    signal: new AbortController().signal,
    maxAgeMs: 100,
  })
  const stream = readFrames(response.body!)
  await waitUntil(() => stream.state.ended, 2_000)
  expect(stream.frames[0]).toMatchObject({ retry: 5000 })
})

describe('who may listen', () => {
  test('an anonymous visitor is sent to sign in', async () => {
    const response = await send(server, '/api/events')
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/sign-in?redirectTo=%2Fapi%2Fevents')
  })

  test('a colleague and an admin are sent to their own home', async () => {
    const colleague = await createUser({ role: 'colleague' })
    const admin = await createUser({ role: 'admin' })
    const asColleague = await send(server, '/api/events', { cookie: await sessionCookieFor(colleague.id) })
    expect(asColleague.status).toBe(302)
    expect(location(asColleague)).toBe('/user/thank-you')
    const asAdmin = await send(server, '/api/events', { cookie: await sessionCookieFor(admin.id) })
    expect(asAdmin.status).toBe(302)
    expect(location(asAdmin)).toBe('/admin')
  })
})

describe('the admin dashboard’s stream', () => {
  test('an admin hears every assignment event; employees, colleagues and visitors are turned away', async () => {
    const admin = await createUser({ role: 'admin' })
    const controller = new AbortController()
    const response = await fetch(server.url + '/api/admin-events', {
      headers: { Cookie: await sessionCookieFor(admin.id), Accept: 'text/event-stream' },
      signal: controller.signal,
      redirect: 'manual',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const stream = readFrames(response.body!)
    try {
      const mine = event(employee.id)
      const theirs = event(other.id)
      await waitUntil(() => realtimeStatus().subscribers > 0)
      await publish(mine)
      await publish(theirs)
      expect(await stream.waitFor(isEvent(mine))).toBeDefined()
      expect(await stream.waitFor(isEvent(theirs))).toBeDefined()
      // Ids and states only: nothing a colleague wrote.
      const frame = (await stream.waitFor(isEvent(mine)))!
      expect(Object.keys(JSON.parse(frame.data!)).sort()).toEqual(['assignmentId', 'status'])
    } finally {
      controller.abort()
    }
    const anonymous = await send(server, '/api/admin-events')
    expect(anonymous.status).toBe(302)
    for (const role of ['employee', 'colleague'] as const) {
      const user = await createUser({ role })
      const refused = await send(server, '/api/admin-events', { cookie: await sessionCookieFor(user.id) })
      expect(refused.status, role).toBe(302)
      expect(location(refused), role).not.toBe('/api/admin-events')
    }
  })
})

describe.runIf(onPostgres)('on Postgres', () => {
  const listeners = async () =>
    queryRows<{ pid: number }>(
      db(),
      sql`SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'panorama-listen'`,
    )

  test('one LISTEN connection serves every stream, outside the pool', async () => {
    const streams = await Promise.all([1, 2, 3].map(() => openStream(employeeCookie)))
    try {
      expect(await listeners()).toHaveLength(1)
      expect(getHandle().pool!.totalCount).toBeLessThanOrEqual(Number(process.env.DATABASE_POOL_SIZE ?? 10))
      const e = event(employee.id)
      await publish(e)
      for (const s of streams) expect(await s.waitFor(isEvent(e))).toBeDefined()
    } finally {
      streams.forEach((s) => s.close())
    }
  })

  test('events published from another connection (another app instance) arrive', async () => {
    const stream = await openStream(employeeCookie)
    const elsewhere = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await elsewhere.connect()
    try {
      const e = event(employee.id)
      await elsewhere.query('BEGIN')
      await elsewhere.query('SELECT pg_notify($1, $2)', ['panorama_events', JSON.stringify(e)])
      await new Promise((r) => setTimeout(r, 200))
      expect(stream.events()).toEqual([])
      await elsewhere.query('COMMIT')
      expect(await stream.waitFor(isEvent(e))).toBeDefined()
    } finally {
      await elsewhere.end()
      stream.close()
    }
  })

  test('a dropped LISTEN connection is re-established and open streams are told to resync', async () => {
    const stream = await openStream(employeeCookie)
    try {
      const [before] = await listeners()
      expect(before).toBeDefined()
      await db().execute(sql`SELECT pg_terminate_backend(${before!.pid})`)
      expect(await stream.waitFor((f) => f.event === 'resync', 10_000)).toBeDefined()
      const [after] = await listeners()
      expect(after!.pid).not.toBe(before!.pid)
      const e = event(employee.id)
      await publish(e)
      expect(await stream.waitFor(isEvent(e))).toBeDefined()
    } finally {
      stream.close()
    }
  })
})

test('reconnect backoff doubles from half a second up to 30 s', () => {
  expect([0, 1, 2, 3, 6, 7, 20].map(reconnectDelayMs)).toEqual([
    500, 1000, 2000, 4000, 30_000, 30_000, 30_000,
  ])
})

test('closeRealtime ends open streams (so a graceful shutdown is not held open) and stops listening', async () => {
  const stream = await openStream(employeeCookie)
  expect(realtimeStatus().listening).toBe(onPostgres ? 'postgres' : 'pglite')
  await closeRealtime()
  await waitUntil(() => stream.state.ended)
  expect(realtimeStatus()).toEqual({ subscribers: 0, listening: null })
  // The next subscriber starts it again.
  const again = await openStream(employeeCookie)
  const e = event(employee.id)
  await publish(e)
  expect(await again.waitFor(isEvent(e))).toBeDefined()
  again.close()
})
