import type { Route } from './+types/admin-management.$uid'
import { unreadableForm } from '#app/lib/form-data.server'
import { refuse } from '#app/lib/outcome'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { loadAdminPage } from '#app/modules/administrator/admin-page.server'
import {
  endAdminSessions,
  endOtherAdminSessions,
  getAdmin,
  resendAdminInvite,
  setAdminDisabled,
} from '#app/modules/administrator/administrator.server'
import { AdminPage } from '#app/modules/administrator/components/admin-page'
import {
  AdminResendSchema,
  AdminStateSchema,
  EndSessionSchema,
  EndSessionsSchema,
} from '#app/modules/administrator/schemas'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { requireAdminForm, toastReply } from './admin-action.server'
import { ADMIN_HANDLE } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.admin.name || loaderData.admin.email} · Administrators`
      : 'Administrator',
  },
]

const LIST = '/admin/admin-management'

/** One administrator: state, invitation, disable/enable (behind a confirmation) and live sessions. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { user, session } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const viewer = { userId: user.id, sessionId: session.id }
  return (await loadAdminPage(params.uid, new URL(request.url).searchParams, viewer)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, session, actor: audited, formData } = await requireAdminForm(request, context)
  const admin = (await getAdmin(params.uid)) ?? notFound()
  // The invitation e-mail names the administrator who sent it.
  const actor = { ...audited, name: user.displayName || user.email }
  const done = toastReply(`${LIST}/${admin.id}`)
  const who = admin.name || admin.email
  // Every form names the admin it acts on: a form from another admin's page is refused, not applied here.
  if (formData.get('adminId') !== admin.id) return unreadableForm()

  const setState = intent(
    AdminStateSchema,
    (input) => setAdminDisabled(actor, admin.id, input.intent === 'disable'),
    ({ changed }, input) =>
      !changed
        ? done('Nothing changed', `${who} was already ${input.intent}d.`, 'info')
        : input.intent === 'disable'
          ? done('Administrator disabled', `${who} was signed out and can no longer sign in.`)
          : done('Administrator enabled', `${who} can sign in again.`),
  )
  const sessionsEnded = ({ ended }: { ended: number }) =>
    ended
      ? done(
          ended === 1 ? 'Session ended' : `${ended} sessions ended`,
          `${who} must sign in again on ${ended === 1 ? 'that device' : 'those devices'}.`,
        )
      : done('No session to end', 'It had already ended.', 'info')
  // Your own current session is ended by signing out, not from this list.
  const own = admin.id === user.id

  return dispatchIntent(formData, {
    disable: setState,
    enable: setState,
    resend: intent(
      AdminResendSchema,
      () => resendAdminInvite(actor, admin.id),
      ({ email }) => done('Invitation sent again', `A new link went to ${email}.`),
    ),
    'end-session': intent(
      EndSessionSchema,
      ({ sessionId }) =>
        own && sessionId === session.id
          ? Promise.resolve(refuse('This is the session you are using now. Sign out instead.'))
          : endAdminSessions(actor, admin.id, sessionId),
      sessionsEnded,
    ),
    'end-sessions': intent(
      EndSessionsSchema,
      () => (own ? endOtherAdminSessions(actor, admin.id, session.id) : endAdminSessions(actor, admin.id)),
      sessionsEnded,
    ),
  })
}

export default function AdminDetail({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminPage data={loaderData} actionData={actionData} />
}
