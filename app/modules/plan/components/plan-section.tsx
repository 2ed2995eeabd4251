import { formatDate } from '#app/lib/dates'
import type { FocusArea } from '../plan.server'
import { focusTitle, STANCE_LABELS } from '../words'

/** "30 September 2026" for a date-only value. */
export function dateLabel(isoDate: string) {
  return formatDate(`${isoDate}T12:00:00Z`, 'UTC')
}

/**
 * A development plan, read-only, as a section of the report: below the report on its page, in the
 * manager's shared view and in the printout ("Save as PDF" and the PDF export print it with the
 * report, report-section breaking pages like the report's own sections).
 */
export function PlanSection({
  areas,
  whose = 'Your',
  note,
}: {
  areas: FocusArea[]
  /** "Your" for the employee, else the employee's name with its possessive ("Erin’s"). */
  whose?: string
  note?: string
}) {
  return (
    <section
      aria-labelledby="plan-section-title"
      className="report-section plan-section card flex flex-col gap-4"
    >
      <h2 id="plan-section-title" className="text-xl font-semibold">
        {`${whose} development plan`}
      </h2>
      {note ? <p className="text-sm text-slate-700">{note}</p> : null}
      {areas.length ? (
        <ol className="flex flex-col gap-4">
          {areas.map((area, i) => (
            <li key={area.id} className="rounded-md border border-slate-200 bg-slate-50 p-4">
              <h3 className="font-semibold">{`${i + 1}. ${focusTitle(area)}`}</h3>
              <p className="text-sm text-slate-700">
                {area.kind === 'question' ? `${area.category} · ` : 'Competency · '}
                {STANCE_LABELS[area.stance]}
              </p>
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                <dt className="font-semibold">Actions</dt>
                <dd className="whitespace-pre-line break-words">{area.actions || '—'}</dd>
                <dt className="font-semibold">Support needed</dt>
                <dd className="whitespace-pre-line break-words">{area.support || '—'}</dd>
                <dt className="font-semibold">Check-in</dt>
                <dd>{area.targetDate ? dateLabel(area.targetDate) : '—'}</dd>
              </dl>
            </li>
          ))}
        </ol>
      ) : (
        <p>No focus areas chosen yet.</p>
      )}
    </section>
  )
}
