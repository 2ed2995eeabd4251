import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { SIGN_IN_LINK_MINUTES } from '#app/modules/auth/components/sign-in-page'
import { richT } from '#app/modules/i18n/rich'
import { verificationTitleKey, type VerificationMode as Mode } from '#app/modules/verification/verification'
import type { VerificationPageData } from '#app/modules/verification/verification.server'
import { ConfirmEmailForm, InviteForm, PasswordForm, SignInLinkForm } from './verification-forms'

/** What the page's one action answers when it does not redirect. */
export type VerificationReply =
  { result: SubmissionResult<string[]> | null; expired: boolean; submitted?: boolean } | undefined

/** The e-mail action handler's page: the step a link's code is at, or why the link no longer works. */
export function VerificationPage({
  loaderData,
  actionData,
}: {
  loaderData: VerificationPageData
  actionData: VerificationReply
}) {
  const { t } = useTranslation('verification')
  const expired = actionData && 'expired' in actionData && actionData.expired
  const submitted = actionData && 'submitted' in actionData && actionData.submitted
  const mode = ('mode' in loaderData ? loaderData.mode : null) ?? null
  const formErrors =
    actionData?.result && 'error' in actionData.result
      ? (actionData.result.error as Record<string, string[]>)['']
      : undefined
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <h1 className="text-3xl font-bold tracking-tight">{t(verificationTitleKey(mode))}</h1>
      {submitted || loaderData.state === 'submitted' ? (
        <FeedbackIsIn changeAnswers={'changeAnswers' in loaderData ? loaderData.changeAnswers : null} />
      ) : expired ? (
        <Expired message={t('errors.auth/expired-action-code')} mode={mode} />
      ) : loaderData.state === 'invalid' || loaderData.state === 'expired' ? (
        <Expired message={t(`errors.${loaderData.code}`)} mode={mode} />
      ) : loaderData.state === 'done' ? (
        <div className="card" role="status">
          <p className="font-semibold">{t('confirmed')}</p>
          <Link to="/sign-in" className="link mt-2 inline-block">
            {t('continue')}
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
          lastResult={actionData?.result ?? undefined}
        />
      )}
    </div>
  )
}

function Expired({ message, mode }: { message: string; mode: Mode | null }) {
  const { t } = useTranslation('verification')
  return (
    <div className="card flex flex-col gap-3" role="alert">
      <p className="font-semibold">{message}</p>
      {mode === 'invite' ? (
        <p className="text-slate-700">{t('expired.invite')}</p>
      ) : mode === 'signIn' ? (
        <p className="text-slate-700">
          {richT(
            t,
            'expired.signIn',
            {
              signIn: (
                <Link to="/sign-in" className="link">
                  {t('expired.signInLink')}
                </Link>
              ),
            },
            { minutes: SIGN_IN_LINK_MINUTES },
          )}
        </p>
      ) : (
        <p className="text-slate-700">
          {richT(t, 'expired.other', {
            newLink: (
              <Link to="/forgot-password" className="link">
                {t('expired.newLink')}
              </Link>
            ),
          })}
        </p>
      )}
    </div>
  )
}

function FeedbackIsIn({ changeAnswers }: { changeAnswers: string | null }) {
  const { t } = useTranslation('verification')
  return (
    <div className="card flex flex-col gap-3" role="status">
      <p className="font-semibold">{t('feedbackIn.title')}</p>
      <p className="text-slate-700">{t('feedbackIn.text')}</p>
      {changeAnswers ? (
        <p>
          <Link to={changeAnswers} className="link">
            {t('feedbackIn.change')}
          </Link>
        </p>
      ) : null}
    </div>
  )
}
