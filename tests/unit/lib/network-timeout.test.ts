import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  TimeoutError,
  isMobileUserAgent,
  isTimeoutError,
  signInTimeoutMs,
  timeoutSignal,
  withTimeout,
} from '#app/lib/network-timeout'

const UA = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  androidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
}

describe('isMobileUserAgent and signInTimeoutMs', () => {
  it.each([UA.iPhone, UA.iPad, UA.androidPhone, UA.androidTablet, UA.firefoxAndroid])(
    'gives the mobile 60 s to %s',
    (ua) => {
      expect(isMobileUserAgent(ua)).toBe(true)
      expect(signInTimeoutMs(ua)).toBe(60_000)
    },
  )

  it.each([UA.windowsChrome, UA.macSafari, UA.linuxFirefox, UA.edge, '', 'curl/8.5.0'])(
    'gives the desktop 30 s to "%s"',
    (ua) => {
      expect(isMobileUserAgent(ua)).toBe(false)
      expect(signInTimeoutMs(ua)).toBe(30_000)
    },
  )

  it('treats a missing user agent as desktop', () => {
    expect(signInTimeoutMs(null)).toBe(30_000)
    expect(signInTimeoutMs(undefined)).toBe(30_000)
  })
})

describe('timeouts', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('TimeoutError carries the auth/timeout code', () => {
    const error = new TimeoutError(30_000)
    expect(error).toBeInstanceOf(Error)
    expect(error.code).toBe('auth/timeout')
    expect(error.timeoutMs).toBe(30_000)
    expect(isTimeoutError(error)).toBe(true)
    expect(isTimeoutError(Object.assign(new Error('x'), { code: 'auth/timeout' }))).toBe(true)
    expect(isTimeoutError(new Error('x'))).toBe(false)
    expect(isTimeoutError({ code: 'auth/timeout' })).toBe(false)
  })

  it('timeoutSignal aborts exactly at the timeout with a TimeoutError', () => {
    const { signal } = timeoutSignal(30_000)
    vi.advanceTimersByTime(29_999)
    expect(signal.aborted).toBe(false)
    vi.advanceTimersByTime(1)
    expect(signal.aborted).toBe(true)
    expect(isTimeoutError(signal.reason)).toBe(true)
  })

  it('timeoutSignal.clear() stops the timer', () => {
    const { signal, clear } = timeoutSignal(30_000)
    clear()
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(60_000)
    expect(signal.aborted).toBe(false)
  })

  it.each([30_000, 60_000])(
    'withTimeout rejects a promise still pending after %i ms, not before',
    async (ms) => {
      const outcome = vi.fn()
      withTimeout(new Promise(() => {}), ms).then(outcome, outcome)
      await vi.advanceTimersByTimeAsync(ms - 1)
      expect(outcome).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(1)
      expect(outcome).toHaveBeenCalledTimes(1)
      const error = outcome.mock.calls[0][0]
      expect(error).toBeInstanceOf(TimeoutError)
      expect(error.code).toBe('auth/timeout')
    },
  )

  it('withTimeout resolves an earlier answer and leaves no timer behind', async () => {
    const result = withTimeout(new Promise((resolve) => setTimeout(() => resolve('done'), 10_000)), 30_000)
    await vi.advanceTimersByTimeAsync(10_000)
    await expect(result).resolves.toBe('done')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('withTimeout passes an earlier failure through', async () => {
    const error = new Error('auth/wrong-password')
    await expect(withTimeout(Promise.reject(error), 30_000)).rejects.toBe(error)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('withTimeout aborts the work it started and reports the timeout, not the abort', async () => {
    let seen: AbortSignal | undefined
    const result = withTimeout((signal) => {
      seen = signal
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )
    }, 60_000)
    const settled = expect(result).rejects.toMatchObject({ code: 'auth/timeout' })
    await vi.advanceTimersByTimeAsync(60_000)
    await settled
    expect(seen?.aborted).toBe(true)
  })

  it('withTimeout rejects when the work throws synchronously, leaving no timer', async () => {
    const error = new Error('boom')
    await expect(
      withTimeout(() => {
        throw error
      }, 30_000),
    ).rejects.toBe(error)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('uses injected timers when given', () => {
    const setTimeout = vi.fn(() => 7)
    const clearTimeout = vi.fn()
    const { clear } = timeoutSignal(5, { setTimeout, clearTimeout })
    expect(setTimeout).toHaveBeenCalledWith(expect.any(Function), 5)
    clear()
    expect(clearTimeout).toHaveBeenCalledWith(7)
  })
})
