import type { Route } from './+types/admin-management.$uid'
import type { Outcome } from '#app/lib/outcome'
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
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { metaT } from '#app/modules/i18n/meta'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, sayRefusal, toastReply } from './admin-action.server'
import { ADMIN_HANDLE } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'admins' }

// An administrator's own page has the product's name apart ("Ada · Administrators"), as it always had.
export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  {
    title: loaderData
      ? `${loaderData.admin.name || loaderData.admin.email} · ${metaT(matches, 'admins:metaTitle')}`
      : metaT(matches, 'admins:adminMetaTitle'),
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
  const t = await getFixedT(request, 'admins')
  const said = <T,>(outcome: Outcome<T>) => sayRefusal(request, 'admins', outcome)
  // Every form names the admin it acts on: a form from another admin's page is refused, not applied here.
  if (formData.get('adminId') !== admin.id) return unreadableForm()

  const setState = intent(
    AdminStateSchema,
    async (input) => said(await setAdminDisabled(actor, admin.id, input.intent === 'disable')),
    ({ changed }, input) =>
      !changed
        ? done(t('toast.nothingChanged'), t('toast.already', { who, state: input.intent }), 'info')
        : input.intent === 'disable'
          ? done(t('toast.disabled'), t('toast.disabledText', { who }))
          : done(t('toast.enabled'), t('toast.enabledText', { who })),
  )
  const sessionsEnded = ({ ended }: { ended: number }) =>
    ended
      ? done(t('toast.ended', { count: ended }), t('toast.endedText', { who, count: ended }))
      : done(t('toast.noSession'), t('toast.noSessionText'), 'info')
  // Your own current session is ended by signing out, not from this list.
  const own = admin.id === user.id

  return dispatchIntent(formData, {
    disable: setState,
    enable: setState,
    resend: intent(
      AdminResendSchema,
      async () => said(await resendAdminInvite(actor, admin.id)),
      ({ email }) => done(t('toast.resent'), t('toast.resentText', { email })),
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
