import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import type { Route } from './+types/webhooks'
import { UnknownIntentErrors } from '#app/components/admin-list'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { WebhookForm } from '#app/modules/webhook/components/webhook-form'
import { WebhookList } from '#app/modules/webhook/components/webhook-list'
import { WebhookSecret } from '#app/modules/webhook/components/webhook-secret'
import { WebhookCreateSchema, WebhookDeleteSchema } from '#app/modules/webhook/schemas'
import { createWebhook, deleteWebhook } from '#app/modules/webhook/webhook.server'
import { loadWebhookPage } from '#app/modules/webhook/webhook-pages.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'webhooks' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'webhooks:metaTitle')

const PATH = '/admin/webhooks'

// A new endpoint's secret is shown once, in the action's answer: the browser keeps no copy of the page.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

/**
 * Webhook endpoints (issue 21 §2, ADR 057): the list, the registration form (the signing secret
 * shown once, in this answer only) and deleting behind a confirmation (`?delete=<id>`).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return await loadWebhookPage(new URL(request.url).searchParams)
}

const SHOWN: SubmissionResult<string[]> = { status: 'success', initialValue: null }

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const t = await getFixedT(request, 'webhooks')
  return dispatchIntent(formData, {
    create: intent(
      WebhookCreateSchema,
      async ({ intent: _intent, ...input }) =>
        sayRefusal(request, 'webhooks', await createWebhook(actor, input)),
      ({ id, secret }) =>
        data(
          { intent: 'create' as const, result: SHOWN, created: { id, secret } },
          { headers: { 'Cache-Control': 'no-store' } },
        ),
    ),
    delete: intent(
      WebhookDeleteSchema,
      async ({ id }) => sayRefusal(request, 'webhooks', await deleteWebhook(actor, id)),
      ({ url }) =>
        redirectWithToast(PATH, {
          kind: 'success',
          title: t('toast.deleted'),
          description: t('toast.deletedText', { url }),
        }),
    ),
  })
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('webhooks')
  const { endpoints, companyOptions, confirmDelete } = loaderData
  const created = actionData && 'created' in actionData ? actionData.created : null
  const deleteResult = resultFor(actionData, 'delete')
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <PageHeader title={t('title')}>{t('intro')}</PageHeader>
      <UnknownIntentErrors actionData={actionData} />
      {created ? <WebhookSecret secret={created.secret} /> : null}
      {confirmDelete ? (
        <ConfirmPanel
          id="delete-webhook"
          title={t('delete.title')}
          intent="delete"
          fields={{ id: confirmDelete.id }}
          confirmLabel={t('delete.confirm')}
          pendingLabel={t('delete.pending')}
          cancelHref={PATH}
          lastResult={deleteResult}
        >
          <p className="break-all text-slate-800">{t('delete.text', { url: confirmDelete.url })}</p>
        </ConfirmPanel>
      ) : (
        <FormErrors errors={formErrorsOf(deleteResult)} />
      )}
      <div className="card">
        <WebhookForm
          companyOptions={companyOptions}
          lastResult={created ? undefined : resultFor(actionData, 'create')}
        />
      </div>
      <WebhookList endpoints={endpoints} />
    </section>
  )
}
