import { type SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { ConformField, IntentForm, SubmitButton } from '#app/components/form-parts'
import { useConformForm, usePendingIntent } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
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
  const { t } = useTranslation('second-factor')
  const locale = useIntlLocale()
  const resultFor = (intent: TwoFactorIntent) => (reply?.intent === intent ? reply.result : undefined)
  const confirmBusy = usePendingIntent('two-factor-confirm')
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
        {t('settings.title')}
      </h2>
      <FormErrors errors={stateErrors.length ? stateErrors : undefined} />
      {reply?.recoveryCodes ? <RecoveryCodes codes={reply.recoveryCodes} /> : null}
      {view.enabled ? (
        <>
          <p className="text-slate-700">
            <strong>{t('settings.on')}</strong>
            {view.enabledAt
              ? ` ${t('settings.onSince', { date: formatDate(view.enabledAt, undefined, locale) })}`
              : ''}
            {t('settings.onText')} {t('settings.codesLeft', { count: view.recoveryCodesLeft })}
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
              <SubmitButton
                intent="two-factor-cancel"
                label={t('settings.cancelSetUp')}
                pendingLabel={t('settings.cancelling')}
                className="btn btn-secondary"
              />
            </Form>
          }
        />
      ) : (
        <>
          <p className="text-slate-700">
            {required ? t('settings.required') : t('settings.off')} {t('settings.offText')}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="two-factor-start" />
            <SubmitButton
              intent="two-factor-start"
              label={t('settings.setUp')}
              pendingLabel={t('settings.starting')}
            />
          </Form>
        </>
      )}
    </section>
  )
}

function NewRecoveryCodesForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('second-factor')
  const [form, fields] = useConformForm(RecoveryCodesSchema, { id: 'two-factor-codes', lastResult })
  return (
    <IntentForm
      form={form}
      intent="two-factor-codes"
      aria-labelledby="two-factor-codes-title"
      className="flex flex-col gap-3 border-t border-slate-200 pt-4"
    >
      <h3 id="two-factor-codes-title" className="font-semibold">
        {t('settings.newCodes')}
      </h3>
      <p className="text-slate-700">{t('settings.newCodesText')}</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConformField
        label={t('settings.codeFromApp')}
        meta={fields.code}
        autoComplete="one-time-code"
        spellCheck={false}
      />
      <div>
        <SubmitButton
          intent="two-factor-codes"
          label={t('settings.makeCodes')}
          pendingLabel={t('settings.making')}
          className="btn btn-secondary"
        />
      </div>
    </IntentForm>
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
  const { t } = useTranslation('second-factor')
  const [form, fields] = useConformForm(DisableTwoFactorSchema, { id: 'two-factor-disable', lastResult })
  return (
    <IntentForm
      form={form}
      intent="two-factor-disable"
      aria-labelledby="two-factor-disable-title"
      className="flex flex-col gap-3 border-t border-slate-200 pt-4"
    >
      <h3 id="two-factor-disable-title" className="font-semibold">
        {t('settings.turnOff')}
      </h3>
      <p className="text-slate-700">{required ? t('settings.turnOffRequired') : t('settings.turnOffText')}</p>
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConformField
        label={t('settings.currentPassword')}
        meta={fields.currentPassword}
        type="password"
        autoComplete="current-password"
      />
      <ConformField
        label={t('settings.codeOrRecovery')}
        meta={fields.code}
        autoComplete="one-time-code"
        spellCheck={false}
      />
      <div>
        <SubmitButton
          intent="two-factor-disable"
          label={t('settings.turnOffButton')}
          pendingLabel={t('settings.turningOff')}
          className="btn btn-danger"
        />
      </div>
    </IntentForm>
  )
}
