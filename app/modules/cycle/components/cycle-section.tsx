import type { ReactNode } from 'react'
import { TableScroller } from '#app/components/table-scroller'
import { formatDateTime } from '#app/lib/dates'
import { againstNormText } from '#app/modules/norm/norm'
import type { ScaleRange } from '#app/modules/report/report'
import { changeText, figureText, noiseBand, type ComparedRow } from '../change'
import type { CycleView } from '../cycle.server'

/**
 * The report's "Over time" section (issue 19 §5–6, ADR 044): the previous cycle's all-colleagues
 * figures beside this release's, the change and whether it is more than noise, and — when the
 * scheme shows it — the norm. Rendered by the report page after "At a glance".
 */

const th = 'px-2 py-2 font-semibold'
const rowTh = 'px-2 py-2 font-medium'
const td = 'px-2 py-2 tabular-nums'

const VERDICT_STYLE = {
  higher: 'text-emerald-800',
  lower: 'text-rose-800',
  same: 'text-slate-700',
} as const

function ChangeCell({ row }: { row: ComparedRow }) {
  const style = row.change ? VERDICT_STYLE[row.change.verdict] : 'text-slate-700'
  return (
    <td className={`${td} ${style}`} data-verdict={row.change?.verdict ?? 'none'}>
      {row.change ? changeText(row.change) : row.previous === null ? 'Not in the previous report' : '—'}
    </td>
  )
}

function CycleTable({
  caption,
  first,
  rows,
  previous,
  norm,
}: {
  caption: string
  first: string
  rows: ComparedRow[]
  previous: boolean
  norm: Record<string, number> | null
}) {
  const head = [
    first,
    ...(previous ? ['Previous cycle', 'This cycle', 'Change'] : ['Colleagues']),
    ...(norm ? ['Norm'] : []),
  ]
  return (
    <TableScroller className="report-table-wrap" label={`Table: ${caption}`}>
      <table className="report-table w-full border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-sm font-semibold text-slate-800">{caption}</caption>
        <thead className="border-b border-slate-300 bg-slate-50 text-xs text-slate-800">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row" className={rowTh}>
                {row.label}
              </th>
              {previous ? (
                <>
                  <td className={td}>{figureText(row.previous)}</td>
                  <td className={td}>{figureText(row.now)}</td>
                  <ChangeCell row={row} />
                </>
              ) : (
                <td className={td}>{figureText(row.now)}</td>
              )}
              {norm ? <td className={td}>{againstNormText(row.now, norm[row.id])}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  )
}

export function CycleSection({
  view,
  scale,
  timeZone,
  of = 'report',
}: {
  view: CycleView
  scale: ScaleRange
  timeZone: string
  /** Whose figures: one employee's report, or a cohort's group report (issue 19 §4–5). */
  of?: 'report' | 'group'
}) {
  const previous = view.previous
  const norm = view.norm
  if (!previous && !norm) return null
  const { categories, questions } = view.comparison
  const band = noiseBand(scale).toFixed(2).replace(/0$/, '')
  const notes: ReactNode[] = []
  if (previous)
    notes.push(
      <p key="previous">
        {of === 'group'
          ? `The group’s all-colleagues averages in “${previous.schemeName}” beside this cycle’s, each as its own group report shows it. A change smaller than ${band} on this ${scale.min}–${scale.max} scale reads “about the same”. Participants and colleagues may differ between the cycles.`
          : `Colleagues’ averages in “${previous.schemeName}”${previous.releasedAt ? ` (released ${formatDateTime(previous.releasedAt, timeZone)})` : ''} beside this cycle’s. A change smaller than ${band} on this ${scale.min}–${scale.max} scale reads “about the same”: with a handful of colleagues, an average moves that much by chance. Different colleagues may have answered each time.`}
      </p>,
    )
  if (norm) {
    const any = Object.keys(norm.categories).length + Object.keys(norm.questions).length > 0
    notes.push(
      <p key="norm">
        {any
          ? `The norm is the average colleagues’ view across other organisations’ released reports of this questionnaire${of === 'group' ? ' (this organisation’s are left out)' : ''}; it is shown only where enough participants stand behind it.`
          : `No norm yet: too few participants in other organisations have released reports of this questionnaire.`}
      </p>,
    )
  }
  const title = previous ? (norm ? 'Over time and against the norm' : 'Over time') : 'Against the norm'
  return (
    <section aria-labelledby="cycle-title" className="report-section card flex flex-col gap-4" id="cycle">
      <h2 id="cycle-title" className="text-xl font-semibold">
        {title}
      </h2>
      <div className="flex flex-col gap-2 text-slate-800">{notes}</div>
      {categories.length ? (
        <CycleTable
          caption="Per competency: colleagues’ average"
          first="Competency"
          rows={categories}
          previous={Boolean(previous)}
          norm={norm?.categories ?? null}
        />
      ) : null}
      {questions.length ? (
        <CycleTable
          caption="Per question: colleagues’ average"
          first="Question"
          rows={questions}
          previous={Boolean(previous)}
          norm={norm?.questions ?? null}
        />
      ) : null}
    </section>
  )
}
