import { getFormProps, getInputProps } from '@conform-to/react'
import { useCallback, useEffect, useRef } from 'react'
import { Form, useNavigation } from 'react-router'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { Field, FormErrors } from '#app/components/forms'
import { BotCheck } from '#app/components/turnstile'
import { newPasswordSchema, setupSchema } from '#app/modules/auth/schemas'
import { useRootData } from '#app/root'

/** The forms of the e-mail action handler's page (/verification): each posts the page's one action. */

/**
 * The page behind an invitation link: one button that exchanges the link for a colleague session
 * (a POST, never the GET that any other site or mail scanner can cause). With script it presses
 * itself — once the bot check has passed, when there is one — unless the browser is signed in as
 * someone else, or the last press failed.
 */
export function InviteForm({
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
      <SignedInAs name={signedInAs} />
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
export function ConfirmEmailForm({ newEmail }: { newEmail: string | null }) {
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
export function SignInLinkForm({ email, signedInAs }: { email: string | null; signedInAs: string | null }) {
  const busy = useNavigation().state !== 'idle'
  return (
    <Form method="post" className="card flex flex-col gap-4">
      <SignedInAs name={signedInAs} />
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

export function PasswordForm({
  mode,
  email,
  minLength,
  lastResult,
}: {
  mode: 'resetPassword' | 'activate' | 'setup'
  email: string | null
  minLength: number
  lastResult: FormResult
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

/** A press on this page replaces the browser's session: say whose, before it happens. */
function SignedInAs({ name }: { name: string | null }) {
  if (!name) return null
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      {`This browser is signed in as ${name}. Continuing signs that account out here.`}
    </p>
  )
}
