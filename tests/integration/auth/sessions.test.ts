import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { sessions, users } from '#db/schema/index'
import { createUser } from '#db/factories'
import {
  SESSION_ABSOLUTE_MS,
  SESSION_RENEW_BEFORE_MS,
  SESSION_TTL_MS,
} from '#app/modules/auth/session.server'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { cookieHeader, sessionRow, setCookie } from './helpers'

/**
 * The life of a session (ADR 004, session.server.ts): 30 days, extended by use once past half its
 * life, never beyond 90 days after sign-in; expired, tampered or disabled means signed out.
 */
const db = useTestDatabase()
const server = useTestServer()

const DAY = 24 * 60 * 60 * 1000
// Timestamps go through the database and two processes' clocks; a few seconds of slack is plenty.
const SLACK = 10_000

async function employeeSession() {
  const user = await createUser({ role: 'employee' })
  const cookie = await sessionCookieFor(user.id)
  const token = decodeURIComponent(cookie.slice('__session='.length))
  const id = token.split('.')[0]!
  return { user, cookie, token, id }
}

async function setTimes(id: string, times: { createdAt?: Date; expiresAt?: Date }) {
  await db().update(sessions).set(times).where(eq(sessions.id, id))
}

const signInFor = (path: string) => `/sign-in?${new URLSearchParams({ redirectTo: path })}`

describe('signed out', () => {
  test('an expired session is treated as signed out and its row is deleted', async () => {
    const { cookie, id } = await employeeSession()
    await setTimes(id, { expiresAt: new Date(Date.now() - 1_000) })
    const response = await send(server, '/user', { cookie })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(signInFor('/user'))
    expect(await sessionRow(id)).toBeUndefined()
    // …and the logged-out pages are open to it again.
    const signIn = await send(server, '/sign-in', { cookie })
    expect(signIn.status).toBe(200)
  })

  test('every request reads the live rows: a change between two requests is seen by the second', async () => {
    // The read is built once per database handle (ADR 036): the statement is kept, never its answer.
    const { user, cookie, id } = await employeeSession()
    expect((await send(server, '/user', { cookie })).status).toBe(200)
    await db().update(users).set({ role: 'admin' }).where(eq(users.id, user.id))
    const asAdmin = await send(server, '/user', { cookie })
    expect(asAdmin.status).toBe(302)
    expect(location(asAdmin)).not.toBe(signInFor('/user'))
    await db().update(users).set({ role: 'employee', disabledAt: new Date() }).where(eq(users.id, user.id))
    const disabled = await send(server, '/user', { cookie })
    expect(disabled.status).toBe(302)
    expect(location(disabled)).toBe(signInFor('/user'))
    expect(await sessionRow(id)).toBeUndefined()
  })

  test('a tampered secret is treated as signed out (the real session is untouched)', async () => {
    const { cookie, token, id } = await employeeSession()
    const [, secret] = token.split('.')
    const flipped = secret!.slice(0, -1) + (secret!.endsWith('a') ? 'b' : 'a')
    for (const forged of [
      `${id}.${flipped}`,
      `${id}.`,
      id,
      `${id}.${secret}.extra`,
      `${id}.${'a'.repeat(65)}`,
    ]) {
      const response = await send(server, '/user', { cookie: cookieHeader(forged) })
      expect(response.status, forged).toBe(302)
      expect(location(response)).toBe(signInFor('/user'))
      await response.arrayBuffer()
    }
    expect(await sessionRow(id)).toBeDefined()
    expect((await send(server, '/user', { cookie })).status).toBe(200)
  })

  test('a session of a disabled user is treated as signed out and deleted', async () => {
    const { user, cookie, id } = await employeeSession()
    expect((await send(server, '/user', { cookie })).status).toBe(200)
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id))
    const response = await send(server, '/user', { cookie })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(signInFor('/user'))
    expect(await sessionRow(id)).toBeUndefined()
  })

  test('a cookie with a malformed percent-encoding is ignored, not an error', async () => {
    const response = await send(server, '/user', { cookie: '__session=%E0%A4%A' })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(signInFor('/user'))
  })

  // A forged cookie with a NUL byte must never reach Postgres (which refuses 0x00): every page,
  // sign-out included, treats it as signed out.
  test('a session id with a NUL byte is treated as signed out, not a 500', async () => {
    const cookie = '__session=%00abc.def'
    const statuses: Record<string, number> = {}
    for (const [method, path] of [
      ['GET', '/user'],
      ['GET', '/sign-in'],
      ['GET', '/'],
      ['POST', '/sign-out'],
    ] as const) {
      const response = await send(server, path, { method, cookie, form: method === 'POST' ? {} : undefined })
      await response.arrayBuffer()
      statuses[`${method} ${path}`] = response.status
    }
    expect(statuses, 'a forged cookie must not crash the page').toEqual({
      'GET /user': 302,
      'GET /sign-in': 200,
      'GET /': 200,
      'POST /sign-out': 302,
    })
  })
})

describe('renewal (root loader, on any document request)', () => {
  test('a session past half its life is extended to a fresh 30 days and the cookie is re-set', async () => {
    const { cookie, id } = await employeeSession()
    await setTimes(id, { expiresAt: new Date(Date.now() + 10 * DAY) })
    expect(10 * DAY).toBeLessThan(SESSION_RENEW_BEFORE_MS)

    const before = Date.now()
    const response = await send(server, '/user', { cookie })
    expect(response.status).toBe(200)
    const row = (await sessionRow(id))!
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_TTL_MS - SLACK)
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + SESSION_TTL_MS + SLACK)

    const renewed = setCookie(response, '__session')!
    expect(renewed).toBeDefined()
    // Same token (only the row changed), a fresh lifetime for the browser.
    expect(`__session=${renewed.value}`).toBe(cookie)
    expect(Number(renewed.attributes['max-age'])).toBeGreaterThan(SESSION_TTL_MS / 1000 - 60)
    expect(renewed.attributes.httponly).toBe(true)
    expect(String(renewed.attributes.samesite).toLowerCase()).toBe('lax')
  })

  test('a fresh session is not re-set', async () => {
    const { cookie, id } = await employeeSession()
    const before = (await sessionRow(id))!.expiresAt.getTime()
    const response = await send(server, '/user', { cookie })
    expect(response.status).toBe(200)
    expect(setCookie(response, '__session')).toBeUndefined()
    expect((await sessionRow(id))!.expiresAt.getTime()).toBe(before)
  })

  test('a data request (.data) extends it as well', async () => {
    const { cookie, id } = await employeeSession()
    await setTimes(id, { expiresAt: new Date(Date.now() + 3 * DAY) })
    const response = await send(server, '/user.data', { cookie })
    expect(response.status).toBe(200)
    expect(setCookie(response, '__session')).toBeDefined()
    expect((await sessionRow(id))!.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - SLACK)
  })

  test('renewal stops at the absolute cap: 90 days after sign-in', async () => {
    const { cookie, id } = await employeeSession()
    const createdAt = new Date(Date.now() - 80 * DAY)
    await setTimes(id, { createdAt, expiresAt: new Date(Date.now() + 5 * DAY) })
    const response = await send(server, '/user', { cookie })
    expect(response.status).toBe(200)
    const row = (await sessionRow(id))!
    // min(now + 30 d, created + 90 d) = created + 90 d = now + 10 d
    expect(Math.abs(row.expiresAt.getTime() - (createdAt.getTime() + SESSION_ABSOLUTE_MS))).toBeLessThan(
      SLACK,
    )
    expect(row.expiresAt.getTime()).toBeLessThan(Date.now() + 11 * DAY)
    const renewed = setCookie(response, '__session')!
    expect(Number(renewed.attributes['max-age'])).toBeLessThanOrEqual(10 * 24 * 3600 + 10)
    expect(Number(renewed.attributes['max-age'])).toBeGreaterThan(10 * 24 * 3600 - 60)
  })

  test('a session 89 days old is never extended past created_at + 90 days', async () => {
    const { cookie, id } = await employeeSession()
    const createdAt = new Date(Date.now() - 89 * DAY)
    const expiresAt = new Date(createdAt.getTime() + SESSION_ABSOLUTE_MS)
    await setTimes(id, { createdAt, expiresAt })
    const response = await send(server, '/user', { cookie })
    expect(response.status).toBe(200)
    expect(setCookie(response, '__session')).toBeUndefined()
    expect((await sessionRow(id))!.expiresAt.getTime()).toBe(expiresAt.getTime())
  })

  test('at the cap the session ends like any expired one', async () => {
    const { cookie, id } = await employeeSession()
    const createdAt = new Date(Date.now() - SESSION_ABSOLUTE_MS - 1_000)
    await setTimes(id, { createdAt, expiresAt: new Date(createdAt.getTime() + SESSION_ABSOLUTE_MS) })
    const response = await send(server, '/user', { cookie })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(signInFor('/user'))
    expect(await sessionRow(id)).toBeUndefined()
  })
})

describe('sign-out', () => {
  test('POST /sign-out deletes the session row and clears the cookie', async () => {
    const { cookie, id } = await employeeSession()
    const response = await send(server, '/sign-out', { method: 'POST', cookie, form: {} })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/sign-in')
    const cleared = setCookie(response, '__session')!
    expect(cleared).toBeDefined()
    expect(cleared.value).toBe('')
    expect(cleared.attributes['max-age']).toBe('0')
    expect(cleared.attributes.path).toBe('/')
    expect(await sessionRow(id)).toBeUndefined()
    // The old cookie no longer signs anybody in.
    const after = await send(server, '/user', { cookie })
    expect(after.status).toBe(302)
    expect(location(after)).toBe(signInFor('/user'))
  })

  test('signing out ends only that session, not the same user on another device', async () => {
    const { user, cookie, id } = await employeeSession()
    const other = await sessionCookieFor(user.id)
    await send(server, '/sign-out', { method: 'POST', cookie, form: {} })
    expect(await sessionRow(id)).toBeUndefined()
    expect((await send(server, '/user', { cookie: other })).status).toBe(200)
  })

  test('GET /sign-out does not sign out (a link or a prefetch must not end a session)', async () => {
    const { cookie, id } = await employeeSession()
    const response = await send(server, '/sign-out', { cookie })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/')
    expect(setCookie(response, '__session')?.attributes['max-age']).not.toBe('0')
    expect(await sessionRow(id)).toBeDefined()
    expect((await send(server, '/user', { cookie })).status).toBe(200)
  })

  test('POST /sign-out without a session still answers with a cleared cookie', async () => {
    const response = await send(server, '/sign-out', { method: 'POST', form: {} })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/sign-in')
    expect(setCookie(response, '__session')?.attributes['max-age']).toBe('0')
  })
})
