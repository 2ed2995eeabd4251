import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useConformForm, useResetAfterSuccess, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton, RowForm } from '#app/components/form-parts'
import { FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
import { CompanyCreateSchema, CompanyUpdateSchema } from '#app/modules/company/schemas'
import { FEEDBACK_REQUEST_CAP_MAX, FEEDBACK_REQUEST_CAP_MIN } from '#app/config/constants'
import type { ErasureRaterAnswers } from '#db/enums'

type BrandOption = { id: string; name: string }

export function CreateCompanyForm({
  brandOptions,
  lastResult,
}: {
  brandOptions: BrandOption[]
  lastResult: FormResult
}) {
  const { t } = useTranslation('companies')
  const [form, fields] = useConformForm(CompanyCreateSchema, { id: 'create-company', lastResult })
  useResetAfterSuccess(form.id, 'create', lastResult)
  return (
    <RowForm form={form} intent="create" label={t('form.add')} pendingLabel={t('form.adding')}>
      <ConformField label={t('form.name')} meta={fields.name} autoComplete="off" />
      <ConformSelect
        label={t('form.brand')}
        meta={fields.brandId}
        options={choicesOf(brandOptions)}
        placeholder={t('form.chooseBrand')}
      />
    </RowForm>
  )
}

export function EditCompanyForm({
  company,
  brandOptions,
  lastResult,
  cancelHref,
}: {
  company: {
    id: string
    name: string
    brandId: string
    feedbackRequestCap: number
    erasureRaterAnswers: ErasureRaterAnswers
  }
  brandOptions: BrandOption[]
  lastResult: FormResult
  cancelHref: string
}) {
  const { t } = useTranslation('companies')
  const [form, fields] = useConformForm(CompanyUpdateSchema, {
    id: `update-company-${company.id}`,
    defaultValue: {
      companyId: company.id,
      name: company.name,
      brandId: company.brandId,
      feedbackRequestCap: company.feedbackRequestCap,
      erasureRaterAnswers: company.erasureRaterAnswers,
    },
    lastResult,
  })
  return (
    <IntentForm
      form={form}
      intent="update"
      aria-label={t('form.editLabel', { name: company.name })}
      className="flex flex-col gap-4"
    >
      <input type="hidden" name="companyId" value={company.id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformField label={t('form.name')} meta={fields.name} autoComplete="off" autoFocus />
        <ConformSelect
          label={t('form.brand')}
          meta={fields.brandId}
          options={choicesOf(brandOptions)}
          placeholder={t('form.chooseBrand')}
        />
        <ConformField
          label={t('form.cap')}
          meta={fields.feedbackRequestCap}
          type="number"
          help={t('form.capHelp', { min: FEEDBACK_REQUEST_CAP_MIN, max: FEEDBACK_REQUEST_CAP_MAX })}
        />
        <ConformSelect
          label={t('form.erasure')}
          meta={fields.erasureRaterAnswers}
          options={[
            { value: 'keep_anonymous', label: t('form.erasureKeep') },
            { value: 'delete', label: t('form.erasureDelete') },
          ]}
          placeholder={t('form.erasureChoose')}
          help={t('form.erasureHelp')}
        />
      </div>
      <div className="flex gap-3">
        <SubmitButton intent="update" label={t('form.save')} pendingLabel={t('form.saving')} />
        <Link to={cancelHref} className="btn btn-secondary">
          {t('form.cancel')}
        </Link>
      </div>
    </IntentForm>
  )
}
