import { getFormProps, getInputProps, type FieldMetadata } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
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
  const { t } = useTranslation('brands')
  const [form, fields] = useConformForm(BrandCreateSchema, {
    id: 'create-brand',
    defaultValue: { primaryColor: DEFAULT_PRIMARY_COLOR, accentColor: DEFAULT_ACCENT_COLOR },
    lastResult,
  })
  return (
    <IntentForm form={form} intent="create" className="flex flex-col gap-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-3">
        <ConformField label={t('form.name')} meta={fields.name} autoComplete="off" />
        <ConformField
          label={t('form.primary')}
          meta={fields.primaryColor}
          help={t('form.hex')}
          autoComplete="off"
          spellCheck={false}
        />
        <ConformField
          label={t('form.accent')}
          meta={fields.accentColor}
          help={t('form.hex')}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton intent="create" label={t('form.create')} pendingLabel={t('form.creating')} />
        <p className="text-sm text-slate-700">{t('form.nextPage')}</p>
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
  const { t } = useTranslation('brands')
  const blank = t('form.blank')
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      aria-labelledby="edit-title"
      className="card flex flex-col gap-6"
      {...getFormProps(form)}
    >
      <h2 id="edit-title" className="text-lg font-semibold">
        {t('form.details')}
      </h2>
      <input type="hidden" name="intent" value="update" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <ConformField label={t('form.name')} meta={fields.name} autoComplete="off" />
      <div className="grid gap-4 sm:grid-cols-2">
        <ColourField label={t('form.primary')} meta={fields.primaryColor} fallback={brand.primaryColor} />
        <ColourField label={t('form.accent')} meta={fields.accentColor} fallback={brand.accentColor} />
      </div>

      <ConformSelect
        label={t('form.language')}
        meta={fields.defaultLanguage}
        options={languages}
        placeholder={t('form.chooseLanguage')}
        help={t('form.languageHelp')}
      />

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">{t('form.logo')}</legend>
        {brand.logoFileId ? (
          <div className="flex flex-wrap items-center gap-4">
            <img
              src={`/files/${brand.logoFileId}`}
              alt={t('form.currentLogo', { name: brand.name })}
              className="max-h-24 max-w-48 rounded border border-slate-200 bg-white object-contain p-2"
            />
            <div className="flex items-center gap-2">
              <input
                {...getInputProps(fields.removeLogo, { type: 'checkbox' })}
                className="h-4 w-4 accent-indigo-700"
              />
              <label htmlFor={fields.removeLogo.id} className="label">
                {t('form.removeLogo')}
              </label>
            </div>
          </div>
        ) : (
          <p className="text-sm text-slate-700">{t('form.noLogo')}</p>
        )}
        <ConformField
          label={brand.logoFileId ? t('form.uploadNew') : t('form.upload')}
          meta={fields.logo}
          type="file"
          help={t('form.logoHelp')}
          accept={LOGO_ACCEPT}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">{t('form.contact')}</legend>
        <ConformField
          label={t('form.sender')}
          meta={fields.senderName}
          help={`${t('form.senderHelp')} ${blank}`}
          autoComplete="off"
        />
        <ConformField
          label={t('form.callback')}
          meta={fields.callbackUrl}
          type="url"
          help={`${t('form.callbackHelp')} ${blank}`}
          placeholder="https://"
        />
        <ConformField
          label={t('form.contactEmail')}
          meta={fields.contactEmail}
          type="email"
          help={blank}
          autoComplete="off"
        />
        <ConformField
          label={t('form.profile')}
          meta={fields.profileUrl}
          type="url"
          help={`${t('form.profileHelp')} ${blank}`}
          placeholder="https://"
        />
      </fieldset>

      <div>
        <SubmitButton intent="update" label={t('form.save')} pendingLabel={t('form.saving')} />
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
  const { t } = useTranslation('brands')
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
        {t('form.hexExample')}
      </p>
      <ErrorList id={errorId} errors={meta.errors} />
    </div>
  )
}
