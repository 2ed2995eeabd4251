import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from 'react-router'
import { isRouteErrorResponse, ServerRouter } from 'react-router'
import { isDatabaseBusyError, reportDatabaseFailure } from '#db/client'
import { NonceProvider } from '#app/components/nonce'
import { log } from '#app/lib/logger.server'
import { createServerI18n, documentLanguage, routeNamespaces } from '#app/modules/i18n/i18n.server'
import { reportServerError } from '#app/modules/monitoring/sentry.server'
import { outageAnswer } from '#app/server/outage'

export const streamTimeout = 5_000

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The page's data could not be loaded because the database is unreachable: the outage page, not
  // a 500 (handleError has flagged it; the log has it once).
  if (loadContext?.databaseUnavailable) return outageResponse('html', responseHeaders)
  const nonce = loadContext?.nonce
  // The page's language (the root loader resolved it, ADR 050) and only its routes' namespaces.
  const i18n = createServerI18n(documentLanguage(request, routerContext), routeNamespaces(routerContext))
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    // Crawlers and SPA-mode builds get the whole document at once.
    const readyOption =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <NonceProvider value={nonce}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </NonceProvider>
      </I18nextProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true
          const body = new PassThrough()
          const stream = createReadableStreamFromReadable(body)
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          // Pages are personal and carry a nonce of their own: never stored by a shared cache, and
          // asked for again before the browser's cache reuses them, yet allowed into the
          // back/forward cache (root.tsx re-reads a page shown from it). Pages with one-time
          // secrets send no-store instead (ADR 009).
          if (!responseHeaders.has('Cache-Control')) responseHeaders.set('Cache-Control', 'private, no-cache')
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }))
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) log.error('render error', { error })
        },
      },
    )
    setTimeout(abort, streamTimeout + 1000)
  })
}

/** A client-side navigation's data request that met the outage answers 503 too. */
export const handleDataRequest: HandleDataRequestFunction = (response, { context }) =>
  context?.databaseUnavailable ? outageResponse('text', response.headers) : response

function outageResponse(kind: 'html' | 'text', base: Headers) {
  const answer = outageAnswer(kind)
  const headers = new Headers(base)
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value)
  // Without React Router's marker the browser's router reads it as a 503 answer, not as its data.
  headers.delete('X-Remix-Response')
  return new Response(answer.body, { status: answer.status, headers })
}

/**
 * React Router refuses some requests itself before any of our code runs: a cross-site form post
 * (the origin check) and a method a route does not handle (405). Those are the client's mistakes
 * or someone probing, not failures of ours: they are logged as such, and never reported.
 */
function rejection(error: unknown): { status: number; reason: string } | undefined {
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500)
    return { status: error.status, reason: error.statusText || 'rejected' }
  if (
    error instanceof Error &&
    (/`origin` header/.test(error.message) || (error.message === 'Bad Request' && !error.cause))
  )
    return { status: 400, reason: 'origin check failed' }
  return undefined
}

/** Unexpected errors only: thrown Responses (redirects, 404s) are expected and not reported. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return
  const method = request.method
  const path = new URL(request.url).pathname
  const rejected = rejection(error)
  if (rejected) {
    // A failed origin check may be a forgery attempt: worth a warning. Anything else is routine.
    const level = rejected.reason === 'origin check failed' ? 'warn' : 'info'
    log[level]('request rejected', { status: rejected.status, reason: rejected.reason, method, path })
    return
  }
  if (isDatabaseBusyError(error)) {
    // Every pooled connection stayed busy (pg-pool's wait ran out): overloaded, not broken. The
    // outage page's 503 with Retry-After, as the API answers; a warning, not a report per request.
    if (context) context.databaseUnavailable = true
    log.warn('database busy: answering 503', { method, path })
    return
  }
  const outage = reportDatabaseFailure(error)
  if (outage) {
    if (context) context.databaseUnavailable = true
    // The outage is logged once by reportDatabaseFailure, and reported once, not per request.
    if (outage === 'started') reportServerError(error, request)
    return
  }
  log.error('unhandled error', { error, method, path })
  reportServerError(error, request)
}
