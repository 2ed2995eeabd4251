import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  RELOAD_STORAGE_KEY,
  createReloadGuard,
  installReloadGuard,
  isChunkLoadError,
} from '#app/lib/reload-guard'

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  }
}

function clock(start = 1_700_000_000_000) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('isChunkLoadError', () => {
  it.each([
    'Failed to fetch dynamically imported module: https://panorama.example.com/assets/route-abc123.js',
    'error loading dynamically imported module: https://panorama.example.com/assets/route-abc123.js',
    'Importing a module script failed.',
    'Failed to load module script: Expected a JavaScript module script but the server responded with a MIME type of "text/html".',
    'Unable to preload CSS for /assets/root-abc123.css',
    'Failed to load manifest',
    'Failed to fetch manifest patches',
    'Unable to discover routes due to manifest version mismatch.',
    'Loading chunk 42 failed.',
    'Loading CSS chunk vendors-main failed.',
  ])('recognises "%s"', (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true)
    expect(isChunkLoadError(message)).toBe(true)
  })

  it('recognises an error named ChunkLoadError and plain objects with a message', () => {
    expect(isChunkLoadError(Object.assign(new Error('x'), { name: 'ChunkLoadError' }))).toBe(true)
    expect(isChunkLoadError({ message: 'Importing a module script failed.' })).toBe(true)
  })

  it.each([
    new TypeError('Failed to fetch'),
    new Error('Cannot read properties of undefined'),
    new Error('Load failed'),
    'oops',
    { message: 42 },
    null,
    undefined,
    0,
  ])('rejects %j', (value) => {
    expect(isChunkLoadError(value)).toBe(false)
  })
})

describe('createReloadGuard', () => {
  it('reloads the first time and records when', () => {
    const storage = memoryStorage()
    const { now } = clock()
    const reload = vi.fn()
    expect(createReloadGuard({ storage, now, reload }).tryReload()).toBe(true)
    expect(reload).toHaveBeenCalledTimes(1)
    expect(storage.items.get(RELOAD_STORAGE_KEY)).toBe(String(now()))
  })

  it('does not reload again within 10 s, does at 10 s', () => {
    const storage = memoryStorage()
    const c = clock()
    const reload = vi.fn()
    const guard = createReloadGuard({ storage, now: c.now, reload })
    expect(guard.tryReload()).toBe(true)
    c.advance(9_999)
    expect(guard.tryReload()).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)
    c.advance(1)
    expect(guard.tryReload()).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)
  })

  it('remembers across page loads through the shared storage', () => {
    const storage = memoryStorage()
    const c = clock()
    const firstPage = vi.fn()
    const secondPage = vi.fn()
    createReloadGuard({ storage, now: c.now, reload: firstPage }).tryReload()
    c.advance(2_000)
    expect(createReloadGuard({ storage, now: c.now, reload: secondPage }).tryReload()).toBe(false)
    expect(secondPage).not.toHaveBeenCalled()
  })

  it('honours a custom window', () => {
    const storage = memoryStorage()
    const c = clock()
    const reload = vi.fn()
    const guard = createReloadGuard({ storage, now: c.now, reload, windowMs: 60_000 })
    guard.tryReload()
    c.advance(30_000)
    expect(guard.tryReload()).toBe(false)
    c.advance(30_000)
    expect(guard.tryReload()).toBe(true)
  })

  it('uses Date.now and a 10 s window by default', () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 })
    try {
      const storage = memoryStorage()
      const reload = vi.fn()
      const guard = createReloadGuard({ storage, reload })
      expect(guard.tryReload()).toBe(true)
      expect(storage.items.get(RELOAD_STORAGE_KEY)).toBe('1700000000000')
      vi.advanceTimersByTime(9_999)
      expect(guard.tryReload()).toBe(false)
      vi.advanceTimersByTime(1)
      expect(guard.tryReload()).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it.each(['garbage', '', '-5', String(1_700_000_000_000 + 60_000)])(
    'reloads when the stored stamp is unusable or in the future ("%s")',
    (stamp) => {
      const storage = memoryStorage({ [RELOAD_STORAGE_KEY]: stamp })
      const reload = vi.fn()
      expect(createReloadGuard({ storage, now: clock().now, reload }).tryReload()).toBe(true)
      expect(reload).toHaveBeenCalledTimes(1)
    },
  )

  it('does not reload (nor throw) when storage cannot be read', () => {
    const reload = vi.fn()
    const storage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError')
      },
      setItem: vi.fn(),
    }
    expect(createReloadGuard({ storage, now: clock().now, reload }).tryReload()).toBe(false)
    expect(reload).not.toHaveBeenCalled()
  })

  it('does not reload (nor throw) when the stamp cannot be written, as the next page could not see it', () => {
    const reload = vi.fn()
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError')
      },
    }
    expect(createReloadGuard({ storage, now: clock().now, reload }).tryReload()).toBe(false)
    expect(reload).not.toHaveBeenCalled()
  })

  it('does not reload without storage', () => {
    const reload = vi.fn()
    expect(createReloadGuard({ storage: null, now: clock().now, reload }).tryReload()).toBe(false)
    expect(reload).not.toHaveBeenCalled()
  })
})

function fakeWindow(storage: ReturnType<typeof memoryStorage> | (() => never) = memoryStorage()) {
  const target = new EventTarget()
  const reload = vi.fn()
  const win = {
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    location: { reload },
    get sessionStorage() {
      return typeof storage === 'function' ? storage() : storage
    },
  }
  const dispatch = (type: string, extra: Record<string, unknown> = {}) => {
    const event = Object.assign(new Event(type, { cancelable: true }), extra)
    target.dispatchEvent(event)
    return event
  }
  return { win, reload, dispatch }
}

describe('installReloadGuard', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reloads on vite:preloadError and cancels the event so Vite does not rethrow', () => {
    const c = clock()
    const { win, reload, dispatch } = fakeWindow()
    installReloadGuard(win, { now: c.now })
    const event = dispatch('vite:preloadError', { payload: new Error('Unable to preload CSS for /a.css') })
    expect(reload).toHaveBeenCalledTimes(1)
    expect(event.defaultPrevented).toBe(true)
  })

  it('lets a second failure within 10 s through to the error page', () => {
    const c = clock()
    const { win, reload, dispatch } = fakeWindow()
    installReloadGuard(win, { now: c.now })
    dispatch('vite:preloadError')
    c.advance(5_000)
    const second = dispatch('vite:preloadError')
    expect(reload).toHaveBeenCalledTimes(1)
    expect(second.defaultPrevented).toBe(false)
    c.advance(5_000)
    dispatch('vite:preloadError')
    expect(reload).toHaveBeenCalledTimes(2)
  })

  it('reloads on an unhandled rejection carrying a chunk error, and only then', () => {
    const c = clock()
    const { win, reload, dispatch } = fakeWindow()
    installReloadGuard(win, { now: c.now })
    const other = dispatch('unhandledrejection', { reason: new Error('Cannot read properties of null') })
    expect(reload).not.toHaveBeenCalled()
    expect(other.defaultPrevented).toBe(false)
    const chunk = dispatch('unhandledrejection', {
      reason: new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'),
    })
    expect(reload).toHaveBeenCalledTimes(1)
    expect(chunk.defaultPrevented).toBe(true)
  })

  it('survives a window whose sessionStorage getter throws, without reloading', () => {
    const { win, reload, dispatch } = fakeWindow(() => {
      throw new DOMException('denied', 'SecurityError')
    })
    expect(() => installReloadGuard(win)).not.toThrow()
    expect(dispatch('vite:preloadError').defaultPrevented).toBe(false)
    expect(reload).not.toHaveBeenCalled()
  })

  it('returns a function that removes its listeners', () => {
    const { win, reload, dispatch } = fakeWindow()
    const uninstall = installReloadGuard(win, { now: clock().now })
    uninstall()
    dispatch('vite:preloadError')
    dispatch('unhandledrejection', { reason: new Error('Importing a module script failed.') })
    expect(reload).not.toHaveBeenCalled()
  })
})
