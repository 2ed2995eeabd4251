import { useTranslation } from 'react-i18next'

type NearCapPerson = { id: string; name: string; email: string; open: number }

/**
 * Who is near the company's feedback-request cap (issue 18 §4, ADR 038), shown under its edit form:
 * the people in its context with at least cap − 1 open requests across every programme, busiest
 * first, so an admin can steer invitations elsewhere before anyone is refused.
 */
export function NearCapList({
  companyName,
  cap,
  people,
  limit,
}: {
  companyName: string
  cap: number
  people: NearCapPerson[]
  limit: number
}) {
  const { t } = useTranslation('companies')
  return (
    <section aria-labelledby="near-cap-title" className="flex flex-col gap-2 border-t border-slate-200 pt-4">
      <h3 id="near-cap-title" className="font-semibold">
        {t('nearCap.title')}
      </h3>
      <p className="text-sm text-slate-600">
        {t('nearCap.intro', { company: companyName, atLeast: Math.max(cap - 1, 1), cap })}
      </p>
      {people.length ? (
        <ul className="flex flex-col divide-y divide-slate-200 rounded border border-slate-200 bg-white">
          {people.map((p) => (
            <li
              key={p.id}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2"
            >
              <span className="min-w-0">
                <span className="block font-medium">{p.name}</span>
                <span className="block text-sm break-all text-slate-600">{p.email}</span>
              </span>
              <span className={`text-sm ${p.open >= cap ? 'font-semibold text-red-800' : 'text-slate-800'}`}>
                {t('nearCap.open', { open: p.open, cap, atCap: p.open >= cap ? 'yes' : 'no' })}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-800">{t('nearCap.nobody')}</p>
      )}
      {people.length >= limit ? (
        <p className="text-sm text-slate-600">{t('nearCap.showing', { limit })}</p>
      ) : null}
    </section>
  )
}
