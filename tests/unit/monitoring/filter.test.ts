import { data, redirect } from 'react-router'
import { describe, expect, it } from 'vitest'
import {
  beforeSend,
  filterEvent,
  isSameOrigin,
  scrubEvent,
  scrubSpan,
  shouldReport,
  statusOf,
  toReportableError,
  tracePropagationTargetsFor,
} from '#app/modules/monitoring/filter'

// What React Router builds for a thrown response or an unknown route (ErrorResponseImpl's shape).
function errorResponse(status: number, internal?: boolean) {
  return { status, statusText: 'x', data: null, ...(internal === undefined ? {} : { internal }) }
}

describe('statusOf / shouldReport', () => {
  const statuses = [200, 301, 302, 399, 400, 401, 403, 404, 429, 499, 500, 502, 503]
  const reported = (status: number) => status < 300 || status >= 500

  describe.each([
    ['thrown Response', (status: number) => new Response(null, { status })],
    ['ErrorResponse', (status: number) => errorResponse(status, true)],
    ['ErrorResponse without `internal`', (status: number) => errorResponse(status)],
    ['data() throw', (status: number) => data({ message: 'x' }, { status })],
    ['data() throw with a bare status', (status: number) => data('x', status)],
  ])('%s', (_name, make) => {
    it.each(statuses)('status %i', (status) => {
      const error = make(status)
      expect(statusOf(error)).toBe(status)
      expect(shouldReport(error)).toBe(reported(status))
    })
  })

  it('treats redirect() as a 3xx answer', () => {
    expect(statusOf(redirect('/sign-in'))).toBe(302)
    expect(shouldReport(redirect('/sign-in'))).toBe(false)
  })

  it('treats data() without a status as the 500 React Router renders it as', () => {
    expect(statusOf(data('x'))).toBe(500)
    expect(shouldReport(data('x'))).toBe(true)
  })

  it.each([
    ['plain Error', new Error('boom')],
    ['undefined', undefined],
    ['null', null],
    ['string', 'boom'],
    // A status on an arbitrary error is not a framework answer: still a bug worth seeing.
    ['Error with a status field', Object.assign(new Error('x'), { status: 404 })],
    ['object with a status only', { status: 404 }],
  ])('reports %s (no status)', (_name, error) => {
    expect(statusOf(error)).toBeUndefined()
    expect(shouldReport(error)).toBe(true)
  })
})

describe('filterEvent / beforeSend', () => {
  const event = { message: 'x', transaction: 'GET /' }

  it('drops events for 3xx/4xx answers', () => {
    expect(filterEvent(event, { originalException: new Response(null, { status: 404 }) })).toBeNull()
    expect(filterEvent(event, { originalException: errorResponse(302, false) })).toBeNull()
    expect(beforeSend(event, { originalException: data(null, { status: 499 }) })).toBeNull()
  })

  it('keeps errors, 5xx answers and events without an exception', () => {
    expect(filterEvent(event, { originalException: new Error('boom') })).toBe(event)
    expect(filterEvent(event, { originalException: new Response(null, { status: 500 }) })).toBe(event)
    expect(filterEvent(event, {})).toBe(event)
    expect(filterEvent(event, undefined)).toBe(event)
  })

  it('scrubs cookies, credentials and query strings', () => {
    const scrubbed = scrubEvent({
      transaction: 'GET /verification?oobCode=secret',
      request: {
        url: 'https://app.example/verification?oobCode=secret#frag',
        method: 'GET',
        query_string: 'oobCode=secret',
        cookies: { __session: 'secret' },
        headers: { Cookie: '__session=secret', Authorization: 'Bearer secret', 'User-Agent': 'test' },
      },
    })
    expect(scrubbed).toEqual({
      transaction: 'GET /verification',
      request: { url: 'https://app.example/verification', method: 'GET', headers: { 'User-Agent': 'test' } },
    })
    expect(JSON.stringify(scrubbed)).not.toContain('secret')
  })

  it('scrubs query strings from spans', () => {
    const span = scrubSpan({
      description: 'GET https://app.example/api?token=secret',
      data: { 'url.full': 'https://app.example/api?token=secret', 'http.query': '?token=secret', other: 1 },
    })
    expect(span).toEqual({
      description: 'GET https://app.example/api',
      data: { 'url.full': 'https://app.example/api', other: 1 },
    })
  })
})

describe('toReportableError', () => {
  it('keeps errors as they are', () => {
    const error = new Error('boom')
    expect(toReportableError(error)).toBe(error)
    expect(toReportableError('boom')).toBe('boom')
  })

  it('names 5xx answers by their status', () => {
    const response = new Response(null, { status: 502, statusText: 'Bad Gateway' })
    const error = toReportableError(response) as Error
    expect(error.message).toBe('HTTP 502 Bad Gateway')
    expect(error.cause).toBe(response)
    expect((toReportableError(data('x', { status: 503, statusText: 'Busy' })) as Error).message).toBe(
      'HTTP 503 Busy',
    )
  })

  it('unwraps the real error React Router keeps', () => {
    const cause = new Error('db down')
    expect(toReportableError({ ...errorResponse(500, true), error: cause })).toBe(cause)
    expect(toReportableError(data(cause, 500))).toBe(cause)
  })
})

describe('isSameOrigin', () => {
  const origin = 'http://localhost:3000'
  it.each([
    ['/api/__session', true],
    ['api/x', true],
    ['?page=2', true],
    ['http://localhost:3000/x', true],
    ['http://LOCALHOST:3000', true],
    ['//evil.com/x', false],
    ['/\\evil.com/x', false],
    ['http://localhost:3001/x', false],
    ['http://localhost/x', false],
    ['https://localhost:3000/x', false],
    ['http://localhost:3000.evil.com/x', false],
    ['https://evil.com/?next=http://localhost:3000', false],
    ['javascript:alert(1)', false],
  ])('%s → %s', (url, expected) => {
    expect(isSameOrigin(url, origin)).toBe(expected)
  })

  it('treats default ports as the same origin', () => {
    expect(isSameOrigin('https://app.example:443/x', 'https://app.example')).toBe(true)
    expect(isSameOrigin('https://app.example:8443/x', 'https://app.example')).toBe(false)
  })
})

describe('tracePropagationTargetsFor', () => {
  const targets = tracePropagationTargetsFor('http://localhost:3000/')
  // Sentry's own test: a string pattern matches as a substring, a RegExp with .test().
  const matches = (url: string) => targets.some((pattern) => pattern.test(url))

  it.each([
    ['http://localhost:3000', true],
    ['http://localhost:3000/api/__session', true],
    ['http://localhost:3000?x=1', true],
    ['/api/__session', true],
    ['//evil.com/x', false],
    ['/\\evil.com/x', false],
    ['http://localhost:3001/x', false],
    ['http://localhost:3000.evil.com/x', false],
    ['https://evil.com/?next=http://localhost:3000', false],
    ['https://challenges.cloudflare.com/turnstile/v0/siteverify', false],
  ])('%s → %s', (url, expected) => {
    expect(matches(url)).toBe(expected)
  })

  it('contains only anchored regular expressions (Sentry matches strings as substrings)', () => {
    for (const target of targets) {
      expect(target).toBeInstanceOf(RegExp)
      expect(target.source.startsWith('^')).toBe(true)
    }
  })
})
