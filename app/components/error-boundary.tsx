import { isRouteErrorResponse, Link } from 'react-router'

/** What a 503 (the database is unreachable) says: the server's outage page uses the same words. */
export const UNAVAILABLE_CONTENT = {
  status: 503,
  title: 'Service Unavailable',
  description: 'Panorama is briefly unavailable. Nothing you saved is lost; please try again in a minute.',
} as const

/**
 * The spec's error page: status 404 reads "Page Not Found", any other "Internal Server Error" —
 * except 503, which says the service is briefly unavailable (issue 7: a database outage).
 */
export function errorPageContent(error: unknown, { dev = false } = {}) {
  const status = isRouteErrorResponse(error) && error.status ? error.status : 500
  const notFound = status === 404
  if (status === UNAVAILABLE_CONTENT.status)
    return {
      status,
      title: UNAVAILABLE_CONTENT.title,
      description: UNAVAILABLE_CONTENT.description,
      stack: undefined,
    }
  const title = notFound ? 'Page Not Found' : 'Internal Server Error'
  const description = notFound
    ? 'The page you asked for does not exist, or you do not have access to it. Check the address, or go back to the start.'
    : 'Something went wrong on our side. Please try again in a moment; if it keeps happening, contact your administrator.'
  // A stack trace is for developers only; production shows none.
  const stack = dev && error instanceof Error ? error.stack : undefined
  return { status, title, description, stack }
}

export function GeneralErrorBoundary({ error }: { error: unknown }) {
  const { status, title, description, stack } = errorPageContent(error, { dev: import.meta.env.DEV })
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-6 py-24">
      <p
        className="text-sm font-semibold tracking-widest text-indigo-700"
        aria-label={`Status code ${status}`}
      >
        {status}
      </p>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="text-lg text-slate-700">{description}</p>
      <Link to="/" className="btn btn-primary mt-4">
        Go to the start page
      </Link>
      {stack ? (
        <pre className="mt-6 w-full overflow-auto rounded bg-slate-900 p-4 text-xs text-slate-100">
          {stack}
        </pre>
      ) : null}
    </div>
  )
}
