import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createUser } from '#db/factories'
import { resetEnvCache } from '#app/config/env.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { FACTORY_PASSWORD, postSignIn, setCookie } from '#tests/integration/auth/helpers'
import { rawChunks } from '#tests/support/raw-http'

/**
 * The headers every response carries (app/server/security-headers.ts, app/server/app.ts): pages,
 * single-fetch data, static files and hashed assets alike; HSTS and Secure cookies only on https.
 */
useTestDatabase()
const server = useTestServer()

let assetPath = ''
const clientDir = path.resolve(import.meta.dirname, '../../..', process.env.BUILD_DIR || 'build', 'client')

beforeAll(async () => {
  const html = await (await send(server, '/sign-in')).text()
  // The client entry chunk: hashed, and large enough to be worth compressing.
  const match = /\/assets\/entry\.client-[\w-]+\.js/.exec(html)
  expect(match, 'the hashed /assets/entry.client-*.js in the sign-in page').toBeTruthy()
  assetPath = match![0]
})

const TARGETS = () => [
  ['a page', '/sign-in'],
  ['a data request', '/sign-in.data'],
  ['a static file', '/favicon.svg'],
  ['a hashed asset', assetPath],
  ['the 404 page', '/no/such/page'],
  ['a resource route', '/api/__session'],
  ['the health check', '/healthz'],
]

/** Parses a CSP header into directive → sources. */
function csp(header: string | null) {
  expect(header).toBeTruthy()
  const directives: Record<string, string[]> = {}
  for (const part of header!.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) directives[name] = values
  }
  return directives
}

function nonceOf(response: Response) {
  const source = csp(response.headers.get('Content-Security-Policy'))['script-src']!.find((s) =>
    s.startsWith("'nonce-"),
  )
  expect(source).toBeTruthy()
  return source!.slice("'nonce-".length, -1)
}

/** A raw HTTP request, so the test sees the bytes on the wire (fetch would decompress them). */
function raw(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const request = http.get(`${server.url}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (c: Buffer) => chunks.push(c))
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        )
        response.on('error', reject)
      })
      request.on('error', reject)
    },
  )
}

describe('on every kind of response', () => {
  test.each(TARGETS())('%s (%s) carries the security headers', async (_kind, path) => {
    const response = await send(server, path)
    await response.arrayBuffer()
    expect(response.status, path).toBeLessThan(500)
    const policy = csp(response.headers.get('Content-Security-Policy'))
    expect(policy['frame-ancestors']).toEqual(["'none'"])
    expect(policy['default-src']).toEqual(["'self'"])
    expect(policy['object-src']).toEqual(["'none'"])
    expect(policy['base-uri']).toEqual(["'self'"])
    expect(policy['script-src']).toContain("'strict-dynamic'")
    expect(policy['script-src']).not.toContain("'unsafe-inline'")
    // No Turnstile keys in this configuration: no third-party frames or scripts.
    expect(policy['frame-src']).toEqual(["'none'"])
    expect(policy['script-src']!.join(' ')).not.toContain('challenges.cloudflare.com')
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(response.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.get('X-Frame-Options')).toBe('DENY')
    // Only uploaded files (/files/:id) may be loaded from another origin.
    expect(response.headers.get('Cross-Origin-Resource-Policy')).toBe('same-origin')
    expect(response.headers.get('X-Powered-By')).toBeNull()
    // Plain http: HSTS would be meaningless (and sticky) here.
    expect(response.headers.get('Strict-Transport-Security')).toBeNull()
  })
})

describe('CSP nonce', () => {
  test('the header nonce is the one on every script of the page, and new on every request', async () => {
    const first = await send(server, '/sign-in')
    const html = await first.text()
    const nonce = nonceOf(first)
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{16,}={0,2}$/)
    const attributes = [...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1])
    expect(attributes.length).toBeGreaterThan(0)
    expect(new Set(attributes)).toEqual(new Set([nonce]))
    // Every inline <script> carries it (otherwise CSP would block it).
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!)
    expect(scripts.length).toBeGreaterThan(0)
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`)

    const second = await send(server, '/sign-in')
    const secondHtml = await second.text()
    const again = nonceOf(second)
    expect(again).not.toBe(nonce)
    expect(secondHtml).toContain(`nonce="${again}"`)
    expect(secondHtml).not.toContain(nonce)
  })
})

describe('caching and compression', () => {
  test('hashed assets are cached for a year as immutable; other static files are not', async () => {
    const asset = await send(server, assetPath)
    expect(asset.status).toBe(200)
    const cache = asset.headers.get('Cache-Control')!
    expect(cache).toContain('max-age=31536000')
    expect(cache).toContain('immutable')

    const favicon = await send(server, '/favicon.svg')
    expect(favicon.status).toBe(200)
    expect(favicon.headers.get('Cache-Control')).not.toContain('immutable')
    expect(favicon.headers.get('Cache-Control')).not.toContain('31536000')
  })

  test('pages are private and revalidated, yet allowed into the back/forward cache (no no-store)', async () => {
    const employee = await createUser({ role: 'employee' })
    const cookie = await sessionCookieFor(employee.id)
    for (const [path, who] of [
      ['/sign-in', null],
      ['/bench/ping', null],
      ['/no/such/page', null],
      ['/user', cookie],
      ['/user/edit-profile', cookie],
    ] as const) {
      const response = await send(server, path, { cookie: who })
      await response.arrayBuffer()
      expect(response.headers.get('Content-Type'), path).toMatch(/^text\/html/)
      expect(response.headers.get('Cache-Control'), path).toBe('private, no-cache')
    }
  })

  test('pages of one-time codes are never stored, not even for the back button', async () => {
    for (const mode of ['resetPassword', 'activate', 'invite', 'verifyEmail', 'setup']) {
      const response = await send(server, `/verification?mode=${mode}`)
      await response.arrayBuffer()
      expect(response.headers.get('Content-Type'), mode).toMatch(/^text\/html/)
      expect(response.headers.get('Cache-Control'), mode).toBe('no-store')
    }
  })

  test('pages are gzip-compressed when the client accepts it', async () => {
    const zipped = await raw('/sign-in', { 'Accept-Encoding': 'gzip' })
    expect(zipped.status).toBe(200)
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i)
    expect(zlib.gunzipSync(zipped.body).toString('utf8')).toContain('<html')

    const plain = await raw('/sign-in', { 'Accept-Encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString('utf8')).toContain('<html')
  })

  test.each([
    ['br', zlib.brotliDecompressSync],
    ['gzip', zlib.gunzipSync],
  ] as const)(
    'a page is compressed (%s) in one piece, not one block per rendered chunk',
    async (encoding, inflate) => {
      const { hostname: host, port } = new URL(server.url)
      const { head, chunks } = await rawChunks({ host, port: Number(port) }, '/sign-in', {
        'Accept-Encoding': encoding,
      })
      expect(head).toMatch(new RegExp(`content-encoding: ${encoding}`, 'i'))
      expect(chunks.length).toBeLessThanOrEqual(2)
      const html = inflate(Buffer.concat(chunks)).toString('utf8')
      expect(html).toMatch(/^<!DOCTYPE html>/i)
      expect(html).toMatch(/<\/html>$/)
    },
  )

  test('a hashed asset is sent as compressed at build time: brotli, else gzip, with its own type', async () => {
    const file = path.join(clientDir, assetPath)
    const brotli = await raw(assetPath, { 'Accept-Encoding': 'gzip, deflate, br, zstd' })
    expect(brotli.status).toBe(200)
    expect(brotli.headers['content-encoding']).toBe('br')
    // The very bytes written by the build (brotli at its highest setting), not compressed again here.
    expect(brotli.body.equals(fs.readFileSync(`${file}.br`))).toBe(true)
    expect(zlib.brotliDecompressSync(brotli.body).equals(fs.readFileSync(file))).toBe(true)
    expect(brotli.headers['content-type']).toMatch(/^text\/javascript; charset=utf-8$/i)
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i)
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable')

    const gzip = await raw(assetPath, { 'Accept-Encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.body.equals(fs.readFileSync(`${file}.gz`))).toBe(true)
    expect(gzip.headers['content-type']).toMatch(/^text\/javascript; charset=utf-8$/i)

    const plain = await raw(assetPath, { 'Accept-Encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.equals(fs.readFileSync(file))).toBe(true)
  })

  test('the favicon too, cached for an hour', async () => {
    const icon = await raw('/favicon.svg', { 'Accept-Encoding': 'br' })
    expect(icon.status).toBe(200)
    expect(icon.headers['content-encoding']).toBe('br')
    expect(icon.body.equals(fs.readFileSync(path.join(clientDir, 'favicon.svg.br')))).toBe(true)
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(icon.headers['cache-control']).toBe('public, max-age=3600')
  })

  test('a hashed script asset is compressed too', async () => {
    const zipped = await raw(assetPath, { 'Accept-Encoding': 'gzip' })
    expect(zipped.status).toBe(200)
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(zipped.body).length).toBeGreaterThan(1024)
  })
})

describe('static files under their own addresses', () => {
  test('a page request never looks at the disk: a file named like a page is not sent in its place', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-client-'))
    fs.mkdirSync(path.join(dir, 'assets'))
    fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *')
    fs.writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log(1)')
    const app = http.createServer(server.build!.createApp({ clientDir: dir }))
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    const target = { url: `http://127.0.0.1:${(app.address() as AddressInfo).port}` }
    try {
      // Files listed at start-up are served at their own paths, assets under /assets…
      expect(await (await send(target, '/robots.txt')).text()).toBe('User-agent: *')
      expect(await (await send(target, '/assets/app-1234.js')).text()).toBe('console.log(1)')
      // …and nothing else: a page is the page even with a file of its name, a file added later is
      // not served (the files are known from start-up; no request looks for one).
      fs.writeFileSync(path.join(dir, 'sign-in'), 'a file, not the page')
      const page = await send(target, '/sign-in')
      expect(page.headers.get('Content-Type')).toMatch(/^text\/html/)
      expect(await page.text()).toContain('<html')
      fs.writeFileSync(path.join(dir, 'later.txt'), 'added after start-up')
      const later = await send(target, '/later.txt')
      expect(later.status).toBe(404)
      expect(await later.text()).not.toContain('added after start-up')
    } finally {
      app.closeAllConnections()
      await new Promise((resolve) => app.close(resolve))
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('health', () => {
  test('/healthz answers ok without touching anything', async () => {
    const response = await send(server, '/healthz')
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  test('/readyz answers 200 while the database answers, 503 when it does not', async () => {
    const ready = await send(server, '/readyz')
    expect(ready.status).toBe(200)
    expect(ready.headers.get('Cache-Control')).toBe('no-store')
    expect(((await ready.json()) as { status: string }).status).toBe('ready')

    // db/client keeps its one handle on globalThis; without it the app sees no database.
    const key = Symbol.for('panorama.db')
    const store = globalThis as unknown as Record<symbol, unknown>
    const handle = store[key]
    store[key] = undefined
    try {
      const down = await send(server, '/readyz')
      expect(down.status).toBe(503)
      expect(((await down.json()) as { status: string }).status).not.toBe('ready')
      // Liveness does not depend on the database.
      expect((await send(server, '/healthz')).status).toBe(200)
    } finally {
      store[key] = handle
    }
  })
})

describe('on https (APP_URL https://…)', () => {
  const original = process.env.APP_URL
  afterEach(() => {
    process.env.APP_URL = original
    server.build!.resetEnvCache()
    resetEnvCache()
  })

  test('HSTS is sent and the session cookie is Secure', async () => {
    process.env.APP_URL = 'https://panorama.example'
    // Both copies of the configuration: the server build's and this process's.
    server.build!.resetEnvCache()
    resetEnvCache()
    // createApp reads the configuration once, as at start-up.
    const secure = http.createServer(server.build!.createApp())
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve))
    const target = { url: `http://127.0.0.1:${(secure.address() as AddressInfo).port}` }
    try {
      const page = await send(target, '/sign-in')
      await page.arrayBuffer()
      expect(page.headers.get('Strict-Transport-Security')).toMatch(/^max-age=31536000/)
      const asset = await send(target, '/favicon.svg')
      await asset.arrayBuffer()
      expect(asset.headers.get('Strict-Transport-Security')).toMatch(/^max-age=31536000/)

      const admin = await createUser({ role: 'admin' })
      const signIn = await postSignIn(target, { email: admin.email, password: FACTORY_PASSWORD })
      expect(signIn.status).toBe(302)
      const cookie = setCookie(signIn, '__session')!
      expect(cookie.attributes.secure).toBe(true)
      expect(cookie.attributes.httponly).toBe(true)

      // Sign-out clears it with the same attributes (a browser ignores a mismatched clear).
      const signOut = await send(target, '/sign-out', {
        method: 'POST',
        cookie: cookiesFrom(signIn),
        form: {},
      })
      expect(setCookie(signOut, '__session')!.attributes.secure).toBe(true)
    } finally {
      secure.closeAllConnections()
      await new Promise((resolve) => secure.close(resolve))
    }
  })
})
