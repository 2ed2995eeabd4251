import { useTranslation } from 'react-i18next'
import { useFormMessage } from '#app/components/forms'
import type { SaveStatus } from './answer-state'

export function SaveStatusLine({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  const { t } = useTranslation('answering')
  // A refusal's message is an English sentence (ADR 052): its table says it in the page's language.
  const say = useFormMessage()
  const text =
    status.state === 'refused'
      ? t('save.refused', { message: say(status.message) })
      : t(`save.${status.state}`)
  const problem = status.state === 'retrying' || status.state === 'invalid' || status.state === 'refused'
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <p role="status" aria-live="polite" className={problem ? 'font-medium text-red-800' : 'text-slate-700'}>
        {text}
      </p>
      {status.state === 'retrying' ? (
        // The countdown is for the eye only: a live region ticking every second would never stop talking.
        <span aria-hidden="true" className="text-red-800">
          {t('save.inSeconds', { seconds: status.inSeconds })}
        </span>
      ) : null}
      {status.state === 'retrying' ? (
        <button type="button" className="link text-sm" onClick={onRetry}>
          {t('save.retryNow')}
        </button>
      ) : null}
    </div>
  )
}
