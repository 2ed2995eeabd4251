import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { data, redirect } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#app/config/env.server'
import { flushSentry, initSentry, reportServerError } from '#app/modules/monitoring/sentry.server'

/**
 * The real SDK against a fake ingest. Sentry's ingest lies outside the machine (and there is no
 * internet here), so a local HTTP server plays it: the DSN points at 127.0.0.1, and the Node SDK's
 * transport sends plain http to an http DSN. The fake records every envelope POSTed to
 * `/api/<project>/envelope/`. Sending needs neither NODE_ENV=production nor `--import` (this file
 * runs with NODE_ENV=test and starts the SDK late, as the app does); the NODE_ENV trap in STACK.md
 * is about preloading the SDK with `--import`.
 */

type Envelope = { header: Record<string, unknown>; items: { header: { type?: string }; payload: unknown }[] }
type SentryEvent = {
  exception?: {
    values?: { type?: string; value?: string; mechanism?: { type?: string; handled?: boolean } }[]
  }
  request?: { url?: string; method?: string; headers?: Record<string, string> }
  environment?: string
}

const envelopes: { raw: string; envelope: Envelope }[] = []
// Every envelope of the run (`envelopes` is emptied before each test).
const history: Envelope[] = []
// Headers of every other request, per server: the propagation test reads their tracing headers.
const seen: { server: 'app' | 'foreign'; path: string; headers: http.IncomingHttpHeaders }[] = []
let ingest: http.Server
let foreign: http.Server
let appOrigin: string
let foreignOrigin: string

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return zlib.gunzipSync(body)
  if (encoding === 'deflate') return zlib.inflateSync(body)
  if (encoding === 'br') return zlib.brotliDecompressSync(body)
  return body
}

// An envelope is newline-separated JSON: its header, then per item a header and a payload. Item
// payloads here are JSON (events, sessions, transactions); attachments are not sent by these tests.
function parseEnvelope(text: string): Envelope {
  const [head, ...rest] = text.split('\n').filter((line) => line.trim() !== '')
  const items: Envelope['items'] = []
  for (let i = 0; i + 1 < rest.length; i += 2) {
    items.push({ header: JSON.parse(rest[i]), payload: JSON.parse(rest[i + 1]) })
  }
  return { header: JSON.parse(head), items }
}

function receivedEvents(from = envelopes.map((e) => e.envelope)): SentryEvent[] {
  return from.flatMap((envelope) =>
    envelope.items.filter((item) => item.header.type === 'event').map((item) => item.payload as SentryEvent),
  )
}

function messagesOf(events: SentryEvent[]): string[] {
  return events.map((event) => event.exception?.values?.at(-1)?.value ?? '(no exception)')
}

beforeAll(async () => {
  ingest = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method === 'POST' && /^\/api\/[^/]+\/envelope\/?(\?|$)/.test(req.url ?? '')) {
        const raw = decode(Buffer.concat(chunks), req.headers['content-encoding']).toString('utf8')
        envelopes.push({ raw, envelope: parseEnvelope(raw) })
        history.push(parseEnvelope(raw))
      } else {
        seen.push({ server: 'app', path: req.url ?? '', headers: req.headers })
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  // The ingest doubles as "our" origin (APP_URL) for the trace propagation test; a second server on
  // another port plays a third-party service.
  appOrigin = await listen(ingest)
  foreign = http.createServer((req, res) => {
    seen.push({ server: 'foreign', path: req.url ?? '', headers: req.headers })
    res.writeHead(200).end()
  })
  foreignOrigin = await listen(foreign)

  // Before init, and with no DSN, reporting does nothing (the last test checks 'early' never came).
  await initSentry(parseEnv({ NODE_ENV: 'test', PGLITE_DIR: 'memory://' }))
  reportServerError(new Error('early'))

  // The Node transport honours http_proxy; a proxy in the environment must not swallow the events.
  process.env.no_proxy = [process.env.no_proxy, '127.0.0.1'].filter(Boolean).join(',')
  const env = parseEnv({
    NODE_ENV: 'test',
    PGLITE_DIR: 'memory://',
    APP_URL: appOrigin,
    SENTRY_DSN: `${appOrigin.replace('//', '//publickey@')}/1`,
    SENTRY_ENVIRONMENT: 'integration-test',
  })
  await initSentry(env)
})

afterAll(async () => {
  await flushSentry()
  await Promise.all([close(ingest), close(foreign)])
})

beforeEach(async () => {
  await flushSentry()
  envelopes.length = 0
  seen.length = 0
})

describe('reportServerError', () => {
  it('sends an error as unhandled, with method and path but no secrets', async () => {
    // Made at run time: the SDK sends source lines around each frame, so a literal would show up.
    const secret = crypto.randomUUID()
    const request = new Request(`http://localhost:3000/user/response-7?oobCode=${secret}`, {
      headers: { cookie: `__session=${secret}`, authorization: `Bearer ${secret}`, 'user-agent': 'test' },
    })
    reportServerError(new Error('boom'), request)
    await flushSentry()

    const events = receivedEvents()
    expect(messagesOf(events)).toEqual(['boom'])
    const [event] = events
    expect(event.exception?.values?.at(-1)?.mechanism).toMatchObject({ type: 'react-router', handled: false })
    expect(event.request).toMatchObject({ method: 'GET', url: 'http://localhost:3000/user/response-7' })
    expect(event.environment).toBe('integration-test')
    const raw = envelopes.map((e) => e.raw).join('\n')
    expect(raw).not.toContain(secret)
  })

  it('never sends 3xx/4xx answers', async () => {
    reportServerError(new Response('', { status: 404 }))
    reportServerError(redirect('/sign-in'))
    reportServerError(new Response('', { status: 499 }))
    reportServerError(new Response(null, { status: 301, headers: { location: '/' } }))
    reportServerError(data({ message: 'nope' }, { status: 403 }))
    reportServerError({ status: 404, statusText: 'Not Found', internal: true, data: null })
    // A reportable error among them proves the pipeline was live; flush waits for all of them.
    reportServerError(new Error('marker'))
    await flushSentry()

    expect(messagesOf(receivedEvents())).toEqual(['marker'])
  })

  it('sends 5xx answers, named by their status', async () => {
    reportServerError(new Response('', { status: 500 }))
    reportServerError(new Response('', { status: 502, statusText: 'Bad Gateway' }))
    reportServerError(data({ message: 'down' }, { status: 503 }))
    // React Router's ErrorResponse for a crash keeps the real error: that is what gets reported.
    reportServerError({
      status: 500,
      statusText: 'Internal Server Error',
      internal: true,
      data: '',
      error: new Error('db down'),
    })
    await flushSentry()

    const events = receivedEvents()
    // Events are prepared asynchronously (source lines are read from disk), so order may vary.
    expect(messagesOf(events).sort()).toEqual(['HTTP 500', 'HTTP 502 Bad Gateway', 'HTTP 503', 'db down'])
    for (const event of events) {
      expect(event.exception?.values?.at(-1)?.mechanism).toMatchObject({
        type: 'react-router',
        handled: false,
      })
    }
  })
})

describe('trace propagation', () => {
  it('adds sentry-trace and baggage to same-origin requests only', async () => {
    await fetch(`${appOrigin}/api/__session`, { method: 'POST', body: '{}' })
    await fetch(`${foreignOrigin}/turnstile/v0/siteverify`, { method: 'POST', body: '{}' })
    // The foreign URL carries our origin in its query: Sentry matches string targets as substrings.
    await fetch(`${foreignOrigin}/?next=${encodeURIComponent(appOrigin)}&raw=${appOrigin}`)
    await new Promise<void>((resolve) =>
      http.get(`${foreignOrigin}/via-http`, (res) => res.resume().on('end', resolve)),
    )
    await new Promise<void>((resolve) =>
      http.get(`${appOrigin}/via-http`, (res) => res.resume().on('end', resolve)),
    )

    const traced = (server: 'app' | 'foreign') =>
      seen
        .filter((r) => r.server === server)
        .map((r) => [r.path, 'sentry-trace' in r.headers, 'baggage' in r.headers])
    expect(traced('app')).toEqual([
      ['/api/__session', true, true],
      ['/via-http', true, true],
    ])
    expect(traced('foreign')).toEqual([
      ['/turnstile/v0/siteverify', false, false],
      [`/?next=${encodeURIComponent(appOrigin)}&raw=${appOrigin}`, false, false],
      ['/via-http', false, false],
    ])
  })
})

describe('without a DSN', () => {
  it('reported nothing before Sentry was started', async () => {
    await flushSentry()
    const all = messagesOf(receivedEvents(history))
    expect(all).toContain('boom')
    expect(all).not.toContain('early')
  })
})
