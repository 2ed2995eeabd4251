import { Link } from 'react-router'
import type { Route } from './+types/admin-management.$uid'
import { ConfirmPanel, formErrorsOf, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { readFormData, unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import {
  endAdminSessions,
  getAdmin,
  resendAdminInvite,
  setAdminDisabled,
} from '#app/modules/administrator/administrator.server'
import { AdminSessions } from '#app/modules/administrator/components/admin-sessions'
import { AdminStateBadge, IntentButton } from '#app/modules/administrator/components/admin-forms'
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
  const admin = await getAdmin(params.uid)
  if (!admin) notFound()
  const url = new URL(request.url)
  return {
    admin,
    isMe: admin.id === user.id,
    currentSessionId: admin.id === user.id ? session.id : null,
    confirm: url.searchParams.has('disable') ? ('disable' as const) : null,
  }
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
            ? endOthers(actor, admin.id, session.id)
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

/** "End all sessions" on your own page ends the others and keeps the one you are using. */
async function endOthers(actor: { id: string; ip: string | null }, adminId: string, keep: string) {
  const admin = await getAdmin(adminId)
  const others = admin?.sessions.filter((s) => s.id !== keep) ?? []
  let ended = 0
  for (const s of others) {
    const outcome = await endAdminSessions(actor, adminId, s.id)
    if (outcome.ok) ended += outcome.value.ended
  }
  return { ok: true as const, value: { ended } }
}

export default function AdminDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, isMe, currentSessionId, confirm } = loaderData
  const who = admin.name || admin.email
  const here = `${LIST}/${admin.id}`
  const stateResult = resultFor(actionData, 'disable') ?? resultFor(actionData, 'enable')
  const otherErrors =
    formErrorsOf(resultFor(actionData, 'resend')) ??
    formErrorsOf(resultFor(actionData, 'end-session')) ??
    formErrorsOf(resultFor(actionData, 'end-sessions')) ??
    (actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined) ??
    (!confirm ? formErrorsOf(stateResult) : undefined)
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <p>
        <Link className="link" to={LIST}>
          ← All administrators
        </Link>
      </p>
      <PageHeader title={who} />
      <FormErrors errors={otherErrors} />
      <section aria-labelledby="account-title" className="card flex flex-col gap-4">
        <h2 id="account-title" className="text-lg font-semibold">
          Account
        </h2>
        <dl className="grid gap-2 sm:grid-cols-[10rem_1fr]">
          <dt className="font-semibold text-slate-800">E-mail</dt>
          <dd className="break-all">{admin.email}</dd>
          <dt className="font-semibold text-slate-800">State</dt>
          <dd>
            <AdminStateBadge state={admin.state} />
            {isMe ? <span className="ml-2 text-sm text-slate-700">This is you.</span> : null}
          </dd>
          <dt className="font-semibold text-slate-800">Added</dt>
          <dd>
            <time dateTime={admin.createdAt}>{admin.createdAt.slice(0, 10)}</time>
          </dd>
        </dl>
        <div className="flex flex-wrap gap-3">
          {admin.state === 'invited' ? (
            <IntentButton
              intent="resend"
              fields={{ adminId: admin.id }}
              label="Send the invitation again"
              pendingLabel="Sending…"
            />
          ) : null}
          {admin.state === 'disabled' ? (
            <IntentButton
              intent="enable"
              fields={{ adminId: admin.id }}
              label="Enable"
              pendingLabel="Enabling…"
              tone="primary"
            />
          ) : isMe ? (
            <p className="text-sm text-slate-700">You cannot disable your own account.</p>
          ) : (
            <Link className="btn btn-danger" to={`${here}?disable`}>
              Disable…
            </Link>
          )}
        </div>
      </section>

      {confirm === 'disable' && admin.state !== 'disabled' ? (
        <ConfirmPanel
          id="disable-admin"
          title={`Disable ${who}?`}
          intent="disable"
          fields={{ adminId: admin.id }}
          confirmLabel="Yes, disable"
          pendingLabel="Disabling…"
          cancelHref={here}
          lastResult={stateResult}
          backLabel="Back"
        >
          <p className="text-slate-800">
            They are signed out everywhere at once and cannot sign in until an administrator enables them
            again.
          </p>
        </ConfirmPanel>
      ) : null}

      <AdminSessions adminId={admin.id} sessions={admin.sessions} currentSessionId={currentSessionId} />
    </section>
  )
}
