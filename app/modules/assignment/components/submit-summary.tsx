import { useEffect, useRef } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { MissingSection } from '#app/modules/assignment/save-answers.server'
import { useFormMessage } from '#app/components/forms'
import { richT } from '#app/modules/i18n/rich'
import type { Progress } from './answer-state'

export function MissingList({
  message,
  missing,
  assignmentId,
}: {
  message: string
  missing: MissingSection[]
  assignmentId: string
}) {
  const heading = useRef<HTMLDivElement>(null)
  const { t } = useTranslation('answering')
  const say = useFormMessage()
  // Submitting failed: take keyboard and screen-reader users straight to the reason.
  useEffect(() => heading.current?.focus(), [])
  return (
    <div
      ref={heading}
      tabIndex={-1}
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900"
    >
      <p className="font-semibold">{t('submit.notYetSubmitted', { message: say(message) })}</p>
      <ul className="mt-2 list-disc pl-5">
        {missing.map((s) => (
          <li key={s.number}>
            <Link
              className="link text-red-900"
              to={`/assignment/${assignmentId}?section=${s.number}&missing=1`}
            >
              {t('submit.sectionLink', { number: s.number, title: s.title })}
            </Link>
            {t('submit.requiredCount', { count: s.count })}
          </li>
        ))}
      </ul>
    </div>
  )
}

export function SubmitSummary({ progress, assignmentId }: { progress: Progress; assignmentId: string }) {
  const { totals, sections } = progress
  const open = sections.filter((s) => s.missingRequired > 0)
  const { t } = useTranslation('answering')
  const list = open.map((s, i) => (
    <span key={s.number}>
      {i ? ', ' : ''}
      <Link className="link underline" to={`/assignment/${assignmentId}?section=${s.number}&missing=1`}>
        {s.title} ({s.missingRequired})
      </Link>
    </span>
  ))
  return (
    <div className="card flex flex-col gap-2 bg-slate-50">
      <h2 className="text-lg font-semibold">{t('submit.ready')}</h2>
      <p className="text-slate-700">
        {t('submit.savedSoFar', {
          answered: totals.answered,
          questions: totals.questions,
          hasRequired: totals.required ? 'yes' : 'no',
          requiredAnswered: totals.requiredAnswered,
          required: totals.required,
        })}
      </p>
      {open.length ? (
        <p className="text-slate-700">{richT(t, 'submit.stillUnanswered', { list })}</p>
      ) : (
        <p className="text-slate-700">{t('submit.allRequired')}</p>
      )}
    </div>
  )
}

/**
 * The confirmation step of "Submit answers" (`?confirm=submit`, server-rendered, so it works without
 * JavaScript): what submitting means, how many optional questions are still open and where, and the
 * button that really submits. It sits inside the answer form, so that button posts the section's
 * answers as they are on screen. Opened by a redirect: the focus moves to its question.
 */
export function SubmitConfirm({
  progress,
  assignmentId,
  current,
  busy,
}: {
  progress: Progress
  assignmentId: string
  current: number
  busy: boolean
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  const { t } = useTranslation('answering')
  const open = progress.sections
    .map((s) => ({ ...s, optionalOpen: s.questionCount - s.answered - s.missingRequired }))
    .filter((s) => s.optionalOpen > 0)
  const optionalOpen = open.reduce((n, s) => n + s.optionalOpen, 0)
  return (
    <section
      id="confirm-submit"
      aria-labelledby="confirm-submit-title"
      className="card flex flex-col gap-3 border-indigo-300"
    >
      <h2 id="confirm-submit-title" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        {t('submit.ready')}
      </h2>
      <p className="text-slate-800">
        {t('submit.cannotChange')}{' '}
        {optionalOpen ? t('submit.optionalOpen', { count: optionalOpen }) : t('submit.allAnswered')}
      </p>
      {open.length ? (
        <ul className="list-disc pl-5 text-slate-800">
          {open.map((s) => (
            <li key={s.number}>
              <Link className="link" to={`/assignment/${assignmentId}?section=${s.number}`}>
                {t('submit.sectionLink', { number: s.number, title: s.title })}
              </Link>
              {t('submit.optionalCount', { count: s.optionalOpen })}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" name="intent" value="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('submit.submitting') : t('submit.confirm')}
        </button>
        <Link className="btn btn-secondary" to={`/assignment/${assignmentId}?section=${current}`}>
          {t('submit.notYet')}
        </Link>
      </div>
    </section>
  )
}
