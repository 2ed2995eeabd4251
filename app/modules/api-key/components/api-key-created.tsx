import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The new key, shown once (issue 21 §1): it is in the action's answer only (no-store), never stored,
 * and gone when the page is left or reloaded. Takes the focus so it is read out first.
 */
export function ApiKeyCreated({ name, apiKey }: { name: string; apiKey: string }) {
  const { t } = useTranslation('api-keys')
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section aria-labelledby="api-key-created-title" className="card flex flex-col gap-3 border-emerald-300">
      <h2 id="api-key-created-title" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        {t('created.title', { name })}
      </h2>
      <p className="text-slate-800">{t('created.text')}</p>
      <label htmlFor="api-key-value" className="label">
        {t('created.label')}
      </label>
      <input
        id="api-key-value"
        readOnly
        value={apiKey}
        className="input font-mono"
        spellCheck={false}
        autoComplete="off"
        onFocus={(event) => event.currentTarget.select()}
      />
    </section>
  )
}
