import { useTranslation } from 'react-i18next'
import type { Progress } from './answer-state'

/**
 * How far the respondent has got, in answers (not in sections): answered of all questions, and of the
 * required ones how many are still open. The section steps below show where they are.
 */
export function SectionProgress({ progress, current }: { progress: Progress; current: number }) {
  const { sections, totals } = progress
  const section = sections[current - 1]
  const { t } = useTranslation('answering')
  const answeredText = t('progress.answered', { answered: totals.answered, questions: totals.questions })
  const requiredText = totals.required
    ? totals.missingRequired
      ? t('progress.requiredLeft', { missing: totals.missingRequired, required: totals.required })
      : t('progress.requiredDone', { required: totals.required })
    : ''
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p id="progress-label" className="text-sm font-semibold text-slate-800">
          {answeredText}
          {requiredText ? <span className="font-normal text-slate-700"> · {requiredText}</span> : null}
        </p>
        <p className="text-sm text-slate-700">
          {t('progress.sectionOf', { current, count: sections.length })}
        </p>
      </div>
      <div
        role="progressbar"
        aria-labelledby="progress-label"
        aria-valuemin={0}
        aria-valuemax={totals.questions}
        aria-valuenow={totals.answered}
        aria-valuetext={[answeredText, requiredText].filter(Boolean).join(', ')}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-indigo-700"
          style={{ width: `${totals.questions ? (totals.answered / totals.questions) * 100 : 0}%` }}
        />
      </div>
      <nav aria-label={t('progress.sections')}>
        <ol className="flex flex-wrap gap-2">
          {sections.map((s) => {
            const isCurrent = s.number === current
            const done = s.questionCount > 0 && s.missingRequired === 0 && s.answered > 0
            return (
              <li key={s.number}>
                <button
                  type="submit"
                  name="intent"
                  value={`goto-${s.number}`}
                  aria-current={isCurrent ? 'step' : undefined}
                  className={`rounded-full border px-3 py-1 text-sm ${
                    isCurrent
                      ? 'border-indigo-700 bg-indigo-700 font-semibold text-white'
                      : done
                        ? 'border-emerald-700 bg-emerald-50 text-emerald-900'
                        : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'
                  }`}
                >
                  {s.number}. {s.title}
                  {done && !isCurrent ? <span aria-hidden="true"> ✓</span> : null}
                  <span className="sr-only">
                    {done
                      ? t('progress.complete')
                      : s.missingRequired
                        ? t('progress.requiredLeftIn', { count: s.missingRequired })
                        : ''}
                  </span>
                </button>
              </li>
            )
          })}
        </ol>
      </nav>
      {section ? <span className="sr-only">{t('progress.current', { title: section.title })}</span> : null}
    </div>
  )
}
