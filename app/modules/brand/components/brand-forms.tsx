import { getFormProps, getInputProps, type FieldMetadata } from '@conform-to/react'
import { useState } from 'react'
import { Form } from 'react-router'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
import type { getBrand } from '#app/modules/brand/brand.server'
import { isLanguage } from '#app/modules/i18n/languages'
import {
  BrandCreateSchema,
  BrandUpdateSchema,
  DEFAULT_ACCENT_COLOR,
  DEFAULT_PRIMARY_COLOR,
  LOGO_ACCEPT,
} from '#app/modules/brand/schemas'

/** One brand as its page shows it. */
export type BrandDetails = NonNullable<Awaited<ReturnType<typeof getBrand>>>

export function CreateBrandForm({ lastResult }: { lastResult: FormResult }) {
  const [form, fields] = useConformForm(BrandCreateSchema, {
    id: 'create-brand',
    defaultValue: { primaryColor: DEFAULT_PRIMARY_COLOR, accentColor: DEFAULT_ACCENT_COLOR },
    lastResult,
  })
  return (
    <IntentForm form={form} intent="create" className="flex flex-col gap-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-3">
        <ConformField label="Brand name" meta={fields.name} autoComplete="off" />
        <ConformField
          label="Primary colour"
          meta={fields.primaryColor}
          help="# and six hex digits"
          autoComplete="off"
          spellCheck={false}
        />
        <ConformField
          label="Accent colour"
          meta={fields.accentColor}
          help="# and six hex digits"
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton intent="create" label="Create brand" pendingLabel="Creating…" />
        <p className="text-sm text-slate-700">
          The logo, sender name and contact links are set on the next page.
        </p>
      </div>
    </IntentForm>
  )
}

export function EditBrandForm({
  brand,
  languages,
  lastResult,
}: {
  brand: BrandDetails
  /** The languages offered (shipped, or previewed), and the stored one (ADR 050). */
  languages: ReadonlyArray<{ value: string; label: string }>
  lastResult: FormResult
}) {
  const [form, fields] = useConformForm(BrandUpdateSchema, {
    id: `brand-${brand.id}`,
    defaultValue: {
      name: brand.name,
      primaryColor: brand.primaryColor,
      accentColor: brand.accentColor,
      senderName: brand.senderName ?? '',
      callbackUrl: brand.callbackUrl ?? '',
      contactEmail: brand.contactEmail ?? '',
      profileUrl: brand.profileUrl ?? '',
      defaultLanguage: isLanguage(brand.defaultLanguage) ? brand.defaultLanguage : undefined,
    },
    lastResult,
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
      <ConformField label="Brand name" meta={fields.name} autoComplete="off" />
      <div className="grid gap-4 sm:grid-cols-2">
        <ColourField label="Primary colour" meta={fields.primaryColor} fallback={brand.primaryColor} />
        <ColourField label="Accent colour" meta={fields.accentColor} fallback={brand.accentColor} />
      </div>

      <ConformSelect
        label="Default language"
        meta={fields.defaultLanguage}
        options={languages}
        placeholder="Choose a language"
        help="The portal’s language for this brand’s employees who have not chosen their own."
      />

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
        <ConformField
          label={brand.logoFileId ? 'Upload a new logo' : 'Upload a logo'}
          meta={fields.logo}
          type="file"
          help="PNG, JPEG or WebP, 2 MB at most. A wide logo on a transparent background works best."
          accept={LOGO_ACCEPT}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">E-mail sender and contact links</legend>
        <ConformField
          label="Sender name"
          meta={fields.senderName}
          help={`The name e-mails come from, for example “Acme People Team”. ${blank}`}
          autoComplete="off"
        />
        <ConformField
          label="Callback page"
          meta={fields.callbackUrl}
          type="url"
          help={`Where “Request a callback” leads. ${blank}`}
          placeholder="https://"
        />
        <ConformField
          label="Contact e-mail"
          meta={fields.contactEmail}
          type="email"
          help={blank}
          autoComplete="off"
        />
        <ConformField
          label="Professional profile link"
          meta={fields.profileUrl}
          type="url"
          help={`For example a company page on a professional network. ${blank}`}
          placeholder="https://"
        />
      </fieldset>

      <div>
        <SubmitButton intent="update" label="Save brand" pendingLabel="Saving…" />
      </div>
    </Form>
  )
}

/** A #rrggbb text box with a swatch that follows what is typed. */
function ColourField<Value, Form extends Record<string, unknown>>({
  label,
  meta,
  fallback,
}: {
  label: string
  meta: FieldMetadata<Value, Form>
  fallback: string
}) {
  const [value, setValue] = useState(typeof meta.initialValue === 'string' ? meta.initialValue : fallback)
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
