import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { InviteScheme as Scheme } from '#app/modules/invite/invite.server'

/** "You can invite 5 more colleagues", or the same about the employee an admin acts for. */
function useRemaining() {
  const { t } = useTranslation('invite')
  return (remaining: number, who: string | null) =>
    who
      ? t('remaining.onBehalf', { count: Math.max(0, remaining), who })
      : t('remaining.own', { count: Math.max(0, remaining) })
}

export function SchemePicker({
  schemes,
  current,
  hrefFor,
}: {
  schemes: Scheme[]
  current: string
  hrefFor: (changes: { scheme?: string }) => string
}) {
  const { t } = useTranslation('invite')
  return (
    <nav aria-labelledby="schemes-title" className="flex flex-col gap-2">
      <h2 id="schemes-title" className="text-lg font-semibold">
        {t('schemes.title')}
      </h2>
      <ul className="flex flex-wrap gap-2">
        {schemes.map((s) => (
          <li key={s.id}>
            <Link
              to={hrefFor({ scheme: s.id })}
              aria-current={s.id === current ? 'page' : undefined}
              className={`flex flex-col rounded-md border px-3 py-2 text-sm ${
                s.id === current
                  ? 'border-indigo-700 bg-indigo-50 text-indigo-950'
                  : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
              }`}
            >
              <span className="font-semibold">{s.name}</span>
              <span>
                {s.open ? t('schemes.invitedOf', { live: s.live, limit: s.limit }) : t('schemes.closed')} ·{' '}
                {s.companyName}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export function SchemeSummary({ scheme, who }: { scheme: Scheme; who: string | null }) {
  const { t } = useTranslation('invite')
  const remainingText = useRemaining()
  return (
    <section aria-labelledby="scheme-title" className="card flex flex-col gap-1">
      <h2 id="scheme-title" className="text-lg font-semibold">
        {scheme.name}
      </h2>
      <p className="text-sm text-slate-700">
        {scheme.companyName} ·{' '}
        {scheme.open ? (
          <>
            {t('summary.until')} <time dateTime={scheme.closesAt}>{scheme.closesOn}</time>
          </>
        ) : scheme.status === 'draft' ? (
          t('summary.notOpen')
        ) : (
          <>
            {t('summary.closedOn')} <time dateTime={scheme.closesAt}>{scheme.closesOn}</time>
          </>
        )}
      </p>
      {scheme.open ? (
        <p className="mt-2 font-medium">
          {remainingText(scheme.remaining, who)}{' '}
          <span className="font-normal text-slate-700">
            {t('summary.invitedOf', { live: scheme.live, limit: scheme.limit })}
          </span>
        </p>
      ) : null}
    </section>
  )
}

export function ClosedNotice({ scheme, who }: { scheme: Scheme; who: string | null }) {
  const { t } = useTranslation('invite')
  const text = !scheme.open
    ? t(scheme.status === 'draft' ? 'closed.draft' : 'closed.closed')
    : who
      ? t('closed.limitOnBehalf', { who, limit: scheme.limit })
      : t('closed.limitOwn', { limit: scheme.limit })
  return (
    <div className="card" role="status">
      <p className="text-slate-800">{text}</p>
    </div>
  )
}
