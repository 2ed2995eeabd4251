import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation, useSearchParams } from 'react-router'
import { ConformField } from '#app/components/form-parts'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { SecondFactorSchema } from '#app/modules/auth/schemas'
import { richT } from '#app/modules/i18n/rich'
import { AuthPage } from './auth-page'
import { RecoveryCodes, SetUpAuthenticator, type SetUpView } from './two-factor-parts'

/** What the step's loader gives: what is asked now, of whom. */
export type SecondFactorPageData = {
  step: 'verify' | 'enrol' | 'enrolled'
  email: string
  setup: SetUpView | null
}

export type SecondFactorReply =
  { intent: string; result: SubmissionResult<string[]>; recoveryCodes?: string[] } | undefined

/** The second step of signing in (ADR 048): a code, or setting up an authenticator first. */
export function SecondFactorPage({
  loaderData,
  actionData,
}: {
  loaderData: SecondFactorPageData
  actionData: SecondFactorReply
}) {
  const { t } = useTranslation('second-factor')
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const busy = (intent: string) =>
    navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
  const redirectTo = <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
  const recoveryCodes = actionData?.recoveryCodes
  const resultOf = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined)
  const unknown = (actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined) ?? undefined
  const cancel = (
    <Form method="post">
      <input type="hidden" name="intent" value="cancel" />
      <button type="submit" className="btn btn-secondary" disabled={busy('cancel')}>
        {t('cancel')}
      </button>
    </Form>
  )

  if (recoveryCodes || loaderData.step === 'enrolled') {
    return (
      <AuthPage title={t('savedTitle')} intro={t('on', { email: loaderData.email })}>
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} />
        ) : (
          <p className="card text-slate-700">{t('shownOnce')}</p>
        )}
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="continue" />
          {redirectTo}
          <button type="submit" className="btn btn-primary" disabled={busy('continue')}>
            {busy('continue') ? t('signingIn') : t('continue')}
          </button>
        </Form>
      </AuthPage>
    )
  }

  if (loaderData.step === 'enrol') {
    return (
      <AuthPage
        title={t('setUpTitle')}
        intro={richT(t, 'enrolIntro', {
          email: <strong className="break-words">{loaderData.email}</strong>,
        })}
      >
        <FormErrors errors={unknown} />
        {loaderData.setup ? (
          <div className="card flex flex-col gap-4">
            <SetUpAuthenticator
              setup={loaderData.setup}
              intent="confirm"
              formId="second-factor-setup"
              lastResult={resultOf('confirm')}
              busy={busy('confirm')}
            />
          </div>
        ) : (
          <p role="alert" className="card text-slate-700">
            {t('unreadable')}
          </p>
        )}
        {cancel}
      </AuthPage>
    )
  }

  return (
    <AuthPage
      title={t('title')}
      intro={richT(t, 'verifyIntro', {
        email: <strong className="break-words">{loaderData.email}</strong>,
      })}
    >
      <CodeForm lastResult={resultOf('verify')} busy={busy('verify')} hidden={redirectTo} errors={unknown} />
      {cancel}
    </AuthPage>
  )
}

function CodeForm({
  lastResult,
  busy,
  hidden,
  errors,
}: {
  lastResult: SubmissionResult<string[]> | undefined
  busy: boolean
  hidden: ReactNode
  errors?: string[]
}) {
  const { t } = useTranslation('second-factor')
  const [form, fields] = useConformForm(SecondFactorSchema, { id: 'second-factor', lastResult })
  return (
    <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="verify" />
      {hidden}
      <FormErrors id={form.errorId} errors={form.errors ?? errors} />
      <ConformField
        label={t('code')}
        help={t('codeHelp')}
        meta={fields.code}
        autoComplete="one-time-code"
        spellCheck={false}
        autoFocus
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? t('checking') : t('verify')}
      </button>
    </Form>
  )
}
