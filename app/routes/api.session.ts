import { data } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/api.session'
import { isCrossSite } from '#app/lib/same-origin.server'
import { isStorableText } from '#app/lib/text-rules'
import { AUTH_ERROR_MESSAGES, type AuthErrorCode } from '#app/modules/auth/errors'
import { signIdentityToken, verifyIdentityToken } from '#app/modules/auth/identity-token.server'
import {
  clearSessionCookie,
  invalidateSession,
  readSessionToken,
  sessionCookie,
  sessionIdOf,
  validateSessionToken,
} from '#app/modules/auth/session.server'

/**
 * POST /api/__session { token } — DESIGN.md §5. Keeps the browser's idea of who is signed in in step
 * with the Postgres session: checks the identity token against the live session named by the
 * cookie, extends it, re-sets the cookie and answers the user with a fresh token.
 */
// A token is base64url; one that Postgres could not even store (a NUL, a lone surrogate: JSON can
// spell both) is malformed input like any other, refused before anything reads it.
const BodySchema = z.object({ token: z.string().max(4096).refine(isStorableText) })

const noStore = { 'Cache-Control': 'no-store' }

function fail(status: number, code: AuthErrorCode | 'auth/invalid-argument', clearCookie = false) {
  const headers = new Headers(noStore)
  if (clearCookie) headers.append('Set-Cookie', clearSessionCookie())
  const message =
    code in AUTH_ERROR_MESSAGES ? AUTH_ERROR_MESSAGES[code as AuthErrorCode] : 'The request was malformed.'
  return data({ code, message }, { status, headers })
}

export function loader() {
  return data(
    { code: 'auth/method-not-allowed', message: 'Use POST.' },
    { status: 405, headers: { Allow: 'POST' } },
  )
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return loader()
  if (isCrossSite(request)) return fail(403, 'auth/cross-site-request')
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return fail(400, 'auth/invalid-argument')
  }
  const parsed = BodySchema.safeParse(body)
  if (!parsed.success) return fail(400, 'auth/invalid-argument')
  const cookieToken = readSessionToken(request)

  if (parsed.data.token === '') {
    const id = sessionIdOf(cookieToken)
    if (id) await invalidateSession(id)
    const headers = new Headers(noStore)
    headers.append('Set-Cookie', clearSessionCookie())
    return data({ user: null, token: null, expiresAt: null }, { headers })
  }

  const verified = verifyIdentityToken(parsed.data.token)
  if (!verified.ok) return fail(401, verified.code)
  const result = await validateSessionToken(cookieToken, { renew: true })
  // The cookie is cleared only when its own session is dead: a stale tab holding an older token
  // must not sign the browser out of a newer, valid session.
  if (!result) return fail(401, 'auth/session-expired', Boolean(cookieToken))
  if (result.session.id !== verified.claims.sid || result.user.id !== verified.claims.uid) {
    return fail(401, 'auth/session-expired')
  }
  const { user, session } = result
  const identity = signIdentityToken(session.id, user.id)
  const headers = new Headers(noStore)
  headers.append('Set-Cookie', sessionCookie(result.token, session.expiresAt))
  return data(
    {
      user: {
        uid: user.id,
        email: user.email,
        emailVerified: user.emailVerified,
        displayName: user.displayName || null,
        photoURL: user.photoFileId ? `/files/${user.photoFileId}` : null,
        phoneNumber: user.phone,
        providerData: [
          {
            providerId: user.hasPassword ? 'password' : 'emailLink',
            uid: user.email,
            email: user.email,
            displayName: user.displayName || null,
            photoURL: user.photoFileId ? `/files/${user.photoFileId}` : null,
            phoneNumber: user.phone,
          },
        ],
      },
      token: identity.token,
      expiresAt: identity.expiresAt,
    },
    { headers },
  )
}
