import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { formatDate } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import type { PlanBeside } from '../plan.server'
import { PlanSection } from './plan-section'

/**
 * Below a released report: for the employee, their plan (printed with the report) and a card to
 * open it and share; for an administrator, whether the employee has a plan, and its text only when
 * the employee shared it with the coach (ADR 043).
 */
export function ReportPlanCard({ plan, viewer }: { plan: PlanBeside; viewer: 'employee' | 'admin' }) {
  const { t } = useTranslation('plan')
  const locale = useIntlLocale()
  if (!plan.ready) return null
  const href = `/user/development-plan/${plan.responseId}`
  if (viewer === 'admin') {
    const count = plan.focusAreaCount
    if (plan.sharedWithCoach && plan.areas.length)
      return <PlanSection areas={plan.areas} whose={{ kind: 'the' }} note={t('card.coachNote')} />
    return (
      <p className="no-print text-sm text-slate-700">
        {count ? t('card.adminCount', { count }) : t('card.adminNone')}
      </p>
    )
  }
  return (
    <>
      {plan.areas.length ? <PlanSection areas={plan.areas} /> : null}
      <section aria-labelledby="plan-card-title" className="no-print card flex flex-col gap-3">
        <h2 id="plan-card-title" className="text-lg font-semibold">
          {plan.areas.length ? t('card.titleHas') : t('card.titleNone')}
        </h2>
        <p className="text-slate-800">
          {plan.areas.length ? t('card.chosen', { count: plan.areas.length }) : t('card.none')}
        </p>
        <p className="text-slate-800">
          {plan.sharing?.kind === 'shared'
            ? t('card.sharedSince', {
                name: plan.sharing.managerName,
                date: formatDate(plan.sharing.grantedIso, plan.sharing.timeZone, locale),
                plan: plan.sharing.includePlan ? 'yes' : 'no',
              })
            : plan.sharing?.kind === 'manager-sees'
              ? t('card.managerSees')
              : t('card.private')}
        </p>
        <p>
          <Link className="btn btn-primary" to={href}>
            {plan.areas.length ? t('card.open') : t('card.start')}
          </Link>
        </p>
      </section>
    </>
  )
}
