import { log } from './logger.server'

/**
 * One polling loop for the server's background rounds (the outbox, reminders and housekeeping, the
 * scheme clock): a round, then a pause, then the next round.
 *
 * - Rounds never overlap: the next one is scheduled only when the one in flight has settled.
 * - The pause is the interval give or take `jitter` (a fraction of it), so that several app
 *   instances started together do not poll the database in step. The first round waits exactly
 *   `firstDelayMs`; a round that answers `true` (more work waiting: a full batch) is followed at once.
 * - A round that throws is logged (unless `onError` says it has reported the error already, as the
 *   database outage does) and the pause doubles with each failure in a row, up to `maxBackoffMs`;
 *   the first round that succeeds restores the interval.
 * - While `when()` is false (the database is closed or down) rounds are skipped quietly.
 * - The timer does not keep the process alive; `stop()` cancels the next round, waits for the one
 *   in flight, then runs `onStop`.
 * - `now` is the clock each round is handed and `timers` the scheduler: tests pass their own.
 */
export type PollingWorker = { stop: () => Promise<void> }

/** Runs `run` after `ms`; answers a function that cancels it. */
export type Scheduler = (run: () => void, ms: number) => () => void

export type PollingWorkerOptions = {
  /** Names the worker in the logs: "<name> started", "<name> round failed". */
  name: string
  intervalMs: number
  /** Before the first round (default: the interval). */
  firstDelayMs?: number
  /** The pause varies by up to this fraction of the interval either way (default 0.1). */
  jitter?: number
  /** The longest pause after failures (default: 16 intervals, at most 5 minutes, never below the interval). */
  maxBackoffMs?: number
  /** One round; `true` asks for the next one at once. */
  round: (now: Date) => Promise<boolean | void>
  /** Rounds run only while this holds. */
  when?: () => boolean
  /** Handles a round's error; a truthy answer means it was reported and needs no log line here. */
  onError?: (error: unknown) => unknown
  onStop?: () => void | Promise<void>
  /** Extra fields for the worker's log lines. */
  fields?: Record<string, unknown>
  now?: () => Date
  timers?: Scheduler
  random?: () => number
}

const unrefTimeout: Scheduler = (run, ms) => {
  const timer = setTimeout(run, ms)
  // A background round alone must not keep the process alive.
  timer.unref()
  return () => clearTimeout(timer)
}

/** The pause before the next round after `failures` failed rounds in a row (0: the plain interval). */
export function nextPollDelay(
  options: Pick<PollingWorkerOptions, 'intervalMs' | 'jitter' | 'maxBackoffMs'>,
  failures: number,
  random: () => number = Math.random,
): number {
  const { intervalMs } = options
  const maxBackoffMs = Math.max(intervalMs, options.maxBackoffMs ?? Math.min(intervalMs * 16, 5 * 60_000))
  const base = failures > 0 ? Math.min(intervalMs * 2 ** failures, maxBackoffMs) : intervalMs
  const jitter = options.jitter ?? 0.1
  return Math.max(0, Math.round(base * (1 + jitter * (2 * random() - 1))))
}

export function startPollingWorker(options: PollingWorkerOptions): PollingWorker {
  const schedule = options.timers ?? unrefTimeout
  const now = options.now ?? (() => new Date())
  const random = options.random ?? Math.random
  let stopped = false
  let cancel: (() => void) | undefined
  let inFlight: Promise<void> | undefined
  let failures = 0

  const plan = (ms: number) => {
    if (stopped) return
    cancel = schedule(tick, ms)
  }
  const tick = () => {
    cancel = undefined
    inFlight = (async () => {
      let again = false
      try {
        if (!options.when || options.when()) again = (await options.round(now())) === true
        failures = 0
      } catch (error) {
        failures++
        if (!options.onError?.(error))
          log.error(`${options.name} round failed`, {
            ...options.fields,
            failures,
            error: error instanceof Error ? error.message : String(error),
          })
      }
      inFlight = undefined
      plan(again ? 0 : nextPollDelay(options, failures, random))
    })()
  }

  log.info(`${options.name} started`, { ...options.fields, intervalMs: options.intervalMs })
  plan(options.firstDelayMs ?? options.intervalMs)
  let stopping: Promise<void> | undefined
  return {
    stop: () =>
      (stopping ??= (async () => {
        stopped = true
        cancel?.()
        await inFlight
        await options.onStop?.()
      })()),
  }
}
