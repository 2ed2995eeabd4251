import { log } from '#app/lib/logger.server'
import { currentLoadContext } from '#app/lib/request-scope.server'

/**
 * The last line of defence for an error nobody caught (ADR 029).
 *
 * Node ends the process on an uncaught exception or an unhandled rejection. A stream that errors
 * with no `'error'` listener is one (busboy's file stream when an upload is cut off was): one
 * client's broken upload took every user's server down — on the embedded database, the whole
 * portal. Every stream the app opens gets a listener; this is the backstop for the one that slips.
 *
 * What happened while handling a request (the request scope, app.ts, is still current when the
 * error surfaces, since it follows the async work the request started) concerns that request: it is
 * logged at error with the request id and the server keeps serving everyone else. An error outside
 * any request (a worker's timer, the LISTEN connection) leaves the process in a state nobody
 * planned for: it is logged and the server stops the way SIGTERM stops it, exiting 1 (a supervisor
 * restarts it). Installed once the server listens: start-up failures end it as before.
 * Neither is ever silent: each is an `error` line with the stack (query parameters redacted).
 */
export function installProcessGuards(stop: (reason: string) => Promise<void>) {
  let stopping = false
  const fail = (kind: 'uncaught exception' | 'unhandled rejection', error: unknown) => {
    // The code tells a dropped connection (ECONNRESET) from a bug (not under `code`: the logger
    // redacts that key, one-time codes travel under it). Of an Error the logger keeps name,
    // message and stack, without a failed statement's parameters.
    const code = (error as { code?: unknown } | null)?.code
    const fields = { error, ...(typeof code === 'string' ? { errorCode: code } : {}) }
    const scope = currentLoadContext()
    if (scope) {
      log.error(`${kind} in a request: the server keeps running`, { requestId: scope.requestId, ...fields })
      return
    }
    log.error(`${kind} outside any request: stopping the server`, fields)
    if (stopping) return
    stopping = true
    process.exitCode = 1
    // Shutdown waits up to 10 s for requests in flight; a shutdown that itself hangs must not keep
    // a broken process alive.
    setTimeout(() => process.exit(1), 20_000).unref()
    stop(kind).then(
      () => process.exit(1),
      () => process.exit(1),
    )
  }
  process.on('uncaughtException', (error) => fail('uncaught exception', error))
  process.on('unhandledRejection', (reason) => fail('unhandled rejection', reason))
}
