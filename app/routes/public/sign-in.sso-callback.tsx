import { redirect } from 'react-router'
import type { Route } from './+types/sign-in.sso-callback'
import { safeRedirect } from '#app/lib/safe-redirect'
import { homeFor, requireAnonymous } from '#app/modules/auth/guards.server'
import { afterFirstFactor } from '#app/modules/auth/second-factor.server'
import { SsoFailurePage } from '#app/modules/sso/components/sso-failure-page'
import { ssoFailureReply, ssoPageHeaders } from '#app/modules/sso/failure-reply.server'
import { browserSecretCookie, finishSsoSignIn, readBrowserSecret } from '#app/modules/sso/sign-in.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default', i18n: 'sso' }

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches, 'sso:metaTitle') }]

export const headers: Route.HeadersFunction = ssoPageHeaders

/**
 * /sign-in/sso/callback — where every provider sends the browser back (issue 20 §1, ADR 049; the
 * redirect URI registered at the provider is APP_URL + this path). A GET, as the authorization
 * response is (its query carries the code and the state). Signed in: the same session cookie as a
 * password sign-in, and on to where the sign-in started (a path on this site) or the role's home.
 * Anything else — a cancelled consent, a provider that does not answer, an unknown person, a
 * replayed or forged callback — ends on a page that says what happened (never a 500), audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request)
  const result = await finishSsoSignIn({
    url: new URL(request.url),
    browserSecret: readBrowserSecret(request),
    meta: { ip: context.ip, userAgent: request.headers.get('user-agent') },
  })
  if (result.ok) {
    const next = afterFirstFactor(result.opened, result.redirectTo)
    const headers = new Headers()
    headers.append('Set-Cookie', next.cookie)
    headers.append('Set-Cookie', browserSecretCookie(null))
    // An admin who still owes a code (SSO_ADMINS_SKIP_TOTP off) goes to its step, not home.
    if (next.secondFactor) throw redirect(next.location, { headers })
    throw redirect(safeRedirect(result.redirectTo, await homeFor(result.user)), { headers })
  }
  const { failure, providerName, email, retryAfterSeconds } = result
  return ssoFailureReply({ failure, providerName, email: email ?? null }, retryAfterSeconds)
}

export default function SsoCallback({ loaderData }: Route.ComponentProps) {
  return <SsoFailurePage failure={loaderData.failure} />
}
