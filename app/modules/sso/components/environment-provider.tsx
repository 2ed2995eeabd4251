import { useTranslation } from 'react-i18next'
import { Card } from '#app/components/card'
import type { PageData } from '#app/lib/page-data'
import type { loadProviderList } from '#app/modules/sso/provider-pages.server'

/** The install-wide provider set by the server's variables (OIDC_*): shown, not editable here. */
export function EnvironmentProvider({
  provider,
}: {
  provider: NonNullable<PageData<typeof loadProviderList>['environment']>
}) {
  const { t } = useTranslation('identity-providers')
  return (
    <Card id="environment-provider" title={t('environment.title', { name: provider.name })}>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">{t('environment.issuer')}</dt>
        <dd className="break-all">{provider.issuer}</dd>
        <dt className="font-medium text-slate-700">{t('environment.clientId')}</dt>
        <dd className="break-all">{provider.clientId}</dd>
        <dt className="font-medium text-slate-700">{t('environment.scopes')}</dt>
        <dd className="break-words">{provider.scopes}</dd>
        <dt className="font-medium text-slate-700">{t('environment.domains')}</dt>
        <dd className="break-words">{provider.domains.join(', ')}</dd>
        <dt className="font-medium text-slate-700">{t('environment.passwords')}</dt>
        <dd>{provider.allowPassword ? t('environment.allowed') : t('environment.notAllowed')}</dd>
      </dl>
      <p className="text-sm text-slate-700">{t('environment.change')}</p>
    </Card>
  )
}
