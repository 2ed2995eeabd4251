import { isRouteErrorResponse } from 'react-router'
import { withoutQueryParams } from '#app/lib/query-params'

/**
 * What is reported to the monitoring service, shared by the server and the browser. Pure on
 * purpose: it is imported by code that runs whether or not Sentry is configured, so it must not pull
 * the SDK in (the browser part is ≈ 30–50 KiB gzip). The event shapes below are the few fields we
 * touch, not Sentry's types.
 */

/** The part of a Sentry event this module reads or rewrites. */
export type MonitoringEvent = {
  transaction?: string
  exception?: { values?: Array<{ value?: string }> }
  request?: {
    url?: string
    method?: string
    query_string?: unknown
    cookies?: unknown
    headers?: Record<string, string>
  }
}

/** The part of Sentry's `EventHint` this module reads. */
export type MonitoringHint = { originalException?: unknown }

type Loose = Record<string, unknown>

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null
}

/**
 * The HTTP status a thrown value stands for, when it is one of React Router's ways of answering
 * with a status: a thrown `Response` (e.g. `redirect()`), an ErrorResponse (what React Router turns
 * thrown responses and unknown routes into) or a thrown `data(…, { status })`. Anything else, a
 * plain `Error` included, has no status: it is a bug, not an answer.
 */
export function statusOf(error: unknown): number | undefined {
  if (typeof Response !== 'undefined' && error instanceof Response) return error.status
  if (isRouteErrorResponse(error)) return error.status
  if (!isObject(error)) return undefined
  // React Router's own `data()` result. Without a status React Router renders it as a 500.
  if (error.type === 'DataWithResponseInit' && 'data' in error && 'init' in error) {
    const init = error.init
    return isObject(init) && typeof init.status === 'number' ? init.status : 500
  }
  // Duck-typed twins of the two above, for values from another realm or a copy of react-router
  // other than ours (`internal` is optional: ErrorResponses rebuilt from serialized data lack it).
  if (typeof error.status === 'number' && typeof error.statusText === 'string') {
    if ('data' in error || isObject(error.headers)) return error.status
  }
  return undefined
}

/**
 * Statuses 300–499 are answers the app chose to give (redirects, not found, forbidden, rate
 * limited): reporting them would drown real failures. Everything else — 5xx, and errors without a
 * status — is reported.
 */
export function shouldReport(error: unknown): boolean {
  const status = statusOf(error)
  return status === undefined || status < 300 || status >= 500
}

/**
 * What to hand the SDK for a reportable value. A thrown 5xx `Response` or `data()` would otherwise
 * show up as "[object Response]" or "captured as exception with keys: …"; React Router keeps the
 * real error of an internal 500 on the ErrorResponse's `error` and in `data(error, 500)`.
 */
export function toReportableError(error: unknown): unknown {
  if (error instanceof Error) return error
  const status = statusOf(error)
  if (status === undefined || !isObject(error)) return error
  if (error.error instanceof Error) return error.error
  if (error.type === 'DataWithResponseInit' && error.data instanceof Error) return error.data
  const init = isObject(error.init) ? error.init : error
  const statusText = typeof init.statusText === 'string' && init.statusText ? ` ${init.statusText}` : ''
  return new Error(`HTTP ${status}${statusText}`, { cause: error })
}

/** A `beforeSend` that drops events whose original exception should not be reported. */
export function filterEvent<E>(event: E, hint: MonitoringHint | undefined): E | null {
  return hint && 'originalException' in hint && !shouldReport(hint.originalException) ? null : event
}

const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization', 'x-api-key'])

/** `url` without its query string and fragment: they can carry one-time codes and tokens. */
export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/)
  return cut === -1 ? url : url.slice(0, cut)
}

/**
 * Removes what must never leave the machine from an event's request data: cookies (the session),
 * credentials headers and query strings (sign-in links and password-reset codes live there).
 */
export function scrubEvent<E extends MonitoringEvent>(event: E): E {
  const request = event.request
  const rewritten: Partial<MonitoringEvent> =
    typeof event.transaction === 'string' ? { transaction: stripQueries(event.transaction) } : {}
  // A failed query's message lists its parameters (addresses, answers): keep the statement only.
  if (event.exception?.values) {
    rewritten.exception = {
      ...event.exception,
      values: event.exception.values.map((v) =>
        typeof v.value === 'string' ? { ...v, value: withoutQueryParams(v.value) } : v,
      ),
    }
  }
  if (!request) return { ...event, ...rewritten } as E
  const { cookies: _cookies, query_string: _query, ...rest } = request
  const scrubbed: NonNullable<MonitoringEvent['request']> = { ...rest }
  if (typeof request.url === 'string') scrubbed.url = stripQuery(request.url)
  if (isObject(request.headers)) {
    scrubbed.headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !SECRET_HEADERS.has(name.toLowerCase())),
    )
  }
  return { ...event, ...rewritten, request: scrubbed } as E
}

/** Query strings and fragments inside free text such as `GET /verify?code=…`. */
function stripQueries(text: string): string {
  return text.replace(/[?#][^\s]*/g, '')
}

/** The part of Sentry's `SpanJSON` this module rewrites. */
export type MonitoringSpan = { description?: string; data: Record<string, unknown> }

// Span attributes (OpenTelemetry's and Sentry's browser names) that hold a URL or a bare query.
const SPAN_URL_KEYS = ['url', 'url.full', 'http.url', 'http.target']
const SPAN_QUERY_KEYS = ['url.query', 'http.query', 'http.fragment', 'url.fragment']

/** A `beforeSendSpan`: traces must not carry query strings either (see {@link scrubEvent}). */
export function scrubSpan<S extends MonitoringSpan>(span: S): S {
  const data = { ...span.data }
  for (const key of SPAN_URL_KEYS) {
    const value = data[key]
    if (typeof value === 'string') data[key] = stripQuery(value)
  }
  for (const key of SPAN_QUERY_KEYS) delete data[key]
  const description =
    typeof span.description === 'string' ? { description: stripQueries(span.description) } : {}
  return { ...span, ...description, data }
}

/** The `beforeSend` both sides use: drop non-reportable errors, scrub the rest. */
export function beforeSend<E extends MonitoringEvent>(event: E, hint: MonitoringHint | undefined): E | null {
  const kept = filterEvent(event, hint)
  return kept && scrubEvent(kept)
}

/**
 * Whether `url` (absolute, protocol-relative or relative) points at `origin`. Resolved with the URL
 * parser rather than by prefix so that `//evil.com`, `/\evil.com`, `http://host.evil.com` and other
 * ports all count as foreign.
 */
export function isSameOrigin(url: string, origin: string): boolean {
  try {
    const base = new URL(origin)
    return new URL(url, base).origin === base.origin
  } catch {
    return false
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Sentry's `tracePropagationTargets` for an app served at `origin`: only same-origin requests get
 * the `sentry-trace` and `baggage` headers (they reveal trace ids to whoever receives them).
 *
 * Both patterns are anchored regular expressions on purpose. Sentry matches a *string* target as a
 * substring of the full URL, so the plain origin would also match `https://evil.com/?next=<origin>`
 * and `<origin>.evil.com`. In the browser Sentry tests the resolved URL and, for same-origin
 * requests, its path; on the server (where no list at all means "propagate everywhere") it tests
 * the full URL, which the relative-path pattern never matches.
 */
export function tracePropagationTargetsFor(origin: string): RegExp[] {
  const normalized = new URL(origin).origin
  return [new RegExp(`^${escapeRegExp(normalized)}(?:[/?#]|$)`), /^\/(?![/\\])/]
}
