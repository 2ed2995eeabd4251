import type { Route } from './+types/profile'
import { FormErrors } from '#app/components/forms'
import { getEnv } from '#app/config/env.server'
import { readFormData } from '#app/lib/form-data.server'
import { passRetryAfter, replyAnswer } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { submitProfileForm } from '#app/modules/user/profile-action.server'
import { DetailsForm, EmailForm, PasswordForm, type Reply } from '#app/modules/user/profile-forms'
import type { ProfileIntent } from '#app/modules/user/profile-schemas'
import { getProfile } from '#app/modules/user/profile.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin' }

export const meta: Route.MetaFunction = () => [{ title: 'Your profile · Panorama' }]

const PAGE = '/admin/profile'
/** An admin's own name, password and e-mail address, under the same rules as an employee's. */
const INTENTS = ['profile', 'password', 'email'] as const satisfies readonly ProfileIntent[]

export const headers: Route.HeadersFunction = passRetryAfter

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const profile = await getProfile(user.id)
  if (!profile) notFound()
  return { profile, passwordMinLength: getEnv().PASSWORD_MIN_LENGTH }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const actor = { id: user.id, sessionId: session.id, ip: context.ip || null }
  const answer = await submitProfileForm(await readFormData(request), actor, INTENTS)
  return replyAnswer(answer, (toast) => redirectWithToast(PAGE, toast))
}

export default function AdminProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, passwordMinLength } = loaderData
  const resultFor = (intent: ProfileIntent) =>
    actionData?.intent === intent ? (actionData.result as Reply) : undefined
  const unknownErrors = actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          Your profile
        </h1>
        <p className="text-slate-700">
          Your name appears in the header and in the audit trail of what you change.
        </p>
      </div>
      <FormErrors errors={unknownErrors} />
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
    </section>
  )
}
