import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { fetchWithRetry, isRetryStatus, retriesFor, shouldRetry } from '#app/lib/retry-policy'

const RETRY_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504]
const ALL_STATUSES = Array.from({ length: 500 }, (_, i) => 100 + i)
const NEVER_RETRIED = ['POST', 'PUT', 'PATCH', 'DELETE', 'post', 'Put', 'pAtCh', 'delete']
const RETRIED_ONCE = ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'get', 'head', 'Options', 'PROPFIND']

describe('retriesFor', () => {
  it.each(NEVER_RETRIED)('never retries %s', (method) => {
    expect(retriesFor(method)).toBe(0)
  })

  it.each(RETRIED_ONCE)('retries %s once', (method) => {
    expect(retriesFor(method)).toBe(1)
  })
})

describe('shouldRetry, for every status from 100 to 599', () => {
  it('marks exactly the eight retry statuses as retryable', () => {
    expect(ALL_STATUSES.filter(isRetryStatus)).toEqual(RETRY_STATUSES)
  })

  it.each(RETRIED_ONCE)(
    '%s: retries the first attempt on exactly the retry statuses, never the second',
    (method) => {
      expect(ALL_STATUSES.filter((status) => shouldRetry({ method, status, attempt: 0 }))).toEqual(
        RETRY_STATUSES,
      )
      expect(ALL_STATUSES.filter((status) => shouldRetry({ method, status, attempt: 1 }))).toEqual([])
      expect(ALL_STATUSES.filter((status) => shouldRetry({ method, status, attempt: 2 }))).toEqual([])
    },
  )

  it.each(NEVER_RETRIED)('%s: retries no status at any attempt', (method) => {
    for (const attempt of [0, 1, 2]) {
      expect(ALL_STATUSES.filter((status) => shouldRetry({ method, status, attempt }))).toEqual([])
    }
  })
})

function respond(...statuses: Array<number | Error>) {
  const queue = [...statuses]
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const next = queue.shift()
    if (next === undefined) throw new Error('fetch called more often than the test expected')
    if (next instanceof Error) throw next
    return new Response(null, { status: next })
  })
}

describe('fetchWithRetry', () => {
  it('returns a successful answer after one call', async () => {
    const fetch = respond(200)
    const response = await fetchWithRetry('https://api.example.com/x', undefined, { fetch })
    expect(response.status).toBe(200)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('retries a GET once on a retry status and returns the second answer', async () => {
    const fetch = respond(503, 200)
    const response = await fetchWithRetry('https://api.example.com/x', { method: 'GET' }, { fetch })
    expect(response.status).toBe(200)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('gives up after the one retry and returns the last answer', async () => {
    const fetch = respond(503, 502)
    const response = await fetchWithRetry('https://api.example.com/x', undefined, { fetch })
    expect(response.status).toBe(502)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it.each([400, 401, 403, 404, 422, 501, 505])('does not retry a GET answered %i', async (status) => {
    const fetch = respond(status)
    const response = await fetchWithRetry('https://api.example.com/x', undefined, { fetch })
    expect(response.status).toBe(status)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it.each(['POST', 'put', 'PATCH', 'delete'])('does not retry %s on a retry status', async (method) => {
    const fetch = respond(503)
    const response = await fetchWithRetry('https://api.example.com/x', { method }, { fetch })
    expect(response.status).toBe(503)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('takes the method of a Request input and retries a GET Request with a fresh copy', async () => {
    const fetch = respond(429, 200)
    await fetchWithRetry(new Request('https://api.example.com/x'), undefined, { fetch })
    expect(fetch).toHaveBeenCalledTimes(2)
    const [first, second] = fetch.mock.calls.map(([input]) => input as Request)
    expect(first).toBeInstanceOf(Request)
    expect(first).not.toBe(second)
    expect(first.url).toBe('https://api.example.com/x')
  })

  it('does not retry a POST Request', async () => {
    const fetch = respond(503)
    await fetchWithRetry(new Request('https://api.example.com/x', { method: 'POST', body: 'a' }), undefined, {
      fetch,
    })
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('retries a GET once after a network error', async () => {
    const fetch = respond(new TypeError('Failed to fetch'), 200)
    const response = await fetchWithRetry('https://api.example.com/x', undefined, { fetch })
    expect(response.status).toBe(200)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('throws the second network error of a GET', async () => {
    const second = new TypeError('Load failed')
    const fetch = respond(new TypeError('Failed to fetch'), second)
    await expect(fetchWithRetry('https://api.example.com/x', undefined, { fetch })).rejects.toBe(second)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('throws the network error of a POST at once', async () => {
    const error = new TypeError('Failed to fetch')
    const fetch = respond(error)
    await expect(fetchWithRetry('https://api.example.com/x', { method: 'POST' }, { fetch })).rejects.toBe(
      error,
    )
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('never retries an abort', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = new DOMException('The operation was aborted.', 'AbortError')
    const fetch = respond(error)
    await expect(
      fetchWithRetry('https://api.example.com/x', { signal: controller.signal }, { fetch }),
    ).rejects.toBe(error)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('passes init through unchanged', async () => {
    const fetch = respond(200)
    const init = { headers: { accept: 'application/json' } }
    await fetchWithRetry('https://api.example.com/x', init, { fetch })
    expect(fetch).toHaveBeenCalledWith('https://api.example.com/x', init)
  })

  it('waits retryDelayMs before the retry and not otherwise', async () => {
    const sleep = vi.fn(async () => {})
    await fetchWithRetry('https://api.example.com/x', undefined, {
      fetch: respond(503, 200),
      sleep,
      retryDelayMs: 250,
    })
    expect(sleep).toHaveBeenCalledExactlyOnceWith(250)
    sleep.mockClear()
    await fetchWithRetry('https://api.example.com/x', undefined, { fetch: respond(503, 200), sleep })
    expect(sleep).not.toHaveBeenCalled()
  })

  it('releases the body of a discarded answer', async () => {
    const cancel = vi.fn(() => Promise.resolve())
    const discarded = { status: 503, body: { cancel } } as unknown as Response
    const fetch = vi.fn().mockResolvedValueOnce(discarded).mockResolvedValueOnce(new Response('ok'))
    await fetchWithRetry('https://api.example.com/x', undefined, { fetch })
    expect(cancel).toHaveBeenCalledTimes(1)
  })

  it('calls fetch 1 + (one retry if the method allows it and the first status is a retry status) times', async () => {
    const methods = fc.constantFrom(...NEVER_RETRIED, ...RETRIED_ONCE)
    const status = fc.oneof(fc.constantFrom(...RETRY_STATUSES), fc.integer({ min: 200, max: 599 }))
    await fc.assert(
      fc.asyncProperty(methods, status, status, async (method, first, second) => {
        const fetch = respond(first, second)
        const response = await fetchWithRetry('https://api.example.com/x', { method }, { fetch })
        const retried = retriesFor(method) === 1 && RETRY_STATUSES.includes(first)
        expect(fetch).toHaveBeenCalledTimes(retried ? 2 : 1)
        expect(response.status).toBe(retried ? second : first)
      }),
    )
  })
})
