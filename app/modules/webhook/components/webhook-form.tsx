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
import { WEBHOOK_EVENTS } from '#db/enums'
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_URL_MAX,
  WebhookCreateSchema,
  WebhookUpdateSchema,
} from '../schemas'

type CompanyOption = { id: string; name: string }

type Current = {
  url: string
  description: string
  events: string[]
  companyId: string | null
  enabled: boolean
}

/**
 * The endpoint form (issue 21 §2): the receiver's URL, a description, the events it wants, an
 * optional company; on an endpoint's page also whether it is enabled. Registering and changing share it.
 */
export function WebhookForm({
  companyOptions,
  lastResult,
  current,
}: {
  companyOptions: CompanyOption[]
  lastResult: FormResult
  /** The endpoint being changed; none when registering. */
  current?: Current
}) {
  const { t } = useTranslation('webhooks')
  const intent = current ? 'update' : 'create'
  const [form, fields] = useConformForm(current ? WebhookUpdateSchema : WebhookCreateSchema, {
    id: `${intent}-webhook`,
    defaultValue: current
      ? {
          url: current.url,
          description: current.description,
          events: current.events,
          companyId: current.companyId ?? '',
          enabled: current.enabled ? 'on' : '',
        }
      : { events: [] },
    lastResult,
  })
  const titleId = `${intent}-webhook-title`
  return (
    <IntentForm form={form} intent={intent} className="flex flex-col gap-6" aria-labelledby={titleId}>
      <h2 id={titleId} className="text-lg font-semibold">
        {current ? t('form.editTitle') : t('form.title')}
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformField
          label={t('form.url')}
          meta={fields.url}
          type="url"
          autoComplete="off"
          maxLength={WEBHOOK_URL_MAX}
          help={t('form.urlHelp')}
          className="sm:col-span-2"
        />
        <ConformField
          label={t('form.description')}
          meta={fields.description}
          autoComplete="off"
          maxLength={WEBHOOK_DESCRIPTION_MAX}
          help={t('form.descriptionHelp')}
        />
        <ConformSelect
          label={t('form.company')}
          meta={fields.companyId}
          options={choicesOf(companyOptions)}
          placeholder={t('form.allCompanies')}
          help={t('form.companyHelp')}
        />
      </div>
      <ConformCheckboxGroup
        legend={t('form.events')}
        meta={fields.events}
        values={WEBHOOK_EVENTS}
        describe={(event) => t(`event.${event.replace('.', '_')}`)}
      />
      {current ? (
        <div className="flex items-start gap-2">
          <input
            type="checkbox"
            id={`${intent}-webhook-enabled`}
            name="enabled"
            defaultChecked={current.enabled}
            className="mt-1 h-4 w-4 shrink-0 accent-indigo-700"
          />
          <label htmlFor={`${intent}-webhook-enabled`}>
            {t('form.enabled')} <span className="block text-sm text-slate-700">{t('form.enabledHelp')}</span>
          </label>
        </div>
      ) : null}
      <div>
        <SubmitButton
          intent={intent}
          label={current ? t('form.save') : t('form.create')}
          pendingLabel={current ? t('form.saving') : t('form.creating')}
        />
      </div>
    </IntentForm>
  )
}
