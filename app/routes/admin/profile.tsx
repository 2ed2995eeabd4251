import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import type { Route } from './+types/profile'
import { FormErrors } from '#app/components/forms'
import { getEnv } from '#app/config/env.server'
import { readFormData } from '#app/lib/form-data.server'
import { replyAnswer } from '#app/lib/reply.server'
import { TwoFactorSettings, type TwoFactorReply } from '#app/modules/auth/components/two-factor-settings'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { TWO_FACTOR_INTENTS, type TwoFactorIntent } from '#app/modules/auth/schemas'
import { mustSetUpSecondFactor } from '#app/modules/auth/second-factor.server'
import { getSecondFactorState } from '#app/modules/auth/totp.server'
import { submitTwoFactorForm } from '#app/modules/auth/two-factor-action.server'
import { submitProfileForm } from '#app/modules/user/profile-action.server'
import {
  DetailsForm,
  EmailForm,
  LanguageForm,
  PasswordForm,
  type Reply,
} from '#app/modules/user/profile-forms'
import type { ProfileIntent } from '#app/modules/user/profile-schemas'
import { getProfile } from '#app/modules/user/profile.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { getFixedT, readerLanguageOptions } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

// The authenticator's set-up and the recovery codes are shared with the sign-in's second step
// (second-factor); the profile forms' words (profile) and the password rules' messages (auth) are
// the employee profile's; the page's own words are the administrators' (admins).
export const handle: RouteHandle = { layout: 'admin', i18n: ['second-factor', 'profile', 'auth', 'admins'] }

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches, 'admins:profile.metaTitle') },
]

const PAGE = '/admin/profile'
/**
 * An admin's own name, password and e-mail address, under the same rules as an employee's, and their
 * second factor (ADR 048). An admin who must set one up and has none is sent here from every other
 * page, so this page alone lets them through (`settingUpSecondFactor`).
 */
const INTENTS = ['profile', 'password', 'email', 'language'] as const satisfies readonly ProfileIntent[]
const GUARD = { roles: ROUTE_ROLES.admin, settingUpSecondFactor: true }

const isTwoFactorIntent = (value: FormDataEntryValue | null): value is TwoFactorIntent =>
  (TWO_FACTOR_INTENTS as readonly unknown[]).includes(value)

// The set-up shows a secret, and the recovery codes are shown once: the browser keeps no copy of
// this page (ADR 009). A 429's Retry-After passes through.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

export async function loader({ request }: Route.LoaderArgs) {
  const signedIn = await requireUser(request, GUARD)
  const [profile, twoFactor] = await Promise.all([
    getProfile(signedIn.user.id),
    getSecondFactorState(signedIn.user.id),
  ])
  if (!profile) notFound()
  return {
    profile,
    passwordMinLength: getEnv().PASSWORD_MIN_LENGTH,
    twoFactor,
    twoFactorRequired: getEnv().ADMIN_TOTP_REQUIRED,
    mustSetUp: mustSetUpSecondFactor(signedIn),
    languages: await readerLanguageOptions(request, profile.language),
  }
}

const SHOWN: SubmissionResult<string[]> = { status: 'success', initialValue: null }

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, GUARD)
  const actor = { id: user.id, sessionId: session.id, ip: context.ip || null }
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (isTwoFactorIntent(intent)) {
    const required = getEnv().ADMIN_TOTP_REQUIRED
    const answer = await submitTwoFactorForm(
      formData,
      actor,
      intent,
      { required },
      await getFixedT(request, 'second-factor'),
    )
    return replyAnswer(answer, (done) =>
      'toast' in done
        ? // Back to the card, not the top of a long page.
          redirectWithToast(`${PAGE}#two-factor`, done.toast)
        : // Shown once, in this answer only (no redirect: nothing keeps them).
          data({ intent: answer.intent, result: SHOWN, recoveryCodes: done.recoveryCodes }),
    )
  }
  const answer = await submitProfileForm(formData, actor, INTENTS, await getFixedT(request, 'profile'))
  return replyAnswer(answer, (toast) => redirectWithToast(PAGE, toast))
}

export default function AdminProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admins')
  const { profile, passwordMinLength, twoFactor, twoFactorRequired, mustSetUp, languages } = loaderData
  const twoFactorReply =
    actionData && isTwoFactorIntent(actionData.intent) ? (actionData as TwoFactorReply) : undefined
  const resultFor = (intent: ProfileIntent) =>
    actionData?.intent === intent ? (actionData.result as Reply) : undefined
  const unknownErrors = actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined
  // First on the page while it is all the admin may do; else after the other forms.
  const twoFactorSettings = (
    <TwoFactorSettings
      view={twoFactor}
      required={twoFactorRequired}
      email={profile.email}
      reply={twoFactorReply}
    />
  )
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {t('profile.title')}
        </h1>
        <p className="text-slate-700">{t('profile.intro')}</p>
      </div>
      {mustSetUp ? (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="font-semibold">{t('profile.mustSetUp')}</p>
          <p>{t('profile.mustSetUpText')}</p>
        </div>
      ) : null}
      <FormErrors errors={unknownErrors} />
      {mustSetUp ? twoFactorSettings : null}
      {/* Keyed by the saved values: after a save each form starts again from them. */}
      <DetailsForm
        key={`${profile.displayName}\n${profile.phone ?? ''}`}
        profile={profile}
        lastResult={resultFor('profile')}
      />
      <PasswordForm email={profile.email} minLength={passwordMinLength} lastResult={resultFor('password')} />
      <EmailForm
        key={`${profile.email}\n${profile.pendingEmail?.email ?? ''}`}
        profile={profile}
        lastResult={resultFor('email')}
      />
      <LanguageForm
        key={profile.language ?? 'default'}
        current={profile.language}
        options={languages}
        lastResult={resultFor('language')}
      />
      {mustSetUp ? null : twoFactorSettings}
    </section>
  )
}
