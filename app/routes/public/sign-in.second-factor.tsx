import { data, redirect } from 'react-router'
import type { Route } from './+types/sign-in.second-factor'
import { parseForm, readFormData, unreadableForm } from '#app/lib/form-data.server'
import { replyRefused } from '#app/lib/reply.server'
import { safeRedirect } from '#app/lib/safe-redirect'
import { SecondFactorPage } from '#app/modules/auth/components/second-factor-page'
import { readDevice, trustDeviceCookie } from '#app/modules/auth/device.server'
import { homeFor, requireAnonymous } from '#app/modules/auth/guards.server'
import { SecondFactorSchema, SetUpCodeSchema } from '#app/modules/auth/schemas'
import {
  cancelChallenge,
  clearChallengeCookie,
  confirmChallengeSetUp,
  finishChallengeSetUp,
  hasChallengeCookie,
  readChallenge,
  recoveryCodeToast,
  verifyChallenge,
  type SecondFactorDone,
} from '#app/modules/auth/second-factor.server'
import { sessionCookie } from '#app/modules/auth/session.server'
import { getSecondFactorState } from '#app/modules/auth/totp.server'
import { redirectWithToast, toastHeader } from '#app/modules/toast/toast.server'
import { translatedSecondFactorMessage, triesLeftMessage } from '#app/modules/auth/errors.server'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

/**
 * The second step of signing in (ADR 048): a code from the authenticator app or a recovery code; or,
 * for an admin who must have a second factor and has none, setting one up. Reached only with the
 * challenge cookie a good password (or an e-mailed link) left; it opens no other page.
 */
export const handle: RouteHandle = { layout: 'default', i18n: 'second-factor' }

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => [
  {
    title: metaT(
      matches,
      loaderData?.step === 'verify' || !loaderData ? 'second-factor:title' : 'second-factor:setUpTitle',
    ),
  },
]

// The set-up shows a secret and the recovery codes: the browser keeps no copy of this page (ADR 009).
// A 429's Retry-After passes through.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

const ENDED = {
  kind: 'info',
  title: 'Please sign in again',
  description: 'Your sign-in took too long or had too many wrong codes.',
} as const

/** No live challenge: back to the password, told why when there was one. */
async function ended(request: Request): Promise<never> {
  if (!hasChallengeCookie(request)) throw redirect('/sign-in')
  throw await redirectWithToast('/sign-in', ENDED, { headers: { 'Set-Cookie': clearChallengeCookie() } })
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  const challenge = (await readChallenge(request)) ?? (await ended(request))
  const setup = challenge.step === 'enrol' ? (await getSecondFactorState(challenge.userId)).setup : null
  return { step: challenge.step, email: challenge.email, setup }
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request)
  const challenge = (await readChallenge(request)) ?? (await ended(request))
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  const meta = { ip: context.ip, userAgent: request.headers.get('user-agent') }

  if (intent === 'cancel') {
    await cancelChallenge(challenge)
    throw redirect('/sign-in', { headers: { 'Set-Cookie': clearChallengeCookie() } })
  }

  if (intent === 'verify' && challenge.step === 'verify') {
    const submission = parseForm(formData, { schema: SecondFactorSchema })
    if (submission.status !== 'success')
      return data({ intent, result: submission.reply({ hideFields: ['code'] }) }, { status: 400 })
    const device = await readDevice(request)
    const result = await verifyChallenge(challenge, submission.value.code, { ...meta, device })
    if (!result.ok) {
      if (result.reason === 'ended') return ended(request)
      if (result.reason === 'limited')
        return replyRefused(intent, submission, {
          ok: false,
          formErrors: [await translatedSecondFactorMessage(request, result.message)],
          retryAfterSeconds: result.retryAfterSeconds,
        })
      const wrong = await translatedSecondFactorMessage(request, result.message)
      const left = await triesLeftMessage(request, result.attemptsLeft)
      return data(
        {
          intent,
          result: submission.reply({ fieldErrors: { code: [wrong, left] }, hideFields: ['code'] }),
        },
        { status: 400 },
      )
    }
    return signedIn(request, result, submission.value.redirectTo)
  }

  if (intent === 'confirm' && challenge.step === 'enrol') {
    const submission = parseForm(formData, { schema: SetUpCodeSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const outcome = await confirmChallengeSetUp(challenge, submission.value.code, meta)
    if (!outcome.ok)
      return replyRefused(intent, submission, {
        ...outcome,
        formErrors: await Promise.all(
          (outcome.formErrors ?? []).map((m) => translatedSecondFactorMessage(request, m)),
        ),
      })
    // Shown once, in this answer only; "Continue" then opens the session.
    return {
      intent,
      result: submission.reply({ resetForm: true }),
      recoveryCodes: outcome.value.recoveryCodes,
    }
  }

  if (intent === 'continue' && challenge.step === 'enrolled') {
    const done = (await finishChallengeSetUp(challenge, meta)) ?? (await ended(request))
    const redirectTo = formData.get('redirectTo')
    return signedIn(request, done, typeof redirectTo === 'string' ? redirectTo : undefined)
  }

  // No intent, an unknown one, or one this step does not take (a stale tab): nothing happens.
  return unreadableForm()
}

/** The session's cookie, this browser trusted from now on (ADR 007), the challenge's cookie cleared. */
async function signedIn(request: Request, done: SecondFactorDone, redirectTo: string | undefined) {
  const headers = new Headers()
  headers.append('Set-Cookie', clearChallengeCookie())
  headers.append('Set-Cookie', sessionCookie(done.token, done.expiresAt))
  headers.append('Set-Cookie', await trustDeviceCookie(done.user.id, await readDevice(request)))
  const toast = recoveryCodeToast(done, await getFixedT(request, 'second-factor'))
  if (toast) headers.append('Set-Cookie', await toastHeader(toast))
  throw redirect(safeRedirect(redirectTo, await homeFor(done.user)), { headers })
}

export default function SecondFactor({ loaderData, actionData }: Route.ComponentProps) {
  return <SecondFactorPage loaderData={loaderData} actionData={actionData} />
}
