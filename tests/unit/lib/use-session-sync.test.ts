import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AuthMessage, ChannelLike } from '#app/lib/session-sync'
import {
  createBrowserSessionSync,
  nextSyncStep,
  signInPath,
  type BrowserLike,
} from '#app/lib/use-session-sync'

// No DOM in the unit suite: the hook's decisions live in plain functions tested here; its wiring to
// React is exercised by the end-to-end tests.

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0)

function fakeWindow(channelFactory?: (name: string) => ChannelLike) {
  const fetch = vi.fn(
    async (_input: string, _init: RequestInit) =>
      new Response(JSON.stringify({ user: { uid: 'u-1' }, token: 't2', expiresAt: T0 + 3_600_000 }), {
        status: 200,
      }),
  )
  const names: string[] = []
  const win: BrowserLike = {
    fetch,
    setTimeout: (callback, ms) => setTimeout(callback, ms) as unknown as number,
    clearTimeout: (handle) => clearTimeout(handle),
    location: { assign: vi.fn(), reload: vi.fn(), pathname: '/user', search: '' },
    BroadcastChannel: channelFactory
      ? (function (this: unknown, name: string) {
          names.push(name)
          return channelFactory(name)
        } as unknown as new (name: string) => ChannelLike)
      : undefined,
  }
  return { win, fetch, names }
}

function fakeChannel() {
  const posted: AuthMessage[] = []
  let listener: ((event: MessageEvent) => void) | undefined
  const channel: ChannelLike = {
    postMessage: (message) => void posted.push(message),
    addEventListener: (_type, l) => void (listener = l),
    removeEventListener: () => void (listener = undefined),
    close: vi.fn(),
  }
  return { channel, posted, receive: (data: unknown) => listener?.({ data } as MessageEvent) }
}

describe('createBrowserSessionSync', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('uses the window’s fetch and timers, and opens the panorama-auth channel', async () => {
    const { channel, posted, receive } = fakeChannel()
    const { win, fetch, names } = fakeWindow(() => channel)
    const onRemoteChange = vi.fn()
    const sync = createBrowserSessionSync(win, { onSignedOut: vi.fn(), onRemoteChange })
    await sync.start('t1', T0 + 3_600_000)
    expect(names).toEqual(['panorama-auth'])
    expect(fetch).toHaveBeenCalledWith('/api/__session', expect.objectContaining({ method: 'POST' }))
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(55 * 60_000)
    expect(fetch).toHaveBeenCalledTimes(2)
    receive({ type: 'signed-in' })
    expect(onRemoteChange).toHaveBeenCalledWith('signed-in')
    await sync.notifySignedOut()
    expect(posted).toEqual([{ type: 'signed-out' }])
    sync.stop()
    expect(channel.close).toHaveBeenCalled()
  })

  it('works without BroadcastChannel, and when opening one throws', async () => {
    for (const factory of [
      undefined,
      () => {
        throw new DOMException('denied', 'SecurityError')
      },
    ]) {
      const { win, fetch } = fakeWindow(factory)
      const sync = createBrowserSessionSync(win, { onSignedOut: vi.fn() })
      await expect(sync.start('t1', T0 + 3_600_000)).resolves.toBe('ok')
      await expect(sync.notifySignedIn('t3', T0 + 3_600_000)).resolves.toBe('ok')
      expect(fetch).toHaveBeenCalledTimes(2)
      sync.stop()
    }
  })
})

describe('signInPath', () => {
  it('brings the user back to where the session ended', () => {
    expect(signInPath({ pathname: '/user/response-r1', search: '?tab=chart' })).toBe(
      '/sign-in?redirectTo=%2Fuser%2Fresponse-r1%3Ftab%3Dchart',
    )
  })

  it('does not bother for the home page or the sign-in page itself', () => {
    expect(signInPath({ pathname: '/', search: '' })).toBe('/sign-in')
    expect(signInPath({ pathname: '/sign-in', search: '?redirectTo=%2Fuser' })).toBe('/sign-in')
  })
})

describe('nextSyncStep', () => {
  it('adopts a fresher token for the same user', () => {
    expect(nextSyncStep({ previousUserId: 'u1', userId: 'u1', token: 't2', remoteChange: false })).toBe(
      'adopt',
    )
    expect(nextSyncStep({ previousUserId: null, userId: null, token: null, remoteChange: false })).toBe(
      'adopt',
    )
  })

  it('announces a sign-in or a user switch in this tab', () => {
    expect(nextSyncStep({ previousUserId: null, userId: 'u1', token: 't1', remoteChange: false })).toBe(
      'signed-in',
    )
    expect(nextSyncStep({ previousUserId: 'u1', userId: 'u2', token: 't1', remoteChange: false })).toBe(
      'signed-in',
    )
  })

  it('announces a sign-out in this tab', () => {
    expect(nextSyncStep({ previousUserId: 'u1', userId: null, token: null, remoteChange: false })).toBe(
      'signed-out',
    )
  })

  it('does not echo a change that came from another tab', () => {
    expect(nextSyncStep({ previousUserId: null, userId: 'u1', token: 't1', remoteChange: true })).toBe(
      'adopt',
    )
    expect(nextSyncStep({ previousUserId: 'u1', userId: null, token: null, remoteChange: true })).toBe(
      'adopt',
    )
  })

  it('has nothing to announce for a user without a token', () => {
    expect(nextSyncStep({ previousUserId: null, userId: 'u1', token: null, remoteChange: false })).toBe(
      'adopt',
    )
  })
})
