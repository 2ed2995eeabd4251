import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { FormErrors } from '#app/components/forms'
import { scaleLabel } from '#app/modules/assignment/answer-schemas'
import type { AnsweringView, ViewQuestion } from '#app/modules/assignment/answering-view.server'
import { richT } from '#app/modules/i18n/rich'
import type { AnswerActionData } from './answer-state'

function answerText(t: TFunction<'answering'>, q: ViewQuestion): string {
  const a = q.answer
  if (!a) return t('readOnly.noAnswer')
  if (a.notApplicable) return t('readOnly.notApplicable')
  if (a.numericValue !== null) {
    const label = scaleLabel(q.options, a.numericValue)
    return label ? `${a.numericValue} – ${label}` : String(a.numericValue)
  }
  if (a.choices?.length) {
    // Stored as the source labels (ADR 051): shown as the respondent read them.
    const labels = q.options.labels ?? []
    return a.choices.map((c) => q.options.displayLabels?.[labels.indexOf(c)] ?? c).join(', ')
  }
  return a.textValue ?? t('readOnly.noAnswer')
}

export function ReadOnlyAnswers({
  view,
  actionData,
}: {
  view: AnsweringView
  actionData: AnswerActionData | undefined
}) {
  const warning = view.mode === 'closed' || view.mode === 'not-open'
  const { t } = useTranslation('answering')
  return (
    <>
      {/* A post that arrived anyway (a stale tab, a replayed form) says why nothing changed. */}
      <FormErrors errors={[actionData && actionData.kind !== 'saved' ? actionData.message : undefined]} />
      {view.noticeKey ? (
        <div
          role={warning ? 'alert' : 'status'}
          className={`rounded-md border p-4 ${
            warning
              ? 'border-amber-300 bg-amber-50 text-amber-950'
              : 'border-emerald-200 bg-emerald-50 text-emerald-950'
          }`}
        >
          <p>{t(`readOnly.notice.${view.noticeKey}`, { date: view.noticeDate })}</p>
          {view.assignment.submittedAt ? (
            <p className="mt-1 text-sm">
              {richT(t, 'readOnly.submittedOn', {
                date: (
                  <time dateTime={view.assignment.submittedAt.iso}>{view.assignment.submittedAt.label}</time>
                ),
              })}
            </p>
          ) : null}
          {view.mayAskToChange ? (
            <p className="mt-2">
              <Link className="link" to={`/user/thank-you?assignment=${view.assignment.id}#change-answers`}>
                {t('readOnly.changeAnswers')}
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
      {view.sections.map((s) => (
        <section key={s.number} aria-labelledby={`section-${s.number}`} className="card flex flex-col gap-4">
          <h2 id={`section-${s.number}`} className="text-lg font-semibold">
            {s.number}. {s.title}
          </h2>
          <dl className="flex flex-col gap-4">
            {view.questions
              .filter((q) => q.section === s.number)
              .map((q) => (
                <div key={q.id} className="flex flex-col gap-1">
                  <dt className="font-medium text-slate-900">
                    {q.number}. {q.text}
                  </dt>
                  <dd
                    className={`whitespace-pre-wrap ${q.answer ? 'text-slate-800' : 'italic text-slate-600'}`}
                  >
                    {answerText(t, q)}
                  </dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </>
  )
}
