import type { Route } from './+types/brand-management'
import { UnknownIntentErrors, useListHref } from '#app/components/admin-list'
import { resultFor } from '#app/components/form-kit'
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
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { requireAdminForm } from './admin-action.server'
import { ADMIN_HANDLE, adminTitle } from './admin-meta'

export const handle = ADMIN_HANDLE

export const meta: Route.MetaFunction = () => adminTitle('Brand management')

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
  return dispatchIntent(formData, {
    create: intent(
      BrandCreateSchema,
      ({ intent: _intent, ...input }) => createBrand(actor, input),
      ({ id }, input) =>
        redirectWithToast(`${PATH}/${id}`, {
          kind: 'success',
          title: 'Brand created',
          description: `Add ${possessive(input.name)} logo and contact links here, or keep the defaults.`,
        }),
    ),
  })
}

export default function BrandManagement({ loaderData, actionData }: Route.ComponentProps) {
  const href = useListHref(PATH)
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title="Brands">
        A brand is the look and sender of the e-mails and pages a client company’s people see: name, logo,
        colours and contact links.
      </PageHeader>
      <Notices notices={loaderData.notices} />
      <UnknownIntentErrors actionData={actionData} />

      <Card id="new-brand" title="Create a brand">
        <CreateBrandForm lastResult={resultFor(actionData, 'create')} />
      </Card>

      <BrandList data={loaderData} path={PATH} href={href} />
    </section>
  )
}
