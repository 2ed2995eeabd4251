import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorList } from '#app/components/forms'
import {
  answerField,
  NOT_APPLICABLE,
  scaleLabel,
  scaleRange,
  TEXT_MAX,
  TEXTAREA_MAX,
} from '#app/modules/assignment/answer-schemas'
import type { ViewQuestion } from '#app/modules/assignment/answering-view.server'

export function QuestionField({
  question: q,
  values,
  errors,
}: {
  question: ViewQuestion
  values: string[]
  errors: string[] | undefined
}) {
  const name = answerField(q.id)
  const baseId = `q-${q.id}`
  const errorId = errors?.length ? `${baseId}-error` : undefined
  const { t } = useTranslation('answering')
  const legend = (
    <>
      <span className="text-slate-500">{q.number}. </span>
      {q.text}
      {q.required ? (
        <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 align-middle text-xs font-semibold text-slate-700">
          {t('question.required')}
        </span>
      ) : null}
    </>
  )

  if (q.kind === 'text' || q.kind === 'textarea') {
    return (
      <TextAnswer question={q} legend={legend} value={values[0] ?? ''} errors={errors} errorId={errorId} />
    )
  }

  if (q.kind === 'scale')
    return <ScaleAnswer question={q} legend={legend} values={values} errors={errors} errorId={errorId} />

  const options = (q.options.labels ?? []).map((l, i) => ({
    value: l,
    label: q.options.displayLabels?.[i] ?? l,
  }))
  const type = q.kind === 'multi' ? 'checkbox' : 'radio'
  return (
    <fieldset
      role={type === 'radio' ? 'radiogroup' : 'group'}
      aria-required={type === 'radio' && q.required ? true : undefined}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      className="flex flex-col gap-3"
    >
      <legend className="mb-2 font-medium text-slate-900">{legend}</legend>
      {q.kind === 'multi' ? <p className="-mt-2 text-sm text-slate-600">{t('question.chooseAll')}</p> : null}
      <div className="flex flex-col gap-2">
        {options.map((o, i) => (
          <label
            key={o.value}
            htmlFor={optionId(baseId, o.value, i)}
            className={`${CARD} flex items-center gap-2 px-3 py-2`}
          >
            <input
              id={optionId(baseId, o.value, i)}
              type={type}
              name={name}
              value={o.value}
              defaultChecked={values.includes(o.value)}
              className="h-4 w-4 accent-indigo-700"
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  )
}

const CARD =
  'cursor-pointer rounded-md border border-slate-300 bg-white text-sm hover:border-indigo-700 has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-700'

const optionId = (baseId: string, value: string, index: number) =>
  `${baseId}-${value.replace(/[^A-Za-z0-9_-]/g, '_')}-${index}`

/**
 * How wide the question must be (a container query on the fieldset) before each point's label fits
 * inside its card: narrower, the points keep one row of equal columns and their labels move to a key
 * under the row, so the scale always reads as one ordered line, 1–5 on a 360 px phone as 0–10.
 */
function labelRoom(points: number) {
  if (points <= 5) return { inside: 'sr-only @md:not-sr-only', key: '@md:hidden' }
  if (points <= 7) return { inside: 'sr-only @xl:not-sr-only', key: '@xl:hidden' }
  return { inside: 'sr-only @2xl:not-sr-only', key: '@2xl:hidden' }
}

/**
 * A rating scale: its points in one row of equal columns, lowest first, each a card with its radio
 * and number (and its label when there is room); "Not applicable" apart below, as it is no point on
 * the scale. The label stays in each radio's accessible name ("4 – Often") at every width.
 */
function ScaleAnswer({
  question: q,
  legend,
  values,
  errors,
  errorId,
}: {
  question: ViewQuestion
  legend: React.ReactNode
  values: string[]
  errors: string[] | undefined
  errorId: string | undefined
}) {
  const name = answerField(q.id)
  const baseId = `q-${q.id}`
  const { t } = useTranslation('answering')
  const points = range(scaleRange(q.options)).map((n) => ({
    value: String(n),
    hint: scaleLabel(q.options, n),
  }))
  const room = labelRoom(points.length)
  const labelled = points.filter((p) => p.hint)
  const radio = (value: string, index: number) => (
    <input
      id={optionId(baseId, value, index)}
      type="radio"
      name={name}
      value={value}
      defaultChecked={values.includes(value)}
      // No browser margin: on a 0–10 scale at 360 px a point's column is barely wider than its radio.
      className="m-0 h-4 w-4 shrink-0 accent-indigo-700"
    />
  )
  return (
    <fieldset
      role="radiogroup"
      aria-required={q.required ? true : undefined}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      className="flex min-w-0 flex-col gap-3"
    >
      <legend className="mb-2 font-medium text-slate-900">{legend}</legend>
      <div className="@container flex flex-col gap-2">
        <div className="grid auto-cols-fr grid-flow-col gap-1 @md:gap-2">
          {points.map((p, i) => (
            <label
              key={p.value}
              htmlFor={optionId(baseId, p.value, i)}
              className={`${CARD} flex min-w-0 flex-col items-center gap-1 px-0.5 py-2 text-center @md:px-1`}
            >
              {radio(p.value, i)}
              <span className="font-semibold">{p.value}</span>
              {p.hint ? (
                <span className={`${room.inside} text-xs leading-snug text-slate-700`}>
                  {/* Read as "4 – Often", as the read-only view writes it. */}
                  <span className="sr-only">{' – '}</span>
                  {p.hint}
                </span>
              ) : null}
            </label>
          ))}
        </div>
        {labelled.length ? (
          // The labels again, for the eye, where the cards are too narrow to hold them.
          <p
            aria-hidden="true"
            className={`${room.key} flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700`}
          >
            {labelled.map((p) => (
              <span key={p.value}>
                <span className="font-semibold">{p.value}</span> {p.hint}
              </span>
            ))}
          </p>
        ) : null}
      </div>
      {q.options.allowNa ? (
        <label
          htmlFor={optionId(baseId, NOT_APPLICABLE, points.length)}
          className={`${CARD} flex items-center gap-2 self-start px-3 py-2`}
        >
          {radio(NOT_APPLICABLE, points.length)}
          <span>{t('question.notApplicable')}</span>
        </label>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  )
}

/** Characters as the server counts them: line breaks as one, letters outside the BMP as one. */
const charCount = (text: string) => [...text.replace(/\r\n?/g, '\n')].length

/**
 * A written answer. No maxlength: a browser would cut a pasted answer at the limit without a word.
 * Instead a counter shows how much room is left and, past the limit, by how much it is over; the
 * server refuses an answer that is too long, with the same numbers, and keeps what was typed.
 */
function TextAnswer({
  question: q,
  legend,
  value,
  errors,
  errorId,
}: {
  question: ViewQuestion
  legend: React.ReactNode
  value: string
  errors: string[] | undefined
  errorId: string | undefined
}) {
  const limit = q.kind === 'text' ? TEXT_MAX : TEXTAREA_MAX
  const baseId = `q-${q.id}`
  const helpId = `${baseId}-help`
  const countId = `${baseId}-count`
  const [count, setCount] = useState(() => charCount(value))
  const over = count - limit
  const { t } = useTranslation('answering')
  const common = {
    id: baseId,
    name: answerField(q.id),
    defaultValue: value,
    onInput: (event: FormEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setCount(charCount(event.currentTarget.value)),
    'aria-required': q.required || undefined,
    'aria-invalid': errorId || over > 0 ? true : undefined,
    'aria-describedby': [helpId, countId, errorId].filter(Boolean).join(' '),
    className: 'input',
  } as const
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={baseId} className="font-medium text-slate-900">
        {legend}
      </label>
      {q.kind === 'text' ? <input type="text" {...common} /> : <textarea rows={6} {...common} />}
      <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-sm">
        <p id={helpId} className="text-slate-600">
          {t('question.upTo', { limit })}
        </p>
        <p id={countId} className={over > 0 ? 'font-medium text-red-800' : 'text-slate-600'}>
          {over > 0 ? t('question.countOver', { count, limit, over }) : t('question.count', { count, limit })}
        </p>
      </div>
      {/* Read out once when the answer goes over (or back under) the limit, not on every key. */}
      <p className="sr-only" aria-live="polite">
        {over > 0 ? t('question.longer', { limit }) : ''}
      </p>
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

function range({ min, max }: { min: number; max: number }) {
  return Array.from({ length: Math.min(max - min + 1, 21) }, (_, i) => min + i)
}
