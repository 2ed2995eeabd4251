import { data } from 'react-router'
import { GeneralErrorBoundary } from '#app/components/error-boundary'
import { metaT } from '#app/modules/i18n/meta'

// Any path no other route claims: the spec's "Page not found" with status 404.
export function loader() {
  throw data('Not Found', { status: 404, statusText: 'Not Found' })
}

export function action() {
  throw data('Not Found', { status: 404, statusText: 'Not Found' })
}

export default function NotFound() {
  return null
}

export function ErrorBoundary({ error }: { error: unknown }) {
  return <GeneralErrorBoundary error={error} />
}

// In the page's language (ADR 050); the chrome's namespace (common) is on every page.
export const meta = ({ matches }: { matches: Parameters<typeof metaT>[0] }) => [
  { title: `${metaT(matches, 'common:error.notFound.title')} · Panorama` },
]
