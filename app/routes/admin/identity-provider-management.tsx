import { useTranslation } from 'react-i18next'
import type { Route } from './+types/identity-provider-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { useFormMessage } from '#app/components/forms'
import { Notices, PageHeader } from '#app/components/page-kit'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { EnvironmentProvider } from '#app/modules/sso/components/environment-provider'
import { ProviderForm } from '#app/modules/sso/components/provider-forms'
import { ProviderList } from '#app/modules/sso/components/provider-list'
import { createIdentityProvider } from '#app/modules/sso/provider.server'
import { loadProviderList } from '#app/modules/sso/provider-pages.server'
import { parseProviderListQuery, ProviderCreateSchema } from '#app/modules/sso/schemas'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'identity-providers' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'identity-providers:metaTitle')

const PATH = '/admin/identity-provider-management'

/**
 * The client organisations' OpenID providers (issue 20 §1, ADR 049): a searchable, sortable,
 * keyset-paginated list, the provider set by variables (read-only), and the create form. A provider
 * opens on its own page (`/admin/identity-provider-management/:id`) for changes and deletion.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadProviderList(parseProviderListQuery(new URL(request.url).searchParams))
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const t = await getFixedT(request, 'identity-providers')
  return dispatchIntent(formData, {
    create: intent(
      ProviderCreateSchema,
      async ({ intent: _intent, allowPassword, ...input }) =>
        sayRefusal(
          request,
          'identity-providers',
          await createIdentityProvider(actor, { ...input, allowPassword: Boolean(allowPassword) }),
        ),
      ({ id }, input) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: t('toast.added'),
          description: t('toast.addedText', { domains: input.domains.join(', '), name: input.name }),
        }),
      // The secret typed never comes back in a refusal (nor in the page's data).
      { hideFields: ['clientSecret'] },
    ),
  })
}

export default function IdentityProviderManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('identity-providers')
  const say = useFormMessage()
  const href = useListHref(PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <Notices notices={loaderData.notices.map(say)} />
      <UnknownIntentErrors actionData={actionData} />
      {loaderData.environment ? <EnvironmentProvider provider={loaderData.environment} /> : null}

      <div id="new-provider" className="card">
        <ProviderForm
          provider={null}
          companyOptions={loaderData.companyOptions}
          redirectUri={loaderData.redirectUri}
          lastResult={resultFor(actionData, 'create')}
        />
      </div>

      <ProviderList data={loaderData} path={PATH} href={href} />
    </section>
  )
}
