import { useTranslation } from 'react-i18next'
import { Form, Link, useNavigation } from 'react-router'
import { Card } from '#app/components/card'
import { resultFor, useConformForm, type IntentReply } from '#app/components/form-kit'
import { ConformField, ConformSelect, IntentForm, SubmitButton } from '#app/components/form-parts'
import { FormErrors } from '#app/components/forms'
import { PageHeader } from '#app/components/page-kit'
import { formatDateTime } from '#app/lib/dates'
import { formatCount } from '#app/lib/numbers'
import type { PageData } from '#app/lib/page-data'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import type { loadRetentionPage } from '#app/modules/company/retention.server'
import { CompanyRetentionSchema, RETENTION_MONTHS_MAX } from '#app/modules/company/schemas'

type Data = PageData<typeof loadRetentionPage>

/** Counts as a definition list: what a pass removes (or would remove), kind by kind. */
function Counts({
  counts,
  label,
}: {
  counts: { schemes: number; answers: number; snapshots: number; accounts: number; auditEntries: number }
  label: string
}) {
  const { t } = useTranslation('companies')
  const locale = useIntlLocale()
  const rows = [
    [t('retention.counts.schemes'), counts.schemes],
    [t('retention.counts.answers'), counts.answers],
    [t('retention.counts.snapshots'), counts.snapshots],
    [t('retention.counts.accounts'), counts.accounts],
    [t('retention.counts.auditEntries'), counts.auditEntries],
  ] as const
  return (
    <dl aria-label={label} className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 sm:max-w-md">
      {rows.map(([term, n]) => (
        <div key={term} className="contents">
          <dt className="text-slate-700">{term}</dt>
          <dd className="text-right font-semibold tabular-nums">{formatCount(n, locale)}</dd>
        </div>
      ))}
    </dl>
  )
}

function SettingsForm({ data, actionData }: { data: Data; actionData: IntentReply }) {
  const { t } = useTranslation('companies')
  const { settings } = data
  const [form, fields] = useConformForm(CompanyRetentionSchema, {
    id: 'retention-settings',
    lastResult: resultFor(actionData, 'retention'),
    defaultValue: {
      answersMonths: settings.answersMonths ?? undefined,
      answersMode: settings.answersMode,
      accountsMonths: settings.accountsMonths ?? undefined,
      auditMonths: settings.auditMonths ?? undefined,
    },
  })
  return (
    <IntentForm
      form={form}
      intent="retention"
      className="flex flex-col gap-4"
      aria-labelledby="settings-title"
    >
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ConformField
          label={t('retention.form.answersMonths')}
          meta={fields.answersMonths}
          type="number"
          help={t('retention.form.answersMonthsHelp', { max: RETENTION_MONTHS_MAX })}
        />
        <ConformSelect
          label={t('retention.form.answersMode')}
          meta={fields.answersMode}
          options={[
            { value: 'anonymise', label: t('retention.form.anonymise') },
            { value: 'delete', label: t('retention.form.delete') },
          ]}
          placeholder={t('retention.form.choose')}
          help={t('retention.form.answersModeHelp')}
        />
        <ConformField
          label={t('retention.form.accountsMonths')}
          meta={fields.accountsMonths}
          type="number"
          help={t('retention.form.accountsMonthsHelp')}
        />
        <ConformField
          label={t('retention.form.auditMonths')}
          meta={fields.auditMonths}
          type="number"
          help={t('retention.form.auditMonthsHelp')}
        />
      </div>
      <div>
        <SubmitButton intent="retention" label={t('retention.form.save')} pendingLabel={t('form.saving')} />
      </div>
    </IntentForm>
  )
}

/**
 * The dry run, on request: a GET form (`?dry-run=1`), so it works without JavaScript, can be
 * bookmarked, and is never computed on a plain visit (seconds on a large company, ADR 058).
 */
function DryRun({ data }: { data: Data }) {
  const { t } = useTranslation('companies')
  const locale = useIntlLocale()
  const navigation = useNavigation()
  const counting =
    navigation.state === 'loading' && new URLSearchParams(navigation.location.search).has('dry-run')
  const { preview } = data
  const when = (at: string) => formatDateTime(at, 'UTC', locale)
  return (
    <Card id="dry-run-title" title={t('retention.dryRun.title')}>
      {!data.anySet ? <p className="text-slate-800">{t('retention.dryRun.nothingSet')}</p> : null}
      {preview ? (
        <>
          <p className="text-slate-800">{t('retention.dryRun.intro', { at: when(preview.at) })}</p>
          <Counts counts={preview} label={t('retention.dryRun.title')} />
          {preview.dueSchemes.length ? (
            <div className="flex flex-col gap-1">
              <h3 className="font-semibold">{t('retention.dryRun.schemes')}</h3>
              <ul className="flex list-disc flex-col gap-1 pl-5">
                {preview.dueSchemes.map((s) => (
                  <li key={s.id}>
                    <Link className="link" to={`/admin/scheme-management/${s.id}`}>
                      {s.name}
                    </Link>{' '}
                    <span className="text-slate-700">
                      {t('retention.dryRun.closed', { at: when(s.closedAt) })}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="text-slate-700">{t('retention.dryRun.noSchemes')}</p>
          )}
          {preview.accounts >= preview.accountsPerPass ? (
            <p className="text-slate-700">
              {t('retention.dryRun.accountsCap', { n: preview.accountsPerPass })}
            </p>
          ) : null}
        </>
      ) : (
        <p className="text-slate-800">{t('retention.dryRun.ask')}</p>
      )}
      <Form method="get" preventScrollReset>
        <button type="submit" name="dry-run" value="1" className="btn btn-secondary" disabled={counting}>
          {counting
            ? t('retention.dryRun.running')
            : preview
              ? t('retention.dryRun.again')
              : t('retention.dryRun.run')}
        </button>
      </Form>
    </Card>
  )
}

/** The retention page of one company: settings, dry run, last pass, legal holds. */
export function RetentionPage({ data, actionData }: { data: Data; actionData: IntentReply }) {
  const { t } = useTranslation('companies')
  const locale = useIntlLocale()
  const { company, lastPass, held } = data
  const when = (at: string) => formatDateTime(at, 'UTC', locale)
  return (
    <section aria-labelledby="page-title" className="flex max-w-4xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <p className="text-sm">
          <Link className="link" to="/admin/company-management">
            {t('retention.back')}
          </Link>
        </p>
        <PageHeader title={t('retention.title', { name: company.name })}>{t('retention.intro')}</PageHeader>
      </div>

      <Card id="settings-title" title={t('retention.settingsTitle')}>
        <ul className="flex list-disc flex-col gap-1 pl-5 text-slate-800">
          <li>{t('retention.explain.anonymise')}</li>
          <li>{t('retention.explain.delete')}</li>
          <li>{t('retention.explain.accounts')}</li>
          <li>{t('retention.explain.audit')}</li>
        </ul>
        <SettingsForm data={data} actionData={actionData} />
      </Card>

      <DryRun data={data} />

      <Card id="last-pass-title" title={t('retention.lastPass.title')}>
        {lastPass ? (
          <>
            <p className="text-slate-800">{t('retention.lastPass.at', { at: when(lastPass.at) })}</p>
            <Counts counts={lastPass} label={t('retention.lastPass.title')} />
          </>
        ) : (
          <p className="text-slate-700">{t('retention.lastPass.none')}</p>
        )}
      </Card>

      <Card id="held-title" title={t('retention.held.title')}>
        {held.length ? (
          <ul className="flex flex-col gap-2">
            {held.map((h) => (
              <li key={h.id}>
                <Link className="link" to={`/admin/scheme-management/${h.id}`}>
                  {h.name}
                </Link>{' '}
                <span className="text-slate-700">{t('retention.held.since', { at: when(h.at) })}</span>
                {h.reason ? <p className="text-slate-800">{h.reason}</p> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-700">{t('retention.held.none')}</p>
        )}
      </Card>
    </section>
  )
}
