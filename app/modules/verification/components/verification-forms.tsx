import { getFormProps, getInputProps } from '@conform-to/react'
import { useCallback, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, useNavigation } from 'react-router'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { Field, FormErrors } from '#app/components/forms'
import { BotCheck } from '#app/components/turnstile'
import { newPasswordSchema, setupSchema } from '#app/modules/auth/schemas'
import { richT } from '#app/modules/i18n/rich'
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
  const { t } = useTranslation('verification')
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
      <p>{t('invite.text', { name: subjectName })}</p>
      <BotCheck onSuccess={press} />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {t('invite.submit', { name: subjectName })}
      </button>
    </Form>
  )
}

/** Confirming a new e-mail address takes a press: a mail scanner's GET must not change an account. */
export function ConfirmEmailForm({ newEmail }: { newEmail: string | null }) {
  const { t } = useTranslation('verification')
  const busy = useNavigation().state !== 'idle'
  return (
    <Form method="post" className="card flex flex-col gap-4">
      <p>
        {newEmail
          ? richT(t, 'confirmEmail.text', { email: <strong>{newEmail}</strong> })
          : t('confirmEmail.textNoAddress')}
      </p>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {t('confirmEmail.submit')}
      </button>
    </Form>
  )
}

/**
 * A sign-in link signs in on a press, never on the GET: a link opened by another site or a mail
 * scanner must not sign a browser in (nor, pressed by script, into someone else's account).
 */
export function SignInLinkForm({ email, signedInAs }: { email: string | null; signedInAs: string | null }) {
  const { t } = useTranslation('verification')
  const busy = useNavigation().state !== 'idle'
  return (
    <Form method="post" className="card flex flex-col gap-4">
      <SignedInAs name={signedInAs} />
      <p>
        {email
          ? richT(t, 'signInLink.text', {
              email: <strong className="break-words">{email}</strong>,
            })
          : t('signInLink.textNoAddress')}{' '}
        {t('signInLink.remembered')}
      </p>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {t('signInLink.submit')}
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
  const { t } = useTranslation('verification')
  const schema = mode === 'setup' ? setupSchema(minLength) : newPasswordSchema(minLength)
  const [form, fields] = useConformForm(schema, { id: `verification-${mode}`, lastResult })
  const f = fields as Record<string, (typeof fields)[keyof typeof fields]>
  return (
    <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      {email && mode !== 'setup' ? (
        <p className="text-slate-700">{richT(t, 'password.account', { email: <strong>{email}</strong> })}</p>
      ) : null}
      {mode === 'setup' ? (
        <>
          <Field
            label={t('password.name')}
            inputProps={{ ...getInputProps(f.displayName!, { type: 'text' }), autoComplete: 'name' }}
            errors={f.displayName!.errors}
          />
          <Field
            label={t('password.email')}
            inputProps={{ ...getInputProps(f.email!, { type: 'email' }), autoComplete: 'email' }}
            errors={f.email!.errors}
          />
        </>
      ) : null}
      <Field
        label={t('password.new')}
        help={t('password.newHelp', { minLength })}
        inputProps={{ ...getInputProps(f.password!, { type: 'password' }), autoComplete: 'new-password' }}
        errors={f.password!.errors}
      />
      <Field
        label={t('password.repeat')}
        inputProps={{
          ...getInputProps(f.confirmPassword!, { type: 'password' }),
          autoComplete: 'new-password',
        }}
        errors={f.confirmPassword!.errors}
      />
      <button type="submit" className="btn btn-primary">
        {t(`password.${mode}`)}
      </button>
    </Form>
  )
}

/** A press on this page replaces the browser's session: say whose, before it happens. */
function SignedInAs({ name }: { name: string | null }) {
  const { t } = useTranslation('verification')
  if (!name) return null
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      {t('signedInAs', { name })}
    </p>
  )
}
