import { useTranslation } from 'react-i18next'
import type { Route } from './+types/brand-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
import { useFormMessage } from '#app/components/forms'
import { Notices, PageHeader } from '#app/components/page-kit'
import { Card } from '#app/components/card'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { possessive } from '#app/lib/words'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { createBrand } from '#app/modules/brand/brand.server'
import { loadBrandList } from '#app/modules/brand/brand-list.server'
import { BrandList } from '#app/modules/brand/components/brand-list'
import { CreateBrandForm } from '#app/modules/brand/components/brand-forms'
import { BrandCreateSchema, parseBrandListQuery } from '#app/modules/brand/schemas'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'brands' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'brands:metaTitle')

const PATH = '/admin/brand-management'

/**
 * The brands page: a searchable, sortable, keyset-paginated list (with how many companies use each
 * brand) and a quick create form. A new brand opens on its own page (`/admin/brand-management/:id`),
 * where its logo, contact links and deletion live.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadBrandList(parseBrandListQuery(new URL(request.url).searchParams))
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const [t, language] = await Promise.all([getFixedT(request, 'brands'), requestLanguage(request)])
  return dispatchIntent(formData, {
    create: intent(
      BrandCreateSchema,
      async ({ intent: _intent, ...input }) => sayRefusal(request, 'brands', await createBrand(actor, input)),
      ({ id }, input) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: t('toast.created'),
          // English says whose (“Acme’s”); the others name the brand.
          description: t('toast.createdText', {
            owner: language === 'en' ? possessive(input.name) : input.name,
          }),
        }),
    ),
  })
}

export default function BrandManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('brands')
  const say = useFormMessage()
  const href = useListHref(PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <Notices notices={loaderData.notices.map(say)} />
      <UnknownIntentErrors actionData={actionData} />

      <Card id="new-brand" title={t('create.title')}>
        <CreateBrandForm lastResult={resultFor(actionData, 'create')} />
      </Card>

      <BrandList data={loaderData} path={PATH} href={href} />
    </section>
  )
}
