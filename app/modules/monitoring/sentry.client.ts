import * as Sentry from '@sentry/react-router'
import {
  beforeSend,
  scrubEvent,
  scrubSpan,
  shouldReport,
  toReportableError,
  tracePropagationTargetsFor,
} from '#app/modules/monitoring/filter'

/**
 * Browser-side error reporting.
 *
 * This module imports the SDK statically, so it must itself only ever be loaded lazily: the client
 * entry (today the root route's effect) does `import('#app/modules/monitoring/sentry.client')` only
 * when the root loader says a DSN is configured. Vite then puts the SDK (≈ 50 KiB gzip with the
 * tracing integration, measured) in a chunk of its own that a deployment without SENTRY_DSN never
 * fetches. Importing this file (or `@sentry/react-router`) from anything loaded
 * eagerly would put the SDK back in every page's bundle.
 */

export type ClientSentryOptions = { dsn: string; environment?: string }

// Sampled traces: enough to see slow navigations without sending one per page view.
const TRACES_SAMPLE_RATE = 0.1

let started = false

export function initClientSentry({ dsn, environment }: ClientSentryOptions): void {
  if (started || !dsn) return
  started = true
  Sentry.init({
    dsn,
    environment,
    sendDefaultPii: false,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    // The tracing integration is what adds `sentry-trace`/`baggage` to fetches; the targets keep
    // them to our own origin (the identity, storage and bot-check services must not receive them).
    integrations: [Sentry.reactRouterTracingIntegration()],
    tracePropagationTargets: tracePropagationTargetsFor(window.location.origin),
    beforeSend,
    beforeSendTransaction: (event) => scrubEvent(event),
    beforeSendSpan: (span) => scrubSpan(span),
  })
}

/** Reports an error caught in the browser as unhandled, unless it is a 3xx/4xx answer. */
export function captureClientError(error: unknown): void {
  if (!started || !shouldReport(error)) return
  Sentry.captureException(toReportableError(error), { mechanism: { type: 'react-router', handled: false } })
}
