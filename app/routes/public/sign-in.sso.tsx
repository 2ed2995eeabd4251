import { redirect } from 'react-router'
import type { Route } from './+types/sign-in.sso'
import { safeRedirect } from '#app/lib/safe-redirect'
import { requireAnonymous } from '#app/modules/auth/guards.server'
import { EmailSchema } from '#app/modules/auth/schemas'
import { SsoFailurePage } from '#app/modules/sso/components/sso-failure-page'
import { ssoFailureReply, ssoPageHeaders } from '#app/modules/sso/failure-reply.server'
import { readBrowserSecret, startSsoSignIn } from '#app/modules/sso/sign-in.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default', i18n: 'sso' }

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches, 'sso:metaTitle') }]

export const headers: Route.HeadersFunction = ssoPageHeaders

/**
 * /sign-in/sso?email=…&redirectTo=… — the start of a sign-in through the address's organisation
 * (issue 20 §1, ADR 049): a GET, reached from the sign-in page's first step (by a link, or by its
 * script as a document load: the page's form-action allows this site only, so a form's redirect to
 * another site would be blocked). It answers a redirect to the provider, with this browser's
 * `__sso` cookie; an address no provider signs in goes back to the sign-in page; a provider that
 * does not answer ends on a page saying so.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request)
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '') || null
  const back = `/sign-in${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ''}`
  const email = EmailSchema.safeParse(url.searchParams.get('email') ?? '')
  if (!email.success) throw redirect(back)
  const start = await startSsoSignIn({
    email: email.data,
    redirectTo,
    browserSecret: readBrowserSecret(request),
    meta: { ip: context.ip, userAgent: request.headers.get('user-agent') },
  })
  if (start.ok) throw redirect(start.location, { headers: { 'Set-Cookie': start.cookie } })
  if (start.failure === null) throw redirect(back)
  const { failure, providerName, retryAfterSeconds } = start
  return ssoFailureReply({ failure, providerName }, retryAfterSeconds)
}

export default function SsoStart({ loaderData }: Route.ComponentProps) {
  return <SsoFailurePage failure={loaderData.failure} />
}
