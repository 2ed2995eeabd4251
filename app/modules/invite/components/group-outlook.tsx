import type { OutlookLine } from '#app/modules/invite/invite-page.server'

/**
 * How the report will group the colleagues invited so far (issue 18 §3): the words come from the
 * server (outlookOf), so the page carries no copy of the anonymity rule.
 */
export function GroupOutlook({ outlook }: { outlook: { summary: string; lines: OutlookLine[] } }) {
  return (
    <section aria-labelledby="outlook-title" className="card flex flex-col gap-3">
      <h2 id="outlook-title" className="text-lg font-semibold">
        How the report will group them
      </h2>
      <p className="text-slate-800">{outlook.summary}</p>
      <ul className="flex flex-col gap-2">
        {outlook.lines.map((line) => (
          <li key={line.key} className="flex flex-col gap-0.5 sm:flex-row sm:gap-2">
            <span className="font-semibold text-slate-900 sm:w-44 sm:shrink-0">
              {`${line.label} (${line.invited})`}
            </span>
            <span
              className={
                line.tone === 'good' ? 'text-emerald-900' : line.tone === 'short' ? 'text-amber-950' : 'text-slate-800'
              }
            >
              {line.text}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
