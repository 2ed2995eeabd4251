import { redirect } from 'react-router'
import type { Route } from './+types/identity-provider-management.$id'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { ProviderPage } from '#app/modules/sso/components/provider-page'
import {
  deleteIdentityProvider,
  identityProviderExists,
  updateIdentityProvider,
} from '#app/modules/sso/provider.server'
import { loadProviderPage } from '#app/modules/sso/provider-pages.server'
import { ProviderDeleteSchema, ProviderUpdateSchema } from '#app/modules/sso/schemas'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, savedToast, savedToastWords, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminNamedTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'identity-providers' }

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? adminNamedTitleT(matches, 'identity-providers:metaTitle', loaderData.provider.name)
    : adminNamedTitleT(matches, 'identity-providers:providerMetaTitle')

const LIST = '/admin/identity-provider-management'

/**
 * One identity provider (issue 20 §1, ADR 049): its settings — the client secret write-only, blank
 * keeps it — and deletion behind a confirmation (`?delete`). Unknown and malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  // "new" is not an id: providers are added on the list page.
  if (params.id === 'new') throw redirect(`${LIST}#new-provider`)
  return (await loadProviderPage(params.id, new URL(request.url).searchParams)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  if (!(await identityProviderExists(params.id))) notFound()
  const t = await getFixedT(request, 'identity-providers')
  return dispatchIntent(formData, {
    update: intent(
      ProviderUpdateSchema,
      async ({ intent: _intent, allowPassword, clientSecret, ...input }) =>
        sayRefusal(
          request,
          'identity-providers',
          await updateIdentityProvider(actor, params.id, {
            ...input,
            clientSecret: clientSecret || null,
            allowPassword: Boolean(allowPassword),
          }),
        ),
      ({ changed }, { name }) =>
        redirectWithToast(
          `${LIST}/${params.id}`,
          savedToast(changed, 'provider', t('toast.updatedText', { name }), savedToastWords(t)),
        ),
      // The secret typed never comes back in a refusal (nor in the page's data).
      { hideFields: ['clientSecret'] },
    ),
    delete: intent(
      ProviderDeleteSchema,
      () => deleteIdentityProvider(actor, params.id),
      ({ name }) =>
        redirectWithToast(LIST, {
          kind: 'success',
          title: t('toast.deleted'),
          description: t('toast.deletedText', { name }),
        }),
    ),
  })
}

export default function IdentityProviderDetail({ loaderData, actionData }: Route.ComponentProps) {
  return <ProviderPage data={loaderData} actionData={actionData} />
}
