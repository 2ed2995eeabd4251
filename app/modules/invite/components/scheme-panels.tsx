import { Link } from 'react-router'
import type { InviteScheme as Scheme } from '#app/modules/invite/invite.server'
import { remainingText } from '#app/modules/invite/schemas'

export function SchemePicker({
  schemes,
  current,
  hrefFor,
}: {
  schemes: Scheme[]
  current: string
  hrefFor: (changes: { scheme?: string }) => string
}) {
  return (
    <nav aria-labelledby="schemes-title" className="flex flex-col gap-2">
      <h2 id="schemes-title" className="text-lg font-semibold">
        Your schemes
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
                {s.open ? `${s.live} of ${s.limit} invited` : 'Closed'} · {s.companyName}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export function SchemeSummary({ scheme, who }: { scheme: Scheme; who: string | null }) {
  return (
    <section aria-labelledby="scheme-title" className="card flex flex-col gap-1">
      <h2 id="scheme-title" className="text-lg font-semibold">
        {scheme.name}
      </h2>
      <p className="text-sm text-slate-700">
        {scheme.companyName} ·{' '}
        {scheme.open ? (
          <>
            colleagues can answer until <time dateTime={scheme.closesAt}>{scheme.closesOn}</time>
          </>
        ) : scheme.status === 'draft' ? (
          'not open yet'
        ) : (
          <>
            closed on <time dateTime={scheme.closesAt}>{scheme.closesOn}</time>
          </>
        )}
      </p>
      {scheme.open ? (
        <p className="mt-2 font-medium">
          {remainingText(scheme.remaining, who)}{' '}
          <span className="font-normal text-slate-700">
            ({scheme.live} of {scheme.limit} invited)
          </span>
        </p>
      ) : null}
    </section>
  )
}

export function ClosedNotice({ scheme, who }: { scheme: Scheme; who: string | null }) {
  const text = !scheme.open
    ? scheme.status === 'draft'
      ? 'This scheme has not opened yet. Invitations can be sent once it opens.'
      : 'This scheme has closed, so no more colleagues can be invited.'
    : `${who ?? 'You'} ${who ? 'has' : 'have'} invited ${scheme.limit} ${
        scheme.limit === 1 ? 'colleague' : 'colleagues'
      }, the most this scheme allows. To invite someone else, revoke an invitation that has not been answered yet.`
  return (
    <div className="card" role="status">
      <p className="text-slate-800">{text}</p>
    </div>
  )
}
