import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { countQueriesIn, type QueryTally } from '#db/client'
import { send, TEST_KEEP_ALIVE_MS, type RequestOptions } from './app'

type BuiltServer = {
  createApp: (options?: object) => http.RequestListener
  resetEnvCache: () => void
}

/**
 * Like `useTestServer` (the production build on a free port, sharing this process's database), but
 * every request it serves runs in a query-counting scope, so a test can ask how many statements a
 * request made. Counting is turned on here (QUERY_COUNT=1): call this at the top of the file, before
 * the database opens in `useTestDatabase`'s beforeAll. Requests are counted one at a time.
 */
export function useQueryCountingServer() {
  process.env.QUERY_COUNT = '1'
  const state = { url: '' }
  let server: http.Server | undefined
  let recording: Array<{ tally: QueryTally; done: Promise<void> }> | null = null

  beforeAll(async () => {
    const entry = path.resolve(
      import.meta.dirname,
      '../..',
      process.env.BUILD_DIR || 'build',
      'server/index.js',
    )
    const build = (await import(/* @vite-ignore */ entry)) as BuiltServer
    build.resetEnvCache()
    const app = build.createApp()
    server = http.createServer((req, res) => {
      const tally: QueryTally = { queries: 0 }
      // 'close' comes after the last byte is handed to the socket (or the client went away).
      const done = new Promise<void>((resolve) => res.on('close', () => resolve()))
      recording?.push({ tally, done })
      countQueriesIn(tally, () => app(req, res))
    })
    server.keepAliveTimeout = TEST_KEEP_ALIVE_MS
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })

  /** One request (as `send` makes it, body read to the end) and the statements it ran. */
  async function request(pathname: string, options: RequestOptions = {}) {
    if (recording) throw new Error('Count one request at a time')
    recording = []
    try {
      const response = await send(state, pathname, options)
      const body = await response.text()
      const served = recording
      await Promise.all(served.map((r) => r.done))
      // Work a request leaves running after its last byte still belongs to it.
      await new Promise((resolve) => setImmediate(resolve))
      if (served.length !== 1) throw new Error(`Expected one request, the server saw ${served.length}`)
      return { response, body, queries: served[0]!.tally.queries }
    } finally {
      recording = null
    }
  }

  return { server: state, request }
}
