import { useTranslation } from 'react-i18next'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import {
  ConformCheckboxGroup,
  ConformField,
  ConformSelect,
  IntentForm,
  SubmitButton,
} from '#app/components/form-parts'
import { FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
import { API_SCOPES } from '#db/enums'
import { API_KEY_EXPIRY_DAYS, API_KEY_NAME_MAX, ApiKeyCreateSchema } from '../schemas'

type CompanyOption = { id: string; name: string }

/** The create form: a name, the scopes, an optional company and an expiry (issue 21 §1). */
export function ApiKeyForm({
  companyOptions,
  lastResult,
}: {
  companyOptions: CompanyOption[]
  lastResult: FormResult
}) {
  const { t } = useTranslation('api-keys')
  const [form, fields] = useConformForm(ApiKeyCreateSchema, {
    id: 'create-api-key',
    defaultValue: { expiresInDays: '365' },
    lastResult,
  })
  return (
    <IntentForm
      form={form}
      intent="create"
      className="flex flex-col gap-6"
      aria-labelledby="create-api-key-title"
    >
      <h2 id="create-api-key-title" className="text-lg font-semibold">
        {t('form.title')}
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformField
          label={t('form.name')}
          meta={fields.name}
          autoComplete="off"
          maxLength={API_KEY_NAME_MAX}
          help={t('form.nameHelp')}
        />
        <ConformSelect
          label={t('form.company')}
          meta={fields.companyId}
          options={choicesOf(companyOptions)}
          placeholder={t('form.allCompanies')}
          help={t('form.companyHelp')}
        />
        <ConformSelect
          label={t('form.expiry')}
          meta={fields.expiresInDays}
          options={API_KEY_EXPIRY_DAYS.map((days) => ({
            value: String(days),
            label: t('form.days', { count: days }),
          }))}
          placeholder={t('form.never')}
        />
      </div>
      <ConformCheckboxGroup
        legend={t('form.scopes')}
        meta={fields.scopes}
        values={API_SCOPES}
        describe={(scope) => t(`scope.${scope.replace(':', '.')}`)}
      />
      <div>
        <SubmitButton intent="create" label={t('form.create')} pendingLabel={t('form.creating')} />
      </div>
    </IntentForm>
  )
}
