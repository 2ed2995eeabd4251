import { data, redirect, redirectDocument } from 'react-router'
import type { Route } from './+types/sign-in'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { passRetryAfter, refusedInit } from '#app/lib/reply.server'
import { isTimeoutError, signInTimeoutMs, withTimeout } from '#app/lib/network-timeout'
import { safeRedirect } from '#app/lib/safe-redirect'
import { isUuid } from '#app/lib/ids'
import { requestSignInLink, signIn } from '#app/modules/auth/auth.server'
import { SIGN_IN_LINK_SENT_MESSAGE, SignInPage } from '#app/modules/auth/components/sign-in-page'
import { readDevice, trustDeviceCookie } from '#app/modules/auth/device.server'
import { translatedAuthError } from '#app/modules/auth/errors.server'
import { clientT, metaT } from '#app/modules/i18n/meta'
import { getBrandLook } from '#app/modules/brand/look.server'
import { homeFor, requireAnonymous } from '#app/modules/auth/guards.server'
import {
  CONTINUE_INTENT,
  ContinueSchema,
  SIGN_IN_LINK_INTENT,
  SignInLinkSchema,
  SignInSchema,
} from '#app/modules/auth/schemas'
import { identityProvidersExist, providerForEmail } from '#app/modules/sso/provider.server'
import { afterFirstFactor } from '#app/modules/auth/second-factor.server'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default', i18n: 'auth' }

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches, 'auth:signIn.metaTitle') }]

// Said whether or not the address has an account: the tests read it from this page.
export { SIGN_IN_LINK_SENT_MESSAGE }

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  // The sign-in step of an invitation wears its programme's brand: /sign-in?brand=<brand id> (a brand's
  // look is public, like its logo). Without one, Panorama's own sign-in page.
  const brandId = new URL(request.url).searchParams.get('brand')
  // With identity providers set up, the page asks for the address first (ADR 049).
  const [brand, emailFirst] = await Promise.all([
    isUuid(brandId) ? getBrandLook(brandId) : undefined,
    identityProvidersExist(),
  ])
  return brand === undefined ? { emailFirst } : { brand, emailFirst }
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request)
  const formData = await readFormData(request)
  if (formData.get('intent') === SIGN_IN_LINK_INTENT) return askForSignInLink(request, formData, context)
  if (formData.get('intent') === CONTINUE_INTENT) return continueWithEmail(formData)
  const submission = parseForm(formData, { schema: SignInSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  }
  if (!(await verifyTurnstile(formData, context.ip))) {
    return data(
      {
        result: submission.reply({
          formErrors: [await translatedAuthError(request, 'auth/captcha-check-failed')],
          hideFields: ['password'],
        }),
      },
      { status: 400 },
    )
  }
  const device = await readDevice(request)
  const result = await signIn({
    email: submission.value.email,
    password: submission.value.password,
    ip: context.ip,
    userAgent: request.headers.get('user-agent'),
    device,
  })
  if (!result.ok) {
    const limited = result.code === 'auth/too-many-requests'
    return data(
      {
        result: submission.reply({
          formErrors: [await translatedAuthError(request, result.code)],
          hideFields: ['password'],
        }),
        // Refused, by the limits or the password: offer a way in that needs neither (ADR 007). Said
        // for every address alike, so it tells nothing about the account. Not to an account that
        // signs in through its organisation's provider (said only after the right password).
        offerLinkTo: result.code === 'auth/sso-required' ? null : submission.value.email,
      },
      refusedInit({ retryAfterSeconds: limited ? (result.retryAfterSeconds ?? 60) : undefined }),
    )
  }
  const next = afterFirstFactor(result.opened, submission.value.redirectTo)
  // A second factor is due (ADR 048): its step, not a session, and no trusted device yet.
  if (next.secondFactor) return redirect(next.location, { headers: { 'Set-Cookie': next.cookie } })
  const home = await homeFor(result.user)
  const headers = new Headers([['Set-Cookie', next.cookie]])
  // This browser is now a trusted device for the account (ADR 007).
  headers.append('Set-Cookie', await trustDeviceCookie(result.user.id, device))
  return redirect(safeRedirect(submission.value.redirectTo, home), { headers })
}

/**
 * The first step where identity providers are set up (ADR 049): the address's domain has a provider
 * (the answer is where to start its sign-in), or the password form follows with the address filled
 * in. The domain alone decides: the same answer for an address with an account and one without.
 */
async function continueWithEmail(formData: FormData) {
  const intent = CONTINUE_INTENT
  const submission = parseForm(formData, { schema: ContinueSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
  const { email, redirectTo } = submission.value
  const provider = await providerForEmail(email)
  if (!provider) return { intent, result: submission.reply(), password: { email } }
  const start = new URLSearchParams({ email })
  const to = safeRedirect(redirectTo, '')
  if (to) start.set('redirectTo', to)
  return { intent, result: submission.reply(), sso: { href: `/sign-in/sso?${start}`, name: provider.name } }
}

/**
 * "E-mail me a one-time sign-in link": the same answer whatever became of the request (unknown
 * address, a colleague, a disabled account, a limit reached); the e-mail, if any, is written after
 * the answer has gone (requestSignInLink).
 */
async function askForSignInLink(request: Request, formData: FormData, context: Route.ActionArgs['context']) {
  const intent = SIGN_IN_LINK_INTENT
  const submission = parseForm(formData, { schema: SignInLinkSchema })
  // Refused: the offer stays, for the address it was made for.
  const posted = formData.get('email')
  const offerLinkTo = typeof posted === 'string' && posted.length <= 254 ? posted : null
  if (submission.status !== 'success')
    return data({ intent, result: submission.reply(), sent: false, offerLinkTo }, { status: 400 })
  if (!(await verifyTurnstile(formData, context.ip))) {
    return data(
      {
        intent,
        result: submission.reply({
          formErrors: [await translatedAuthError(request, 'auth/captcha-check-failed')],
        }),
        sent: false,
        offerLinkTo,
      },
      { status: 400 },
    )
  }
  await requestSignInLink(submission.value.email, context.ip, { after: context.responseSent })
  return { intent, result: submission.reply({ resetForm: true }), sent: true, offerLinkTo: null }
}

/**
 * The sign-in client's network timeout (30 s desktop, 60 s mobile): a sign-in that hangs shows a
 * message instead of a spinner forever. Without JavaScript the browser's own timeout applies.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    const reply = await withTimeout(serverAction(), signInTimeoutMs(navigator.userAgent))
    // The address's organisation signs it in: off to its provider at once, as a document load (the
    // start answers with a redirect to the provider's site; ADR 049).
    if (reply && 'sso' in reply && reply.sso) return redirectDocument(reply.sso.href)
    return reply
  } catch (error) {
    if (!isTimeoutError(error)) throw error
    return { result: { status: 'error' as const, error: { '': [clientT('auth:errors.auth/timeout')] } } }
  }
}

export default function SignIn({ actionData, loaderData }: Route.ComponentProps) {
  return <SignInPage actionData={actionData} emailFirst={loaderData.emailFirst} />
}
