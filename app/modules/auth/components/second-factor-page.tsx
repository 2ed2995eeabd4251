import type { ReactNode } from 'react'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation, useSearchParams } from 'react-router'
import { ConformField } from '#app/components/form-parts'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { SecondFactorSchema } from '#app/modules/auth/schemas'
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
        Cancel and sign in again
      </button>
    </Form>
  )

  if (recoveryCodes || loaderData.step === 'enrolled') {
    return (
      <AuthPage
        title="Save your recovery codes"
        intro={<>Two-factor sign-in is on for {loaderData.email}.</>}
      >
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} />
        ) : (
          <p className="card text-slate-700">
            Your recovery codes were shown once, when you turned two-factor sign-in on. If you did not save
            them, make new ones on your profile once you are in.
          </p>
        )}
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="continue" />
          {redirectTo}
          <button type="submit" className="btn btn-primary" disabled={busy('continue')}>
            {busy('continue') ? 'Signing in…' : 'I have saved my codes: continue'}
          </button>
        </Form>
      </AuthPage>
    )
  }

  if (loaderData.step === 'enrol') {
    return (
      <AuthPage
        title="Set up two-factor sign-in"
        intro={
          <>
            Administrators of this portal sign in with a second factor. Set up an authenticator app for{' '}
            <strong className="break-words">{loaderData.email}</strong> to continue.
          </>
        }
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
            The set-up could not be read. Cancel and sign in again to start over.
          </p>
        )}
        {cancel}
      </AuthPage>
    )
  }

  return (
    <AuthPage
      title="Two-factor sign-in"
      intro={
        <>
          Enter the code from your authenticator app to finish signing in as{' '}
          <strong className="break-words">{loaderData.email}</strong>.
        </>
      }
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
  const [form, fields] = useConformForm(SecondFactorSchema, { id: 'second-factor', lastResult })
  return (
    <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="verify" />
      {hidden}
      <FormErrors id={form.errorId} errors={form.errors ?? errors} />
      <ConformField
        label="Authentication code"
        help="The six digits your app shows for Panorama. Lost your phone? Enter one of your recovery codes instead."
        meta={fields.code}
        autoComplete="one-time-code"
        spellCheck={false}
        autoFocus
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Checking…' : 'Verify'}
      </button>
    </Form>
  )
}
