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
  const { provider, confirmDelete, redirectUri } = data
  const deleteResult = resultFor(actionData, 'delete')
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  const linked =
    provider.linkedAccounts === 0
      ? 'No account has signed in through it yet.'
      : `${provider.linkedAccounts} ${provider.linkedAccounts === 1 ? 'account has' : 'accounts have'} signed in through it.`
  return (
    <section aria-labelledby="page-title" className="flex max-w-3xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to={LIST} className="link self-start text-sm">
          ← All identity providers
        </Link>
        <PageHeader title={provider.name}>
          Signs in {provider.domains.join(', ')}. {linked}
        </PageHeader>
      </div>
      <FormErrors errors={unknownErrors} />
      {!confirmDelete ? <FormErrors errors={formErrorsOf(deleteResult)} /> : null}

      {confirmDelete ? (
        <ConfirmPanel
          id="delete-provider"
          title={`Delete “${provider.name}”?`}
          intent="delete"
          fields={{}}
          confirmLabel="Yes, delete the provider"
          pendingLabel="Deleting…"
          cancelHref="."
          lastResult={deleteResult}
          backLabel="Back to the provider"
        >
          <p className="text-slate-800">
            Addresses at {provider.domains.join(', ')} will get the password form again, and sign-ins on their
            way through this provider will fail. Employees who never set a password will need a reset link.
            The accounts’ links to the provider are kept, so setting it up again with the same issuer signs
            them in as before.
          </p>
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
            Delete this provider
          </h2>
          <p className="text-slate-700">Its domains go back to signing in with a password.</p>
          <Link to="?delete" className="btn btn-secondary">
            Delete provider…
          </Link>
        </section>
      )}
    </section>
  )
}
