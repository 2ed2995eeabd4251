import { afterEach, describe, expect, test, vi } from 'vitest'
import { log } from '#app/lib/logger.server'
import {
  nextPollDelay,
  startPollingWorker,
  type PollingWorkerOptions,
  type Scheduler,
} from '#app/lib/polling-worker.server'

/**
 * The polling loop on a clock of our own: time moves only when the test says so, so every claim
 * ("nothing runs until…", "the pause doubled") is checked without sleeping.
 */
function manualClock() {
  let time = 0
  const queue: Array<{ at: number; run: () => void }> = []
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve))
  const timers: Scheduler = (run, ms) => {
    const entry = { at: time + ms, run }
    queue.push(entry)
    return () => {
      const i = queue.indexOf(entry)
      if (i >= 0) queue.splice(i, 1)
    }
  }
  return {
    timers,
    now: () => new Date(time),
    /** The delays of the rounds scheduled now, from the current time. */
    pending: () => queue.map((e) => e.at - time),
    /** Moves the clock by `ms`, firing what falls due in order and letting each round settle. */
    async advance(ms: number) {
      const until = time + ms
      await settle()
      for (;;) {
        queue.sort((a, b) => a.at - b.at)
        const next = queue[0]
        if (!next || next.at > until) break
        queue.shift()
        time = next.at
        next.run()
        await settle()
      }
      time = until
    },
  }
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

const started: Array<{ stop: () => Promise<void> }> = []
function start(clock: ReturnType<typeof manualClock>, options: Partial<PollingWorkerOptions>) {
  const worker = startPollingWorker({
    name: 'test worker',
    intervalMs: 1_000,
    jitter: 0,
    round: async () => {},
    timers: clock.timers,
    now: clock.now,
    ...options,
  })
  started.push(worker)
  return worker
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.stop()))
  vi.restoreAllMocks()
})

describe('startPollingWorker', () => {
  test('waits the first delay, then one interval after each round; each round is handed now()', async () => {
    const clock = manualClock()
    const seen: number[] = []
    start(clock, { firstDelayMs: 300, round: async (now) => void seen.push(now.getTime()) })

    await clock.advance(299)
    expect(seen).toEqual([])
    await clock.advance(1)
    expect(seen).toEqual([300])
    await clock.advance(2_000)
    expect(seen).toEqual([300, 1_300, 2_300])
  })

  test('rounds never overlap: a slow round holds the next one back until it settles', async () => {
    const clock = manualClock()
    const gate = deferred()
    let running = 0
    let most = 0
    let rounds = 0
    start(clock, {
      firstDelayMs: 0,
      round: async () => {
        rounds++
        most = Math.max(most, ++running)
        if (rounds === 1) await gate.promise
        running--
      },
    })

    await clock.advance(10_000)
    expect(rounds).toBe(1)
    expect(clock.pending()).toEqual([])

    gate.resolve()
    await clock.advance(0)
    expect(clock.pending()).toEqual([1_000])
    await clock.advance(1_000)
    expect(rounds).toBe(2)
    expect(most).toBe(1)
  })

  test('a round that asks for more runs the next one at once', async () => {
    const clock = manualClock()
    const batches = [true, true, false]
    let rounds = 0
    start(clock, { firstDelayMs: 0, round: async () => batches[rounds++] ?? false })

    await clock.advance(0)
    expect(rounds).toBe(3)
    expect(clock.pending()).toEqual([1_000])
  })

  test('failures back off, doubling up to the ceiling; a success restores the interval', async () => {
    const clock = manualClock()
    const errors = vi.spyOn(log, 'error').mockImplementation(() => {})
    let failing = 5
    start(clock, {
      firstDelayMs: 0,
      maxBackoffMs: 10_000,
      round: async () => {
        if (failing-- > 0) throw new Error('boom')
      },
    })

    const pauses: number[] = []
    for (let i = 0; i < 6; i++) {
      await clock.advance(0)
      pauses.push(clock.pending()[0]!)
      await clock.advance(pauses.at(-1)!)
    }
    expect(pauses).toEqual([2_000, 4_000, 8_000, 10_000, 10_000, 1_000])
    expect(errors).toHaveBeenCalledTimes(5)
    expect(errors).toHaveBeenLastCalledWith('test worker round failed', { failures: 5, error: 'boom' })
  })

  test('an error that onError reports is not logged again; rounds are skipped while when() is false', async () => {
    const clock = manualClock()
    const errors = vi.spyOn(log, 'error').mockImplementation(() => {})
    let up = false
    let rounds = 0
    const reported: unknown[] = []
    start(clock, {
      firstDelayMs: 0,
      when: () => up,
      onError: (error) => reported.push(error),
      round: async () => {
        rounds++
        throw new Error('database gone')
      },
    })

    await clock.advance(5_000)
    expect(rounds).toBe(0)
    up = true
    await clock.advance(1_000)
    expect(rounds).toBe(1)
    expect(reported).toHaveLength(1)
    expect(errors).not.toHaveBeenCalled()
  })

  test('stop() cancels the next round, waits for the one in flight, then runs onStop', async () => {
    const clock = manualClock()
    const gate = deferred()
    const events: string[] = []
    const worker = start(clock, {
      firstDelayMs: 0,
      round: async () => {
        events.push('round')
        await gate.promise
        events.push('round done')
      },
      onStop: () => void events.push('onStop'),
    })
    await clock.advance(0)

    const stopping = worker.stop().then(() => events.push('stopped'))
    await clock.advance(0)
    expect(events).toEqual(['round'])
    gate.resolve()
    await stopping
    expect(events).toEqual(['round', 'round done', 'onStop', 'stopped'])
    expect(clock.pending()).toEqual([])
    await clock.advance(60_000)
    expect(events.filter((e) => e === 'round')).toHaveLength(1)
    await worker.stop()
    expect(events.filter((e) => e === 'onStop')).toHaveLength(1)
  })

  test('stop() between rounds cancels the timer: no round runs after it', async () => {
    const clock = manualClock()
    let rounds = 0
    const worker = start(clock, { firstDelayMs: 500, round: async () => void rounds++ })
    await worker.stop()
    expect(clock.pending()).toEqual([])
    await clock.advance(10_000)
    expect(rounds).toBe(0)
  })
})

describe('nextPollDelay', () => {
  test('jitter moves the pause at most that fraction of the interval either way', () => {
    const options = { intervalMs: 1_000, jitter: 0.2 }
    expect(nextPollDelay(options, 0, () => 0)).toBe(800)
    expect(nextPollDelay(options, 0, () => 0.5)).toBe(1_000)
    expect(nextPollDelay(options, 0, () => 1)).toBe(1_200)
  })

  test('the default ceiling is 16 intervals, at most 5 minutes, never below the interval', () => {
    const fixed = () => 0.5
    expect(nextPollDelay({ intervalMs: 2_000 }, 10, fixed)).toBe(32_000)
    expect(nextPollDelay({ intervalMs: 60_000 }, 10, fixed)).toBe(300_000)
    expect(nextPollDelay({ intervalMs: 600_000 }, 3, fixed)).toBe(600_000)
  })
})
