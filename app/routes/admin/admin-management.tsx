import type { Route } from './+types/admin-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { Notices, PageHeader } from '#app/components/page-kit'
import { Card } from '#app/components/card'
import { readFormData, unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { inviteAdmin } from '#app/modules/administrator/administrator.server'
import { loadAdminList } from '#app/modules/administrator/administrator-list.server'
import { InviteAdminForm } from '#app/modules/administrator/components/admin-forms'
import { AdminList } from '#app/modules/administrator/components/administrator-list'
import { AdminInviteSchema, parseAdminListQuery } from '#app/modules/administrator/schemas'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = () => [{ title: 'Administrators · Panorama admin' }]

const PATH = '/admin/admin-management'

/** The administrators: a searchable, keyset-paginated list and the invitation form. */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadAdminList(parseAdminListQuery(new URL(request.url).searchParams), user.id)
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const formData = await readFormData(request)
  const actor = { id: user.id, ip: context.ip || null, name: user.displayName || user.email }
  const intent = formData.get('intent')
  if (intent === 'invite')
    return submitIntent(
      formData,
      intent,
      AdminInviteSchema,
      (input) => inviteAdmin(actor, input),
      (_, input) =>
        redirectWithToast(PATH, {
          kind: 'success',
          title: 'Invitation sent',
          description: `${input.name} will get an e-mail at ${input.email} to choose their password.`,
        }),
    )
  return unreadableForm()
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
