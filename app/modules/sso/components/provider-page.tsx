import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formErrorsOf, resultFor, type IntentReply } from '#app/components/form-kit'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadProviderPage } from '../provider-pages.server'
import { ProviderForm } from './provider-forms'

/**
 * One identity provider's page (the route is app/routes/admin/identity-provider-management.$id.tsx):
 * its settings (the secret write-only), and deletion behind a confirmation (`?delete`).
 */

const LIST = '/admin/identity-provider-management'

export function ProviderPage({
  data,
  actionData,
}: {
  data: PageData<typeof loadProviderPage>
  actionData: IntentReply
}) {
  const { t } = useTranslation('identity-providers')
  const { provider, confirmDelete, redirectUri } = data
  const deleteResult = resultFor(actionData, 'delete')
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to={LIST} className="link self-start text-sm">
          {t('page.back')}
        </Link>
        <PageHeader title={provider.name}>
          {t('page.signsIn', { domains: provider.domains.join(', '), count: provider.linkedAccounts })}
        </PageHeader>
      </div>
      <FormErrors errors={unknownErrors} />
      {!confirmDelete ? <FormErrors errors={formErrorsOf(deleteResult)} /> : null}

      {confirmDelete ? (
        <ConfirmPanel
          id="delete-provider"
          title={t('delete.title', { name: provider.name })}
          intent="delete"
          fields={{}}
          confirmLabel={t('delete.confirm')}
          pendingLabel={t('delete.pending')}
          cancelHref="."
          lastResult={deleteResult}
          backLabel={t('delete.back')}
        >
          <p className="text-slate-800">{t('delete.text', { domains: provider.domains.join(', ') })}</p>
        </ConfirmPanel>
      ) : null}

      <div className="card">
        {/* Keyed by the saved values: after a save the form starts again from them (the secret field empty). */}
        <ProviderForm
          key={JSON.stringify(provider)}
          provider={provider}
          companyOptions={provider.companyOptions}
          redirectUri={redirectUri}
          lastResult={resultFor(actionData, 'update')}
        />
      </div>

      {confirmDelete ? null : (
        <section aria-labelledby="danger-title" className="card flex flex-col items-start gap-3">
          <h2 id="danger-title" className="text-lg font-semibold">
            {t('danger.title')}
          </h2>
          <p className="text-slate-700">{t('danger.text')}</p>
          <Link to="?delete" className="btn btn-secondary">
            {t('danger.delete')}
          </Link>
        </section>
      )}
    </section>
  )
}
