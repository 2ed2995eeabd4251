import type { Env } from '#app/config/env.server'

const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com'

/** Content-Security-Policy for one response. Scripts run only by nonce (and what they load). */
export function contentSecurityPolicy(
  nonce: string,
  env: Pick<Env, 'turnstileEnabled' | 'SENTRY_DSN'>,
  dev = false,
) {
  const scriptSrc = [`'self'`, `'nonce-${nonce}'`, `'strict-dynamic'`]
  const connectSrc = [`'self'`]
  const frameSrc: string[] = []
  if (env.turnstileEnabled) {
    scriptSrc.push(TURNSTILE_ORIGIN)
    frameSrc.push(TURNSTILE_ORIGIN)
    connectSrc.push(TURNSTILE_ORIGIN)
  }
  if (env.SENTRY_DSN) connectSrc.push(new URL(env.SENTRY_DSN).origin)
  if (dev) connectSrc.push('ws:', 'wss:')
  const directives: Record<string, string[]> = {
    'default-src': [`'self'`],
    'script-src': scriptSrc,
    'style-src': [`'self'`, `'unsafe-inline'`],
    'img-src': [`'self'`, 'data:', 'blob:'],
    'font-src': [`'self'`],
    'connect-src': connectSrc,
    'frame-src': frameSrc.length ? frameSrc : [`'none'`],
    'frame-ancestors': [`'none'`],
    'form-action': [`'self'`],
    'base-uri': [`'self'`],
    'object-src': [`'none'`],
    'worker-src': [`'self'`, 'blob:'],
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')
}

/**
 * Uploaded images (/files/:id: brand logos, profile photos) are public by their unguessable id and
 * made to be shown elsewhere: in the recipient's mail client, and in the e-mail previews, whose
 * sandboxed frames (no scripts, no same origin) load them from an opaque origin. `same-origin`
 * there blocks them (a broken logo); everything else stays same-origin.
 */
const CROSS_ORIGIN_PATH = /^\/files\//

/** The headers every response carries, static files included. */
export function securityHeaders(
  nonce: string,
  env: Pick<Env, 'turnstileEnabled' | 'SENTRY_DSN' | 'secure'>,
  dev = false,
  path = '/',
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(nonce, env, dev),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': CROSS_ORIGIN_PATH.test(path) ? 'cross-origin' : 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  }
  if (env.secure) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains'
  return headers
}
