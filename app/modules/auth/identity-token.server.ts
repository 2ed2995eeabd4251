import crypto from 'node:crypto'
import { getEnv } from '#app/config/env.server'

/**
 * The short-lived identity token of DESIGN.md §5: the root loader hands it to the browser, which
 * sends it back to POST /api/__session. HMAC-SHA256 over a small JSON payload with the session
 * secret; it names a session but grants nothing without that session's cookie.
 */
export const IDENTITY_TOKEN_TTL_MS = 60 * 60 * 1000

export type IdentityClaims = { sid: string; uid: string; iat: number; exp: number }

function sign(payload: string) {
  return crypto
    .createHmac('sha256', `identity:${getEnv().SESSION_SECRET}`)
    .update(payload)
    .digest('base64url')
}

export function signIdentityToken(sessionId: string, userId: string, now = Date.now()) {
  const claims: IdentityClaims = { sid: sessionId, uid: userId, iat: now, exp: now + IDENTITY_TOKEN_TTL_MS }
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url')
  return { token: `${payload}.${sign(payload)}`, expiresAt: claims.exp }
}

export type VerifyResult =
  | { ok: true; claims: IdentityClaims }
  | { ok: false; code: 'auth/invalid-id-token' | 'auth/id-token-expired' }

export function verifyIdentityToken(token: string, now = Date.now()): VerifyResult {
  const [payload, signature, extra] = token.split('.')
  if (!payload || !signature || extra !== undefined) return { ok: false, code: 'auth/invalid-id-token' }
  const expected = Buffer.from(sign(payload))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
    return { ok: false, code: 'auth/invalid-id-token' }
  }
  let claims: IdentityClaims
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, code: 'auth/invalid-id-token' }
  }
  if (typeof claims.sid !== 'string' || typeof claims.uid !== 'string' || typeof claims.exp !== 'number') {
    return { ok: false, code: 'auth/invalid-id-token' }
  }
  if (claims.exp <= now) return { ok: false, code: 'auth/id-token-expired' }
  return { ok: true, claims }
}
