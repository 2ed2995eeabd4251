import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

type Toast = { kind: 'success' | 'error' | 'info'; title: string; description?: string }

/** Shows the one-shot message a redirect carried; a polite live region announces it. */
export function Toaster({ toast }: { toast: Toast | null }) {
  const { t } = useTranslation('common')
  const [visible, setVisible] = useState<Toast | null>(toast)
  useEffect(() => {
    setVisible(toast)
    if (!toast) return
    const timer = setTimeout(() => setVisible(null), 6000)
    return () => clearTimeout(timer)
  }, [toast])
  return (
    <div
      aria-live="polite"
      role="status"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4"
    >
      {visible ? (
        <div
          className={`pointer-events-auto flex max-w-md items-start gap-3 rounded-lg border px-4 py-3 shadow-lg ${
            visible.kind === 'error'
              ? 'border-red-200 bg-red-50 text-red-900'
              : visible.kind === 'info'
                ? 'border-slate-200 bg-white text-slate-900'
                : 'border-emerald-200 bg-emerald-50 text-emerald-900'
          }`}
        >
          <div>
            <p className="font-semibold">{visible.title}</p>
            {visible.description ? <p className="text-sm">{visible.description}</p> : null}
          </div>
          <button type="button" className="ml-2 text-sm underline" onClick={() => setVisible(null)}>
            {t('dismiss')}
          </button>
        </div>
      ) : null}
    </div>
  )
}
