import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { RouteHandle } from '#app/root'
import { getFixedT } from '#app/modules/i18n/i18n.server'
import type { Route } from './+types/email-management.outbox.$messageId'
import { dispatchIntent, intent } from '#app/lib/reply.server'
import { formErrorsOf, resultFor } from '#app/components/form-kit'
import { PageHeader } from '#app/components/page-kit'
import { FormErrors } from '#app/components/forms'
import { notFound, requireUser } from '#app/modules/auth/guards.server'
import { ROUTE_ROLES } from '#app/modules/auth/permissions'
import { OutboxMessageView } from '#app/modules/email/components/outbox-message'
import { getOutboxMessage, retryMessage } from '#app/modules/email/template-editing.server'
import { RetrySchema } from '#app/modules/email/schemas'
import { requireAdminForm, toastReply } from './admin-action.server'
import { ADMIN_HANDLE, adminTitleT } from './admin-meta'

export const handle: RouteHandle = { ...ADMIN_HANDLE, i18n: 'email' }

export const meta: Route.MetaFunction = ({ matches }) => adminTitleT(matches, 'email:messageMetaTitle')

const OUTBOX = '/admin/email-management?tab=outbox'

/**
 * One outbox message: who, which e-mail, its state and attempts, and its body with one-time codes
 * masked (a body erased after its link was used or expired says so). A failed message can be
 * retried: failed → queued only, attempts kept, audited. Unknown and malformed ids are a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request, { roles: ROUTE_ROLES.admin })
  const message = (await getOutboxMessage(params.messageId)) ?? notFound()
  return { message }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, formData } = await requireAdminForm(request, context)
  const done = toastReply(`/admin/email-management/outbox/${params.messageId}`)
  const t = await getFixedT(request, 'email')
  return dispatchIntent(formData, {
    retry: intent(
      RetrySchema,
      () => retryMessage(actor, params.messageId),
      ({ recipient }) => done(t('toast.retriedTitle'), t('toast.retriedText', { recipient })),
    ),
  })
}

export default function OutboxMessagePage({ loaderData, actionData }: Route.ComponentProps) {
  const { message } = loaderData
  const { t } = useTranslation('email')
  const unknownErrors = actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link to={OUTBOX} className="link self-start text-sm">
          {t('message.back')}
        </Link>
        <PageHeader title={message.subject || t('messageMetaTitle')}>
          {t('message.to', { recipient: message.recipient })}
        </PageHeader>
      </div>
      <FormErrors errors={unknownErrors} />
      <OutboxMessageView message={message} retryResult={resultFor(actionData, 'retry')} />
    </section>
  )
}
