import { useTranslation } from 'react-i18next'
import type { Route } from './+types/edit-profile'
import { FormErrors } from '#app/components/forms'
import { getEnv } from '#app/config/env.server'
import { readFormData } from '#app/lib/form-data.server'
import { passRetryAfter, replyAnswer } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { submitProfileForm } from '#app/modules/user/profile-action.server'
import {
  DetailsForm,
  EmailForm,
  LanguageForm,
  PasswordForm,
  PhotoForm,
  type Reply,
} from '#app/modules/user/profile-forms'
import { PROFILE_INTENTS, type ProfileIntent } from '#app/modules/user/profile-schemas'
import { getProfile } from '#app/modules/user/profile.server'
import { MyDataCard } from '#app/modules/user/my-data-card'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { getFixedT, readerLanguageOptions } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'

// `auth` holds the password rules' messages (its validation table), which the password form answers.
export const handle: RouteHandle = { layout: 'user', transition: true, i18n: ['profile', 'auth'] }

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches, 'profile:metaTitle') }]

const PAGE = '/user/edit-profile'

// A 429's Retry-After reaches the browser only when the route passes it on.
export const headers: Route.HeadersFunction = passRetryAfter

/**
 * The employee's own profile: five forms told apart by `intent` (profile, photo, password, email,
 * language),
 * each validated by the same Zod schema in the browser and on the server, each working without
 * JavaScript (app/modules/user/profile-forms.tsx, profile-action.server.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES['user/edit-profile'] })
  const profile = await getProfile(user.id)
  if (!profile) notFound()
  return {
    profile,
    passwordMinLength: getEnv().PASSWORD_MIN_LENGTH,
    brand: profile.brand,
    languages: await readerLanguageOptions(request, profile.language),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, { roles: ROUTE_ROLES['user/edit-profile'] })
  const actor = { id: user.id, sessionId: session.id, ip: context.ip || null }
  const answer = await submitProfileForm(
    await readFormData(request),
    actor,
    PROFILE_INTENTS,
    await getFixedT(request, 'profile'),
  )
  return replyAnswer(answer, (toast) => redirectWithToast(PAGE, toast))
}

export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  const { profile, passwordMinLength, languages } = loaderData
  const resultFor = (intent: ProfileIntent) =>
    actionData?.intent === intent ? (actionData.result as Reply) : undefined
  const unknownErrors = actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {t('title')}
        </h1>
        <p className="text-slate-700">{t('intro')}</p>
      </div>
      <FormErrors errors={unknownErrors} />
      {/* Keyed by the saved values: after a save each form starts again from them. */}
      <DetailsForm
        key={`${profile.displayName}\n${profile.phone ?? ''}`}
        profile={profile}
        lastResult={resultFor('profile')}
      />
      <PhotoForm key={profile.photoFileId ?? 'none'} profile={profile} lastResult={resultFor('photo')} />
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
      <MyDataCard />
    </section>
  )
}
