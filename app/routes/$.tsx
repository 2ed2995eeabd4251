import { data } from 'react-router'
import { GeneralErrorBoundary } from '#app/components/error-boundary'

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

export const meta = () => [{ title: 'Page Not Found · Panorama' }]
