import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { createCookie, data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/verification'
import { Field, FormErrors } from '#app/components/forms'
import { readFormData } from '#app/lib/form-data.server'
import { BotCheck } from '#app/components/turnstile'
import { getEnv } from '#app/config/env.server'
import { KIND_OF_MODE } from '#app/modules/auth/action-codes.server'
import {
  acceptInvite,
  checkActionCode,
  createFirstAdmin,
  setPasswordWithCode,
  verifyEmailWithCode,
} from '#app/modules/auth/auth.server'
import { authErrorMessage } from '#app/modules/auth/errors'
import { homeFor } from '#app/modules/auth/guards.server'
import { newPasswordSchema, setupSchema } from '#app/modules/auth/schemas'
import { sessionCookie } from '#app/modules/auth/session.server'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import { toastHeader } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

/**
 * The e-mail action handler: /verification?mode=verifyEmail|resetPassword|activate|invite|setup&code=…
 * A code never stays in the address bar: it moves into a short-lived HttpOnly cookie and the page
 * redirects to the same mode without it (no code in history, logs or Referer headers).
 */
export const handle: RouteHandle = { layout: 'default' }

const MODES = ['verifyEmail', 'resetPassword', 'activate', 'invite', 'setup'] as const
type Mode = (typeof MODES)[number]
const ModeSchema = z.enum(MODES)

const TITLES: Record<Mode, string> = {
  verifyEmail: 'Confirm your e-mail address',
  resetPassword: 'Choose a new password',
  activate: 'Activate your account',
  invite: 'Give feedback',
  setup: 'Create the first admin account',
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => {
  const mode = loaderData && 'mode' in loaderData ? loaderData.mode : null
  return [{ title: `${mode ? TITLES[mode] : 'Verification'} · Panorama` }]
}

function pendingCookie() {
  const env = getEnv()
  return createCookie('__action', {
    httpOnly: true,
    sameSite: 'lax',
    // Path=/ rather than /verification: script submissions post to /verification.data, which a
    // /verification cookie path would not match.
    path: '/',
    maxAge: 60 * 60,
    secure: env.secure,
    secrets: [`action:${env.SESSION_SECRET}`],
  })
}

async function readPending(request: Request, mode: Mode): Promise<string | null> {
  const value = (await pendingCookie()
    .parse(request.headers.get('Cookie'))
    .catch(() => null)) as { mode?: string; code?: string } | null
  return value?.mode === mode && typeof value.code === 'string' ? value.code : null
}

/** Employees asked for feedback sign in with their own password, then land on the questionnaire. */
const signInTo = (questionnaireId: string) =>
  `/sign-in?${new URLSearchParams({ redirectTo: `/questionnaire/${questionnaireId}` })}`

const meta_ = (request: Request, ip: string) => ({ ip, userAgent: request.headers.get('user-agent') })

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const parsedMode = ModeSchema.safeParse(url.searchParams.get('mode'))
  if (!parsedMode.success) {
    return data(
      { state: 'invalid' as const, message: authErrorMessage('auth/invalid-action-code') },
      { status: 400 },
    )
  }
  const mode = parsedMode.data
  const kind = KIND_OF_MODE[mode]!
  const code = url.searchParams.get('code')
  const expired = () =>
    data(
      { state: 'expired' as const, mode, message: authErrorMessage('auth/expired-action-code') },
      { status: 410 },
    )

  if (code !== null) {
    if (mode === 'verifyEmail') {
      const result = await verifyEmailWithCode(code)
      if (!result.ok) return expired()
      throw redirect('/verification?mode=verifyEmail&done=1')
    }
    if (mode === 'invite' && !getEnv().turnstileEnabled) {
      const result = await acceptInvite(code, meta_(request, context.ip))
      if (!result.ok) return expired()
      if ('signIn' in result) throw redirect(signInTo(result.questionnaireId))
      throw redirect(`/questionnaire/${result.questionnaireId}`, {
        headers: { 'Set-Cookie': sessionCookie(result.token, result.expiresAt) },
      })
    }
    const check = await checkActionCode(kind, code)
    if (!check.ok) return expired()
    throw redirect(`/verification?mode=${mode}`, {
      headers: { 'Set-Cookie': await pendingCookie().serialize({ mode, code }) },
    })
  }

  if (mode === 'verifyEmail') {
    return url.searchParams.get('done') ? { state: 'done' as const, mode } : expired()
  }
  const pending = await readPending(request, mode)
  if (!pending) return expired()
  const check = await checkActionCode(kind, pending)
  if (!check.ok) return expired()
  return {
    state: 'form' as const,
    mode,
    email: check.email,
    passwordMinLength: getEnv().PASSWORD_MIN_LENGTH,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url)
  const parsedMode = ModeSchema.safeParse(url.searchParams.get('mode'))
  if (!parsedMode.success || parsedMode.data === 'verifyEmail') {
    return data({ result: null, expired: true }, { status: 400 })
  }
  const mode = parsedMode.data
  const code = await readPending(request, mode)
  const formData = await readFormData(request)
  const env = getEnv()
  const clear = await pendingCookie().serialize('', { maxAge: 0 })
  if (!code) return data({ result: null, expired: true }, { status: 410 })

  if (mode === 'invite') {
    if (!(await verifyTurnstile(formData, context.ip))) {
      return data(
        {
          result: {
            status: 'error' as const,
            error: { '': [authErrorMessage('auth/captcha-check-failed')] },
          },
          expired: false,
        },
        { status: 400 },
      )
    }
    const result = await acceptInvite(code, meta_(request, context.ip))
    if (!result.ok) return data({ result: null, expired: true }, { status: 410 })
    if ('signIn' in result)
      throw redirect(signInTo(result.questionnaireId), { headers: { 'Set-Cookie': clear } })
    const headers = new Headers([['Set-Cookie', clear]])
    headers.append('Set-Cookie', sessionCookie(result.token, result.expiresAt))
    throw redirect(`/questionnaire/${result.questionnaireId}`, { headers })
  }

  if (mode === 'setup') {
    const schema = setupSchema(env.PASSWORD_MIN_LENGTH)
    const submission = parseWithZod(formData, { schema })
    if (submission.status !== 'success') {
      return data(
        { result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), expired: false },
        { status: 400 },
      )
    }
    const result = await createFirstAdmin(code, submission.value, meta_(request, context.ip))
    if (!result.ok) {
      if (result.code === 'auth/email-already-in-use') {
        return data(
          {
            result: submission.reply({
              fieldErrors: { email: [authErrorMessage(result.code)] },
              hideFields: ['password', 'confirmPassword'],
            }),
            expired: false,
          },
          { status: 400 },
        )
      }
      return data({ result: null, expired: true }, { status: 410, headers: { 'Set-Cookie': clear } })
    }
    const headers = new Headers([['Set-Cookie', clear]])
    headers.append('Set-Cookie', sessionCookie(result.token, result.expiresAt))
    headers.append(
      'Set-Cookie',
      await toastHeader({
        kind: 'success',
        title: 'Welcome to Panorama',
        description: 'Your admin account is ready.',
      }),
    )
    throw redirect('/admin', { headers })
  }

  const schema = newPasswordSchema(env.PASSWORD_MIN_LENGTH)
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') {
    return data(
      { result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), expired: false },
      { status: 400 },
    )
  }
  const kind = mode === 'resetPassword' ? 'reset_password' : 'activate_account'
  const result = await setPasswordWithCode(kind, code, submission.value.password, meta_(request, context.ip))
  if (!result.ok)
    return data({ result: null, expired: true }, { status: 410, headers: { 'Set-Cookie': clear } })
  const headers = new Headers([['Set-Cookie', clear]])
  headers.append('Set-Cookie', sessionCookie(result.token, result.expiresAt))
  headers.append(
    'Set-Cookie',
    await toastHeader({
      kind: 'success',
      title: mode === 'resetPassword' ? 'Your password has been changed' : 'Your account is active',
      description:
        mode === 'resetPassword' ? 'You are signed in; other devices have been signed out.' : undefined,
    }),
  )
  throw redirect(await homeFor({ id: result.userId, role: result.role }), { headers })
}

function Expired({ message }: { message: string }) {
  return (
    <div className="card flex flex-col gap-3" role="alert">
      <p className="font-semibold">{message}</p>
      <p className="text-slate-700">
        Links in our e-mails work once and for a limited time. You can{' '}
        <Link to="/forgot-password" className="link">
          ask for a new password link
        </Link>{' '}
        or contact the person who invited you.
      </p>
    </div>
  )
}

function PasswordForm({
  mode,
  email,
  minLength,
  lastResult,
}: {
  mode: 'resetPassword' | 'activate' | 'setup'
  email: string | null
  minLength: number
  lastResult: never
}) {
  const schema = mode === 'setup' ? setupSchema(minLength) : newPasswordSchema(minLength)
  const [form, fields] = useForm({
    id: `verification-${mode}`,
    constraint: getZodConstraint(schema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldRevalidate: 'onInput',
  })
  const f = fields as Record<string, (typeof fields)[keyof typeof fields]>
  return (
    <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      {email && mode !== 'setup' ? (
        <p className="text-slate-700">
          Account: <strong>{email}</strong>
        </p>
      ) : null}
      {mode === 'setup' ? (
        <>
          <Field
            label="Your name"
            inputProps={{ ...getInputProps(f.displayName!, { type: 'text' }), autoComplete: 'name' }}
            errors={f.displayName!.errors}
          />
          <Field
            label="E-mail address"
            inputProps={{ ...getInputProps(f.email!, { type: 'email' }), autoComplete: 'email' }}
            errors={f.email!.errors}
          />
        </>
      ) : null}
      <Field
        label="New password"
        help={`At least ${minLength} characters.`}
        inputProps={{ ...getInputProps(f.password!, { type: 'password' }), autoComplete: 'new-password' }}
        errors={f.password!.errors}
      />
      <Field
        label="Repeat the password"
        inputProps={{
          ...getInputProps(f.confirmPassword!, { type: 'password' }),
          autoComplete: 'new-password',
        }}
        errors={f.confirmPassword!.errors}
      />
      <button type="submit" className="btn btn-primary">
        {mode === 'setup'
          ? 'Create admin account'
          : mode === 'activate'
            ? 'Activate account'
            : 'Save new password'}
      </button>
    </Form>
  )
}

export default function Verification({ loaderData, actionData }: Route.ComponentProps) {
  const expired = actionData && 'expired' in actionData && actionData.expired
  const mode = 'mode' in loaderData ? loaderData.mode : null
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <h1 className="text-3xl font-bold tracking-tight">{mode ? TITLES[mode] : 'Verification'}</h1>
      {expired ? (
        <Expired message={authErrorMessage('auth/expired-action-code')} />
      ) : loaderData.state === 'invalid' || loaderData.state === 'expired' ? (
        <Expired message={loaderData.message} />
      ) : loaderData.state === 'done' ? (
        <div className="card" role="status">
          <p className="font-semibold">Your e-mail address is confirmed.</p>
          <Link to="/sign-in" className="link mt-2 inline-block">
            Continue
          </Link>
        </div>
      ) : loaderData.mode === 'invite' ? (
        <Form method="post" className="card flex flex-col gap-4">
          <FormErrors
            errors={
              actionData?.result && 'error' in actionData.result
                ? (actionData.result.error as Record<string, string[]>)['']
                : undefined
            }
          />
          <p>
            You have been asked for feedback. It takes a few minutes, and your answers are shown to the person
            only together with other colleagues&apos; answers.
          </p>
          <BotCheck />
          <button type="submit" className="btn btn-primary">
            Continue to the questionnaire
          </button>
        </Form>
      ) : (
        <PasswordForm
          mode={loaderData.mode as 'resetPassword' | 'activate' | 'setup'}
          email={loaderData.email}
          minLength={loaderData.passwordMinLength}
          lastResult={(actionData?.result ?? undefined) as never}
        />
      )}
    </div>
  )
}
