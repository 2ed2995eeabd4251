import { useTranslation } from 'react-i18next'

/**
 * An e-mail's two parts side by side: the HTML in a frame without scripts or same origin (whatever
 * it holds can do nothing but show), the text as it is.
 */
export function MessageParts({
  htmlTitle,
  html,
  text,
  height,
  textTestId,
}: {
  /** The frame's accessible name. */
  htmlTitle: string
  html: string
  text: string
  height: 'h-[28rem]' | 'h-[32rem]'
  textTestId?: string
}) {
  const { t } = useTranslation('email')
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="flex min-w-0 flex-col gap-1">
        <h3 className="font-semibold">{t('parts.html')}</h3>
        <iframe
          title={htmlTitle}
          sandbox=""
          srcDoc={html}
          className={`${height} w-full rounded-md border border-slate-200 bg-white`}
        />
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <h3 className="font-semibold">{t('parts.text')}</h3>
        {/* Scrolls when the text is longer than its box (German runs longer): reachable by keyboard. */}
        <pre
          data-testid={textTestId}
          tabIndex={0}
          aria-label={t('parts.text')}
          className={`${height} overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-sm whitespace-pre-wrap break-words`}
        >
          {text}
        </pre>
      </div>
    </div>
  )
}
