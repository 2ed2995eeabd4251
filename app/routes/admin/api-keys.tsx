import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Link } from 'react-router'
import type { Route } from './+types/api-keys'
import { UnknownIntentErrors } from '#app/components/admin-list'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { createApiKey, revokeApiKey } from '#app/modules/api-key/api-key.server'
import { loadApiKeyPage } from '#app/modules/api-key/api-key-pages.server'
import { ApiKeyCreated } from '#app/modules/api-key/components/api-key-created'
import { ApiKeyForm } from '#app/modules/api-key/components/api-key-form'
import { ApiKeyList } from '#app/modules/api-key/components/api-key-list'
import { ApiKeyCreateSchema, ApiKeyRevokeSchema } from '#app/modules/api-key/schemas'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'api-keys' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'api-keys:metaTitle')

const PATH = '/admin/api-keys'

// A new key is shown once, in the action's answer: the browser keeps no copy of the page.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

/**
 * The REST API's keys (issue 21 §1, ADR 054): the list, the create form (the key shown once, in
 * this answer only) and revoking behind a confirmation (`?revoke=<id>`).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadApiKeyPage(new URL(request.url).searchParams)
}

const SHOWN: SubmissionResult<string[]> = { status: 'success', initialValue: null }

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const t = await getFixedT(request, 'api-keys')
  return dispatchIntent(formData, {
    create: intent(
      ApiKeyCreateSchema,
      async ({ intent: _intent, ...input }) =>
        sayRefusal(request, 'api-keys', await createApiKey(actor, input)),
      ({ key }, input) =>
        data(
          { intent: 'create' as const, result: SHOWN, created: { name: input.name, key } },
          { headers: { 'Cache-Control': 'no-store' } },
        ),
    ),
    revoke: intent(
      ApiKeyRevokeSchema,
      async ({ id }) => sayRefusal(request, 'api-keys', await revokeApiKey(actor, id)),
      ({ name, changed }) =>
        redirectWithToast(PATH, {
          kind: changed ? 'success' : 'info',
          title: changed ? t('toast.revoked') : t('toast.alreadyRevoked'),
          description: t('toast.revokedText', { name }),
        }),
    ),
  })
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('api-keys')
  const { keys, companyOptions, confirmRevoke } = loaderData
  const created = actionData && 'created' in actionData ? actionData.created : null
  const revokeResult = resultFor(actionData, 'revoke')
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <p>
        <Link to={`${PATH}/reference`} className="link">
          {t('referenceLink')}
        </Link>
      </p>
      <UnknownIntentErrors actionData={actionData} />
      {created ? <ApiKeyCreated name={created.name} apiKey={created.key} /> : null}
      {confirmRevoke ? (
        <ConfirmPanel
          id="revoke-api-key"
          title={t('revoke.title', { name: confirmRevoke.name })}
          intent="revoke"
          fields={{ id: confirmRevoke.id }}
          confirmLabel={t('revoke.confirm')}
          pendingLabel={t('revoke.pending')}
          cancelHref={PATH}
          lastResult={revokeResult}
        >
          <p className="text-slate-800">{t('revoke.text', { prefix: confirmRevoke.prefix })}</p>
        </ConfirmPanel>
      ) : (
        <FormErrors errors={formErrorsOf(revokeResult)} />
      )}
      <div className="card">
        <ApiKeyForm
          companyOptions={companyOptions}
          lastResult={created ? undefined : resultFor(actionData, 'create')}
        />
      </div>
      <ApiKeyList keys={keys} />
    </section>
  )
}
