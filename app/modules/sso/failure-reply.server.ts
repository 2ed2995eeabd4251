import { data } from 'react-router'
import { ssoFailureStatus, type SsoFailureView } from './failure'

/**
 * The answer of a single sign-on page that ends in a failure (the start and the callback, ADR 049):
 * the page's words for the failure, its status, and when to come back — the limit's own wait, or a
 * minute for a provider that did not answer.
 */
export function ssoFailureReply(failure: SsoFailureView, retryAfterSeconds?: number | null) {
  const retryAfter = retryAfterSeconds
    ? String(retryAfterSeconds)
    : failure.failure === 'unreachable'
      ? '60'
      : null
  return data(
    { failure },
    {
      status: ssoFailureStatus(failure.failure),
      headers: retryAfter ? { 'Retry-After': retryAfter } : undefined,
    },
  )
}

/**
 * The headers of both pages: never cached (the callback's address carries a one-time code, the
 * start sets this browser's secret), and a 429 or 503 says when to come back.
 */
export function ssoPageHeaders({ loaderHeaders }: { loaderHeaders: Headers }) {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  const retryAfter = loaderHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}
