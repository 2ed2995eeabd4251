import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, Link, useNavigation, useSearchParams } from 'react-router'
import { ConformField } from '#app/components/form-parts'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { BotCheck } from '#app/components/turnstile'
import { SIGN_IN_LINK_INTENT, SignInSchema } from '#app/modules/auth/schemas'
import { AuthPage } from './auth-page'

/** Said whether or not the address has an account (and whatever the limits did): nothing to learn. */
export const SIGN_IN_LINK_SENT_MESSAGE =
  'If an account exists for that address, we have sent it a one-time sign-in link. The link works for 15 minutes.'

/** What the sign-in action answers when it does not redirect: a refusal, or the link's answer. */
export type SignInReply =
  | { result: SubmissionResult<string[]>; offerLinkTo?: string | null }
  | {
      intent: typeof SIGN_IN_LINK_INTENT
      result: SubmissionResult<string[]>
      sent: boolean
      offerLinkTo: string | null
    }
  | undefined

/** The sign-in page: the password form, and after a refusal the offer of a one-time link. */
export function SignInPage({ actionData }: { actionData: SignInReply }) {
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const link = actionData && 'intent' in actionData ? actionData : null
  const offerLinkTo = actionData && 'offerLinkTo' in actionData ? actionData.offerLinkTo : null
  const [form, fields] = useConformForm(SignInSchema, {
    id: 'sign-in',
    // A link sent resets the sign-in form too (its refusal message is no longer the news).
    lastResult: link ? (link.sent ? link.result : undefined) : actionData?.result,
  })
  const posting = navigation.state !== 'idle' && Boolean(navigation.formAction?.startsWith('/sign-in'))
  const askingForLink = posting && navigation.formData?.get('intent') === SIGN_IN_LINK_INTENT
  const busy = posting && !askingForLink
  return (
    <AuthPage
      title="Sign in"
      intro="Welcome back. Sign in to see your feedback."
      sentMessage={link?.sent ? SIGN_IN_LINK_SENT_MESSAGE : null}
    >
      <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <ConformField
          label="E-mail address"
          meta={fields.email}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <ConformField
          label="Password"
          meta={fields.password}
          type="password"
          autoComplete="current-password"
        />
        <BotCheck />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Link to="/forgot-password" className="link self-start text-sm">
          Forgot your password?
        </Link>
      </Form>
      {offerLinkTo ? (
        <SignInLinkOffer
          email={offerLinkTo}
          errors={
            link ? [link.result.error?.[''], link.result.error?.email].flatMap((e) => e ?? []) : undefined
          }
          busy={askingForLink}
        />
      ) : null}
      <p className="text-sm text-slate-700">
        Asked to give feedback on a colleague? Use the link in your invitation e-mail; you do not need an
        account.
      </p>
    </AuthPage>
  )
}

/**
 * Offered after a refusal (ADR 007): during an attack on an account, a browser it has not signed in
 * from may be held back for as long as the attack lasts; a link to the owner's inbox gets them in,
 * and trusts the browser from then on. Its own form and bot check (the sign-in form's token is spent).
 */
function SignInLinkOffer({ email, errors, busy }: { email: string; errors?: string[]; busy: boolean }) {
  return (
    <section aria-labelledby="sign-in-link-heading" className="card flex flex-col gap-3">
      <h2 id="sign-in-link-heading" className="text-lg font-semibold">
        Can’t sign in right now?
      </h2>
      <Form method="post" className="flex flex-col gap-3">
        <FormErrors errors={errors} />
        <p className="text-slate-700">
          We can e-mail <strong className="break-words">{email}</strong> a link that signs you in once. It
          works for 15 minutes, and this browser is remembered for your next sign-in.
        </p>
        <input type="hidden" name="intent" value={SIGN_IN_LINK_INTENT} />
        <input type="hidden" name="email" value={email} />
        <BotCheck />
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {busy ? 'Sending…' : 'E-mail me a one-time sign-in link'}
        </button>
      </Form>
    </section>
  )
}
