import { redirect } from 'react-router'
import type { Route } from './+types/brand-management.$id'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { refuseField } from '#app/lib/outcome'
import { loadBrandPage } from '#app/modules/brand/brand-page.server'
import { BrandPage } from '#app/modules/brand/components/brand-page'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { deleteBrand, getBrand, updateBrand } from '#app/modules/brand/brand.server'
import { BrandDeleteSchema, BrandUpdateSchema } from '#app/modules/brand/schemas'
import { readImageUpload } from '#app/modules/file/file.server'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, savedToast, savedToastWords, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminNamedTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'brands' }

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? adminNamedTitleT(matches, 'brands:metaTitle', loaderData.brand.name)
    : adminNamedTitleT(matches, 'brands:brandMetaTitle')

const LIST = '/admin/brand-management'

/**
 * One brand: every field, the logo (uploaded as multipart, checked by content, stored in `files`)
 * and deletion behind a confirmation (`?delete`). Unknown and malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  // "new" is not an id: brands are created on the list page.
  if (params.id === 'new') throw redirect(`${LIST}#new-brand`)
  return (await loadBrandPage(params.id, new URL(request.url).searchParams)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const brand = (await getBrand(params.id)) ?? notFound()
  const t = await getFixedT(request, 'brands')
  return dispatchIntent(formData, {
    update: intent(
      BrandUpdateSchema,
      async ({ intent: _intent, logo: _logo, removeLogo, ...fields }) => {
        const upload = await readImageUpload(formData.get('logo'))
        if (upload && !upload.ok) return refuseField('logo', upload.message)
        const outcome = await updateBrand(actor, brand.id, {
          ...fields,
          logo: upload?.ok ? { bytes: upload.bytes, mime: upload.mime } : null,
          removeLogo: Boolean(removeLogo),
        })
        return sayRefusal(request, 'brands', outcome)
      },
      ({ changed }, { name }) =>
        redirectWithToast(
          `${LIST}/${brand.id}`,
          savedToast(changed, 'brand', t('toast.updatedText', { name }), savedToastWords(t)),
        ),
    ),
    delete: intent(
      BrandDeleteSchema,
      () => deleteBrand(actor, brand.id),
      ({ name }) =>
        redirectWithToast(LIST, {
          kind: 'success',
          title: t('toast.deleted'),
          description: t('toast.deletedText', { name }),
        }),
    ),
  })
}

export default function BrandDetail({ loaderData, actionData }: Route.ComponentProps) {
  return <BrandPage data={loaderData} actionData={actionData} />
}
