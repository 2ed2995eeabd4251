import { afterEach, describe, expect, it, vi } from 'vitest'
import { fetchWithHost, hostOf, isFailedFetchError, withHost } from '#app/lib/fetch-error'

const MESSAGES = ['Failed to fetch', 'Load failed', 'NetworkError when attempting to fetch resource.']

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('withHost', () => {
  it.each(MESSAGES)('appends the host to "%s"', (message) => {
    const original = new TypeError(message)
    const result = withHost(original, 'https://api.example.com/v1/things?x=1')
    expect(result).toBeInstanceOf(TypeError)
    expect((result as Error).message).toBe(`${message} (api.example.com)`)
    expect((result as Error).name).toBe('TypeError')
    expect((result as Error).cause).toBe(original)
    expect((result as Error).stack).toContain(`${message} (api.example.com)`)
  })

  it('leaves the original error untouched', () => {
    const original = new TypeError('Failed to fetch')
    withHost(original, 'https://api.example.com/')
    expect(original.message).toBe('Failed to fetch')
  })

  it('keeps a plain Error a plain Error', () => {
    const result = withHost(new Error('Load failed'), 'https://cdn.example.com/a.js')
    expect(result).toBeInstanceOf(Error)
    expect(result).not.toBeInstanceOf(TypeError)
    expect((result as Error).message).toBe('Load failed (cdn.example.com)')
  })

  it('keeps a custom error name', () => {
    const original = Object.assign(new Error('Failed to fetch'), { name: 'NetworkFailure' })
    expect((withHost(original, 'https://api.example.com/') as Error).name).toBe('NetworkFailure')
  })

  it('names the port when there is one, and accepts URL and Request', () => {
    expect((withHost(new TypeError('Failed to fetch'), 'http://localhost:3000/api') as Error).message).toBe(
      'Failed to fetch (localhost:3000)',
    )
    expect(
      (withHost(new TypeError('Failed to fetch'), new URL('https://a.example.org/')) as Error).message,
    ).toBe('Failed to fetch (a.example.org)')
    expect(
      (withHost(new TypeError('Failed to fetch'), new Request('https://b.example.org/x')) as Error).message,
    ).toBe('Failed to fetch (b.example.org)')
  })

  it('resolves a relative URL against the page, as fetch does', () => {
    vi.stubGlobal('location', { href: 'https://panorama.example.com/user' })
    expect((withHost(new TypeError('Failed to fetch'), '/api/__session') as Error).message).toBe(
      'Failed to fetch (panorama.example.com)',
    )
  })

  it('returns the error unchanged when the host cannot be known', () => {
    const error = new TypeError('Failed to fetch')
    // No window.location under Node, so a relative URL has no host.
    expect(withHost(error, '/api/__session')).toBe(error)
    expect(withHost(error, 'http://')).toBe(error)
  })

  it('never appends twice', () => {
    const once = withHost(new TypeError('Failed to fetch'), 'https://api.example.com/')
    const twice = withHost(once, 'https://api.example.com/')
    expect(twice).toBe(once)
    expect((twice as Error).message).toBe('Failed to fetch (api.example.com)')
  })

  it.each([
    new TypeError('failed to fetch'),
    new TypeError('Failed to fetch dynamically imported module: https://x/a.js'),
    new TypeError('NetworkError when attempting to fetch resource'),
    new TypeError(' Load failed'),
    new Error('Something else'),
    new DOMException('The operation was aborted.', 'AbortError'),
  ])('leaves "$message" unchanged', (error) => {
    expect(withHost(error, 'https://api.example.com/')).toBe(error)
  })

  it.each([['Failed to fetch'], [{ message: 'Failed to fetch' }], [null], [undefined], [42]])(
    'leaves the non-error %j unchanged',
    (value) => {
      expect(withHost(value, 'https://api.example.com/')).toBe(value)
    },
  )
})

describe('isFailedFetchError and hostOf', () => {
  it('recognises only the three browser messages on errors', () => {
    for (const message of MESSAGES) expect(isFailedFetchError(new TypeError(message))).toBe(true)
    expect(isFailedFetchError('Failed to fetch')).toBe(false)
    expect(isFailedFetchError(new TypeError('Failed to fetch (x)'))).toBe(false)
  })

  it('answers undefined for what is not a URL', () => {
    expect(hostOf('not a url')).toBeUndefined()
    expect(hostOf('https://x.example:8443/p')).toBe('x.example:8443')
  })
})

describe('fetchWithHost', () => {
  it('passes the answer and the arguments through', async () => {
    const response = new Response('ok')
    const fetch = vi.fn(async () => response)
    const init = { method: 'POST' }
    await expect(fetchWithHost('https://api.example.com/x', init, { fetch })).resolves.toBe(response)
    expect(fetch).toHaveBeenCalledWith('https://api.example.com/x', init)
  })

  it('rethrows a failed fetch with the host appended', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Load failed')
    })
    await expect(fetchWithHost('https://api.example.com/x', undefined, { fetch })).rejects.toThrow(
      'Load failed (api.example.com)',
    )
  })

  it('rethrows any other error as it is', async () => {
    const error = new DOMException('The operation was aborted.', 'AbortError')
    const fetch = vi.fn(async () => {
      throw error
    })
    await expect(fetchWithHost('https://api.example.com/x', undefined, { fetch })).rejects.toBe(error)
  })

  it('uses the global fetch by default', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('NetworkError when attempting to fetch resource.')
      }),
    )
    await expect(fetchWithHost('https://down.example.net/')).rejects.toThrow(
      'NetworkError when attempting to fetch resource. (down.example.net)',
    )
  })
})
