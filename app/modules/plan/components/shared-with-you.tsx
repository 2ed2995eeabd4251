import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatDate } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import type { SharedWithYou } from '../plan.server'

/** "Shared with you" on a manager's home page: their team's released reports they may read (ADR 043). */
export function SharedWithYouSection({ shared }: { shared: SharedWithYou[] }) {
  const { t } = useTranslation('shared')
  const locale = useIntlLocale()
  const how = (s: SharedWithYou) => {
    const date = formatDate(s.sinceIso, s.timeZone, locale)
    if (!s.consented) return t('section.releasedOn', { date })
    return s.includesPlan ? t('section.sharedOnWithPlan', { date }) : t('section.sharedOn', { date })
  }
  return (
    <section aria-labelledby="shared-title" className="card flex flex-col gap-3">
      <h2 id="shared-title" className="text-lg font-semibold">
        {t('section.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('section.lead')}</p>
      <ul className="flex flex-col gap-2">
        {shared.map((s) => (
          <li key={s.responseId}>
            <Link className="link font-medium" to={s.href}>
              {s.employeeName}
            </Link>{' '}
            <span className="text-sm text-slate-800">{`· ${s.schemeName} · ${how(s)}`}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
