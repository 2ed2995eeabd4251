import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useNavigation, useSearchParams } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/sign-in'
import { Field, FormErrors } from '#app/components/forms'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import { BotCheck } from '#app/components/turnstile'
import { isTimeoutError, signInTimeoutMs, withTimeout } from '#app/lib/network-timeout'
import { safeRedirect } from '#app/lib/safe-redirect'
import { signIn } from '#app/modules/auth/auth.server'
import { readDevice, trustDeviceCookie } from '#app/modules/auth/device.server'
import { authErrorMessage } from '#app/modules/auth/errors'
import { getBrandLook } from '#app/modules/brand/look.server'
import { homeFor, requireAnonymous } from '#app/modules/auth/guards.server'
import { SignInSchema } from '#app/modules/auth/schemas'
import { sessionCookie } from '#app/modules/auth/session.server'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'default' }

export const meta: Route.MetaFunction = () => [{ title: 'Sign In' }]

// React Router keeps an action's headers only when the route passes them on: the 429's Retry-After.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

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
      { result: submission.reply({ formErrors: [authErrorMessage(result.code)], hideFields: ['password'] }) },
      {
        status: limited ? 429 : 400,
        headers: limited ? { 'Retry-After': String(result.retryAfterSeconds ?? 60) } : undefined,
      },
    )
  }
  const home = await homeFor(result.user)
  const headers = new Headers([['Set-Cookie', sessionCookie(result.token, result.expiresAt)]])
  // This browser is now a trusted device for the account (ADR 007).
  headers.append('Set-Cookie', await trustDeviceCookie(result.user.id, device))
  return redirect(safeRedirect(submission.value.redirectTo, home), { headers })
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
  const [form, fields] = useForm({
    id: 'sign-in',
    constraint: getZodConstraint(SignInSchema),
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInSchema }),
    shouldRevalidate: 'onInput',
  })
  const busy = navigation.state !== 'idle' && navigation.formAction?.startsWith('/sign-in')
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Sign in</h1>
        <p className="mt-2 text-slate-700">Welcome back. Sign in to see your feedback.</p>
      </div>
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
      <p className="text-sm text-slate-700">
        Asked to give feedback on a colleague? Use the link in your invitation e-mail; you do not need an
        account.
      </p>
    </div>
  )
}
