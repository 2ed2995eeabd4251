import { useTranslation } from 'react-i18next'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
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
  const scopes = fields.scopes
  const chosen = new Set(
    (Array.isArray(scopes.initialValue) ? scopes.initialValue : [scopes.initialValue]).filter(
      (v): v is string => typeof v === 'string',
    ),
  )
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
      <fieldset className="flex flex-col gap-2">
        <legend className="label">{t('form.scopes')}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {API_SCOPES.map((scope) => (
            <div key={scope} className="flex items-start gap-2">
              <input
                type="checkbox"
                id={`${scopes.id}-${scope}`}
                name={scopes.name}
                value={scope}
                defaultChecked={chosen.has(scope)}
                className="mt-1 h-4 w-4 shrink-0 accent-indigo-700"
              />
              <label htmlFor={`${scopes.id}-${scope}`}>
                <code>{scope}</code>{' '}
                <span className="text-slate-700">{t(`scope.${scope.replace(':', '.')}`)}</span>
              </label>
            </div>
          ))}
        </div>
        <ErrorList id={scopes.errorId} errors={scopes.errors} />
      </fieldset>
      <div>
        <SubmitButton intent="create" label={t('form.create')} pendingLabel={t('form.creating')} />
      </div>
    </IntentForm>
  )
}
