// Run with tsx by tests/integration/server/process-guards.test.ts: installs the server's process
// guards (app/server/process-guards.ts), then fails the way the test names.
import { PassThrough } from 'node:stream'
import type { AppLoadContext } from 'react-router'
import { runInRequestScope } from '#app/lib/request-scope.server'
import { installProcessGuards } from '#app/server/process-guards'

const say = (msg: string, fields: object = {}) => console.log(JSON.stringify({ msg, ...fields }))

installProcessGuards(async (reason) => say('stop called', { reason }))

const request = {
  requestId: 'request-in-trouble',
  nonce: '',
  ip: '127.0.0.1',
  responseSent: new Promise<void>(() => undefined),
} as AppLoadContext

if (process.argv[2] === 'in-a-request') {
  runInRequestScope(request, () => {
    // A stream that errors with nobody listening, as busboy's file stream did on a cut-off upload.
    new PassThrough().destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
    // A promise nobody waits for, failing later in the same request.
    setTimeout(() => void Promise.reject(new Error('a lost promise')), 10)
  })
  // Timers run in order: this one comes after both failures were raised.
  setTimeout(() => {
    say('still running')
    process.exit(0)
  }, 50)
}

if (process.argv[2] === 'outside-requests') {
  setTimeout(() => {
    throw new Error('a bug in a timer')
  }, 10)
}
