import { Card } from '#app/components/card'
import type { PageData } from '#app/lib/page-data'
import type { loadProviderList } from '#app/modules/sso/provider-pages.server'

/** The install-wide provider set by the server's variables (OIDC_*): shown, not editable here. */
export function EnvironmentProvider({
  provider,
}: {
  provider: NonNullable<PageData<typeof loadProviderList>['environment']>
}) {
  return (
    <Card id="environment-provider" title={`${provider.name} (set in the server’s configuration)`}>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">Issuer</dt>
        <dd className="break-all">{provider.issuer}</dd>
        <dt className="font-medium text-slate-700">Client ID</dt>
        <dd className="break-all">{provider.clientId}</dd>
        <dt className="font-medium text-slate-700">Scopes</dt>
        <dd className="break-words">{provider.scopes}</dd>
        <dt className="font-medium text-slate-700">E-mail domains</dt>
        <dd className="break-words">{provider.domains.join(', ')}</dd>
        <dt className="font-medium text-slate-700">Passwords</dt>
        <dd>{provider.allowPassword ? 'Still allowed' : 'Not allowed for employees at these domains'}</dd>
      </dl>
      <p className="text-sm text-slate-700">Change it with the OIDC_* variables and a restart.</p>
    </Card>
  )
}
