import { UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router'
import { describe, expect, test } from 'vitest'
import { errorPageContent, UNAVAILABLE_CONTENT } from '#app/components/error-boundary'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'
import { textOf, titleOf } from '#tests/integration/auth/helpers'

/**
 * The spec's error page (portal-spec §2 and §8, DESIGN.md §5): status code, status message and a
 * description; 404 reads "Page Not Found", anything else "Internal Server Error".
 */
useTestDatabase()
const server = useTestServer()

/** What a thrown `data(…, { status })` or Response becomes by the time an ErrorBoundary sees it. */
const routeError = (status: number) => new ErrorResponse(status, '', 'x')

const NOT_FOUND_DESCRIPTION = errorPageContent(routeError(404)).description
const ERROR_DESCRIPTION = errorPageContent(new Error('x')).description

/**
 * Makes the database unreachable for the app without closing the test's database: db/client keeps
 * its one handle on globalThis (shared with the server build), and without it every query throws,
 * which is the unexpected failure a 500 page is for.
 */
async function whileDatabaseIsGone<T>(fn: () => Promise<T>): Promise<T> {
  const key = Symbol.for('panorama.db')
  const store = globalThis as unknown as Record<symbol, unknown>
  const handle = store[key]
  expect(handle).toBeDefined()
  store[key] = undefined
  try {
    return await fn()
  } finally {
    store[key] = handle
  }
}

describe('through the stack', () => {
  test('an unknown path answers the 404 page', async () => {
    const response = await send(server, '/no/such/page')
    expect(response.status).toBe(404)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
    const html = await response.text()
    const text = textOf(html)
    expect(text).toContain('404')
    expect(text).toContain('Page Not Found')
    expect(text).toContain(NOT_FOUND_DESCRIPTION)
    expect(titleOf(html)).toContain('Page Not Found')
    expect(text).not.toContain('Internal Server Error')
  })

  test('an unknown path under a real section is a 404 too', async () => {
    for (const path of [
      '/admin/no-such-page/deeper',
      '/user/edit-profile/extra',
      '/assets/no-such-file.js',
    ]) {
      const response = await send(server, path)
      expect(response.status, path).toBe(404)
      await response.arrayBuffer()
    }
  })

  test('an unexpected server error answers the 500 page, without internals', async () => {
    // Any well-formed session cookie makes the root loader query the database.
    const response = await whileDatabaseIsGone(() =>
      send(server, '/sign-in', { cookie: '__session=abcdef.ghijkl' }),
    )
    expect(response.status).toBe(500)
    const html = await response.text()
    const text = textOf(html)
    expect(text).toContain('500')
    expect(text).toContain('Internal Server Error')
    expect(text).toContain(ERROR_DESCRIPTION)
    expect(titleOf(html)).toContain('Internal Server Error')
    expect(text).not.toContain('Page Not Found')
    // Production build: no message, stack or file path of the real error reaches the visitor.
    expect(html).not.toContain('The database is not open')
    expect(html).not.toMatch(/at \S+ \(.*:\d+:\d+\)/)
    expect(html).not.toContain('/work/')
  })

  test('after the outage the same request works again', async () => {
    const response = await send(server, '/sign-in', { cookie: '__session=abcdef.ghijkl' })
    expect(response.status).toBe(200)
  })
})

describe('errorPageContent', () => {
  test('404 reads Page Not Found, with its own description', () => {
    expect(NOT_FOUND_DESCRIPTION).not.toBe(ERROR_DESCRIPTION)
    expect(errorPageContent(routeError(404))).toMatchObject({ status: 404, title: 'Page Not Found' })
  })

  test.each([
    ['a 500 response', routeError(500), 500],
    ['a 401 response', routeError(401), 401],
  ])('%s keeps its code and reads Internal Server Error', (_name, error, status) => {
    expect(errorPageContent(error)).toMatchObject({
      status,
      title: 'Internal Server Error',
      description: ERROR_DESCRIPTION,
    })
  })

  test('a 503 keeps its code and says the service is briefly unavailable (issue 7: database outage)', () => {
    expect(errorPageContent(routeError(503))).toMatchObject({
      status: 503,
      title: 'Service Unavailable',
      description: UNAVAILABLE_CONTENT.description,
    })
    expect(UNAVAILABLE_CONTENT.description).toMatch(/briefly unavailable/)
  })

  test.each([
    ['a plain Error', new Error('boom')],
    ['undefined', undefined],
    ['a string', 'boom'],
    ['a route error without a status', routeError(0)],
    ['an object that only looks like one', { status: 404 }],
  ])('%s counts as 500', (_name, error) => {
    expect(errorPageContent(error)).toMatchObject({ status: 500, title: 'Internal Server Error' })
  })

  test('a stack is shown only in development', () => {
    const error = new Error('boom')
    expect(errorPageContent(error).stack).toBeUndefined()
    expect(errorPageContent(error, { dev: false }).stack).toBeUndefined()
    expect(errorPageContent(error, { dev: true }).stack).toContain('boom')
  })
})
