import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { TableScroller } from '#app/components/table-scroller'
import { formatDateTime } from '#app/lib/dates'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { normDifference } from '#app/modules/norm/norm'
import { decimalIn, formatScore, type ScaleRange } from '#app/modules/report/report'
import { noiseBand, type Change, type ComparedRow } from '../change'
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

type Words = { t: TFunction<'report'>; locale: string }

/** changeText (change.ts) in the page's language: "+0.6 · higher", "−0,4 · niedriger". */
function changeWords({ t, locale }: Words, change: Change) {
  const sign = change.change > 0 ? '+' : change.change < 0 ? '−' : '±'
  const amount = `${sign}${decimalIn(Math.abs(change.change).toFixed(1), locale)}`
  const key =
    change.verdict === 'same'
      ? 'cycle.changeSame'
      : change.verdict === 'higher'
        ? 'cycle.changeHigher'
        : 'cycle.changeLower'
  return t(key, { change: amount })
}

/** againstNormText (norm.ts) in the page's language. */
function againstNormWords({ t, locale }: Words, colleagues: number | null, norm: number | undefined) {
  const difference = normDifference(colleagues, norm)
  if (difference === null || norm === undefined) return '—'
  const shown = decimalIn(norm.toFixed(1), locale)
  if (difference === 0) return t('cycle.atNorm', { norm: shown })
  const amount = decimalIn(Math.abs(difference).toFixed(1), locale)
  return t(difference > 0 ? 'cycle.aboveNorm' : 'cycle.belowNorm', { norm: shown, amount })
}

function ChangeCell({ row, words }: { row: ComparedRow; words: Words }) {
  const style = row.change ? VERDICT_STYLE[row.change.verdict] : 'text-slate-700'
  return (
    <td className={`${td} ${style}`} data-verdict={row.change?.verdict ?? 'none'}>
      {row.change
        ? changeWords(words, row.change)
        : row.previous === null
          ? words.t('cycle.notInPrevious')
          : '—'}
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
  const { t } = useTranslation('report')
  const locale = useIntlLocale()
  const words = { t, locale }
  const figure = (value: number | null) => formatScore(value, locale)
  const head = [
    first,
    ...(previous
      ? [t('cycle.previousCycle'), t('cycle.thisCycle'), t('cycle.change')]
      : [t('cycle.colleagues')]),
    ...(norm ? [t('cycle.normColumn')] : []),
  ]
  return (
    <TableScroller className="report-table-wrap" label={t('tableLabel', { label: caption })}>
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
                  <td className={td}>{figure(row.previous)}</td>
                  <td className={td}>{figure(row.now)}</td>
                  <ChangeCell row={row} words={words} />
                </>
              ) : (
                <td className={td}>{figure(row.now)}</td>
              )}
              {norm ? <td className={td}>{againstNormWords(words, row.now, norm[row.id])}</td> : null}
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
  const { t } = useTranslation('report')
  const locale = useIntlLocale()
  const previous = view.previous
  const norm = view.norm
  if (!previous && !norm) return null
  const { categories, questions } = view.comparison
  const band = decimalIn(noiseBand(scale).toFixed(2).replace(/0$/, ''), locale)
  const notes: ReactNode[] = []
  if (previous) {
    const args = { scheme: previous.schemeName, band, min: scale.min, max: scale.max }
    notes.push(
      <p key="previous">
        {of === 'group'
          ? t('cycle.previousGroup', args)
          : previous.releasedAt
            ? t('cycle.previousReleased', {
                ...args,
                released: formatDateTime(previous.releasedAt, timeZone, locale),
              })
            : t('cycle.previous', args)}
      </p>,
    )
  }
  if (norm) {
    const any = Object.keys(norm.categories).length + Object.keys(norm.questions).length > 0
    notes.push(
      <p key="norm">{any ? t(of === 'group' ? 'cycle.normGroup' : 'cycle.norm') : t('cycle.noNorm')}</p>,
    )
  }
  const title = t(previous ? (norm ? 'cycle.overTimeAndNorm' : 'cycle.overTime') : 'cycle.againstNorm')
  return (
    <section aria-labelledby="cycle-title" className="report-section card flex flex-col gap-4" id="cycle">
      <h2 id="cycle-title" className="text-xl font-semibold">
        {title}
      </h2>
      <div className="flex flex-col gap-2 text-slate-800">{notes}</div>
      {categories.length ? (
        <CycleTable
          caption={t('cycle.perCompetency')}
          first={t('cycle.competency')}
          rows={categories}
          previous={Boolean(previous)}
          norm={norm?.categories ?? null}
        />
      ) : null}
      {questions.length ? (
        <CycleTable
          caption={t('cycle.perQuestion')}
          first={t('cycle.question')}
          rows={questions}
          previous={Boolean(previous)}
          norm={norm?.questions ?? null}
        />
      ) : null}
    </section>
  )
}
