import { Link } from 'react-router'
import { plural } from '#app/lib/words'

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
  // "Active" as the employee list means it: activated and not disabled; the others are said apart.
  const notActivated = counts.employees - counts.active_employees
  const tiles: Array<[label: string, value: number, to: string, detail?: string]> = [
    ['Companies', counts.companies, '/admin/company-management'],
    ['Brands', counts.brands, '/admin/brand-management'],
    [
      'Active employees',
      counts.active_employees,
      '/admin/employee-management?state=active',
      notActivated > 0
        ? `${plural(notActivated, 'employee has', 'employees have')} not activated yet`
        : undefined,
    ],
    ['Open schemes', counts.open_schemes, '/admin/scheme-management'],
    ['Submitted responses', counts.submitted, '/admin/answer-management'],
    ['E-mails waiting', counts.queued_emails, '/admin/email-management'],
    ['E-mails failed', counts.failed_emails, '/admin/email-management'],
    // Respondents who asked to change their submitted answers (ADR 039).
    ['Reopen requests', counts.reopen_requests, '/admin/answer-management/reopen-requests'],
  ]
  // Lists that no manager approves (ADR 042), to the queue of the scheme whose list waited longest:
  // shown while any waits (most schemes approve nothing, and the tiles fill two rows of four).
  if (counts.nominations_waiting > 0)
    tiles.push([
      'Nomination lists waiting for an administrator',
      counts.nominations_waiting,
      counts.nominationsWaitingScheme
        ? `/admin/scheme-management/${counts.nominationsWaitingScheme}#nomination-queue`
        : '/admin/scheme-management',
    ])
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Counts">
      {tiles.map(([label, value, to, detail]) => (
        <li key={label}>
          <Link to={to} className="card block hover:border-indigo-300">
            <p className="text-sm text-slate-700">{label}</p>
            <p className="mt-1 text-3xl font-bold">{value.toLocaleString('en-GB')}</p>
            {detail ? <p className="mt-1 text-sm text-slate-700">{detail}</p> : null}
          </Link>
        </li>
      ))}
    </ul>
  )
}
