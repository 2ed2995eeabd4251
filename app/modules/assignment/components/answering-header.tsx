import type { AnsweringView } from '#app/modules/assignment/answering-view.server'
import { ReopenNotice } from './reopen-notice'

export function AnsweringHeader({ view }: { view: AnsweringView }) {
  const { assignment } = view
  const self = assignment.relationship === 'self'
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-slate-600">{assignment.schemeName}</p>
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {assignment.questionnaireTitle}
      </h1>
      <p className="text-slate-700">
        {self ? (
          'Your self-assessment: the questions are about you.'
        ) : (
          <>
            Your feedback for <strong>{assignment.subjectName}</strong>. They see it only together with other
            colleagues’ answers, never with your name.
          </>
        )}
      </p>
      {view.mode === 'answer' ? (
        <p className="text-sm text-slate-700">
          Please answer by <time dateTime={assignment.deadline.iso}>{assignment.deadline.label}</time>
          {assignment.timeLeft ? ` (${assignment.timeLeft})` : ''}.
        </p>
      ) : null}
      <ReopenNotice reason={assignment.reopenReason} />
    </div>
  )
}
