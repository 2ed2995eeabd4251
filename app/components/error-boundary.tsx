import { isRouteErrorResponse, Link } from 'react-router'
import { useTranslation } from 'react-i18next'

/**
 * What a 503 (the database is unreachable) says: the server's outage page uses the same words (it
 * is written without React, in English). The English catalogue (common.error.unavailable) equals it.
 */
export const UNAVAILABLE_CONTENT = {
  status: 503,
  title: 'Service Unavailable',
  description: 'Panorama is briefly unavailable. Nothing you saved is lost; please try again in a minute.',
} as const

/** The English texts of the error pages: the source the English catalogue must equal (tests/unit/i18n). */
export const ERROR_PAGE_TEXTS = {
  notFound: {
    title: 'Page Not Found',
    description:
      'The page you asked for does not exist, or you do not have access to it. Check the address, or go back to the start.',
  },
  internal: {
    title: 'Internal Server Error',
    description:
      'Something went wrong on our side. Please try again in a moment; if it keeps happening, contact your administrator.',
  },
  unavailable: { title: UNAVAILABLE_CONTENT.title, description: UNAVAILABLE_CONTENT.description },
} as const

/**
 * The spec's error page: status 404 reads "Page Not Found", any other "Internal Server Error" —
 * except 503, which says the service is briefly unavailable (issue 7: a database outage). The
 * English words, and the catalogue keys (common namespace) the page shows in the reader's language.
 */
export function errorPageContent(error: unknown, { dev = false } = {}) {
  const status = isRouteErrorResponse(error) && error.status ? error.status : 500
  const kind =
    status === UNAVAILABLE_CONTENT.status ? 'unavailable' : status === 404 ? 'notFound' : 'internal'
  const { title, description } = ERROR_PAGE_TEXTS[kind]
  // A stack trace is for developers only; production shows none.
  const stack = kind !== 'unavailable' && dev && error instanceof Error ? error.stack : undefined
  return {
    status,
    title,
    description,
    titleKey: `error.${kind}.title`,
    descriptionKey: `error.${kind}.description`,
    stack,
  }
}

export function GeneralErrorBoundary({ error }: { error: unknown }) {
  const { t } = useTranslation('common')
  const { status, titleKey, descriptionKey, stack } = errorPageContent(error, { dev: import.meta.env.DEV })
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-6 py-24">
      <p
        className="text-sm font-semibold tracking-widest text-indigo-700"
        aria-label={t('error.statusCode', { status })}
      >
        {status}
      </p>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t(titleKey)}</h1>
      <p className="text-lg text-slate-700">{t(descriptionKey)}</p>
      <Link to="/" className="btn btn-primary mt-4">
        {t('error.home')}
      </Link>
      {stack ? (
        <pre className="mt-6 w-full overflow-auto rounded bg-slate-900 p-4 text-xs text-slate-100">
          {stack}
        </pre>
      ) : null}
    </div>
  )
}
