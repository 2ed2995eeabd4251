import { useTranslation } from 'react-i18next'
import { richT } from '#app/modules/i18n/rich'

/**
 * The answering page's title and whose feedback it is, as respondents see it: on the page itself
 * and in the builder's preview. `subjectName` is null for a self-assessment.
 */
export function AnsweringTitle({ title, subjectName }: { title: string; subjectName: string | null }) {
  const { t } = useTranslation('answering')
  return (
    <>
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {title}
      </h1>
      <p className="text-slate-700">
        {subjectName === null
          ? t('page.self')
          : richT(t, 'page.feedbackFor', { name: <strong>{subjectName}</strong> })}
      </p>
    </>
  )
}
