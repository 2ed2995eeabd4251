import { useTranslation } from 'react-i18next'
import type { Route } from './+types/admin-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { useFormMessage } from '#app/components/forms'
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
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'admins' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'admins:metaTitle')

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
  const t = await getFixedT(request, 'admins')
  return dispatchIntent(formData, {
    invite: intent(
      AdminInviteSchema,
      async (input) => sayRefusal(request, 'admins', await inviteAdmin(actor, input)),
      (_, input) =>
        redirectWithToast(PATH, {
          kind: 'success',
          title: t('toast.invited'),
          description: t('toast.invitedText', { name: input.name, email: input.email }),
        }),
    ),
  })
}

export default function AdminManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admins')
  const say = useFormMessage()
  const href = useListHref(PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <Notices notices={loaderData.notices.map(say)} />
      <UnknownIntentErrors actionData={actionData} />

      <Card id="invite-title" title={t('invite.title')}>
        <InviteAdminForm lastResult={resultFor(actionData, 'invite')} />
      </Card>

      <AdminList data={loaderData} path={PATH} href={href} />
    </section>
  )
}
