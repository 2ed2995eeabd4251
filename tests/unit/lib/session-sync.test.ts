import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  MAX_TIMER_DELAY_MS,
  SESSION_CHANNEL,
  SESSION_ENDPOINT,
  SessionSync,
  refreshDelay,
  retryDelay,
  type AuthMessage,
  type ChannelLike,
  type SessionSyncDeps,
  type SessionUser,
} from '#app/lib/session-sync'

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0)
const MIN = 60_000
const HOUR = 60 * MIN

const USER: SessionUser = {
  uid: 'u-1',
  email: 'ada@example.com',
  emailVerified: true,
  displayName: 'Ada',
  photoURL: null,
  phoneNumber: null,
  providerData: [{ providerId: 'password', uid: 'ada@example.com' }],
}

describe('refreshDelay', () => {
  it('plans the refresh 5 minutes before expiry', () => {
    expect(refreshDelay(T0 + HOUR, T0)).toBe(55 * MIN)
    expect(refreshDelay(T0 + HOUR, T0, 10 * MIN)).toBe(50 * MIN)
  })

  it('is 0 for a token already inside the lead time or expired', () => {
    expect(refreshDelay(T0 + 5 * MIN, T0)).toBe(0)
    expect(refreshDelay(T0 + MIN, T0)).toBe(0)
    expect(refreshDelay(T0 - HOUR, T0)).toBe(0)
    expect(refreshDelay(Number.NaN, T0)).toBe(0)
  })

  it('stays within what setTimeout can wait', () => {
    expect(refreshDelay(T0 + 365 * 24 * HOUR, T0)).toBe(MAX_TIMER_DELAY_MS)
  })

  it('is never negative and is exactly expiry - lead - now otherwise', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 42 }),
        fc.integer({ min: 0, max: 2 ** 42 }),
        (expiresAt, now) => {
          const delay = refreshDelay(expiresAt, now)
          expect(delay).toBeGreaterThanOrEqual(0)
          const exact = expiresAt - 5 * MIN - now
          expect(delay).toBe(Math.min(Math.max(0, exact), MAX_TIMER_DELAY_MS))
        },
      ),
    )
  })
})

describe('retryDelay', () => {
  it('starts at 30 s, doubles, and stops at 16 min', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 100].map(retryDelay)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000, 960_000,
    ])
  })

  it('treats odd input sensibly', () => {
    expect(retryDelay(-3)).toBe(30_000)
    expect(retryDelay(1.7)).toBe(60_000)
    expect(retryDelay(Number.MAX_SAFE_INTEGER)).toBe(960_000)
  })
})

/** An in-memory BroadcastChannel: a message reaches every other open channel of the name, not its sender. */
function createBus() {
  const channels = new Set<FakeChannel>()
  class FakeChannel implements ChannelLike {
    listeners = new Set<(event: MessageEvent) => void>()
    closed = false
    posted: AuthMessage[] = []
    constructor(useOnMessage = false) {
      channels.add(this)
      if (useOnMessage) delete (this as Partial<FakeChannel>).addEventListener
    }
    onmessage: ((event: MessageEvent) => void) | null = null
    postMessage(message: AuthMessage) {
      if (this.closed) throw new DOMException('closed', 'InvalidStateError')
      this.posted.push(message)
      for (const other of channels) if (other !== this) other.deliver(message)
    }
    deliver(data: unknown) {
      if (this.closed) return
      const event = { data } as MessageEvent
      for (const listener of this.listeners) listener(event)
      this.onmessage?.(event)
    }
    addEventListener = (_type: 'message', listener: (event: MessageEvent) => void) => {
      this.listeners.add(listener)
    }
    removeEventListener(_type: 'message', listener: (event: MessageEvent) => void) {
      this.listeners.delete(listener)
    }
    close() {
      this.closed = true
      channels.delete(this)
    }
  }
  return { open: (useOnMessage = false) => new FakeChannel(useOnMessage), channels }
}

type Reply = Response | Error | (() => Promise<Response>)

function ok(token: string, expiresAt: number | null, user: SessionUser | null = USER) {
  return new Response(JSON.stringify({ user, token, expiresAt }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })
}

function status(code: number, body: unknown = { code: 'auth/session-expired', message: 'Session expired' }) {
  return new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } })
}

/**
 * A SessionSync on fake timers with a scripted server: `replies` are answered in order, and once
 * they run out `fallback` answers every further call.
 */
function setup(
  options: {
    replies?: Reply[]
    fallback?: () => Reply
    channel?: ChannelLike | null
  } & Partial<SessionSyncDeps> = {},
) {
  const replies = [...(options.replies ?? [])]
  const requests: Array<{ url: string; init: RequestInit; token: string }> = []
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    requests.push({ url, init, token: (JSON.parse(String(init.body)) as { token: string }).token })
    const next = replies.length > 0 ? replies.shift()! : options.fallback?.()
    if (next === undefined) throw new Error('unexpected call')
    if (next instanceof Error) throw next
    return typeof next === 'function' ? next() : next
  })
  const onSignedOut = vi.fn()
  const onUserChange = vi.fn()
  const sync = new SessionSync({
    fetch,
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    onSignedOut,
    onUserChange,
    ...options,
    channel: options.channel ?? null,
  })
  return { sync, fetch, requests, onSignedOut, onUserChange }
}

const networkDown = () => new TypeError('Failed to fetch')

beforeEach(() => {
  vi.useFakeTimers({ now: T0 })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('SessionSync start-up', () => {
  it('calls the endpoint once at start-up with the token, as same-origin JSON', async () => {
    const { sync, fetch, requests } = setup({ replies: [ok('t2', T0 + HOUR)] })
    await expect(sync.start('t1', T0 + HOUR)).resolves.toBe('ok')
    expect(fetch).toHaveBeenCalledTimes(1)
    const [{ url, init, token }] = requests
    expect(url).toBe(SESSION_ENDPOINT)
    expect(url).toBe('/api/__session')
    expect(token).toBe('t1')
    expect(JSON.parse(String(init.body))).toEqual({ token: 't1' })
    expect(init.method).toBe('POST')
    expect(init.credentials).toBe('same-origin')
    expect(new Headers(init.headers).get('content-type')).toBe('application/json')
  })

  it('does nothing without a token', async () => {
    const { sync, fetch } = setup()
    expect(sync.start(null, null)).toBeUndefined()
    expect(sync.start('', null)).toBeUndefined()
    await vi.advanceTimersByTimeAsync(24 * HOUR)
    expect(fetch).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('starts only once', async () => {
    const { sync, fetch } = setup({ replies: [ok('t2', T0 + HOUR)] })
    await sync.start('t1', T0 + HOUR)
    expect(sync.start('t1', T0 + HOUR)).toBeUndefined()
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('uses a custom endpoint when given', async () => {
    const { sync, requests } = setup({ replies: [ok('t2', T0 + HOUR)], endpoint: '/base/api/__session' })
    await sync.start('t1', null)
    expect(requests[0].url).toBe('/base/api/__session')
  })
})

describe('SessionSync refresh', () => {
  it('refreshes exactly 5 minutes before the answered expiry, with the answered token', async () => {
    const { sync, fetch, requests } = setup({ replies: [ok('t2', T0 + HOUR), ok('t3', T0 + 2 * HOUR)] })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(55 * MIN - 1)
    expect(fetch).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(requests[1].token).toBe('t2')
  })

  it('keeps refreshing on each new expiry', async () => {
    const { sync, requests } = setup({
      replies: [ok('t2', T0 + HOUR), ok('t3', T0 + 2 * HOUR), ok('t4', T0 + 3 * HOUR)],
    })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(55 * MIN)
    expect(requests.map((r) => r.token)).toEqual(['t1', 't2'])
    await vi.advanceTimersByTimeAsync(HOUR - 1)
    expect(requests).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(requests.map((r) => r.token)).toEqual(['t1', 't2', 't3'])
  })

  it('refreshes at once when the answered token is already inside the lead time', async () => {
    const { sync, fetch } = setup({ replies: [ok('t2', T0 + 2 * MIN), ok('t3', T0 + HOUR)] })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(0)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('plans nothing when the answer has no expiry', async () => {
    const { sync } = setup({ replies: [ok('t2', null)] })
    await sync.start('t1', T0 + HOUR)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('retries a failing start-up call after 30 s, 60 s, 120 s … capped at 960 s', async () => {
    const { sync, fetch } = setup({ fallback: networkDown })
    await expect(sync.start('t1', T0 + HOUR)).resolves.toBe('failed')
    expect(fetch).toHaveBeenCalledTimes(1)
    const delays = [30, 60, 120, 240, 480, 960, 960, 960].map((s) => s * 1000)
    for (const [i, delay] of delays.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1)
      expect(fetch, `before retry ${i + 1}`).toHaveBeenCalledTimes(i + 1)
      await vi.advanceTimersByTimeAsync(1)
      expect(fetch, `at retry ${i + 1}`).toHaveBeenCalledTimes(i + 2)
    }
    expect(vi.getTimerCount()).toBe(1)
  })

  it.each([500, 502, 503, 504, 429, 400])('retries after a %i answer', async (code) => {
    const { sync, fetch, onSignedOut } = setup({ replies: [status(code), ok('t2', T0 + HOUR)] })
    await expect(sync.start('t1', T0 + HOUR)).resolves.toBe('failed')
    await vi.advanceTimersByTimeAsync(30_000)
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(onSignedOut).not.toHaveBeenCalled()
  })

  it('retries after an answer it cannot read', async () => {
    const { sync, fetch } = setup({
      replies: [new Response('<html>', { status: 200 }), status(200, { user: 'nope' }), ok('t2', T0 + HOUR)],
    })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(30_000)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(fetch).toHaveBeenCalledTimes(3)
  })

  it('retries a failing refresh with the same token, and starts the backoff over after a success', async () => {
    const { sync, requests } = setup({
      replies: [ok('t2', T0 + HOUR), networkDown(), status(503), ok('t3', T0 + 2 * HOUR), networkDown()],
      fallback: () => ok('t4', T0 + 3 * HOUR),
    })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(55 * MIN) // refresh fails
    await vi.advanceTimersByTimeAsync(30_000) // retry 1: 503
    await vi.advanceTimersByTimeAsync(60_000) // retry 2: ok, t3
    expect(requests.map((r) => r.token)).toEqual(['t1', 't2', 't2', 't2'])
    const t3RefreshAt = T0 + 2 * HOUR - 5 * MIN
    await vi.advanceTimersByTimeAsync(t3RefreshAt - Date.now()) // refresh of t3 fails
    expect(requests).toHaveLength(5)
    await vi.advanceTimersByTimeAsync(30_000 - 1)
    expect(requests).toHaveLength(5)
    await vi.advanceTimersByTimeAsync(1) // back to a 30 s wait
    expect(requests.map((r) => r.token)).toEqual(['t1', 't2', 't2', 't2', 't3', 't3'])
  })
})

describe('SessionSync when the session is gone', () => {
  it('on a 401 at start-up, calls onSignedOut once and never calls again', async () => {
    const channel = createBus().open()
    const { sync, fetch, onSignedOut } = setup({
      replies: [status(401)],
      fallback: () => ok('x', T0 + HOUR),
      channel,
    })
    await expect(sync.start('t1', T0 + HOUR)).resolves.toBe('unauthorized')
    expect(onSignedOut).toHaveBeenCalledTimes(1)
    expect(vi.getTimerCount()).toBe(0)
    expect(channel.closed).toBe(true)
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(sync.notifySignedIn('t9', T0 + HOUR)).toBeUndefined()
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('on a 401 at a refresh, does the same', async () => {
    const { sync, fetch, onSignedOut } = setup({ replies: [ok('t2', T0 + HOUR), status(401)] })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(55 * MIN)
    expect(onSignedOut).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('on a 401 during the retries, does the same', async () => {
    const { sync, fetch, onSignedOut } = setup({ replies: [networkDown(), status(503), status(401)] })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(30_000 + 60_000)
    expect(onSignedOut).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(fetch).toHaveBeenCalledTimes(3)
  })

  it('treats a 200 without a user for a real token as signed out', async () => {
    const { sync, onSignedOut } = setup({ replies: [ok('', null, null)] })
    await expect(sync.start('t1', T0 + HOUR)).resolves.toBe('unauthorized')
    expect(onSignedOut).toHaveBeenCalledTimes(1)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('SessionSync sign-in state changes in this tab', () => {
  it('notifySignedIn calls the endpoint with the new token, plans its refresh and tells other tabs', async () => {
    const bus = createBus()
    const here = bus.open()
    const there = bus.open()
    const received: unknown[] = []
    there.addEventListener('message', (event) => received.push(event.data))
    const { sync, requests } = setup({ replies: [ok('t2', T0 + HOUR)], channel: here })
    sync.start(null, null)
    await expect(sync.notifySignedIn('fresh', T0 + HOUR)).resolves.toBe('ok')
    expect(requests.map((r) => r.token)).toEqual(['fresh'])
    expect(received).toEqual([{ type: 'signed-in' }])
    expect(here.posted).toEqual([{ type: 'signed-in' }])
    expect(vi.getTimerCount()).toBe(1)
  })

  it('notifySignedOut posts an empty token, stops refreshing, tells other tabs and does not call onSignedOut', async () => {
    const bus = createBus()
    const here = bus.open()
    const there = bus.open()
    const received: unknown[] = []
    there.addEventListener('message', (event) => received.push(event.data))
    const { sync, requests, onSignedOut } = setup({
      replies: [ok('t2', T0 + HOUR), status(200, { user: null, token: null, expiresAt: null })],
      channel: here,
    })
    await sync.start('t1', T0 + HOUR)
    await expect(sync.notifySignedOut()).resolves.toBe('signed-out')
    expect(requests.map((r) => r.token)).toEqual(['t1', ''])
    expect(received).toEqual([{ type: 'signed-out' }])
    expect(onSignedOut).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(requests).toHaveLength(2)
  })

  it('does not retry a failed sign-out call, nor call onSignedOut on its 401', async () => {
    const { sync, fetch, onSignedOut } = setup({ replies: [networkDown(), status(401)] })
    sync.start(null, null)
    await expect(sync.notifySignedOut()).resolves.toBe('failed')
    await expect(sync.notifySignedOut()).resolves.toBe('signed-out')
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(onSignedOut).not.toHaveBeenCalled()
  })

  it('drops the answer of a call that a newer one superseded, and aborts it', async () => {
    let release: (response: Response) => void = () => {}
    const slow = () => new Promise<Response>((resolve) => (release = resolve))
    const { sync, requests, onSignedOut } = setup({ replies: [slow, ok('t-new', T0 + 2 * HOUR)] })
    const first = sync.start('old', T0 + HOUR)
    const second = sync.notifySignedIn('new', T0 + 2 * HOUR)
    expect(requests[0].init.signal?.aborted).toBe(true)
    release(status(401))
    await expect(first).resolves.toBe('superseded')
    await expect(second).resolves.toBe('ok')
    expect(onSignedOut).not.toHaveBeenCalled()
    // The refresh follows the newer answer: t-new expires in two hours.
    await vi.advanceTimersByTimeAsync(HOUR)
    expect(requests).toHaveLength(2)
  })

  it('setToken adopts a newer token and re-plans the refresh without calling the server', async () => {
    const { sync, requests } = setup({
      replies: [ok('t2', T0 + HOUR)],
      fallback: () => ok('t4', T0 + 3 * HOUR),
    })
    await sync.start('t1', T0 + HOUR)
    sync.setToken('t3', T0 + 2 * HOUR)
    expect(requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(55 * MIN)
    expect(requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(HOUR)
    expect(requests.map((r) => r.token)).toEqual(['t1', 't3'])
  })

  it('setToken with the same token changes nothing, and with no token stops refreshing', async () => {
    const { sync, requests } = setup({ replies: [ok('t2', T0 + HOUR)] })
    await sync.start('t1', T0 + HOUR)
    sync.setToken('t2', T0 + HOUR)
    expect(vi.getTimerCount()).toBe(1)
    sync.setToken(null, null)
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(requests).toHaveLength(1)
  })
})

describe('SessionSync across tabs', () => {
  it('hands another tab’s sign-in and sign-out to onRemoteChange', async () => {
    const bus = createBus()
    const onRemoteChange = vi.fn()
    const { sync, onSignedOut } = setup({ channel: bus.open(), onRemoteChange })
    sync.start(null, null)
    const other = bus.open()
    other.postMessage({ type: 'signed-in' })
    other.postMessage({ type: 'signed-out' })
    expect(onRemoteChange.mock.calls).toEqual([['signed-in'], ['signed-out']])
    expect(onSignedOut).not.toHaveBeenCalled()
  })

  it('without onRemoteChange, a remote sign-out calls onSignedOut and ends the refresh', async () => {
    const bus = createBus()
    const { sync, fetch, onSignedOut } = setup({ replies: [ok('t2', T0 + HOUR)], channel: bus.open() })
    await sync.start('t1', T0 + HOUR)
    bus.open().postMessage({ type: 'signed-out' })
    expect(onSignedOut).toHaveBeenCalledTimes(1)
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('without onRemoteChange, a remote sign-in changes nothing here', async () => {
    const bus = createBus()
    const { sync, onSignedOut } = setup({ replies: [ok('t2', T0 + HOUR)], channel: bus.open() })
    await sync.start('t1', T0 + HOUR)
    bus.open().postMessage({ type: 'signed-in' })
    expect(onSignedOut).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(1)
  })

  it('ignores messages that are not ours', async () => {
    const bus = createBus()
    const onRemoteChange = vi.fn()
    const channel = bus.open()
    const { sync } = setup({ channel, onRemoteChange })
    sync.start(null, null)
    for (const data of [null, 'signed-out', { type: 'signed-up' }, { kind: 'signed-in' }, 42])
      channel.deliver(data)
    expect(onRemoteChange).not.toHaveBeenCalled()
  })

  it('works with an onmessage-only channel', async () => {
    const bus = createBus()
    const channel = bus.open(true)
    const onRemoteChange = vi.fn()
    const { sync } = setup({ channel, onRemoteChange })
    sync.start(null, null)
    expect(channel.onmessage).toBeTypeOf('function')
    bus.open().postMessage({ type: 'signed-out' })
    expect(onRemoteChange).toHaveBeenCalledWith('signed-out')
    sync.stop()
    expect(channel.onmessage).toBeNull()
  })

  it('survives posting on a channel that is already closed', async () => {
    const channel = createBus().open()
    channel.close()
    const { sync, requests } = setup({ replies: [ok('t2', T0 + HOUR)], channel })
    sync.start(null, null)
    await expect(sync.notifySignedIn('t1', T0 + HOUR)).resolves.toBe('ok')
    expect(requests).toHaveLength(1)
  })

  it('accepts a real BroadcastChannel', () => {
    const channel: ChannelLike = new BroadcastChannel(SESSION_CHANNEL)
    const { sync } = setup({ channel })
    sync.start(null, null)
    sync.stop()
    expect(SESSION_CHANNEL).toBe('panorama-auth')
  })
})

describe('SessionSync.stop', () => {
  it('clears the refresh timer, closes the channel and ignores later messages', async () => {
    const bus = createBus()
    const channel = bus.open()
    const onRemoteChange = vi.fn()
    const { sync, fetch } = setup({ replies: [ok('t2', T0 + HOUR)], channel, onRemoteChange })
    await sync.start('t1', T0 + HOUR)
    expect(vi.getTimerCount()).toBe(1)
    sync.stop()
    expect(vi.getTimerCount()).toBe(0)
    expect(channel.closed).toBe(true)
    expect(channel.listeners.size).toBe(0)
    channel.deliver({ type: 'signed-out' })
    expect(onRemoteChange).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(fetch).toHaveBeenCalledTimes(1)
    sync.stop()
  })

  it('clears a pending retry', async () => {
    const { sync, fetch } = setup({ fallback: networkDown })
    await sync.start('t1', T0 + HOUR)
    expect(vi.getTimerCount()).toBe(1)
    sync.stop()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(48 * HOUR)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('aborts a call in flight and ignores its answer', async () => {
    let release: (response: Response) => void = () => {}
    const { sync, requests, onSignedOut } = setup({
      replies: [() => new Promise<Response>((resolve) => (release = resolve))],
    })
    const pending = sync.start('t1', T0 + HOUR)
    sync.stop()
    expect(requests[0].init.signal?.aborted).toBe(true)
    release(status(401))
    await expect(pending).resolves.toBe('superseded')
    expect(onSignedOut).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('SessionSync.onUserChange', () => {
  it('is told when a refresh answers a different user, not on the first answer nor an unchanged one', async () => {
    const verified = { ...USER, displayName: 'Ada L.' }
    const { sync, onUserChange } = setup({
      replies: [ok('t2', T0 + HOUR), ok('t3', T0 + 2 * HOUR), ok('t4', T0 + 3 * HOUR, verified)],
    })
    await sync.start('t1', T0 + HOUR)
    await vi.advanceTimersByTimeAsync(55 * MIN)
    expect(onUserChange).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(HOUR)
    expect(onUserChange).toHaveBeenCalledExactlyOnceWith(verified)
  })

  it('starts a new baseline after a sign-in in this tab', async () => {
    const other = { ...USER, uid: 'u-2', email: 'bo@example.com' }
    const { sync, onUserChange } = setup({ replies: [ok('t2', T0 + HOUR), ok('t3', T0 + HOUR, other)] })
    await sync.start('t1', T0 + HOUR)
    await sync.notifySignedIn('bo-token', T0 + HOUR)
    expect(onUserChange).not.toHaveBeenCalled()
  })
})
