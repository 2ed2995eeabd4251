import type { SubmissionResult } from '@conform-to/react'
import { data, redirect } from 'react-router'
import type { Route } from './+types/verification'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import * as z from '#app/lib/zod'
import { getEnv } from '#app/config/env.server'
import { acceptInvite } from '#app/modules/invite/accept.server'
import {
  createFirstAdmin,
  setPasswordWithCode,
  signInWithLink,
  verifyEmailWithCode,
} from '#app/modules/auth/auth.server'
import { VerificationPage } from '#app/modules/verification/components/verification-page'
import { readDevice, trustDeviceCookie } from '#app/modules/auth/device.server'
import { translatedAuthError } from '#app/modules/auth/errors.server'
import { metaT } from '#app/modules/i18n/meta'
import { homeFor } from '#app/modules/auth/guards.server'
import { newPasswordSchema, setupSchema } from '#app/modules/auth/schemas'
import { afterFirstFactor } from '#app/modules/auth/second-factor.server'
import { getRequestSession, sessionCookie } from '#app/modules/auth/session.server'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import { VERIFICATION_MODES, verificationTitleKey } from '#app/modules/verification/verification'
import {
  checkLinkCode,
  loadVerificationPage,
  pendingCookie,
  readPendingCode,
} from '#app/modules/verification/verification.server'
import { toastHeader } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

/**
 * The e-mail action handler: /verification?mode=verifyEmail|resetPassword|activate|invite|setup|signIn&code=…
 * A code never stays in the address bar: it moves into a short-lived HttpOnly cookie and the page
 * redirects to the same mode without it (no code in history, logs or Referer headers). A GET never
 * changes anything (ADR 005, 007): every mode acts on the POST of the page behind the link — a
 * password form, or a single button for an invitation (pressed by script when there is one), for
 * confirming a new e-mail address and for a one-time sign-in link.
 */
export const handle: RouteHandle = { layout: 'default', i18n: 'verification' }

// Every mode acts on a one-time code (kept in a cookie, never in the page) and most set a password:
// the browser keeps no copy of these pages, not even in its back/forward cache (ADR 009).
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

const ModeSchema = z.enum(VERIFICATION_MODES)

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const mode = (loaderData && 'mode' in loaderData ? loaderData.mode : null) ?? null
  // A programme's page names its brand in the tab too, as in its header (white label).
  const brand = loaderData && 'brand' in loaderData ? loaderData.brand : null
  return [
    {
      title: `${metaT(matches, `verification:${verificationTitleKey(mode)}`)} · ${brand?.name ?? 'Panorama'}`,
    },
  ]
}

/**
 * Employees asked for feedback sign in with their own password, then land on the questionnaire; the
 * sign-in step wears the programme's brand.
 */
const signInTo = (questionnaireId: string, brandId: string) =>
  `/sign-in?${new URLSearchParams({ redirectTo: `/questionnaire/${questionnaireId}`, brand: brandId })}`

const meta_ = (request: Request, ip: string) => ({ ip, userAgent: request.headers.get('user-agent') })

/** Set-Cookie headers, in order (an empty value is left out). */
function cookies(...values: string[]) {
  const headers = new Headers()
  for (const value of values) if (value) headers.append('Set-Cookie', value)
  return headers
}

/** The link no longer works (used, expired, its account changed): 410, the code's cookie cleared. */
const gone = (clear: string, submitted?: boolean) =>
  data(
    { result: null, expired: true, ...(submitted === undefined ? {} : { submitted }) },
    { status: 410, headers: { 'Set-Cookie': clear } },
  )

/** A form refused: its messages (never the passwords typed), 400. */
const refused = (result: SubmissionResult<string[]>) => data({ result, expired: false }, { status: 400 })
const PASSWORDS = ['password', 'confirmPassword']

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const mode = ModeSchema.safeParse(url.searchParams.get('mode')).data ?? null
  const code = url.searchParams.get('code')
  if (mode && code !== null) {
    const refused = await checkLinkCode(mode, code, request)
    if (refused) return data(refused, { status: 410 })
    throw redirect(`/verification?mode=${mode}`, {
      headers: { 'Set-Cookie': await pendingCookie().serialize({ mode, code }) },
    })
  }
  const page = await loadVerificationPage(request, mode, Boolean(url.searchParams.get('done')))
  const status =
    page.state === 'invalid' ? 400 : page.state === 'expired' || page.state === 'submitted' ? 410 : 200
  return data(page, { status })
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsedMode = ModeSchema.safeParse(new URL(request.url).searchParams.get('mode'))
  if (!parsedMode.success) return data({ result: null, expired: true }, { status: 400 })
  const mode = parsedMode.data
  const code = await readPendingCode(request, mode)
  const formData = await readFormData(request)
  const minLength = getEnv().PASSWORD_MIN_LENGTH
  const clear = await pendingCookie().serialize('', { maxAge: 0 })
  if (!code) return data({ result: null, expired: true }, { status: 410 })
  const about = meta_(request, context.ip)

  if (mode === 'invite' || mode === 'signIn') {
    if (mode === 'invite' && !(await verifyTurnstile(formData, context.ip)))
      return refused({
        status: 'error',
        error: { '': [await translatedAuthError(request, 'auth/captcha-check-failed')] },
      })
    const current = await getRequestSession(request)
    const signedIn = current ? { userId: current.user.id, sessionId: current.session.id } : null
    if (mode === 'invite') {
      const result = await acceptInvite(code, about, signedIn)
      if (!result.ok) return gone(clear, result.submitted)
      if ('signIn' in result)
        throw redirect(signInTo(result.questionnaireId, result.brandId), { headers: cookies(clear) })
      const session = 'token' in result ? sessionCookie(result.token, result.expiresAt) : ''
      throw redirect(`/questionnaire/${result.questionnaireId}`, { headers: cookies(clear, session) })
    }
    const result = await signInWithLink(code, about, signedIn)
    if (!result.ok) return gone(clear)
    const next = result.opened ? afterFirstFactor(result.opened) : null
    // The link proves the inbox, not the authenticator: the second step first (ADR 048).
    if (next?.secondFactor) throw redirect(next.location, { headers: cookies(clear, next.cookie) })
    const session = next?.cookie ?? ''
    // The link proved the owner: this browser is now a trusted device for the account (ADR 007).
    const device = await trustDeviceCookie(result.userId, await readDevice(request))
    throw redirect(await homeFor({ id: result.userId, role: result.role }), {
      headers: cookies(clear, session, device),
    })
  }

  if (mode === 'verifyEmail') {
    if (!(await verifyEmailWithCode(code)).ok) return gone(clear)
    throw redirect('/verification?mode=verifyEmail&done=1', { headers: cookies(clear) })
  }

  if (mode === 'setup') {
    const submission = parseForm(formData, { schema: setupSchema(minLength) })
    if (submission.status !== 'success') return refused(submission.reply({ hideFields: PASSWORDS }))
    const result = await createFirstAdmin(code, submission.value, about)
    if (!result.ok && result.code === 'auth/email-already-in-use') {
      const fieldErrors = { email: [await translatedAuthError(request, result.code)] }
      return refused(submission.reply({ fieldErrors, hideFields: PASSWORDS }))
    }
    if (!result.ok) return gone(clear)
    const welcome = {
      kind: 'success',
      title: 'Welcome to Panorama',
      description: 'Your admin account is ready.',
    } as const
    const next = afterFirstFactor(result.opened)
    if (next.secondFactor) throw redirect(next.location, { headers: cookies(clear, next.cookie) })
    throw redirect('/admin', { headers: cookies(clear, next.cookie, await toastHeader(welcome)) })
  }

  const submission = parseForm(formData, { schema: newPasswordSchema(minLength) })
  if (submission.status !== 'success') return refused(submission.reply({ hideFields: PASSWORDS }))
  const reset = mode === 'resetPassword'
  const kind = reset ? 'reset_password' : 'activate_account'
  const result = await setPasswordWithCode(kind, code, submission.value.password, about)
  if (!result.ok && result.code === 'auth/sso-required')
    return refused(
      submission.reply({
        formErrors: [await translatedAuthError(request, result.code)],
        hideFields: PASSWORDS,
      }),
    )
  if (!result.ok) return gone(clear)
  const next = afterFirstFactor(result.opened)
  // The password is set; signing in still takes the second factor (ADR 048).
  if (next.secondFactor) throw redirect(next.location, { headers: cookies(clear, next.cookie) })
  const toast = await toastHeader({
    kind: 'success',
    title: reset ? 'Your password has been changed' : 'Your account is active',
    description: reset ? 'You are signed in; other devices have been signed out.' : undefined,
  })
  throw redirect(await homeFor({ id: result.userId, role: result.role }), {
    headers: cookies(clear, next.cookie, toast),
  })
}

export default function Verification({ loaderData, actionData }: Route.ComponentProps) {
  return <VerificationPage loaderData={loaderData} actionData={actionData} />
}
