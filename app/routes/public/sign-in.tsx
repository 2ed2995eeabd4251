import { getFormProps, getInputProps } from '@conform-to/react'
import { data, Form, Link, redirect, useNavigation, useSearchParams } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/sign-in'
import { useConformForm } from '#app/components/form-kit'
import { Field, FormErrors } from '#app/components/forms'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { passRetryAfter, refusedInit } from '#app/lib/reply.server'
import { BotCheck } from '#app/components/turnstile'
import { isTimeoutError, signInTimeoutMs, withTimeout } from '#app/lib/network-timeout'
import { safeRedirect } from '#app/lib/safe-redirect'
import { requestSignInLink, signIn } from '#app/modules/auth/auth.server'
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

/** Said whether or not the address has an account (and whatever the limits did): nothing to learn. */
export const SIGN_IN_LINK_SENT_MESSAGE =
  'If an account exists for that address, we have sent it a one-time sign-in link. The link works for 15 minutes.'

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request)
  // The sign-in step of an invitation wears its programme's brand: /sign-in?brand=<brand id> (a brand's
  // look is public, like its logo). Without one, Panorama's own sign-in page.
  const brandId = z.uuid().safeParse(new URL(request.url).searchParams.get('brand'))
  return brandId.success ? { brand: await getBrandLook(brandId.data) } : {}
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
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const link = actionData && 'intent' in actionData ? actionData : null
  const offerLinkTo = actionData && 'offerLinkTo' in actionData ? actionData.offerLinkTo : null
  const [form, fields] = useConformForm(SignInSchema, {
    id: 'sign-in',
    // A link sent resets the sign-in form too (its refusal message is no longer the news).
    lastResult: link ? (link.sent ? link.result : undefined) : actionData?.result,
  })
  const posting = navigation.state !== 'idle' && Boolean(navigation.formAction?.startsWith('/sign-in'))
  const askingForLink = posting && navigation.formData?.get('intent') === SIGN_IN_LINK_INTENT
  const busy = posting && !askingForLink
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Sign in</h1>
        <p className="mt-2 text-slate-700">Welcome back. Sign in to see your feedback.</p>
      </div>
      {link?.sent ? (
        <div role="status" className="card border-emerald-200 bg-emerald-50 text-emerald-900">
          {SIGN_IN_LINK_SENT_MESSAGE}
        </div>
      ) : null}
      <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <Field
          label="E-mail address"
          inputProps={{
            ...getInputProps(fields.email, { type: 'email' }),
            autoComplete: 'email',
            autoFocus: true,
          }}
          errors={fields.email.errors}
        />
        <Field
          label="Password"
          inputProps={{
            ...getInputProps(fields.password, { type: 'password' }),
            autoComplete: 'current-password',
          }}
          errors={fields.password.errors}
        />
        <BotCheck />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Link to="/forgot-password" className="link self-start text-sm">
          Forgot your password?
        </Link>
      </Form>
      {offerLinkTo ? (
        <SignInLinkOffer
          email={offerLinkTo}
          errors={
            link ? [link.result.error?.[''], link.result.error?.email].flatMap((e) => e ?? []) : undefined
          }
          busy={askingForLink}
        />
      ) : null}
      <p className="text-sm text-slate-700">
        Asked to give feedback on a colleague? Use the link in your invitation e-mail; you do not need an
        account.
      </p>
    </div>
  )
}

/**
 * Offered after a refusal (ADR 007): during an attack on an account, a browser it has not signed in
 * from may be held back for as long as the attack lasts; a link to the owner's inbox gets them in,
 * and trusts the browser from then on. Its own form and bot check (the sign-in form's token is spent).
 */
function SignInLinkOffer({ email, errors, busy }: { email: string; errors?: string[]; busy: boolean }) {
  return (
    <section aria-labelledby="sign-in-link-heading" className="card flex flex-col gap-3">
      <h2 id="sign-in-link-heading" className="text-lg font-semibold">
        Can’t sign in right now?
      </h2>
      <Form method="post" className="flex flex-col gap-3">
        <FormErrors errors={errors} />
        <p className="text-slate-700">
          We can e-mail <strong className="break-words">{email}</strong> a link that signs you in once. It
          works for 15 minutes, and this browser is remembered for your next sign-in.
        </p>
        <input type="hidden" name="intent" value={SIGN_IN_LINK_INTENT} />
        <input type="hidden" name="email" value={email} />
        <BotCheck />
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {busy ? 'Sending…' : 'E-mail me a one-time sign-in link'}
        </button>
      </Form>
    </section>
  )
}
