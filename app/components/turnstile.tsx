import { lazy, Suspense } from 'react'
import { useRootData } from '#app/root'

// The widget's code (≈ 2.6 kB gzip) is fetched only by pages of a deployment that switches Turnstile
// on: every other deployment's sign-in and invite pages would carry it for nothing.
const TurnstileWidget = lazy(() => import('./turnstile-widget'))

/** The box of the widget's 'flexible' size, held while its code loads so that nothing below moves. */
const WIDGET_BOX = { width: '100%', minWidth: 300, height: 65 } as const

/**
 * Cloudflare Turnstile, rendered only when the deployment configures keys. The widget adds its
 * token to the enclosing form as `cf-turnstile-response`; the action verifies it server-side.
 */
export function BotCheck({ onSuccess }: { onSuccess?: () => void } = {}) {
  const siteKey = useRootData()?.publicEnv.turnstileSiteKey
  if (!siteKey) return null
  return (
    <Suspense fallback={<div style={WIDGET_BOX} />}>
      <TurnstileWidget siteKey={siteKey} onSuccess={onSuccess} />
    </Suspense>
  )
}
