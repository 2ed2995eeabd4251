import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { useTestDatabase } from '#tests/support/database'
import { send, useTestServer } from '#tests/support/app'
import { captureLogs } from '#tests/support/logs'

/**
 * The request log (issue 16 §7): a page view fetches a dozen static files and a probe polls
 * /healthz, so those are logged at debug when they went well; pages, and any static file that was
 * not found, stay at info where a local user reads the outbox links.
 */
useTestDatabase()
const server = useTestServer()

let logs: ReturnType<typeof captureLogs> | undefined
afterEach(() => logs?.stop())

const assetsDir = path.resolve(
  import.meta.dirname,
  '../../..',
  process.env.BUILD_DIR || 'build',
  'client/assets',
)
const anAsset = () => `/assets/${fs.readdirSync(assetsDir).find((name) => name.endsWith('.js'))}`

async function requestsLogged(level: 'info' | 'debug') {
  logs = captureLogs()
  process.env.LOG_LEVEL = level
  const asset = anAsset()
  for (const pathname of ['/healthz', asset, '/favicon.svg', '/assets/no-such-file.js', '/login'])
    await (await send(server, pathname)).arrayBuffer()
  logs.stop()
  return { asset, lines: logs.lines.filter((l) => l.msg === 'request') }
}

describe('the request log', () => {
  test('at info: pages and missing files, not the static files served nor /healthz', async () => {
    const { lines } = await requestsLogged('info')
    expect(lines.map((l) => [l.path, l.status, l.level])).toEqual([
      ['/assets/no-such-file.js', 404, 'info'],
      ['/login', 301, 'info'],
    ])
  })

  test('at debug: every request, the routine ones at debug', async () => {
    const { asset, lines } = await requestsLogged('debug')
    expect(lines.map((l) => [l.path, l.status, l.level])).toEqual([
      ['/healthz', 200, 'debug'],
      [asset, 200, 'debug'],
      ['/favicon.svg', 200, 'debug'],
      ['/assets/no-such-file.js', 404, 'info'],
      ['/login', 301, 'info'],
    ])
  })
})
