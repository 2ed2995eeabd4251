import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatCount } from '#app/lib/numbers'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'

type Counts = Record<
  | 'companies'
  | 'brands'
  | 'employees'
  | 'active_employees'
  | 'open_schemes'
  | 'submitted'
  | 'queued_emails'
  | 'failed_emails'
  | 'reopen_requests'
  | 'nominations_waiting',
  number
> & { nominationsWaitingScheme: string | null }

/** The dashboard's counts, each a way into the page that manages it. */
export function CountTiles({ counts }: { counts: Counts }) {
  const { t } = useTranslation('admin-dashboard')
  const locale = useIntlLocale()
  // "Active" as the employee list means it: activated and not disabled; the others are said apart.
  const notActivated = counts.employees - counts.active_employees
  const tiles: Array<[label: string, value: number, to: string, detail?: string]> = [
    [t('tiles.companies'), counts.companies, '/admin/company-management'],
    [t('tiles.brands'), counts.brands, '/admin/brand-management'],
    [
      t('tiles.activeEmployees'),
      counts.active_employees,
      '/admin/employee-management?state=active',
      notActivated > 0 ? t('tiles.notActivated', { count: notActivated }) : undefined,
    ],
    [t('tiles.openSchemes'), counts.open_schemes, '/admin/scheme-management'],
    [t('tiles.submitted'), counts.submitted, '/admin/answer-management'],
    [t('tiles.emailsWaiting'), counts.queued_emails, '/admin/email-management'],
    [t('tiles.emailsFailed'), counts.failed_emails, '/admin/email-management'],
    // Respondents who asked to change their submitted answers (ADR 039).
    [t('tiles.reopenRequests'), counts.reopen_requests, '/admin/answer-management/reopen-requests'],
  ]
  // Lists that no manager approves (ADR 042), to the queue of the scheme whose list waited longest:
  // shown while any waits (most schemes approve nothing, and the tiles fill two rows of four).
  if (counts.nominations_waiting > 0)
    tiles.push([
      t('tiles.nominationsWaiting'),
      counts.nominations_waiting,
      counts.nominationsWaitingScheme
        ? `/admin/scheme-management/${counts.nominationsWaitingScheme}#nomination-queue`
        : '/admin/scheme-management',
    ])
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label={t('tiles.label')}>
      {tiles.map(([label, value, to, detail]) => (
        <li key={label}>
          <Link to={to} className="card block hover:border-indigo-300">
            <p className="text-sm text-slate-700">{label}</p>
            <p className="mt-1 text-3xl font-bold">{formatCount(value, locale)}</p>
            {detail ? <p className="mt-1 text-sm text-slate-700">{detail}</p> : null}
          </Link>
        </li>
      ))}
    </ul>
  )
}
