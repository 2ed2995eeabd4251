import { useTranslation } from 'react-i18next'
import { richT } from '#app/modules/i18n/rich'
import type { AnsweringView } from '#app/modules/assignment/answering-view.server'
import { AnsweringTitle } from './answering-title'
import { ReopenNotice } from './reopen-notice'

export function AnsweringHeader({ view }: { view: AnsweringView }) {
  const { assignment } = view
  const { t } = useTranslation('answering')
  const date = <time dateTime={assignment.deadline.iso}>{assignment.deadline.label}</time>
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-slate-600">{assignment.schemeName}</p>
      <AnsweringTitle
        title={assignment.questionnaireTitle}
        subjectName={assignment.relationship === 'self' ? null : assignment.subjectName}
      />
      {view.mode === 'answer' ? (
        <p className="text-sm text-slate-700">
          {assignment.daysLeft !== null
            ? richT(t, 'page.answerByLeft', { date }, { left: t('daysLeft', { days: assignment.daysLeft }) })
            : richT(t, 'page.answerBy', { date })}
        </p>
      ) : null}
      <ReopenNotice reason={assignment.reopenReason} />
    </div>
  )
}
