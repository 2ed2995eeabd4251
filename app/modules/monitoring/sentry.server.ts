import type * as SentrySdk from '@sentry/react-router'
import type { Env } from '#app/config/env.server'
import {
  beforeSend,
  scrubEvent,
  scrubSpan,
  shouldReport,
  toReportableError,
  tracePropagationTargetsFor,
} from '#app/modules/monitoring/filter'

/**
 * Server-side error reporting. Sentry is optional: without SENTRY_DSN nothing of the SDK is even
 * loaded (it pulls in OpenTelemetry and hooks the module loader), so the import is dynamic.
 *
 * Errors reach Sentry through {@link reportServerError}, called from the app's error handling, and
 * through the SDK's own process-level handlers (uncaught exceptions, unhandled rejections). Both
 * pass the same `beforeSend`, which drops 3xx/4xx answers and scrubs secrets.
 */

type Sdk = typeof SentrySdk

let sdk: Sdk | undefined
let starting: Promise<void> | undefined

// Traces are sampled, not kept whole: enough to see slow routes without paying for every request.
const TRACES_SAMPLE_RATE = 0.1

/** Starts Sentry when SENTRY_DSN is set; otherwise does nothing. Safe to call more than once. */
export function initSentry(env: Env): Promise<void> {
  if (!env.SENTRY_DSN) return Promise.resolve()
  const dsn = env.SENTRY_DSN
  starting ??= (async () => {
    const sentry = await import('@sentry/react-router')
    sentry.init({
      dsn,
      environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
      tracesSampleRate: TRACES_SAMPLE_RATE,
      sendDefaultPii: false,
      // Without a list the Node SDK adds trace headers to every outgoing request (SMTP relays,
      // Turnstile, …); only our own origin may see them.
      tracePropagationTargets: tracePropagationTargetsFor(env.APP_URL),
      beforeSend,
      beforeSendTransaction: (event) => scrubEvent(event),
      beforeSendSpan: (span) => scrubSpan(span),
    })
    sdk = sentry
  })()
  return starting
}

/** Sends what is queued (used at shutdown); gives up after 2 s so a dead ingest cannot hang exit. */
export async function flushSentry(): Promise<void> {
  await sdk?.flush(2_000)
}

/**
 * Reports an error from request handling as unhandled (it reached React Router's error boundary
 * or handler). Statuses 300–499 are the app's own answers and are never reported. The request is
 * described by method and path only: query strings can carry one-time codes.
 */
export function reportServerError(error: unknown, request?: Request): void {
  const sentry = sdk
  if (!sentry || !shouldReport(error)) return
  sentry.withScope((scope) => {
    if (request) {
      const url = safeUrl(request.url)
      const method = request.method
      if (url) {
        scope.setTransactionName(`${method} ${url.pathname}`)
        // Runs after the SDK's own request data, so this is what the event says about the request.
        scope.addEventProcessor((event) => ({
          ...event,
          request: { ...event.request, method, url: `${url.origin}${url.pathname}` },
        }))
      }
    }
    sentry.captureException(toReportableError(error), { mechanism: { type: 'react-router', handled: false } })
  })
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}
