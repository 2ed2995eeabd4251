import { getInputProps, getTextareaProps } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
import { richT } from '#app/modules/i18n/rich'
import {
  DEFAULT_SCOPE_TEXT,
  ProviderCreateSchema,
  ProviderUpdateSchema,
  ISSUER_MAX,
} from '#app/modules/sso/schemas'

type CompanyOption = { id: string; name: string }

/** A provider's saved settings, as its edit form starts from them (never the secret). */
export type ProviderDetails = {
  id: string
  name: string
  issuer: string
  clientId: string
  scopes: string
  domains: string[]
  companyIds: string[]
  allowPassword: boolean
  jitCompanyId: string | null
}

/** The create form (the list page) and the edit form (the provider's page): the same fields. */
export function ProviderForm({
  provider,
  companyOptions,
  redirectUri,
  lastResult,
}: {
  /** Null: a new provider. */
  provider: ProviderDetails | null
  companyOptions: CompanyOption[]
  redirectUri: string
  lastResult: FormResult
}) {
  const { t } = useTranslation('identity-providers')
  const intent = provider ? 'update' : 'create'
  const [form, fields] = useConformForm(provider ? ProviderUpdateSchema : ProviderCreateSchema, {
    id: provider ? `provider-${provider.id}` : 'create-provider',
    defaultValue: provider
      ? {
          name: provider.name,
          issuer: provider.issuer,
          clientId: provider.clientId,
          scopes: provider.scopes,
          domains: provider.domains.join('\n'),
          companyIds: provider.companyIds,
          allowPassword: provider.allowPassword,
          jitCompanyId: provider.jitCompanyId ?? undefined,
        }
      : { scopes: DEFAULT_SCOPE_TEXT, allowPassword: true },
    lastResult,
  })
  const companies = fields.companyIds
  const chosen = new Set(
    (Array.isArray(companies.initialValue) ? companies.initialValue : [companies.initialValue]).filter(
      (v): v is string => typeof v === 'string',
    ),
  )
  return (
    <IntentForm
      form={form}
      intent={intent}
      className="flex flex-col gap-6"
      aria-labelledby={`${form.id}-title`}
    >
      <h2 id={`${form.id}-title`} className="text-lg font-semibold">
        {provider ? t('form.settings') : t('form.add')}
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <p className="text-sm text-slate-700">
        {richT(t, 'form.register', {
          uri: (
            <code className="break-all rounded bg-slate-100 px-1 py-0.5 text-slate-900">{redirectUri}</code>
          ),
        })}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformField
          label={t('form.name')}
          meta={fields.name}
          autoComplete="off"
          help={t('form.nameHelp')}
        />
        <ConformField
          label={t('form.issuer')}
          meta={fields.issuer}
          type="url"
          autoComplete="off"
          spellCheck={false}
          maxLength={ISSUER_MAX}
          placeholder="https://"
          help={t('form.issuerHelp')}
        />
        <ConformField
          label={t('form.clientId')}
          meta={fields.clientId}
          autoComplete="off"
          spellCheck={false}
        />
        <ConformField
          label={t('form.secret')}
          meta={fields.clientSecret}
          type="password"
          autoComplete="new-password"
          help={provider ? t('form.secretKeep') : t('form.secretHelp')}
        />
        <ConformField
          label={t('form.scopes')}
          meta={fields.scopes}
          autoComplete="off"
          spellCheck={false}
          help={t('form.scopesHelp', { scopes: DEFAULT_SCOPE_TEXT })}
        />
      </div>

      <div className="flex flex-col gap-1">
        <label htmlFor={fields.domains.id} className="label">
          {t('form.domains')}
        </label>
        <textarea
          {...getTextareaProps(fields.domains, { ariaDescribedBy: `${fields.domains.id}-help` })}
          key={fields.domains.key}
          rows={3}
          className="input font-mono"
          spellCheck={false}
        />
        <p id={`${fields.domains.id}-help`} className="text-sm text-slate-600">
          {t('form.domainsHelp')}
        </p>
        <ErrorList id={fields.domains.errorId} errors={fields.domains.errors} />
      </div>

      <fieldset className="flex flex-col gap-2" aria-describedby={`${companies.id}-help`}>
        <legend className="label">{t('form.companies')}</legend>
        <p id={`${companies.id}-help`} className="text-sm text-slate-600">
          {t('form.companiesHelp')}
        </p>
        {companyOptions.length ? (
          <div className="flex max-h-56 flex-col gap-2 overflow-y-auto rounded border border-slate-200 p-3">
            {companyOptions.map((company) => (
              <div key={company.id} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  id={`${companies.id}-${company.id}`}
                  name={companies.name}
                  value={company.id}
                  defaultChecked={chosen.has(company.id)}
                  className="mt-1 h-4 w-4 shrink-0 accent-indigo-700"
                />
                <label htmlFor={`${companies.id}-${company.id}`} className="break-words">
                  {company.name}
                </label>
              </div>
            ))}
          </div>
        ) : (
          <p className="text-sm text-slate-700">{t('form.noCompanies')}</p>
        )}
        <ErrorList id={companies.errorId} errors={companies.errors} />
      </fieldset>

      <div>
        <div className="flex items-start gap-2">
          <input
            {...getInputProps(fields.allowPassword, { type: 'checkbox' })}
            aria-describedby={`${fields.allowPassword.id}-help`}
            className="mt-1 h-4 w-4 accent-indigo-700"
          />
          <label htmlFor={fields.allowPassword.id} className="label">
            {t('form.allowPassword')}
          </label>
        </div>
        <p id={`${fields.allowPassword.id}-help`} className="mt-1 text-sm text-slate-700">
          {t('form.allowPasswordHelp')}
        </p>
        <ErrorList id={fields.allowPassword.errorId} errors={fields.allowPassword.errors} />
      </div>

      <ConformSelect
        label={t('form.jit')}
        meta={fields.jitCompanyId}
        options={choicesOf(companyOptions)}
        placeholder={t('form.jitNone')}
        help={t('form.jitHelp')}
      />

      <div>
        <SubmitButton
          intent={intent}
          label={provider ? t('form.save') : t('form.addButton')}
          pendingLabel={provider ? t('form.saving') : t('form.adding')}
        />
      </div>
    </IntentForm>
  )
}
