import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formErrorsOf, resultFor, type IntentReply } from '#app/components/form-kit'
import { ConfirmPanel, PageHeader } from '#app/components/page-kit'
import { Card } from '#app/components/card'
import { FormErrors } from '#app/components/forms'
import type { PageData } from '#app/lib/page-data'
import type { loadAdminPage } from '../admin-page.server'
import { AdminStateBadge, IntentButton } from './admin-forms'
import { AdminSessions } from './admin-sessions'

/**
 * An administrator's page (the route is app/routes/admin/admin-management.$uid.tsx): state,
 * invitation, disable/enable (behind a confirmation) and live sessions.
 */

const LIST = '/admin/admin-management'

export function AdminPage({
  data,
  actionData,
}: {
  data: PageData<typeof loadAdminPage>
  actionData: IntentReply
}) {
  const { t } = useTranslation('admins')
  const { admin, isMe, currentSessionId, confirm } = data
  const who = admin.name || admin.email
  const here = `${LIST}/${admin.id}`
  const stateResult = resultFor(actionData, 'disable') ?? resultFor(actionData, 'enable')
  const otherErrors =
    formErrorsOf(resultFor(actionData, 'resend')) ??
    formErrorsOf(resultFor(actionData, 'end-session')) ??
    formErrorsOf(resultFor(actionData, 'end-sessions')) ??
    (actionData?.intent === 'unknown' ? formErrorsOf(actionData.result) : undefined) ??
    (!confirm ? formErrorsOf(stateResult) : undefined)
  return (
    <section aria-labelledby="page-title" className="flex max-w-5xl flex-col gap-8">
      <p>
        <Link className="link" to={LIST}>
          {t('page.back')}
        </Link>
      </p>
      <PageHeader title={who} />
      <FormErrors errors={otherErrors} />
      <Card id="account-title" title={t('page.account')}>
        <dl className="grid gap-2 sm:grid-cols-[10rem_1fr]">
          <dt className="font-semibold text-slate-800">{t('page.email')}</dt>
          <dd className="break-all">{admin.email}</dd>
          <dt className="font-semibold text-slate-800">{t('page.state')}</dt>
          <dd>
            <AdminStateBadge state={admin.state} />
            {isMe ? <span className="ml-2 text-sm text-slate-700">{t('page.you')}</span> : null}
          </dd>
          <dt className="font-semibold text-slate-800">{t('page.added')}</dt>
          <dd>
            <time dateTime={admin.createdAt}>{admin.createdAt.slice(0, 10)}</time>
          </dd>
        </dl>
        <div className="flex flex-wrap gap-3">
          {admin.state === 'invited' ? (
            <IntentButton
              intent="resend"
              fields={{ adminId: admin.id }}
              label={t('page.resend')}
              pendingLabel={t('invite.sending')}
            />
          ) : null}
          {admin.state === 'disabled' ? (
            <IntentButton
              intent="enable"
              fields={{ adminId: admin.id }}
              label={t('page.enable')}
              pendingLabel={t('page.enabling')}
              tone="primary"
            />
          ) : isMe ? (
            <p className="text-sm text-slate-700">{t('page.notYourself')}</p>
          ) : (
            <Link className="btn btn-danger" to={`${here}?disable`}>
              {t('page.disable')}
            </Link>
          )}
        </div>
      </Card>

      {confirm === 'disable' && admin.state !== 'disabled' ? (
        <ConfirmPanel
          id="disable-admin"
          title={t('disable.title', { who })}
          intent="disable"
          fields={{ adminId: admin.id }}
          confirmLabel={t('disable.confirm')}
          pendingLabel={t('disable.pending')}
          cancelHref={here}
          lastResult={stateResult}
          backLabel={t('disable.back')}
        >
          <p className="text-slate-800">{t('disable.text')}</p>
        </ConfirmPanel>
      ) : null}

      <AdminSessions adminId={admin.id} sessions={admin.sessions} currentSessionId={currentSessionId} />
    </section>
  )
}
