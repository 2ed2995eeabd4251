import { getEnv } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'

export const TURNSTILE_FIELD = 'cf-turnstile-response'

/**
 * Checks a Turnstile token with Cloudflare (or TURNSTILE_VERIFY_URL). Off when no keys are
 * configured; with keys it fails closed: no token, a refusal, or no answer all mean "no".
 */
export async function verifyTurnstile(formData: FormData, ip: string | undefined): Promise<boolean> {
  const env = getEnv()
  if (!env.turnstileEnabled) return true
  const token = formData.get(TURNSTILE_FIELD)
  if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return false
  const body = new URLSearchParams({ secret: env.TURNSTILE_SECRET_KEY!, response: token })
  if (ip) body.set('remoteip', ip)
  try {
    const response = await fetch(env.TURNSTILE_VERIFY_URL, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(8_000),
    })
    if (!response.ok) return false
    const result = (await response.json()) as { success?: boolean }
    return result.success === true
  } catch (error) {
    log.warn('turnstile verification failed', { error: (error as Error).message })
    return false
  }
}
