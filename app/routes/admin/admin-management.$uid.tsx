import type { Route } from './+types/admin-management.$uid'
import { readFormData, unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
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
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

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
  const page = await loadAdminPage(params.uid, new URL(request.url).searchParams, viewer)
  if (!page) notFound()
  return page
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const admin = await getAdmin(params.uid)
  if (!admin) notFound()
  const formData = await readFormData(request)
  const actor = { id: user.id, ip: context.ip || null, name: user.displayName || user.email }
  const here = `${LIST}/${admin.id}`
  const who = admin.name || admin.email
  // Every form names the admin it acts on: a form from another admin's page is refused, not applied here.
  if (formData.get('adminId') !== admin.id) return unreadableForm()
  const intent = formData.get('intent')

  if (intent === 'disable' || intent === 'enable')
    return submitIntent(
      formData,
      intent,
      AdminStateSchema,
      (input) => setAdminDisabled(actor, admin.id, input.intent === 'disable'),
      ({ changed }, input) =>
        redirectWithToast(
          here,
          !changed
            ? { kind: 'info', title: 'Nothing changed', description: `${who} was already ${input.intent}d.` }
            : input.intent === 'disable'
              ? {
                  kind: 'success',
                  title: 'Administrator disabled',
                  description: `${who} was signed out and can no longer sign in.`,
                }
              : { kind: 'success', title: 'Administrator enabled', description: `${who} can sign in again.` },
        ),
    )

  if (intent === 'resend')
    return submitIntent(
      formData,
      intent,
      AdminResendSchema,
      () => resendAdminInvite(actor, admin.id),
      ({ email }) =>
        redirectWithToast(here, {
          kind: 'success',
          title: 'Invitation sent again',
          description: `A new link went to ${email}.`,
        }),
    )

  if (intent === 'end-session' || intent === 'end-sessions') {
    const own = admin.id === user.id
    return submitIntent(
      formData,
      intent,
      intent === 'end-session' ? EndSessionSchema : EndSessionsSchema,
      (input) =>
        // Your own current session is ended by signing out, not from this list.
        own && (!('sessionId' in input) || input.sessionId === session.id)
          ? intent === 'end-sessions'
            ? endOtherAdminSessions(actor, admin.id, session.id)
            : Promise.resolve({
                ok: false as const,
                formErrors: ['This is the session you are using now. Sign out instead.'],
              })
          : endAdminSessions(actor, admin.id, 'sessionId' in input ? input.sessionId : undefined),
      ({ ended }) =>
        redirectWithToast(here, {
          kind: ended ? 'success' : 'info',
          title: ended ? (ended === 1 ? 'Session ended' : `${ended} sessions ended`) : 'No session to end',
          description: ended
            ? `${who} must sign in again on ${ended === 1 ? 'that device' : 'those devices'}.`
            : 'It had already ended.',
        }),
    )
  }
  return unreadableForm()
}

export default function AdminDetail({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminPage data={loaderData} actionData={actionData} />
}
