import { Link } from 'react-router'

type Counts = Record<
  'companies' | 'brands' | 'employees' | 'open_schemes' | 'submitted' | 'queued_emails' | 'failed_emails',
  number
>

/** The dashboard's counts, each a way into the page that manages it. */
export function CountTiles({ counts }: { counts: Counts }) {
  const tiles = [
    ['Companies', counts.companies, '/admin/company-management'],
    ['Brands', counts.brands, '/admin/brand-management'],
    ['Active employees', counts.employees, '/admin/employee-management'],
    ['Open schemes', counts.open_schemes, '/admin/scheme-management'],
    ['Submitted responses', counts.submitted, '/admin/answer-management'],
    ['E-mails waiting', counts.queued_emails, '/admin/email-management'],
    ['E-mails failed', counts.failed_emails, '/admin/email-management'],
  ] as const
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Counts">
      {tiles.map(([label, value, to]) => (
        <li key={label}>
          <Link to={to} className="card block hover:border-indigo-300">
            <p className="text-sm text-slate-700">{label}</p>
            <p className="mt-1 text-3xl font-bold">{value.toLocaleString('en-GB')}</p>
          </Link>
        </li>
      ))}
    </ul>
  )
}
