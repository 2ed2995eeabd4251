import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form, Link, useNavigation, useSearchParams } from 'react-router'
import { ConformField } from '#app/components/form-parts'
import { useConformForm } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { BotCheck } from '#app/components/turnstile'
import { CONTINUE_INTENT, ContinueSchema, SIGN_IN_LINK_INTENT, SignInSchema } from '#app/modules/auth/schemas'
import { richT } from '#app/modules/i18n/rich'
import { AuthPage } from './auth-page'

/** How long a one-time sign-in link works (action-code.server.ts, sign_in_link), as the page says it. */
export const SIGN_IN_LINK_MINUTES = 15

/**
 * Said whether or not the address has an account (and whatever the limits did): nothing to learn.
 * In English; the page says it in the reader's language (auth:signIn.linkSent, which equals this).
 */
export const SIGN_IN_LINK_SENT_MESSAGE =
  'If an account exists for that address, we have sent it a one-time sign-in link. The link works for 15 minutes.'

/** The first step's answer (ADR 049): the address's organisation signs it in, or the password form. */
export type ContinueReply = {
  intent: typeof CONTINUE_INTENT
  result: SubmissionResult<string[]>
  /** Its domain's provider: the start of its sign-in (the browser is sent there at once with JavaScript). */
  sso?: { href: string; name: string }
  /** No provider for its domain: the password form, with the address filled in. */
  password?: { email: string }
}

/** What the sign-in action answers when it does not redirect: a refusal, or the link's answer. */
export type SignInReply =
  | { result: SubmissionResult<string[]>; offerLinkTo?: string | null }
  | {
      intent: typeof SIGN_IN_LINK_INTENT
      result: SubmissionResult<string[]>
      sent: boolean
      offerLinkTo: string | null
    }
  | ContinueReply
  | undefined

/**
 * The sign-in page: the password form, and after a refusal the offer of a one-time link. Where
 * identity providers are set up (`emailFirst`), the address comes first (ADR 049): an address whose
 * domain has a provider goes there; any other gets the password form. Only the domain decides, so the
 * step tells nothing about whether an account exists.
 */
export function SignInPage({
  actionData,
  emailFirst = false,
}: {
  actionData: SignInReply
  emailFirst?: boolean
}) {
  const continued =
    actionData && 'intent' in actionData && actionData.intent === CONTINUE_INTENT ? actionData : null
  if (emailFirst && (!actionData || (continued && !continued.password)))
    return continued?.sso ? (
      <ContinueToProvider sso={continued.sso} />
    ) : (
      <EmailStep lastResult={continued?.result} />
    )
  return (
    <PasswordStep
      actionData={continued ? undefined : (actionData as Exclude<SignInReply, ContinueReply>)}
      email={continued?.password?.email ?? null}
    />
  )
}

function InviteNote() {
  const { t } = useTranslation('auth')
  return <p className="text-sm text-slate-700">{t('signIn.inviteNote')}</p>
}

/** The first step where providers are set up: the address, then Continue. */
function EmailStep({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('auth')
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const [form, fields] = useConformForm(ContinueSchema, { id: 'sign-in-email', lastResult })
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === CONTINUE_INTENT
  return (
    <AuthPage title={t('signIn.title')} intro={t('signIn.intro')}>
      <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value={CONTINUE_INTENT} />
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <ConformField
          label={t('signIn.email')}
          meta={fields.email}
          type="email"
          autoComplete="email"
          autoFocus
          help={t('signIn.emailHelp')}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('signIn.continuing') : t('signIn.continue')}
        </button>
        <Link to="/forgot-password" className="link self-start text-sm">
          {t('signIn.forgot')}
        </Link>
      </Form>
      <InviteNote />
    </AuthPage>
  )
}

/**
 * The address's organisation signs it in. With JavaScript the browser is already on its way (the
 * route's clientAction); without, this link takes it: a link, not a form's redirect, because the
 * page's Content-Security-Policy lets forms post to this site only (form-action 'self').
 */
function ContinueToProvider({ sso }: { sso: { href: string; name: string } }) {
  const { t } = useTranslation('auth')
  return (
    <AuthPage title={t('signIn.title')} intro={t('signIn.intro')}>
      <div className="card flex flex-col gap-4">
        <p className="text-slate-800">
          {richT(t, 'signIn.providerSignsIn', {
            provider: <strong className="break-words">{sso.name}</strong>,
          })}
        </p>
        <a href={sso.href} className="btn btn-primary">
          {t('signIn.continueWith', { provider: sso.name })}
        </a>
        <Link to="/sign-in" className="link self-start text-sm">
          {t('signIn.otherAddress')}
        </Link>
      </div>
      <InviteNote />
    </AuthPage>
  )
}

/** The password form, and after a refusal the offer of a one-time link. */
function PasswordStep({
  actionData,
  email,
}: {
  actionData: Exclude<SignInReply, ContinueReply>
  /** The address from the first step, filled in. */
  email: string | null
}) {
  const { t } = useTranslation('auth')
  const [searchParams] = useSearchParams()
  const navigation = useNavigation()
  const link = actionData && 'intent' in actionData ? actionData : null
  const offerLinkTo = actionData && 'offerLinkTo' in actionData ? actionData.offerLinkTo : null
  const [form, fields] = useConformForm(SignInSchema, {
    id: 'sign-in',
    // A link sent resets the sign-in form too (its refusal message is no longer the news).
    lastResult: link ? (link.sent ? link.result : undefined) : actionData?.result,
    defaultValue: email ? { email } : undefined,
  })
  const posting = navigation.state !== 'idle' && Boolean(navigation.formAction?.startsWith('/sign-in'))
  const askingForLink = posting && navigation.formData?.get('intent') === SIGN_IN_LINK_INTENT
  const busy = posting && !askingForLink
  return (
    <AuthPage
      title={t('signIn.title')}
      intro={t('signIn.intro')}
      sentMessage={link?.sent ? t('signIn.linkSent', { minutes: SIGN_IN_LINK_MINUTES }) : null}
    >
      <Form method="post" className="card flex flex-col gap-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <ConformField
          label={t('signIn.email')}
          meta={fields.email}
          type="email"
          autoComplete="email"
          autoFocus={!email}
        />
        <ConformField
          label={t('signIn.password')}
          meta={fields.password}
          type="password"
          autoComplete="current-password"
          autoFocus={Boolean(email)}
        />
        <BotCheck />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('signIn.submitting') : t('signIn.submit')}
        </button>
        <Link to="/forgot-password" className="link self-start text-sm">
          {t('signIn.forgot')}
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
      <InviteNote />
    </AuthPage>
  )
}

/**
 * Offered after a refusal (ADR 007): during an attack on an account, a browser it has not signed in
 * from may be held back for as long as the attack lasts; a link to the owner's inbox gets them in,
 * and trusts the browser from then on. Its own form and bot check (the sign-in form's token is spent).
 */
function SignInLinkOffer({ email, errors, busy }: { email: string; errors?: string[]; busy: boolean }) {
  const { t } = useTranslation('auth')
  return (
    <section aria-labelledby="sign-in-link-heading" className="card flex flex-col gap-3">
      <h2 id="sign-in-link-heading" className="text-lg font-semibold">
        {t('signIn.linkOffer.heading')}
      </h2>
      <Form method="post" className="flex flex-col gap-3">
        <FormErrors errors={errors} />
        <p className="text-slate-700">
          {richT(
            t,
            'signIn.linkOffer.text',
            { email: <strong className="break-words">{email}</strong> },
            { minutes: SIGN_IN_LINK_MINUTES },
          )}
        </p>
        <input type="hidden" name="intent" value={SIGN_IN_LINK_INTENT} />
        <input type="hidden" name="email" value={email} />
        <BotCheck />
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {busy ? t('signIn.linkOffer.submitting') : t('signIn.linkOffer.submit')}
        </button>
      </Form>
    </section>
  )
}
