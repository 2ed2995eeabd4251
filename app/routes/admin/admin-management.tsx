import type { Route } from './+types/admin-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { Notices, PageHeader } from '#app/components/page-kit'
import { Card } from '#app/components/card'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { inviteAdmin } from '#app/modules/administrator/administrator.server'
import { loadAdminList } from '#app/modules/administrator/administrator-list.server'
import { InviteAdminForm } from '#app/modules/administrator/components/admin-forms'
import { AdminList } from '#app/modules/administrator/components/administrator-list'
import { AdminInviteSchema, parseAdminListQuery } from '#app/modules/administrator/schemas'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { requireAdminForm } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = () => adminTitle('Administrators')

const PATH = '/admin/admin-management'

/** The administrators: a searchable, keyset-paginated list and the invitation form. */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadAdminList(parseAdminListQuery(new URL(request.url).searchParams), user.id)
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, actor: audited, formData } = await requireAdminForm(request, context)
  // The invitation e-mail names the administrator who sent it.
  const actor = { ...audited, name: user.displayName || user.email }
  return dispatchIntent(formData, {
    invite: intent(
      AdminInviteSchema,
      (input) => inviteAdmin(actor, input),
      (_, input) =>
        redirectWithToast(PATH, {
          kind: 'success',
          title: 'Invitation sent',
          description: `${input.name} will get an e-mail at ${input.email} to choose their password.`,
        }),
    ),
  })
}

export default function AdminManagement({ loaderData, actionData }: Route.ComponentProps) {
  const href = useListHref(PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title="Administrators">
        The people who run programmes in this portal. Invite one by e-mail: they choose their own password
        from the link.
      </PageHeader>
      <Notices notices={loaderData.notices} />
      <UnknownIntentErrors actionData={actionData} />

      <Card id="invite-title" title="Invite an administrator">
        <InviteAdminForm lastResult={resultFor(actionData, 'invite')} />
      </Card>

      <AdminList data={loaderData} path={PATH} href={href} />
    </section>
  )
}
