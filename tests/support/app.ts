import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect } from 'vitest'
import { createSession } from '#app/modules/auth/session.server'
import { createUser } from '#db/factories'

type BuiltServer = {
  createApp: (options?: object) => http.RequestListener
  resetEnvCache: () => void
}

/**
 * How long the test servers keep an idle connection open: longer than any test. The test and the
 * server share one process, so while a test builds its world (PGlite works synchronously) no timer
 * runs; the server's idle timer (5 s by default) could then close a socket just as fetch reuses it
 * for the next request, which fails with ECONNRESET. afterAll closes every connection.
 */
export const TEST_KEEP_ALIVE_MS = 10 * 60_000

/**
 * The production build (npm run build), served in this test process on a free port: requests go
 * through the same Express stack, headers, guards and React Router handler as in production. The
 * build shares this process's database handle (db/client keeps it on globalThis).
 */
export function useTestServer() {
  const state = { url: '', build: undefined as BuiltServer | undefined }
  let server: http.Server | undefined
  beforeAll(async () => {
    const entry = path.resolve(
      import.meta.dirname,
      '../..',
      process.env.BUILD_DIR || 'build',
      'server/index.js',
    )
    const build = (await import(/* @vite-ignore */ entry)) as BuiltServer
    build.resetEnvCache()
    state.build = build
    server = http.createServer(build.createApp())
    server.keepAliveTimeout = TEST_KEEP_ALIVE_MS
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })
  return state
}

export type RequestOptions = {
  method?: string
  cookie?: string | null
  form?: Record<string, string> | FormData
  json?: unknown
  /** A raw body, sent as it is with whatever Content-Type `headers` give. */
  body?: string
  headers?: Record<string, string>
}

/** One request without following redirects, so tests see the status and Location themselves. */
export async function send(base: { url: string }, pathname: string, options: RequestOptions = {}) {
  const headers = new Headers(options.headers)
  if (options.cookie) headers.set('Cookie', options.cookie)
  let body: BodyInit | undefined
  if (options.form instanceof FormData) body = options.form
  else if (options.form) body = new URLSearchParams(options.form)
  else if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers.set('Content-Type', 'application/json')
  } else if (options.body !== undefined) body = options.body
  return fetch(base.url + pathname, {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  })
}

/** A signed-in cookie for a user, made the way sign-in makes one. */
export async function sessionCookieFor(userId: string) {
  const { token } = await createSession(userId, { ip: '127.0.0.1', userAgent: 'vitest' })
  return `__session=${encodeURIComponent(token)}`
}

/** The cookie pairs a response sets, as a request Cookie header. */
export function cookiesFrom(response: Response, previous = ''): string {
  const jar = new Map<string, string>()
  for (const pair of previous
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, ...rest] = pair.split('=')
    jar.set(name!, rest.join('='))
  }
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(';')
    const [name, ...rest] = pair!.trim().split('=')
    const expired = attributes.some((a) => /max-age=0/i.test(a.trim()))
    if (expired) jar.delete(name!)
    else jar.set(name!, rest.join('='))
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
}

export function location(response: Response) {
  const value = response.headers.get('Location')
  if (!value) return null
  const url = new URL(value, 'http://x')
  return url.pathname + url.search
}

/** A user made by the factory (admin, employee, …) and a signed-in cookie for them. */
export async function signedIn(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(overrides)
  return { user, cookie: await sessionCookieFor(user.id) }
}

/**
 * The requests a test file makes as one signed-in user (usually the admin): `get` and `post` send
 * that user's cookie unless told another, and `follow` takes a redirect the way a browser would.
 */
export function client(base: { url: string }, defaultCookie: () => string) {
  return {
    get: (pathname: string, cookie: string | null = defaultCookie()) => send(base, pathname, { cookie }),
    /** A form posted without following the redirect, so the test sees the status and Location. */
    post: (
      pathname: string,
      form: Record<string, string> | FormData,
      cookie: string | null = defaultCookie(),
    ) => send(base, pathname, { form, cookie }),
    /** A redirect (302) followed with the cookies it set; the page behind it must answer 200. */
    follow: async (response: Response, cookie = defaultCookie()) => {
      expect(response.status).toBe(302)
      const next = await send(base, location(response)!, { cookie: cookiesFrom(response, cookie) })
      expect(next.status).toBe(200)
      return next.text()
    },
  }
}
