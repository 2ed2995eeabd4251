import { data, redirect } from 'react-router'
import type { Route } from './+types/sign-in'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { passRetryAfter, refusedInit } from '#app/lib/reply.server'
import { isTimeoutError, signInTimeoutMs, withTimeout } from '#app/lib/network-timeout'
import { safeRedirect } from '#app/lib/safe-redirect'
import { isUuid } from '#app/lib/ids'
import { requestSignInLink, signIn } from '#app/modules/auth/auth.server'
import { SIGN_IN_LINK_SENT_MESSAGE, SignInPage } from '#app/modules/auth/components/sign-in-page'
import { readDevice, trustDeviceCookie } from '#app/modules/auth/device.server'
import { authErrorMessage } from '#app/modules/auth/errors'
import { getBrandLook } from '#app/modules/brand/look.server'
import { homeFor, requireAnonymous } from '#app/modules/auth/guards.server'
import { SIGN_IN_LINK_INTENT, SignInLinkSchema, SignInSchema } from '#app/modules/auth/schemas'
import { sessionCookie } from '#app/modules/auth/session.server'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default' }

export const meta: Route.MetaFunction = () => [{ title: 'Sign In' }]

// Said whether or not the address has an account: the tests read it from this page.
export { SIGN_IN_LINK_SENT_MESSAGE }

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  // The sign-in step of an invitation wears its programme's brand: /sign-in?brand=<brand id> (a brand's
  // look is public, like its logo). Without one, Panorama's own sign-in page.
  const brandId = new URL(request.url).searchParams.get('brand')
  return isUuid(brandId) ? { brand: await getBrandLook(brandId) } : {}
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request)
  const formData = await readFormData(request)
  if (formData.get('intent') === SIGN_IN_LINK_INTENT) return askForSignInLink(formData, context)
  const submission = parseForm(formData, { schema: SignInSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  }
  if (!(await verifyTurnstile(formData, context.ip))) {
    return data(
      {
        result: submission.reply({
          formErrors: [authErrorMessage('auth/captcha-check-failed')],
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
        result: submission.reply({ formErrors: [authErrorMessage(result.code)], hideFields: ['password'] }),
        // Refused, by the limits or the password: offer a way in that needs neither (ADR 007). Said
        // for every address alike, so it tells nothing about the account.
        offerLinkTo: submission.value.email,
      },
      refusedInit({ retryAfterSeconds: limited ? (result.retryAfterSeconds ?? 60) : undefined }),
    )
  }
  const home = await homeFor(result.user)
  const headers = new Headers([['Set-Cookie', sessionCookie(result.token, result.expiresAt)]])
  // This browser is now a trusted device for the account (ADR 007).
  headers.append('Set-Cookie', await trustDeviceCookie(result.user.id, device))
  return redirect(safeRedirect(submission.value.redirectTo, home), { headers })
}

/**
 * "E-mail me a one-time sign-in link": the same answer whatever became of the request (unknown
 * address, a colleague, a disabled account, a limit reached); the e-mail, if any, is written after
 * the answer has gone (requestSignInLink).
 */
async function askForSignInLink(formData: FormData, context: Route.ActionArgs['context']) {
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
        result: submission.reply({ formErrors: [authErrorMessage('auth/captcha-check-failed')] }),
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
    return await withTimeout(serverAction(), signInTimeoutMs(navigator.userAgent))
  } catch (error) {
    if (!isTimeoutError(error)) throw error
    return { result: { status: 'error' as const, error: { '': [authErrorMessage('auth/timeout')] } } }
  }
}

export default function SignIn({ actionData }: Route.ComponentProps) {
  return <SignInPage actionData={actionData} />
}
