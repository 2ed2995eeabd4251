import { log } from './logger.server'

/**
 * Work that runs after the response has been sent: the answer must not wait for (or be timed by)
 * work that only some requests do (ADR 007, forgot-password). A failure is retried, logged without
 * the work's data, and handed to `onFailure` after the last try; it never rejects, so it cannot
 * take the process down. Graceful shutdown waits for what is still pending.
 *
 * The set of pending tasks lives on globalThis: the server build and the tests share it.
 */
const KEY = Symbol.for('panorama.background')
type Registry = { pending: Set<Promise<void>> }
const g = globalThis as typeof globalThis & { [KEY]?: Registry }
const registry: Registry = (g[KEY] ??= { pending: new Set() })

/** Waits before the 2nd and 3rd try: long enough for a database restart or a lock to pass. */
export const BACKGROUND_RETRY_DELAYS_MS = [500, 2_000] as const

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * What may be logged of a failure. Not the error itself: Drizzle's message quotes the query's
 * parameters, and a reset e-mail's insert carries the address and the one-time link. The driver's
 * own message (its `cause`) and SQLSTATE name the problem without the values.
 */
export function describeFailure(error: unknown): { name: string; code?: string; message?: string } {
  const e = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown }
  const cause = (e.cause ?? null) as { code?: unknown; message?: unknown } | null
  const code = cause?.code ?? e.code
  const message = cause ? cause.message : e.message
  return {
    name: typeof e.name === 'string' ? e.name : typeof error,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof message === 'string' ? { message: message.slice(0, 200) } : {}),
  }
}

export function runInBackground(
  task: string,
  work: () => Promise<void>,
  options: {
    /** Start only once this settles (the load context's `responseSent`): the answer goes first. */
    after?: Promise<unknown>
    onFailure?: (failure: ReturnType<typeof describeFailure>) => void
  } = {},
): void {
  const attempts = BACKGROUND_RETRY_DELAYS_MS.length + 1
  const running = (async () => {
    await options.after?.catch(() => undefined)
    for (let attempt = 1; ; attempt++) {
      try {
        await work()
        if (attempt > 1) log.info('background task succeeded after a retry', { task, attempt })
        return
      } catch (error) {
        if (attempt >= attempts) {
          const failure = describeFailure(error)
          log.error('background task failed', { task, attempts: attempt, failure })
          options.onFailure?.(failure)
          return
        }
        log.warn('background task failed; retrying', { task, attempt, failure: describeFailure(error) })
        await sleep(BACKGROUND_RETRY_DELAYS_MS[attempt - 1]!)
      }
    }
  })()
  registry.pending.add(running)
  void running.finally(() => registry.pending.delete(running))
}

/** Resolves once no background task is pending (shutdown; tests). */
export async function settleBackgroundWork(): Promise<void> {
  while (registry.pending.size) await Promise.allSettled([...registry.pending])
}
