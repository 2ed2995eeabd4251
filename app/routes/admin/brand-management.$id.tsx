import { Link, redirect } from 'react-router'
import type { Route } from './+types/brand-management.$id'
import { unreadableForm } from '#app/lib/form-data.server'
import { submitIntent } from '#app/lib/reply.server'
import { refuseField } from '#app/lib/outcome'
import { ConfirmPanel, formErrorsOf, PageHeader, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { EditBrandForm } from '#app/modules/brand/components/brand-forms'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { deleteBrand, getBrand, updateBrand } from '#app/modules/brand/brand.server'
import { BrandDeleteSchema, BrandUpdateSchema } from '#app/modules/brand/schemas'
import { readImageUpload } from '#app/modules/file/file.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'

export const handle: RouteHandle = { layout: 'admin', transition: true }

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.brand.name} · Brand management · Panorama admin`
      : 'Brand · Panorama admin',
  },
]

const LIST = '/admin/brand-management'

/**
 * One brand: every field, the logo (uploaded as multipart, checked by content, stored in `files`)
 * and deletion behind a confirmation (`?delete`). Unknown and malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  // "new" is not an id: brands are created on the list page.
  if (params.id === 'new') throw redirect(`${LIST}#new-brand`)
  const brand = await getBrand(params.id)
  if (!brand) notFound()
  return { brand, confirmDelete: new URL(request.url).searchParams.has('delete') }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, { roles: ROUTE_ROLES.admin })
  const brand = await getBrand(params.id)
  if (!brand) notFound()
  const formData = await request.formData().catch(() => null)
  if (!formData) return unreadableForm()
  const actor = { id: user.id, ip: context.ip || null }
  const intent = formData.get('intent')

  if (intent === 'update')
    return submitIntent(
      formData,
      intent,
      BrandUpdateSchema,
      async ({ intent: _intent, logo: _logo, removeLogo, ...fields }) => {
        const upload = await readImageUpload(formData.get('logo'))
        if (upload && !upload.ok) return refuseField('logo', upload.message)
        return updateBrand(actor, brand.id, {
          ...fields,
          logo: upload?.ok ? { bytes: upload.bytes, mime: upload.mime } : null,
          removeLogo: Boolean(removeLogo),
        })
      },
      ({ changed }, { name }) =>
        redirectWithToast(
          `${LIST}/${brand.id}`,
          changed.length
            ? { kind: 'success', title: 'Brand saved', description: `“${name}” was updated.` }
            : { kind: 'info', title: 'Nothing to save', description: 'The brand already had those details.' },
        ),
    )

  if (intent === 'delete')
    return submitIntent(
      formData,
      intent,
      BrandDeleteSchema,
      () => deleteBrand(actor, brand.id),
      ({ name }) =>
        redirectWithToast(LIST, {
          kind: 'success',
          title: 'Brand deleted',
          description: `“${name}” was deleted.`,
        }),
    )

  return unreadableForm()
}

export default function BrandPage({ loaderData, actionData }: Route.ComponentProps) {
  const { brand, confirmDelete } = loaderData
  const updateResult = resultFor(actionData, 'update')
  const deleteResult = resultFor(actionData, 'delete')
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to={LIST} className="link self-start text-sm">
          ← All brands
        </Link>
        <PageHeader title={brand.name}>
          Used by {brand.companyCount} {brand.companyCount === 1 ? 'company' : 'companies'}. Changes show in
          their e-mails and pages straight away.
        </PageHeader>
      </div>
      <FormErrors errors={unknownErrors} />
      {/* A refusal posted without the confirmation on screen (a stale tab) still shows its reason. */}
      {!confirmDelete ? <FormErrors errors={formErrorsOf(deleteResult)} /> : null}

      {confirmDelete ? (
        <ConfirmPanel
          id="delete-brand"
          title={`Delete “${brand.name}”?`}
          intent="delete"
          fields={{}}
          confirmLabel="Yes, delete the brand"
          pendingLabel="Deleting…"
          cancelHref="."
          lastResult={deleteResult}
          backLabel="Back to the brand"
          blockedBy={
            brand.companyCount > 0 ? (
              <>
                {brand.companyCount === 1
                  ? 'One company uses this brand, so it cannot be deleted. Move that company to another brand first'
                  : `${brand.companyCount} companies use this brand, so it cannot be deleted. Move those companies to another brand first`}{' '}
                (on the{' '}
                <Link className="link" to="/admin/company-management">
                  companies page
                </Link>
                ).
              </>
            ) : null
          }
        >
          <p className="text-slate-800">
            The brand, its logo and its own e-mail wording are removed for good. This cannot be undone.
          </p>
        </ConfirmPanel>
      ) : null}

      {/* Keyed by the saved values: after a save the form starts again from them (and the file input empties). */}
      <EditBrandForm key={JSON.stringify(brand)} brand={brand} lastResult={updateResult} />

      {confirmDelete ? null : (
        <section aria-labelledby="danger-title" className="card flex flex-col items-start gap-3">
          <h2 id="danger-title" className="text-lg font-semibold">
            Delete this brand
          </h2>
          <p className="text-slate-700">
            {brand.companyCount
              ? 'A brand can be deleted once no company uses it.'
              : 'No company uses this brand, so it can be deleted.'}
          </p>
          <Link to="?delete" className="btn btn-secondary">
            Delete brand…
          </Link>
        </section>
      )}
    </section>
  )
}
