import { useTranslation } from 'react-i18next'

/**
 * The admin's reason for reopening a respondent's answers (answer management, ADR 023), shown on the
 * reopened questionnaire and its introduction until they submit again.
 */
export function ReopenNotice({ reason }: { reason: string | null }) {
  const { t } = useTranslation('answering')
  if (!reason) return null
  return (
    <div className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-indigo-950">
      <p className="whitespace-pre-line break-words">{t('reopened', { reason })}</p>
    </div>
  )
}
