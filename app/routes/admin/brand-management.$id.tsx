import {
  getFormProps,
  getInputProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/brand-management.$id'
import { unreadableForm } from '#app/lib/form-data.server'
import { ErrorList, Field, FormErrors } from '#app/components/forms'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { deleteBrand, getBrand, updateBrand } from '#app/modules/brand/brand.server'
import { BrandDeleteSchema, BrandUpdateSchema, LOGO_ACCEPT } from '#app/modules/brand/schemas'
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

  if (intent === 'update') {
    const submission = parseWithZod(formData, { schema: BrandUpdateSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const upload = await readImageUpload(formData.get('logo'))
    if (upload && !upload.ok) {
      return data(
        { intent, result: submission.reply({ fieldErrors: { logo: [upload.message] } }) },
        { status: 400 },
      )
    }
    const { intent: _intent, logo: _logo, removeLogo, ...fields } = submission.value
    const outcome = await updateBrand(actor, brand.id, {
      ...fields,
      logo: upload?.ok ? { bytes: upload.bytes, mime: upload.mime } : null,
      removeLogo: Boolean(removeLogo),
    })
    if (!outcome.ok) {
      if (outcome.notFound) notFound()
      return data(
        {
          intent,
          result: submission.reply({ formErrors: outcome.formErrors, fieldErrors: outcome.fieldErrors }),
        },
        { status: 400 },
      )
    }
    return redirectWithToast(
      `${LIST}/${brand.id}`,
      outcome.value.changed.length
        ? { kind: 'success', title: 'Brand saved', description: `“${fields.name}” was updated.` }
        : { kind: 'info', title: 'Nothing to save', description: 'The brand already had those details.' },
    )
  }

  if (intent === 'delete') {
    const submission = parseWithZod(formData, { schema: BrandDeleteSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const outcome = await deleteBrand(actor, brand.id)
    if (!outcome.ok) {
      if (outcome.notFound) notFound()
      return data({ intent, result: submission.reply({ formErrors: outcome.formErrors }) }, { status: 400 })
    }
    return redirectWithToast(LIST, {
      kind: 'success',
      title: 'Brand deleted',
      description: `“${outcome.value.name}” was deleted.`,
    })
  }

  return unreadableForm()
}

export default function BrandPage({ loaderData, actionData }: Route.ComponentProps) {
  const { brand, confirmDelete } = loaderData
  const updateResult = actionData?.intent === 'update' ? actionData.result : undefined
  const deleteResult = actionData?.intent === 'delete' ? actionData.result : undefined
  const unknownErrors = actionData?.intent === 'unknown' ? actionData.result.error?.[''] : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to={LIST} className="link self-start text-sm">
          ← All brands
        </Link>
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          {brand.name}
        </h1>
        <p className="text-slate-700">
          Used by {brand.companyCount} {brand.companyCount === 1 ? 'company' : 'companies'}. Changes show in
          their e-mails and pages straight away.
        </p>
      </div>
      <FormErrors errors={unknownErrors} />
      {/* A refusal posted without the confirmation on screen (a stale tab) still shows its reason. */}
      {!confirmDelete ? <FormErrors errors={deleteResult?.error?.['']} /> : null}

      {confirmDelete ? <DeletePanel brand={brand} lastResult={deleteResult} /> : null}

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

type Brand = Route.ComponentProps['loaderData']['brand']

function EditBrandForm({
  brand,
  lastResult,
}: {
  brand: Brand
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'update'
  const [form, fields] = useForm({
    id: `brand-${brand.id}`,
    constraint: getZodConstraint(BrandUpdateSchema),
    defaultValue: {
      name: brand.name,
      primaryColor: brand.primaryColor,
      accentColor: brand.accentColor,
      senderName: brand.senderName ?? '',
      callbackUrl: brand.callbackUrl ?? '',
      contactEmail: brand.contactEmail ?? '',
      profileUrl: brand.profileUrl ?? '',
    },
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BrandUpdateSchema }),
    // Errors clear as they are fixed, not on blur: a message vanishing under the pointer would move
    // the submit button away from a click that is already under way.
    shouldRevalidate: 'onInput',
  })
  const blank = 'Leave blank to use the portal’s default.'
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      aria-labelledby="edit-title"
      className="card flex flex-col gap-6"
      {...getFormProps(form)}
    >
      <h2 id="edit-title" className="text-lg font-semibold">
        Brand details
      </h2>
      <input type="hidden" name="intent" value="update" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="Brand name"
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
        errors={fields.name.errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <ColourField label="Primary colour" meta={fields.primaryColor} fallback={brand.primaryColor} />
        <ColourField label="Accent colour" meta={fields.accentColor} fallback={brand.accentColor} />
      </div>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">Logo</legend>
        {brand.logoFileId ? (
          <div className="flex flex-wrap items-center gap-4">
            <img
              src={`/files/${brand.logoFileId}`}
              alt={`Current logo of ${brand.name}`}
              className="max-h-24 max-w-48 rounded border border-slate-200 bg-white object-contain p-2"
            />
            <div className="flex items-center gap-2">
              <input
                {...getInputProps(fields.removeLogo, { type: 'checkbox' })}
                className="h-4 w-4 accent-indigo-700"
              />
              <label htmlFor={fields.removeLogo.id} className="label">
                Remove the current logo
              </label>
            </div>
          </div>
        ) : (
          <p className="text-sm text-slate-700">No logo yet: the portal’s own mark is shown instead.</p>
        )}
        <Field
          label={brand.logoFileId ? 'Upload a new logo' : 'Upload a logo'}
          help="PNG, JPEG or WebP, 2 MB at most. A wide logo on a transparent background works best."
          inputProps={{ ...getInputProps(fields.logo, { type: 'file' }), accept: LOGO_ACCEPT }}
          errors={fields.logo.errors}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">E-mail sender and contact links</legend>
        <Field
          label="Sender name"
          help={`The name e-mails come from, for example “Acme People Team”. ${blank}`}
          inputProps={{ ...getInputProps(fields.senderName, { type: 'text' }), autoComplete: 'off' }}
          errors={fields.senderName.errors}
        />
        <Field
          label="Callback page"
          help={`Where “Request a callback” leads. ${blank}`}
          inputProps={{ ...getInputProps(fields.callbackUrl, { type: 'url' }), placeholder: 'https://' }}
          errors={fields.callbackUrl.errors}
        />
        <Field
          label="Contact e-mail"
          help={blank}
          inputProps={{ ...getInputProps(fields.contactEmail, { type: 'email' }), autoComplete: 'off' }}
          errors={fields.contactEmail.errors}
        />
        <Field
          label="Professional profile link"
          help={`For example a company page on a professional network. ${blank}`}
          inputProps={{ ...getInputProps(fields.profileUrl, { type: 'url' }), placeholder: 'https://' }}
          errors={fields.profileUrl.errors}
        />
      </fieldset>

      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save brand'}
        </button>
      </div>
    </Form>
  )
}

/** A #rrggbb text box with a swatch that follows what is typed. */
function ColourField({
  label,
  meta,
  fallback,
}: {
  label: string
  meta: FieldMetadata<string>
  fallback: string
}) {
  const [value, setValue] = useState(meta.initialValue ?? fallback)
  const valid = /^#[0-9a-fA-F]{6}$/.test(value.trim())
  const helpId = `${meta.id}-help`
  const errorId = meta.errors?.length ? meta.errorId : undefined
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="label">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <span
          aria-hidden="true"
          className="h-9 w-9 shrink-0 rounded border border-slate-400"
          style={{ backgroundColor: valid ? value.trim() : 'transparent' }}
        />
        <input
          {...getInputProps(meta, { type: 'text' })}
          className="input font-mono"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setValue(event.currentTarget.value)}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[helpId, errorId].filter(Boolean).join(' ')}
        />
      </div>
      <p id={helpId} className="text-sm text-slate-600">
        # and six hex digits, for example #1d4ed8.
      </p>
      <ErrorList id={errorId} errors={meta.errors} />
    </div>
  )
}

function DeletePanel({
  brand,
  lastResult,
}: {
  brand: Brand
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete'
  const heading = useRef<HTMLHeadingElement>(null)
  const [form] = useForm({ id: 'delete-brand', lastResult })
  // Opened by a link: move focus here so keyboard and screen-reader users land on the question.
  useEffect(() => heading.current?.focus(), [])
  const blocked = brand.companyCount > 0
  return (
    <section aria-labelledby="delete-title" className="card flex flex-col gap-3 border-red-300">
      <h2 id="delete-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-red-900">
        {`Delete “${brand.name}”?`}
      </h2>
      {blocked ? (
        <p className="text-slate-800">
          {brand.companyCount === 1
            ? 'One company uses this brand, so it cannot be deleted. Move that company to another brand first'
            : `${brand.companyCount} companies use this brand, so it cannot be deleted. Move those companies to another brand first`}{' '}
          (on the{' '}
          <Link className="link" to="/admin/company-management">
            companies page
          </Link>
          ).
        </p>
      ) : (
        <p className="text-slate-800">
          The brand, its logo and its own e-mail wording are removed for good. This cannot be undone.
        </p>
      )}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Form method="post" className="flex gap-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="delete" />
        {blocked ? null : (
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? 'Deleting…' : 'Yes, delete the brand'}
          </button>
        )}
        <Link to="." className="btn btn-secondary">
          {blocked ? 'Back to the brand' : 'Cancel'}
        </Link>
      </Form>
    </section>
  )
}
