import type { SubmissionResult } from '@conform-to/react'
import { Link } from 'react-router'
import { authErrorMessage } from '#app/modules/auth/errors'
import { verificationTitle, type VerificationMode as Mode } from '#app/modules/verification/verification'
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
  const expired = actionData && 'expired' in actionData && actionData.expired
  const submitted = actionData && 'submitted' in actionData && actionData.submitted
  const mode = ('mode' in loaderData ? loaderData.mode : null) ?? null
  const formErrors =
    actionData?.result && 'error' in actionData.result
      ? (actionData.result.error as Record<string, string[]>)['']
      : undefined
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-6 py-16">
      <h1 className="text-3xl font-bold tracking-tight">{verificationTitle(mode)}</h1>
      {submitted || loaderData.state === 'submitted' ? (
        <FeedbackIsIn changeAnswers={'changeAnswers' in loaderData ? loaderData.changeAnswers : null} />
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
          lastResult={actionData?.result ?? undefined}
        />
      )}
    </div>
  )
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

function FeedbackIsIn({ changeAnswers }: { changeAnswers: string | null }) {
  return (
    <div className="card flex flex-col gap-3" role="status">
      <p className="font-semibold">Your feedback is in. Thank you!</p>
      <p className="text-slate-700">Nothing more is needed from you; you can close this page.</p>
      {changeAnswers ? (
        <p>
          <Link to={changeAnswers} className="link">
            I need to change my answers
          </Link>
        </p>
      ) : null}
    </div>
  )
}
