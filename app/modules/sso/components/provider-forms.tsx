import { getInputProps, getTextareaProps } from '@conform-to/react'
import { useConformForm, type FormResult } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { ErrorList, FormErrors } from '#app/components/forms'
import { choicesOf } from '#app/components/choices'
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
        {provider ? 'Provider settings' : 'Add an identity provider'}
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <p className="text-sm text-slate-700">
        Register Panorama at the provider as a web application with this redirect URI:{' '}
        <code className="break-all rounded bg-slate-100 px-1 py-0.5 text-slate-900">{redirectUri}</code>
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformField
          label="Name"
          meta={fields.name}
          autoComplete="off"
          help="People see it on the sign-in page: “Continue with …”."
        />
        <ConformField
          label="Issuer URL"
          meta={fields.issuer}
          type="url"
          autoComplete="off"
          spellCheck={false}
          maxLength={ISSUER_MAX}
          placeholder="https://"
          help="As the provider names itself; Panorama reads its settings from /.well-known/openid-configuration there."
        />
        <ConformField label="Client ID" meta={fields.clientId} autoComplete="off" spellCheck={false} />
        <ConformField
          label="Client secret"
          meta={fields.clientSecret}
          type="password"
          autoComplete="new-password"
          help={
            provider
              ? 'Stored encrypted and never shown again. Leave blank to keep the current secret.'
              : 'Stored encrypted and never shown again.'
          }
        />
        <ConformField
          label="Scopes"
          meta={fields.scopes}
          autoComplete="off"
          spellCheck={false}
          help={`Separated by spaces, with openid. Usually “${DEFAULT_SCOPE_TEXT}”.`}
        />
      </div>

      <div className="flex flex-col gap-1">
        <label htmlFor={fields.domains.id} className="label">
          E-mail domains it signs in
        </label>
        <textarea
          {...getTextareaProps(fields.domains, { ariaDescribedBy: `${fields.domains.id}-help` })}
          key={fields.domains.key}
          rows={3}
          className="input font-mono"
          spellCheck={false}
        />
        <p id={`${fields.domains.id}-help`} className="text-sm text-slate-600">
          One per line or separated by commas, for example contoso.com. Addresses at these domains continue to
          this provider from the sign-in page, and only its people with these addresses can sign in through
          it. A domain can have one provider.
        </p>
        <ErrorList id={fields.domains.errorId} errors={fields.domains.errors} />
      </div>

      <fieldset className="flex flex-col gap-2" aria-describedby={`${companies.id}-help`}>
        <legend className="label">Companies that use it</legend>
        <p id={`${companies.id}-help`} className="text-sm text-slate-600">
          The password rule below applies to these companies’ employees.
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
          <p className="text-sm text-slate-700">There are no companies yet.</p>
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
            Their employees may still sign in with a password
          </label>
        </div>
        <p id={`${fields.allowPassword.id}-help`} className="mt-1 text-sm text-slate-700">
          When off, employees of the companies ticked above sign in through this provider only: no password,
          reset or e-mailed sign-in link. Administrators always keep their password.
        </p>
        <ErrorList id={fields.allowPassword.errorId} errors={fields.allowPassword.errors} />
      </div>

      <ConformSelect
        label="New people signing in (just-in-time accounts)"
        meta={fields.jitCompanyId}
        options={choicesOf(companyOptions)}
        placeholder="Create no accounts (only existing employees and admins sign in)"
        help="Off unless you choose a company: then someone this provider vouches for, with a verified address at one of its domains and no account yet, becomes an employee of that company on first sign-in. The company must be one ticked above."
      />

      <div>
        <SubmitButton
          intent={intent}
          label={provider ? 'Save provider' : 'Add provider'}
          pendingLabel={provider ? 'Saving…' : 'Adding…'}
        />
      </div>
    </IntentForm>
  )
}
