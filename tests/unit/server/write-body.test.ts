import http from 'node:http'
import type { AddressInfo } from 'node:net'
import crypto from 'node:crypto'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import express from 'express'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { compressResponses } from '#app/server/compression'
import { writeBody } from '#app/server/request-handler'
import { captureLogs } from '#tests/support/logs'

/**
 * How app/server/request-handler.ts writes a response body (issue 15, A7), on a small Express app
 * with the app's compression in front: at the client's pace, holding nothing it has already sent,
 * with one 'drain' listener however often it waits, stopping its source when the client leaves,
 * and cutting the response off (logged) when the body fails. The whole server with a real export
 * is tests/integration/server/streamed-download.process.test.ts.
 */
const CHUNK = 64 * 1024

type Source = {
  pulled: number
  cancelled: boolean
  body: ReadableStream<Uint8Array>
  /** Every chunk handed out, weakly: whether something still holds it after a collection. */
  sent: WeakRef<Uint8Array>[]
}

/** A body of `chunks` chunks made on demand (random bytes: nothing for a compressor to shrink). */
function source(chunks: number, { failAt }: { failAt?: number } = {}): Source {
  const state = { pulled: 0, cancelled: false, sent: [] } as unknown as Source
  state.body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled === failAt) return controller.error(new Error('the database went away'))
        if (state.pulled++ >= chunks) return controller.close()
        const chunk = crypto.randomBytes(CHUNK)
        state.sent.push(new WeakRef(chunk))
        controller.enqueue(chunk)
      },
      cancel() {
        state.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  return state
}

let current: Source | undefined
let server: http.Server
let origin = ''
const warnings: Error[] = []
const onWarning = (warning: Error) => warnings.push(warning)

beforeAll(async () => {
  const app = express()
  app.use(compressResponses())
  app.get('/download', (_req, res) => {
    res.type('application/octet-stream')
    void writeBody(current!.body, res)
  })
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  process.on('warning', onWarning)
})

afterAll(async () => {
  process.off('warning', onWarning)
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

afterEach(() => {
  warnings.length = 0
})

function get(acceptEncoding = 'identity') {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    http
      .get(`${origin}/download`, { agent: false, headers: { 'Accept-Encoding': acceptEncoding } }, resolve)
      .on('error', reject)
  })
}

/** Polls until `read()` has stopped changing for `quietMs`. */
async function settled(read: () => number, quietMs = 300, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  let last = read()
  let since = Date.now()
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    if (read() !== last) {
      last = read()
      since = Date.now()
    } else if (Date.now() - since >= quietMs) return last
  }
  throw new Error('still changing')
}

const until = async (ok: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('writing a response body', () => {
  test.each(['identity', 'br'])(
    'a client that does not read stops the body (%s): only what fills the socket is made',
    async (encoding) => {
      current = source(1_000) // 64 MB on offer
      const response = await get(encoding)
      response.pause()
      const pulled = await settled(() => current!.pulled)
      // The socket's buffers on both sides and a chunk in hand: a few MB, not the 64 MB offered.
      expect(pulled * CHUNK).toBeLessThan(16 * 1024 * 1024)
      response.destroy()
      await until(() => current!.cancelled)
    },
  )

  test('what has been sent is not kept: the chunks of a 64 MB body are freed as they go', async () => {
    v8.setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    current = source(1_000)
    let received = 0
    let alive = -1
    const response = await get()
    for await (const chunk of response as AsyncIterable<Buffer>) {
      received += chunk.length
      if (alive < 0 && received > 48 * 1024 * 1024) {
        // A full collection, then: how many of the first 500 chunks (32 MB) are still held?
        gc()
        alive = current.sent.slice(0, 500).filter((ref) => ref.deref()).length
      }
    }
    expect(received).toBe(1_000 * CHUNK)
    // React Router's own writer kept every chunk it had sent until the end: all 500 here.
    expect(alive).toBe(0)
  })

  test('waiting for the compressor to drain, again and again, leaves no listeners behind', async () => {
    current = source(300) // ~19 MB, incompressible: the compressor's buffer fills many times
    const response = await get('br')
    let received = 0
    for await (const chunk of response as AsyncIterable<Buffer>) {
      received += chunk.length
      // A slow reader: the compressor waits for drain before most chunks.
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(received).toBeGreaterThan(300 * CHUNK)
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([])
  })

  test('the client leaving cancels the body: its source stops', async () => {
    current = source(1_000)
    const response = await get()
    await new Promise((resolve) => response.once('data', resolve))
    response.destroy()
    await until(() => current!.cancelled)
    const pulled = current.pulled
    expect(pulled).toBeLessThan(1_000)
  })

  test('a body failing half-way cuts the response off (the client sees an error) and is logged', async () => {
    const logs = captureLogs()
    try {
      current = source(1_000, { failAt: 20 })
      const response = await get()
      let received = 0
      const outcome = await (async () => {
        try {
          for await (const chunk of response as AsyncIterable<Buffer>) received += chunk.length
          return 'complete'
        } catch (error) {
          return (error as Error).message
        }
      })()
      expect(outcome).toBe('aborted')
      expect(received).toBeLessThanOrEqual(20 * CHUNK)
      await until(() => logs.count('response body failed') === 1)
      expect(logs.lines.find((l) => l.msg === 'response body failed')).toMatchObject({
        level: 'error',
        error: { message: 'the database went away' },
      })
    } finally {
      logs.stop()
    }
  })
})
