import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { SharedWithYou } from '../plan.server'

/** "Shared with you" on a manager's home page: their team's released reports they may read (ADR 043). */
export function SharedWithYouSection({ shared }: { shared: SharedWithYou[] }) {
  // The home page's words (home:shared), the one page that shows it.
  const { t } = useTranslation('home')
  return (
    <section aria-labelledby="shared-title" className="card flex flex-col gap-3">
      <h2 id="shared-title" className="text-lg font-semibold">
        {t('shared.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('shared.text')}</p>
      <ul className="flex flex-col gap-2">
        {shared.map((s) => (
          <li key={s.responseId}>
            <Link className="link font-medium" to={s.href}>
              {s.employeeName}
            </Link>{' '}
            <span className="text-sm text-slate-800">
              {t(
                s.consented
                  ? s.includesPlan
                    ? 'shared.consentedPlan'
                    : 'shared.consented'
                  : 'shared.released',
                {
                  scheme: s.schemeName,
                  date: s.since,
                },
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
