import { useTranslation } from 'react-i18next'
import { formatDate } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import type { FocusArea } from '../plan.server'
import { focusTitle } from '../words'

/** "30 September 2026" ("30. September 2026") for a date-only value. */
export function dateLabel(isoDate: string, locale?: string) {
  return formatDate(`${isoDate}T12:00:00Z`, 'UTC', locale)
}

/**
 * A development plan, read-only, as a section of the report: below the report on its page, in the
 * manager's shared view and in the printout ("Save as PDF" and the PDF export print it with the
 * report, report-section breaking pages like the report's own sections).
 */
export function PlanSection({
  areas,
  whose = { kind: 'yours' },
  note,
}: {
  areas: FocusArea[]
  /** The employee's own ("Your development plan"), another's by name ("Erin’s"), or "The". */
  whose?: { kind: 'yours' } | { kind: 'theirs'; name: string } | { kind: 'the' }
  note?: string
}) {
  const { t } = useTranslation('plan')
  const locale = useIntlLocale()
  return (
    <section
      aria-labelledby="plan-section-title"
      className="report-section plan-section card flex flex-col gap-4"
    >
      <h2 id="plan-section-title" className="text-xl font-semibold">
        {whose.kind === 'theirs' ? t('section.theirs', { name: whose.name }) : t(`section.${whose.kind}`)}
      </h2>
      {note ? <p className="text-sm text-slate-700">{note}</p> : null}
      {areas.length ? (
        <ol className="flex flex-col gap-4">
          {areas.map((area, i) => (
            <li key={area.id} className="rounded-md border border-slate-200 bg-slate-50 p-4">
              <h3 className="font-semibold">{`${i + 1}. ${focusTitle(area)}`}</h3>
              <p className="text-sm text-slate-700">
                {area.kind === 'question' ? `${area.category} · ` : t('section.competency')}
                {t(`stance.${area.stance}`)}
              </p>
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                <dt className="font-semibold">{t('section.actions')}</dt>
                <dd className="whitespace-pre-line break-words">{area.actions || '—'}</dd>
                <dt className="font-semibold">{t('section.support')}</dt>
                <dd className="whitespace-pre-line break-words">{area.support || '—'}</dd>
                <dt className="font-semibold">{t('section.checkIn')}</dt>
                <dd>{area.targetDate ? dateLabel(area.targetDate, locale) : '—'}</dd>
              </dl>
            </li>
          ))}
        </ol>
      ) : (
        <p>{t('section.none')}</p>
      )}
    </section>
  )
}
