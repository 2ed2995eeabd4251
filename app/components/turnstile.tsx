import { Turnstile } from '@marsidev/react-turnstile'
import { useRootData } from '#app/root'

/**
 * Cloudflare Turnstile, rendered only when the deployment configures keys. The widget adds its
 * token to the enclosing form as `cf-turnstile-response`; the action verifies it server-side.
 */
export function BotCheck() {
  const siteKey = useRootData()?.publicEnv.turnstileSiteKey
  if (!siteKey) return null
  return <Turnstile siteKey={siteKey} options={{ theme: 'light', size: 'flexible' }} />
}
