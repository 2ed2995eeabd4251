import { useState, type FormEvent } from 'react'
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
  const legend = (
    <>
      <span className="text-slate-500">{q.number}. </span>
      {q.text}
      {q.required ? (
        <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 align-middle text-xs font-semibold text-slate-700">
          Required
        </span>
      ) : null}
    </>
  )

  if (q.kind === 'text' || q.kind === 'textarea') {
    return (
      <TextAnswer question={q} legend={legend} value={values[0] ?? ''} errors={errors} errorId={errorId} />
    )
  }

  const options: Array<{ value: string; label: string; hint?: string }> =
    q.kind === 'scale'
      ? [
          ...range(scaleRange(q.options)).map((n) => ({
            value: String(n),
            label: String(n),
            hint: scaleLabel(q.options, n),
          })),
          ...(q.options.allowNa ? [{ value: NOT_APPLICABLE, label: 'Not applicable' }] : []),
        ]
      : (q.options.labels ?? []).map((l) => ({ value: l, label: l }))
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
      {q.kind === 'multi' ? <p className="-mt-2 text-sm text-slate-600">Choose all that apply.</p> : null}
      <div className={q.kind === 'scale' ? 'flex flex-wrap gap-2' : 'flex flex-col gap-2'}>
        {options.map((o) => {
          const id = `${baseId}-${o.value.replace(/[^A-Za-z0-9_-]/g, '_')}-${options.indexOf(o)}`
          return (
            <label
              key={o.value}
              htmlFor={id}
              className={`flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm hover:border-indigo-700 has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-700 ${
                q.kind === 'scale' ? 'min-w-[5.5rem] flex-col text-center' : ''
              }`}
            >
              <input
                id={id}
                type={type}
                name={name}
                value={o.value}
                defaultChecked={values.includes(o.value)}
                className="h-4 w-4 accent-indigo-700"
              />
              <span className={q.kind === 'scale' && o.value !== NOT_APPLICABLE ? 'font-semibold' : ''}>
                {o.label}
              </span>
              {o.hint ? (
                <span className="text-xs text-slate-700">
                  {/* Read as "4 – Often", as the read-only view writes it. */}
                  <span className="sr-only">{' – '}</span>
                  {o.hint}
                </span>
              ) : null}
            </label>
          )
        })}
      </div>
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
          Up to {limit.toLocaleString('en-GB')} characters.
        </p>
        <p id={countId} className={over > 0 ? 'font-medium text-red-800' : 'text-slate-600'}>
          {over > 0
            ? `${count.toLocaleString('en-GB')} of ${limit.toLocaleString('en-GB')}: ${over.toLocaleString('en-GB')} too many`
            : `${count.toLocaleString('en-GB')} of ${limit.toLocaleString('en-GB')}`}
        </p>
      </div>
      {/* Read out once when the answer goes over (or back under) the limit, not on every key. */}
      <p className="sr-only" aria-live="polite">
        {over > 0 ? `Your answer is longer than ${limit.toLocaleString('en-GB')} characters.` : ''}
      </p>
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

function range({ min, max }: { min: number; max: number }) {
  return Array.from({ length: Math.min(max - min + 1, 21) }, (_, i) => min + i)
}
