import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatDate, formatDateTime } from '#app/lib/dates'
import type { Activity, SchemeProgress, SetupStep } from '#app/modules/dashboard/overview.server'
import { DeliveryOffNotice } from '#app/modules/email/components/delivery-off'
import { Card, Section } from '#app/components/card'
import { richT } from '#app/modules/i18n/rich'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'

type Step = { key: SetupStep; label: string; href: string; done: boolean }

/** The getting-started checklist: each step ticks itself off as the install fills up. */
export function SetupChecklist({ steps }: { steps: Step[] }) {
  const { t } = useTranslation('admin-dashboard')
  const done = steps.filter((s) => s.done).length
  return (
    <Card id="setup-title" title={t('setup.title')} className="gap-3">
      <p className="text-slate-700">{t('setup.progress', { done, total: steps.length })}</p>
      <ol className="flex flex-col gap-2">
        {steps.map((step, i) => (
          <li key={step.key} className="flex items-start gap-3">
            <span
              aria-hidden="true"
              className={`mt-0.5 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
                step.done ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-800'
              }`}
            >
              {step.done ? '✓' : i + 1}
            </span>
            <span>
              {step.done ? (
                <span className="text-slate-700">
                  {t(`setup.steps.${step.key}`)} <span className="sr-only">{t('setup.done')}</span>
                </span>
              ) : (
                <Link className="link" to={step.href}>
                  {t(`setup.steps.${step.key}`)}
                </Link>
              )}
            </span>
          </li>
        ))}
      </ol>
    </Card>
  )
}

function Bar({ label, value, total }: { label: string; value: number; total: number }) {
  const { t } = useTranslation('admin-dashboard')
  const percent = total ? Math.round((value / total) * 100) : 0
  return (
    <div className="flex flex-col gap-1">
      <div className="flex justify-between gap-2 text-sm">
        <span className="text-slate-800">{label}</span>
        <span className="text-slate-700">{t('running.ofTotal', { value, total })}</span>
      </div>
      <progress
        className="progress h-2 w-full"
        max={Math.max(total, 1)}
        value={value}
        aria-label={t('running.barLabel', { label, value, total })}
      >
        {percent}%
      </progress>
    </div>
  )
}

/** Every running programme with its progress: self-assessments done, colleagues who answered. */
export function RunningSchemes({ schemes, openCount }: { schemes: SchemeProgress[]; openCount: number }) {
  const { t } = useTranslation('admin-dashboard')
  const locale = useIntlLocale()
  return (
    <Section
      id="running-title"
      title={t('running.title')}
      aside={
        <Link className="link text-sm" to="/admin/scheme-management">
          {t('running.allSchemes')}
        </Link>
      }
    >
      {schemes.length ? (
        <ul className="grid gap-4 lg:grid-cols-2">
          {schemes.map((s) => (
            <li key={s.id} className="card flex flex-col gap-3">
              <div>
                <Link className="link font-semibold" to={`/admin/scheme-management/${s.id}`}>
                  {s.name}
                </Link>
                <p className="text-sm text-slate-700">
                  {s.companyName} ·{' '}
                  {s.phase === 'upcoming'
                    ? t('running.opens', { date: formatDate(s.opensAt, s.timeZone, locale) })
                    : t('running.closes', { date: formatDateTime(s.closesAt, s.timeZone, locale) })}
                </p>
              </div>
              <Bar label={t('running.selfSubmitted')} value={s.selfSubmitted} total={s.enrolled} />
              <Bar label={t('running.answered')} value={s.answered} total={s.invited} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="card text-slate-700">
          {richT(t, 'running.none', {
            link: (
              <Link className="link" to="/admin/scheme-management">
                {t('running.noneLink')}
              </Link>
            ),
          })}
        </p>
      )}
      {openCount > schemes.length ? (
        <p className="text-sm text-slate-700">
          {t('running.showing', { count: schemes.length, open: openCount })}
        </p>
      ) : null}
    </Section>
  )
}

/** The latest changes from the audit log, in words. */
export function RecentActivity({ items }: { items: (Activity & { text: string })[] }) {
  const { t } = useTranslation('admin-dashboard')
  const locale = useIntlLocale()
  return (
    <Section id="activity-title" title={t('activity.title')}>
      {items.length ? (
        <ol className="card flex flex-col divide-y divide-slate-200 p-0">
          {items.map((a) => (
            <li key={a.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm">
              <span>
                <span className="font-medium text-slate-900">{a.actor ?? t('activity.system')}</span> {a.text}
              </span>
              <time className="text-slate-700" dateTime={a.at}>
                {formatDateTime(a.at, 'UTC', locale)}
              </time>
            </li>
          ))}
        </ol>
      ) : (
        <p className="card text-slate-700">{t('activity.none')}</p>
      )}
    </Section>
  )
}

/** Outbox health: messages waiting and given up on, with the way to the outbox. */
export function OutboxHealth({
  queued,
  failed,
  deliveryOff,
}: {
  queued: number
  failed: number
  /** No SMTP_URL: nothing is sent, so nothing is "on its way". */
  deliveryOff: boolean
}) {
  const { t } = useTranslation('admin-dashboard')
  return (
    <Card id="outbox-title" title={t('outbox.title')} className="gap-2">
      <p className="text-slate-800">{t('outbox.counts', { queued, failed })}</p>
      {deliveryOff ? <DeliveryOffNotice showOutboxLink /> : null}
      {failed ? (
        <p className="text-sm text-red-800">
          {richT(t, 'outbox.failed', {
            link: (
              <Link className="link" to="/admin/email-management?tab=outbox&state=failed">
                {t('outbox.failedLink')}
              </Link>
            ),
          })}
        </p>
      ) : deliveryOff ? null : (
        <p className="text-sm text-slate-700">{t('outbox.allDelivered')}</p>
      )}
    </Card>
  )
}
