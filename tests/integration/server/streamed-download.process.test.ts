import http from 'node:http'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { createUser } from '#db/factories'
import { sessionCookieFor } from '#tests/support/app'
import { createAnswersAtScale } from '#tests/support/answers-at-scale'
import { useTestDatabase } from '#tests/support/database'
import {
  rssMb,
  untilIdle,
  useServerProcesses,
  waitUntilReady,
  type ServerProcess,
} from '#tests/support/server-process'
import { freePort } from '#tests/integration/auth/helpers'

/**
 * A streamed download through the real server (issue 15, A7): `node server.mjs` with its heap
 * capped, exporting 1,000,000 answers (~73 MB of CSV) to a client that first stops reading, then
 * reads through a slow sink. A response written at the client's pace holds one chunk at a time: the
 * server's memory stays flat, it keeps answering others, and the file arrives whole. React Router's
 * Express adapter kept every chunk it had sent until the response ended (1.2 GB of RSS for this
 * file; with the heap capped, the server died).
 *
 * Postgres only: the server child needs a database it can open beside the test, and generating a
 * million answers on PGlite takes minutes.
 */
const onPostgres = inject('testDatabase').kind === 'postgres'
const db = useTestDatabase()
const { start } = useServerProcesses()

const HEAP_MB = 256
/** RSS the download may add to the server's: one batch of 500 responses in flight, GC lagging. */
const GROWTH_BOUND_MB = 200

let schemeId = ''
let expectedRows = 0
let cookie = ''
let server: ServerProcess | undefined
let origin = ''

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const healthz = () =>
  fetch(`${origin}/healthz`).then(
    (r) => r.status,
    () => 0,
  )

describe.skipIf(!onPostgres)(`a streamed download through the running server (heap ${HEAP_MB} MB)`, () => {
  beforeAll(async () => {
    const made = await createAnswersAtScale(db(), { people: 2_500, raters: 19, questions: 20 })
    schemeId = made.schemeId
    expectedRows = made.answers
    cookie = await sessionCookieFor((await createUser({ role: 'admin' })).id)
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    server = start({
      DATABASE_URL: process.env.DATABASE_URL!,
      SESSION_SECRET: 'streamed-download-test-secret-0123456789abcdef',
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKER: 'false',
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
    })
    expect(await waitUntilReady(origin, server), server.output.stderr).toBe(true)
  }, 240_000)

  afterAll(() => {
    server?.child.kill('SIGKILL')
  })

  test.each(['identity', 'br, gzip'])(
    'the CSV export of 1,000,000 answers with Accept-Encoding: %s: memory flat, the server answering, the file whole',
    async (acceptEncoding) => {
      const pid = server!.child.pid!
      expect(await healthz()).toBe(200)
      const baseline = rssMb(pid)
      let peak = baseline
      const sampler = setInterval(() => {
        if (server!.child.exitCode === null) peak = Math.max(peak, rssMb(pid))
      }, 100)
      const started = Date.now()
      try {
        const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
          http
            .get(
              `${origin}/admin/answer-management/export.csv?scheme=${schemeId}`,
              { agent: false, headers: { Cookie: cookie, 'Accept-Encoding': acceptEncoding } },
              resolve,
            )
            .on('error', reject)
        })
        expect(response.statusCode).toBe(200)
        const encoding = response.headers['content-encoding']
        expect(encoding).toBe(acceptEncoding === 'identity' ? undefined : 'br')

        // The client reads nothing: the server must stop once the socket is full, not go on
        // making the file into memory. It answers others meanwhile.
        response.pause()
        expect(await untilIdle(pid, 1_000, 60_000), 'the server stopped producing').toBe(true)
        const stalledMb = rssMb(pid) - baseline
        expect(await healthz()).toBe(200)

        // Then a slow reader: every chunk is acknowledged a turn later, so pipe() waits for drain.
        let lines = 0
        let bytes = 0
        let checkedHealth = false
        const sink = new Writable({
          highWaterMark: 16 * 1024,
          write(chunk: Buffer, _encoding, done) {
            bytes += chunk.length
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
            if (!checkedHealth && lines > expectedRows / 2) {
              checkedHealth = true
              healthz().then((status) => done(status === 200 ? null : new Error(`/healthz ${status}`)))
              return
            }
            setImmediate(done)
          },
        })
        const read =
          encoding === 'br'
            ? pipeline(response, zlib.createBrotliDecompress(), sink)
            : pipeline(response, sink)
        await read.catch(async (error: unknown) => {
          // A connection reset because the server died: say so, with the end of its log.
          const exit = await Promise.race([server!.exited, tick(5_000).then(() => null)])
          if (!exit) throw error
          throw new Error(
            `the server died during the download (${exit.code ?? exit.signal}) after ${lines} rows:\n${server!.output.stderr.slice(-1500)}`,
          )
        })
        clearInterval(sampler)
        const seconds = (Date.now() - started) / 1000
        console.log(
          `export (${acceptEncoding}): ${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(1)} s; ` +
            `server RSS ${baseline.toFixed(0)} MB at start, +${stalledMb.toFixed(0)} MB while the client waited, ` +
            `peak ${peak.toFixed(0)} MB`,
        )
        expect(lines - 1).toBe(expectedRows)
        expect(checkedHealth).toBe(true)
        expect(server!.child.exitCode, server!.output.stderr.slice(-2000)).toBe(null)
        expect(peak - baseline).toBeLessThan(GROWTH_BOUND_MB)
        expect(await healthz()).toBe(200)
      } finally {
        clearInterval(sampler)
      }
    },
    300_000,
  )
})
