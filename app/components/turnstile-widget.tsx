import { Turnstile } from '@marsidev/react-turnstile'

/** The Cloudflare Turnstile widget itself; loaded by BotCheck (turnstile.tsx) only when it is switched on. */
export default function TurnstileWidget({ siteKey, onSuccess }: { siteKey: string; onSuccess?: () => void }) {
  return <Turnstile siteKey={siteKey} options={{ theme: 'light', size: 'flexible' }} onSuccess={onSuccess} />
}
