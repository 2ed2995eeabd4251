import { describe, expect, test } from 'vitest'
import { runNode, TSX } from '#tests/support/run-node'

/**
 * The backstop of issue 15, A1 (app/server/process-guards.ts, ADR 029), in a process of its own
 * (tests/support/process-guards-child.ts): an error nobody caught while a request was being handled
 * — a stream erroring with no listener, a promise nobody awaited — is logged at error with the
 * request id and the process keeps running; one outside any request is logged and the server
 * stops as on SIGTERM, exiting 1. Never silent.
 */
type Line = {
  level?: string
  msg: string
  requestId?: string
  errorCode?: string
  error?: { message?: string }
}
const lines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)

const run = (scenario: string) =>
  runNode(
    [TSX, 'tests/support/process-guards-child.ts', scenario],
    { LOG_LEVEL: 'info', NODE_ENV: 'production' },
    60_000,
  )

describe('an error nobody caught', () => {
  test('in a request: logged at error with the request id, and the process keeps running', async () => {
    const { status, stdout, stderr } = await run('in-a-request')
    const logged = lines(stdout + stderr)
    expect(status, stderr).toBe(0)
    expect(logged.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({
        msg: 'uncaught exception in a request: the server keeps running',
        requestId: 'request-in-trouble',
        errorCode: 'ECONNRESET',
        error: expect.objectContaining({ message: 'aborted' }),
      }),
      expect.objectContaining({
        msg: 'unhandled rejection in a request: the server keeps running',
        requestId: 'request-in-trouble',
        error: expect.objectContaining({ message: 'a lost promise' }),
      }),
    ])
    expect(logged.map((l) => l.msg)).toContain('still running')
    expect(logged.map((l) => l.msg)).not.toContain('stop called')
  }, 90_000)

  test('outside any request: logged, then the server stops as on SIGTERM and exits 1', async () => {
    const { status, stdout, stderr } = await run('outside-requests')
    const logged = lines(stdout + stderr)
    expect(status, stderr).toBe(1)
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'error',
          msg: 'uncaught exception outside any request: stopping the server',
          error: expect.objectContaining({ message: 'a bug in a timer' }),
        }),
        { msg: 'stop called', reason: 'uncaught exception' },
      ]),
    )
  }, 90_000)
})
