import { useTranslation } from 'react-i18next'
import type { OutlookLine } from '#app/modules/invite/invite-page.server'

/**
 * How the report will group the colleagues invited so far (issue 18 §3): the words come from the
 * server (outlookOf), so the page carries no copy of the anonymity rule.
 */
export function GroupOutlook({ outlook }: { outlook: { summary: string; lines: OutlookLine[] } }) {
  const { t } = useTranslation('invite')
  return (
    <section aria-labelledby="outlook-title" className="card flex flex-col gap-3">
      <h2 id="outlook-title" className="text-lg font-semibold">
        {t('outlook.title')}
      </h2>
      <p className="text-slate-800">{outlook.summary}</p>
      <ul className="flex flex-col gap-2">
        {outlook.lines.map((line) => (
          <li key={line.key}>
            <strong>{line.heading}</strong> <span className={line.tone}>{line.text}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
