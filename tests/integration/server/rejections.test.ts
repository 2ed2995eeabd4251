import { afterEach, describe, expect, test } from 'vitest'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'
import { captureLogs } from '#tests/support/logs'

/**
 * Requests React Router refuses before any of our code runs — a cross-site form post (its origin
 * check) and a method a route does not handle (405) — are the client's doing, not failures of
 * ours (issue 7, item 10): they are logged at warn (a failed origin check may be a forgery
 * attempt) or info, never at error.
 */
useTestDatabase()
const server = useTestServer()
let logs: ReturnType<typeof captureLogs> | undefined

afterEach(() => {
  logs?.stop()
  logs = undefined
})

const rejected = () => logs!.lines.filter((l) => l.msg === 'request rejected')
const errors = () => logs!.lines.filter((l) => l.level === 'error')

describe('4xx refusals are logged below error', () => {
  test('a cross-site form post (page and data request) is a warning', async () => {
    logs = captureLogs()
    const page = await send(server, '/sign-in', {
      form: { email: 'a@example.com', password: 'x', redirectTo: '' },
      headers: { Origin: 'https://evil.example' },
    })
    expect(page.status).toBe(400)
    const data = await send(server, '/sign-in.data', {
      form: { email: 'a@example.com', password: 'x', redirectTo: '' },
      headers: { Origin: 'https://evil.example' },
    })
    expect(data.status).toBe(400)
    const malformed = await send(server, '/sign-in', {
      form: { email: 'a@example.com', password: 'x', redirectTo: '' },
      headers: { Origin: 'not a url' },
    })
    expect(malformed.status).toBe(400)

    expect(errors()).toEqual([])
    expect(rejected()).toHaveLength(3)
    for (const line of rejected())
      expect(line).toMatchObject({
        level: 'warn',
        status: 400,
        method: 'POST',
        reason: 'origin check failed',
      })
    expect(rejected().map((l) => l.path)).toEqual(['/sign-in', '/sign-in.data', '/sign-in'])
  })

  test('a method the route does not handle (405) is information', async () => {
    logs = captureLogs()
    // Resource routes that only answer GET: a post to them is refused with 405.
    for (const path of ['/api/events', '/files/00000000-0000-4000-8000-000000000000']) {
      const response = await send(server, path, { form: { a: '1' } })
      expect(response.status, path).toBe(405)
      await response.arrayBuffer()
    }
    expect(errors()).toEqual([])
    expect(rejected()).toEqual([
      expect.objectContaining({ level: 'info', status: 405, method: 'POST', path: '/api/events' }),
      expect.objectContaining({
        level: 'info',
        status: 405,
        method: 'POST',
        path: '/files/00000000-0000-4000-8000-000000000000',
      }),
    ])
  })

  test('a real failure is still an error (control)', async () => {
    logs = captureLogs()
    const key = Symbol.for('panorama.db')
    const store = globalThis as unknown as Record<symbol, unknown>
    const handle = store[key]
    store[key] = undefined
    try {
      const response = await send(server, '/sign-in', { cookie: '__session=abcdef.ghijkl' })
      expect(response.status).toBe(500)
    } finally {
      store[key] = handle
    }
    expect(errors().map((l) => l.msg)).toEqual(['unhandled error'])
  })
})
