import { getFormProps, getInputProps } from '@conform-to/react'
import { useCallback, useEffect, useRef } from 'react'
import { createCookie, data, Form, Link, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/verification'
import { useConformForm } from '#app/components/form-kit'
import { Field, FormErrors } from '#app/components/forms'
import { parseForm, readFormData } from '#app/lib/form-data.server'
import * as z from '#app/lib/zod'
import { BotCheck } from '#app/components/turnstile'
import { getEnv } from '#app/config/env.server'
import { KIND_OF_MODE } from '#app/modules/action-code/action-code.server'
import { acceptInvite, checkInvite } from '#app/modules/invite/accept.server'
import {
  brandOfActivationCode,
  checkActionCode,
  createFirstAdmin,
  setPasswordWithCode,
  signInWithLink,
  verifyEmailWithCode,
} from '#app/modules/auth/auth.server'
import { readDevice, trustDeviceCookie } from '#app/modules/auth/device.server'
import { authErrorMessage } from '#app/modules/auth/errors'
import type { BrandLook } from '#app/components/brand-look'
import { homeFor } from '#app/modules/auth/guards.server'
import { newPasswordSchema, setupSchema } from '#app/modules/auth/schemas'
import { getRequestSession, sessionCookie } from '#app/modules/auth/session.server'
import { verifyTurnstile } from '#app/modules/auth/turnstile.server'
import { toastHeader } from '#app/modules/toast/toast.server'
import { useRootData, type RouteHandle } from '#app/root'

/**
 * The e-mail action handler: /verification?mode=verifyEmail|resetPassword|activate|invite|setup|signIn&code=…
 * A code never stays in the address bar: it moves into a short-lived HttpOnly cookie and the page
 * redirects to the same mode without it (no code in history, logs or Referer headers). A GET never
 * changes anything (ADR 005, 007): every mode acts on the POST of the page behind the link — a
 * password form, or a single button for an invitation (pressed by script when there is one), for
 * confirming a new e-mail address and for a one-time sign-in link.
 */
export const handle: RouteHandle = { layout: 'default' }

// Every mode acts on a one-time code (kept in a cookie, never in the page) and most set a password:
// the browser keeps no copy of these pages, not even in its back/forward cache (ADR 009).
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

const MODES = ['verifyEmail', 'resetPassword', 'activate', 'invite', 'setup', 'signIn'] as const
type Mode = (typeof MODES)[number]
const ModeSchema = z.enum(MODES)

const TITLES: Record<Mode, string> = {
  verifyEmail: 'Confirm your e-mail address',
  resetPassword: 'Choose a new password',
  activate: 'Activate your account',
  invite: 'Give feedback',
  setup: 'Create the first admin account',
  signIn: 'Sign in with your link',
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => {
  const mode = loaderData && 'mode' in loaderData ? loaderData.mode : null
  // A programme's page names its brand in the tab too, as in its header (white label).
  const brand = loaderData && 'brand' in loaderData ? loaderData.brand : null
  return [{ title: `${mode ? TITLES[mode] : 'Verification'} · ${brand?.name ?? 'Panorama'}` }]
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

/**
 * Employees asked for feedback sign in with their own password, then land on the questionnaire; the
 * sign-in step wears the programme's brand.
 */
const signInTo = (questionnaireId: string, brandId: string) =>
  `/sign-in?${new URLSearchParams({ redirectTo: `/questionnaire/${questionnaireId}`, brand: brandId })}`

const meta_ = (request: Request, ip: string) => ({ ip, userAgent: request.headers.get('user-agent') })

export async function loader({ request }: Route.LoaderArgs) {
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
  /**
   * A link that no longer works still shows whose programme it came from: an activation or invite
   * code whose owner is still found by its hash gives its brand (only the look, nothing of the account).
   */
  const expired = (brand: BrandLook | null = null) =>
    data(
      { state: 'expired' as const, mode, message: authErrorMessage('auth/expired-action-code'), brand },
      { status: 410 },
    )
  // A colleague opening their link after answering: nothing is wrong, nothing more is needed.
  const submitted = (brand: BrandLook | null) =>
    data({ state: 'submitted' as const, mode, brand }, { status: 410 })

  if (code !== null) {
    if (mode === 'invite') {
      const check = await checkInvite(code)
      if (!check.ok) return check.submitted ? submitted(check.brand) : expired(check.brand)
    } else {
      const check = await checkActionCode(kind, code)
      if (!check.ok) return expired(await linkBrand(mode, code))
    }
    throw redirect(`/verification?mode=${mode}`, {
      headers: { 'Set-Cookie': await pendingCookie().serialize({ mode, code }) },
    })
  }

  if (mode === 'verifyEmail' && url.searchParams.get('done')) return { state: 'done' as const, mode }
  const pending = await readPending(request, mode)
  if (!pending) return expired()
  if (mode === 'invite') {
    const check = await checkInvite(pending)
    if (!check.ok) return check.submitted ? submitted(check.brand) : expired(check.brand)
    // Signed in as someone else here: say so, and let them choose (no automatic switch).
    const current = await getRequestSession(request)
    const other = current && current.user.id !== check.respondentId ? current.user : null
    return {
      state: 'invite' as const,
      mode,
      subjectName: check.subjectName,
      signedInAs: other ? other.displayName || other.email : null,
      brand: check.brand,
    }
  }
  const check = await checkActionCode(kind, pending)
  if (!check.ok) return expired(await linkBrand(mode, pending))
  if (mode === 'verifyEmail') return { state: 'confirm-email' as const, mode, newEmail: check.newEmail }
  if (mode === 'signIn') {
    // Signed in as someone else here: say so before the press replaces that session.
    const current = await getRequestSession(request)
    const other = current && current.user.email !== check.email ? current.user : null
    return {
      state: 'sign-in-link' as const,
      mode,
      email: check.email,
      signedInAs: other ? other.displayName || other.email : null,
    }
  }
  return {
    state: 'form' as const,
    mode,
    email: check.email,
    passwordMinLength: getEnv().PASSWORD_MIN_LENGTH,
    // The first page an employee sees of a programme wears its brand (issue 15, B10).
    ...(mode === 'activate' ? { brand: await brandOfActivationCode(pending) } : {}),
  }
}

/** The brand an expired or used link still shows: an activation link's (an invite's comes with its check). */
function linkBrand(mode: Mode, code: string): Promise<BrandLook | null> {
  return mode === 'activate' ? brandOfActivationCode(code) : Promise.resolve(null)
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url)
  const parsedMode = ModeSchema.safeParse(url.searchParams.get('mode'))
  if (!parsedMode.success) return data({ result: null, expired: true }, { status: 400 })
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
    const current = await getRequestSession(request)
    const result = await acceptInvite(
      code,
      meta_(request, context.ip),
      current ? { userId: current.user.id, sessionId: current.session.id } : null,
    )
    if (!result.ok) {
      return data(
        { result: null, expired: true, submitted: result.submitted },
        { status: 410, headers: { 'Set-Cookie': clear } },
      )
    }
    if ('signIn' in result)
      throw redirect(signInTo(result.questionnaireId, result.brandId), { headers: { 'Set-Cookie': clear } })
    const headers = new Headers([['Set-Cookie', clear]])
    if ('token' in result) headers.append('Set-Cookie', sessionCookie(result.token, result.expiresAt))
    throw redirect(`/questionnaire/${result.questionnaireId}`, { headers })
  }

  if (mode === 'signIn') {
    const current = await getRequestSession(request)
    const result = await signInWithLink(
      code,
      meta_(request, context.ip),
      current ? { userId: current.user.id, sessionId: current.session.id } : null,
    )
    if (!result.ok)
      return data({ result: null, expired: true }, { status: 410, headers: { 'Set-Cookie': clear } })
    const headers = new Headers([['Set-Cookie', clear]])
    if (result.session)
      headers.append('Set-Cookie', sessionCookie(result.session.token, result.session.expiresAt))
    // The link proved the owner: this browser is now a trusted device for the account (ADR 007).
    headers.append('Set-Cookie', await trustDeviceCookie(result.userId, await readDevice(request)))
    throw redirect(await homeFor({ id: result.userId, role: result.role }), { headers })
  }

  if (mode === 'verifyEmail') {
    const result = await verifyEmailWithCode(code)
    if (!result.ok)
      return data({ result: null, expired: true }, { status: 410, headers: { 'Set-Cookie': clear } })
    throw redirect('/verification?mode=verifyEmail&done=1', { headers: { 'Set-Cookie': clear } })
  }

  if (mode === 'setup') {
    const schema = setupSchema(env.PASSWORD_MIN_LENGTH)
    const submission = parseForm(formData, { schema })
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
  const submission = parseForm(formData, { schema })
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

function Expired({ message, mode }: { message: string; mode: Mode | null }) {
  return (
    <div className="card flex flex-col gap-3" role="alert">
      <p className="font-semibold">{message}</p>
      {mode === 'invite' ? (
        <p className="text-slate-700">
          Invitation links work until the feedback is in or the programme closes. If you still want to give
          feedback, contact the person who invited you.
        </p>
      ) : mode === 'signIn' ? (
        <p className="text-slate-700">
          A sign-in link works once, for 15 minutes. You can{' '}
          <Link to="/sign-in" className="link">
            sign in
          </Link>{' '}
          with your password, or ask for a new link there.
        </p>
      ) : (
        <p className="text-slate-700">
          Links in our e-mails work once and for a limited time. You can{' '}
          <Link to="/forgot-password" className="link">
            ask for a new password link
          </Link>{' '}
          or contact the person who invited you.
        </p>
      )}
    </div>
  )
}

function FeedbackIsIn() {
  return (
    <div className="card flex flex-col gap-3" role="status">
      <p className="font-semibold">Your feedback is in. Thank you!</p>
      <p className="text-slate-700">Nothing more is needed from you; you can close this page.</p>
    </div>
  )
}

/**
 * The page behind an invitation link: one button that exchanges the link for a colleague session
 * (a POST, never the GET that any other site or mail scanner can cause). With script it presses
 * itself — once the bot check has passed, when there is one — unless the browser is signed in as
 * someone else, or the last press failed.
 */
function InviteForm({
  subjectName,
  signedInAs,
  errors,
}: {
  subjectName: string
  signedInAs: string | null
  errors: string[] | undefined
}) {
  const form = useRef<HTMLFormElement>(null)
  const pressed = useRef(false)
  const botCheck = Boolean(useRootData()?.publicEnv.turnstileSiteKey)
  const navigation = useNavigation()
  const automatic = !signedInAs && !errors?.length
  const press = useCallback(() => {
    if (!automatic || pressed.current) return
    pressed.current = true
    form.current?.requestSubmit()
  }, [automatic])
  useEffect(() => {
    if (!botCheck) press()
  }, [botCheck, press])
  const busy = navigation.state !== 'idle'
  return (
    <Form method="post" ref={form} className="card flex flex-col gap-4">
      <FormErrors errors={errors} />
      {signedInAs ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {`This browser is signed in as ${signedInAs}. Continuing signs that account out here.`}
        </p>
      ) : null}
      <p>
        {`You have been asked for feedback on ${subjectName}. It takes a few minutes, and your answers are shown to them only together with other colleagues’ answers.`}
      </p>
      <BotCheck onSuccess={press} />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {`Continue as a colleague giving feedback on ${subjectName}`}
      </button>
    </Form>
  )
}

/** Confirming a new e-mail address takes a press: a mail scanner's GET must not change an account. */
function ConfirmEmailForm({ newEmail }: { newEmail: string | null }) {
  const busy = useNavigation().state !== 'idle'
  return (
    <Form method="post" className="card flex flex-col gap-4">
      <p>
        {newEmail ? (
          <>
            Confirm <strong>{newEmail}</strong> as the e-mail address you sign in with.
          </>
        ) : (
          'Confirm your new e-mail address.'
        )}
      </p>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Confirm my new e-mail address
      </button>
    </Form>
  )
}

/**
 * A sign-in link signs in on a press, never on the GET: a link opened by another site or a mail
 * scanner must not sign a browser in (nor, pressed by script, into someone else's account).
 */
function SignInLinkForm({ email, signedInAs }: { email: string | null; signedInAs: string | null }) {
  const busy = useNavigation().state !== 'idle'
  return (
    <Form method="post" className="card flex flex-col gap-4">
      {signedInAs ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {`This browser is signed in as ${signedInAs}. Continuing signs that account out here.`}
        </p>
      ) : null}
      <p>
        {email ? (
          <>
            Sign in as <strong className="break-words">{email}</strong>.
          </>
        ) : (
          'Sign in to your account.'
        )}{' '}
        This browser will be remembered for your next sign-in.
      </p>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Sign in
      </button>
    </Form>
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
  const [form, fields] = useConformForm(schema, { id: `verification-${mode}`, lastResult })
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
  const submitted = actionData && 'submitted' in actionData && actionData.submitted
  const mode = 'mode' in loaderData ? loaderData.mode : null
  const formErrors =
    actionData?.result && 'error' in actionData.result
      ? (actionData.result.error as Record<string, string[]>)['']
      : undefined
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <h1 className="text-3xl font-bold tracking-tight">{mode ? TITLES[mode] : 'Verification'}</h1>
      {submitted || loaderData.state === 'submitted' ? (
        <FeedbackIsIn />
      ) : expired ? (
        <Expired message={authErrorMessage('auth/expired-action-code')} mode={mode} />
      ) : loaderData.state === 'invalid' || loaderData.state === 'expired' ? (
        <Expired message={loaderData.message} mode={mode} />
      ) : loaderData.state === 'done' ? (
        <div className="card" role="status">
          <p className="font-semibold">Your e-mail address is confirmed.</p>
          <Link to="/sign-in" className="link mt-2 inline-block">
            Continue
          </Link>
        </div>
      ) : loaderData.state === 'invite' ? (
        <InviteForm
          subjectName={loaderData.subjectName}
          signedInAs={loaderData.signedInAs}
          errors={formErrors}
        />
      ) : loaderData.state === 'confirm-email' ? (
        <ConfirmEmailForm newEmail={loaderData.newEmail} />
      ) : loaderData.state === 'sign-in-link' ? (
        <SignInLinkForm email={loaderData.email} signedInAs={loaderData.signedInAs} />
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
