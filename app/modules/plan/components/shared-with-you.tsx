import { Link } from 'react-router'
import type { SharedWithYou } from '../plan.server'

/** "Shared with you" on a manager's home page: their team's released reports they may read (ADR 043). */
export function SharedWithYouSection({ shared }: { shared: SharedWithYou[] }) {
  return (
    <section aria-labelledby="shared-title" className="card flex flex-col gap-3">
      <h2 id="shared-title" className="text-lg font-semibold">
        Shared with you
      </h2>
      <p className="text-sm text-slate-700">
        Reports of people who report to you: figures only, colleagues’ views combined, never who said what.
      </p>
      <ul className="flex flex-col gap-2">
        {shared.map((s) => (
          <li key={s.responseId}>
            <Link className="link font-medium" to={s.href}>
              {s.employeeName}
            </Link>{' '}
            <span className="text-sm text-slate-800">
              {`· ${s.schemeName} · ${s.consented ? `shared ${s.since}${s.includesPlan ? ', with their plan' : ''}` : `released ${s.since}`}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
