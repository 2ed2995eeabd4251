import { useTranslation } from 'react-i18next'
import { data, Link } from 'react-router'
import type { Route } from './+types/webhooks.$id'
import { UnknownIntentErrors } from '#app/components/admin-list'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { FormErrors } from '#app/components/forms'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import { redirectWithToast } from '#app/modules/toast/toast.server'
import { DeliveryLog } from '#app/modules/webhook/components/delivery-log'
import { WebhookForm } from '#app/modules/webhook/components/webhook-form'
import { WebhookSecret } from '#app/modules/webhook/components/webhook-secret'
import {
  WebhookRedeliverSchema,
  WebhookRotateSchema,
  WebhookUpdateSchema,
} from '#app/modules/webhook/schemas'
import {
  getWebhook,
  redeliverWebhook,
  rotateWebhookSecret,
  updateWebhook,
} from '#app/modules/webhook/webhook.server'
import { loadWebhookDetail } from '#app/modules/webhook/webhook-pages.server'
import type { RouteHandle } from '#app/root'
import { requireAdminForm, sayRefusal } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'webhooks' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'webhooks:detailMetaTitle')

const LIST = '/admin/webhooks'

// A rotated secret is shown once, in the action's answer.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

/**
 * One webhook endpoint (issue 21 §2, ADR 057): its settings, secret rotation behind a confirmation
 * (`?rotate=1`; the new secret shown once), and its delivery log with "Redeliver" (`?older=` pages
 * back). Unknown and malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  return (await loadWebhookDetail(params.id, new URL(request.url).searchParams)) ?? notFound()
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  // An unknown endpoint is the not-found page, whatever was posted.
  if (!(await getWebhook(params.id))) notFound()
  const t = await getFixedT(request, 'webhooks')
  const here = `${LIST}/${params.id}`
  return dispatchIntent(formData, {
    update: intent(
      WebhookUpdateSchema,
      async ({ intent: _intent, ...input }) =>
        sayRefusal(request, 'webhooks', await updateWebhook(actor, params.id, input)),
      ({ changed }) =>
        redirectWithToast(here, {
          kind: changed.length ? 'success' : 'info',
          title: changed.length ? t('toast.saved') : t('toast.nothingToSave'),
          description: changed.length ? t('toast.savedText') : t('toast.unchanged'),
        }),
    ),
    rotate: intent(
      WebhookRotateSchema,
      async ({ id }) =>
        id === params.id ? await rotateWebhookSecret(actor, id) : { ok: false as const, notFound: true },
      ({ secret, previousUntil }) =>
        data(
          {
            intent: 'rotate' as const,
            result: { status: 'success' as const },
            rotated: { secret, previousUntil },
          },
          { headers: { 'Cache-Control': 'no-store' } },
        ),
    ),
    redeliver: intent(
      WebhookRedeliverSchema,
      async ({ deliveryId }) =>
        sayRefusal(request, 'webhooks', await redeliverWebhook(actor, params.id, deliveryId)),
      ({ eventType }) =>
        redirectWithToast(here, {
          kind: 'success',
          title: t('toast.redelivered'),
          description: t('toast.redeliveredText', { event: eventType }),
        }),
    ),
  })
}

export default function WebhookDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('webhooks')
  const { endpoint, deliveries, older, paged, companyOptions, confirmRotate } = loaderData
  const rotated = actionData && 'rotated' in actionData ? actionData.rotated : null
  const here = `${LIST}/${endpoint.id}`
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <div className="flex flex-col gap-2">
        <Link to={LIST} className="link self-start text-sm">
          {t('detail.back')}
        </Link>
        <PageHeader title={t('detail.title')}>
          <span className="break-all">{endpoint.url}</span>
        </PageHeader>
      </div>
      <UnknownIntentErrors actionData={actionData} />
      {rotated ? <WebhookSecret secret={rotated.secret} rotated={{ until: rotated.previousUntil }} /> : null}
      <section aria-labelledby="secret-title" className="card flex flex-col gap-3">
        <h2 id="secret-title" className="text-lg font-semibold">
          {t('detail.secretTitle')}
        </h2>
        <p className="text-slate-800">
          {endpoint.previousSignsUntil
            ? t('detail.overlapRunning', {
                until: `${endpoint.previousSignsUntil.slice(0, 10)} ${endpoint.previousSignsUntil.slice(11, 16)} UTC`,
              })
            : t('detail.secretText')}
        </p>
        {confirmRotate && !rotated ? (
          <ConfirmPanel
            id="rotate-secret"
            title={t('rotate.title')}
            intent="rotate"
            fields={{ id: endpoint.id }}
            confirmLabel={t('rotate.confirm')}
            pendingLabel={t('rotate.pending')}
            cancelHref={here}
            lastResult={resultFor(actionData, 'rotate')}
            tone="primary"
          >
            <p className="text-slate-800">{t('rotate.text')}</p>
          </ConfirmPanel>
        ) : (
          <p>
            <Link className="btn btn-secondary" to="?rotate=1">
              {t('detail.rotate')}
            </Link>
          </p>
        )}
      </section>
      <div className="card">
        <WebhookForm
          companyOptions={companyOptions}
          lastResult={resultFor(actionData, 'update')}
          current={{
            url: endpoint.url,
            description: endpoint.description,
            events: endpoint.events,
            companyId: endpoint.companyId,
            enabled: endpoint.enabled,
          }}
        />
      </div>
      <FormErrors errors={formErrorsOf(resultFor(actionData, 'redeliver'))} />
      <DeliveryLog deliveries={deliveries} older={older} paged={paged} />
      <p>
        <Link className="link text-red-800" to={`${LIST}?delete=${endpoint.id}`}>
          {t('detail.delete')}
        </Link>
      </p>
    </section>
  )
}
