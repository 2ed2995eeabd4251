import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * A signing secret, shown once (issue 21 §2): at registration or rotation, in the action's answer
 * only (no-store), never again. Takes the focus so it is read out first.
 */
export function WebhookSecret({ secret, rotated }: { secret: string; rotated?: { until: string } }) {
  const { t } = useTranslation('webhooks')
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section aria-labelledby="webhook-secret-title" className="card flex flex-col gap-3 border-emerald-300">
      <h2 id="webhook-secret-title" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        {rotated ? t('secret.rotatedTitle') : t('secret.title')}
      </h2>
      <p className="text-slate-800">{t('secret.text')}</p>
      {rotated ? (
        <p className="text-slate-800">
          {t('secret.overlap', { until: `${rotated.until.slice(0, 10)} ${rotated.until.slice(11, 16)} UTC` })}
        </p>
      ) : null}
      <label htmlFor="webhook-secret-value" className="label">
        {t('secret.label')}
      </label>
      <input
        id="webhook-secret-value"
        readOnly
        value={secret}
        className="input font-mono"
        spellCheck={false}
        autoComplete="off"
        onFocus={(event) => event.currentTarget.select()}
      />
    </section>
  )
}
