import { useEffect, useRef } from 'react'
import { Link } from 'react-router'
import type { MissingSection } from '#app/modules/assignment/save-answers.server'
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
  // Submitting failed: take keyboard and screen-reader users straight to the reason.
  useEffect(() => heading.current?.focus(), [])
  return (
    <div
      ref={heading}
      tabIndex={-1}
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900"
    >
      <p className="font-semibold">Not submitted yet. {message}</p>
      <ul className="mt-2 list-disc pl-5">
        {missing.map((s) => (
          <li key={s.number}>
            <Link
              className="link text-red-900"
              to={`/assignment/${assignmentId}?section=${s.number}&missing=1`}
            >
              {`Section ${s.number}: ${s.title}`}
            </Link>
            {` — ${s.count === 1 ? '1 required question' : `${s.count} required questions`}`}
          </li>
        ))}
      </ul>
    </div>
  )
}

export function SubmitSummary({ progress, assignmentId }: { progress: Progress; assignmentId: string }) {
  const { totals, sections } = progress
  const open = sections.filter((s) => s.missingRequired > 0)
  return (
    <div className="card flex flex-col gap-2 bg-slate-50">
      <h2 className="text-lg font-semibold">Ready to submit?</h2>
      <p className="text-slate-700">
        Saved so far: {totals.answered} of {totals.questions} questions answered
        {totals.required ? `, ${totals.requiredAnswered} of ${totals.required} required` : ''}. Once
        submitted, your answers can no longer be changed.
      </p>
      {open.length ? (
        <p className="text-slate-700">
          Required questions still unanswered:{' '}
          {open.map((s, i) => (
            <span key={s.number}>
              {i ? ', ' : ''}
              <Link
                className="link underline"
                to={`/assignment/${assignmentId}?section=${s.number}&missing=1`}
              >
                {s.title} ({s.missingRequired})
              </Link>
            </span>
          ))}
          .
        </p>
      ) : (
        <p className="text-slate-700">Every required question is answered.</p>
      )}
    </div>
  )
}
