import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { ConformField } from '#app/components/form-parts'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { formatDate } from '#app/lib/dates'
import { DisableTwoFactorSchema, RecoveryCodesSchema, type TwoFactorIntent } from '#app/modules/auth/schemas'
import { RecoveryCodes, SetUpAuthenticator, type SetUpView } from './two-factor-parts'

/** Where the admin's second factor stands (totp.server.ts `getSecondFactorState`). */
export type TwoFactorView = {
  enabled: boolean
  enabledAt: string | null
  recoveryCodesLeft: number
  setup: SetUpView | null
}

export type TwoFactorReply = {
  intent: string
  result: SubmissionResult<string[]>
  recoveryCodes?: string[]
}

function useBusy(intent: TwoFactorIntent) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

/**
 * The profile's "Two-factor sign-in" card (ADR 048): set up an authenticator (QR code, key, first
 * code), then make new recovery codes or turn it off with the password and a code.
 */
export function TwoFactorSettings({
  view,
  required,
  email,
  reply,
}: {
  view: TwoFactorView
  /** The install requires a second factor of admins (ADMIN_TOTP_REQUIRED). */
  required: boolean
  email: string
  reply: TwoFactorReply | undefined
}) {
  const resultFor = (intent: TwoFactorIntent) => (reply?.intent === intent ? reply.result : undefined)
  const startBusy = useBusy('two-factor-start')
  const confirmBusy = useBusy('two-factor-confirm')
  const cancelBusy = useBusy('two-factor-cancel')
  // A refusal whose form is no longer on the page (the state changed meanwhile) is said here.
  const shown: TwoFactorIntent[] = view.enabled
    ? ['two-factor-codes', 'two-factor-disable']
    : view.setup
      ? ['two-factor-confirm']
      : []
  const stateErrors =
    reply && !shown.includes(reply.intent as TwoFactorIntent) ? (reply.result.error?.[''] ?? []) : []
  return (
    <section id="two-factor" aria-labelledby="two-factor-title" className="card flex flex-col gap-4">
      <h2 id="two-factor-title" className="text-lg font-semibold">
        Two-factor sign-in
      </h2>
      <FormErrors errors={stateErrors.length ? stateErrors : undefined} />
      {reply?.recoveryCodes ? <RecoveryCodes codes={reply.recoveryCodes} /> : null}
      {view.enabled ? (
        <>
          <p className="text-slate-700">
            <strong>On</strong>
            {view.enabledAt ? ` since ${formatDate(view.enabledAt)}` : ''}. Signing in asks for a code from
            your authenticator app after your password.{' '}
            {view.recoveryCodesLeft === 1
              ? '1 recovery code left.'
              : `${view.recoveryCodesLeft} recovery codes left.`}
          </p>
          <NewRecoveryCodesForm lastResult={resultFor('two-factor-codes')} />
          <TurnOffForm email={email} required={required} lastResult={resultFor('two-factor-disable')} />
        </>
      ) : view.setup ? (
        <SetUpAuthenticator
          setup={view.setup}
          intent="two-factor-confirm"
          formId="two-factor-setup"
          lastResult={resultFor('two-factor-confirm')}
          busy={confirmBusy}
          secondary={
            <Form method="post">
              <input type="hidden" name="intent" value="two-factor-cancel" />
              <button type="submit" className="btn btn-secondary" disabled={cancelBusy}>
                Cancel set-up
              </button>
            </Form>
          }
        />
      ) : (
        <>
          <p className="text-slate-700">
            {required ? 'This portal requires administrators to sign in with a second factor. ' : 'Off. '}
            With it on, signing in asks for a code from an authenticator app on your phone after your
            password, so a stolen password alone does not open the back office.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="two-factor-start" />
            <button type="submit" className="btn btn-primary" disabled={startBusy}>
              {startBusy ? 'Starting…' : 'Set up two-factor sign-in'}
            </button>
          </Form>
        </>
      )}
    </section>
  )
}

function NewRecoveryCodesForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useBusy('two-factor-codes')
  const [form, fields] = useConformForm(RecoveryCodesSchema, { id: 'two-factor-codes', lastResult })
  return (
    <Form
      method="post"
      aria-labelledby="two-factor-codes-title"
      className="flex flex-col gap-3 border-t border-slate-200 pt-4"
      {...getFormProps(form)}
    >
      <h3 id="two-factor-codes-title" className="font-semibold">
        New recovery codes
      </h3>
      <p className="text-slate-700">Lost them, or used most? New codes replace every earlier one.</p>
      <input type="hidden" name="intent" value="two-factor-codes" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConformField
        label="Code from your app"
        meta={fields.code}
        autoComplete="one-time-code"
        spellCheck={false}
      />
      <div>
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {busy ? 'Making…' : 'Make new recovery codes'}
        </button>
      </div>
    </Form>
  )
}

function TurnOffForm({
  email,
  required,
  lastResult,
}: {
  email: string
  required: boolean
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const busy = useBusy('two-factor-disable')
  const [form, fields] = useConformForm(DisableTwoFactorSchema, { id: 'two-factor-disable', lastResult })
  return (
    <Form
      method="post"
      aria-labelledby="two-factor-disable-title"
      className="flex flex-col gap-3 border-t border-slate-200 pt-4"
      {...getFormProps(form)}
    >
      <h3 id="two-factor-disable-title" className="font-semibold">
        Turn off
      </h3>
      <p className="text-slate-700">
        {required
          ? 'This portal requires a second factor: once it is off you set up a new authenticator straight away (for a new phone, say).'
          : 'Your password alone will sign you in again.'}
      </p>
      <input type="hidden" name="intent" value="two-factor-disable" />
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConformField
        label="Current password"
        meta={fields.currentPassword}
        type="password"
        autoComplete="current-password"
      />
      <ConformField
        label="Code from your app, or a recovery code"
        meta={fields.code}
        autoComplete="one-time-code"
        spellCheck={false}
      />
      <div>
        <button type="submit" className="btn btn-danger" disabled={busy}>
          {busy ? 'Turning off…' : 'Turn off two-factor sign-in'}
        </button>
      </div>
    </Form>
  )
}
