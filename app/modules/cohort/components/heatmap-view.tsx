import { Fragment } from 'react'
import { Link } from 'react-router'
import { TableScroller } from '#app/components/table-scroller'
import { useTranslation } from 'react-i18next'
import { heatBand } from '../cohort'
import type { Heatmap, HeatmapCursor } from '../cohort.server'
import { BackLink, CohortBrandBand, cohortHref, useScore } from './cohort-parts'

/**
 * One blue from light to dark: the bands keep their order in greyscale and for every kind of colour
 * blindness, and the value is printed in every cell, so colour is never the only signal. Text is
 * black on the light bands and white on the dark ones (contrast ≥ 4.5:1 on each).
 */
const BAND_CLASSES = [
  'bg-sky-50 text-slate-950',
  'bg-sky-200 text-slate-950',
  'bg-sky-400 text-slate-950',
  'bg-sky-700 text-white',
  'bg-sky-950 text-white',
]

function bandLabel(band: number, min: number, max: number, score: (value: number) => string) {
  const step = (max - min) / 5
  const from = min + band * step
  return `${score(from)}–${score(from + step)}`
}

function Legend({ min, max }: { min: number; max: number }) {
  const { t } = useTranslation('cohort')
  const score = useScore()
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm font-semibold" id="heatmap-legend">
        {t('heatmap.legend')}
      </p>
      <ul aria-labelledby="heatmap-legend" className="flex flex-wrap gap-1 text-xs">
        {BAND_CLASSES.map((cls, band) => (
          <li key={band} className={`heat-cell rounded px-2 py-1 ${cls}`}>
            {bandLabel(band, min, max, score)}
          </li>
        ))}
      </ul>
    </div>
  )
}

const afterParam = (c: HeatmapCursor) =>
  `after=${encodeURIComponent(c.id)}&name=${encodeURIComponent(c.name)}`

/**
 * Participants × competencies (issue 19 §4): each participant's colleagues' competency figure as
 * their own report shows it, self score on hover and for screen readers, or side by side in the
 * table view (`?view=table`). A real table, scrolling sideways inside its own named region on a
 * phone; admins only (the group report is what a client sees).
 */
export function HeatmapView({
  heatmap,
  view,
  pageQuery,
}: {
  heatmap: Heatmap
  view: 'heat' | 'table'
  pageQuery: string
}) {
  const { t } = useTranslation('cohort')
  const { header, competencies, rows, next } = heatmap
  const base = cohortHref(header, 'heatmap')
  const { min, max } = header.scale
  const company = header.scope === 'company'
  return (
    <section aria-labelledby="page-title" className="cohort-heatmap flex max-w-6xl flex-col gap-6">
      <BackLink header={header} />
      <CohortBrandBand header={header} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 id="page-title" className="text-2xl font-bold tracking-tight">
            {t('heatmap.title', { name: header.name })}
          </h1>
          <p className="mt-1 text-slate-700">{t('heatmap.intro')}</p>
        </div>
        <Link className="btn btn-secondary no-print" to={cohortHref(header, 'group-report')}>
          {t('heatmap.groupReport')}
        </Link>
      </div>
      <nav aria-label={t('heatmap.views')} className="no-print flex flex-wrap gap-2">
        <Link
          className={view === 'heat' ? 'btn btn-primary' : 'btn btn-secondary'}
          aria-current={view === 'heat' ? 'page' : undefined}
          to={`${base}${pageQuery ? `?${pageQuery}` : ''}`}
        >
          {t('heatmap.heat')}
        </Link>
        <Link
          className={view === 'table' ? 'btn btn-primary' : 'btn btn-secondary'}
          aria-current={view === 'table' ? 'page' : undefined}
          to={`${base}?view=table${pageQuery ? `&${pageQuery}` : ''}`}
        >
          {t('heatmap.table')}
        </Link>
      </nav>
      {view === 'heat' ? <Legend min={min} max={max} /> : null}
      {rows.length ? (
        <TableScroller label={t('heatmap.region')} className="rounded-md border border-slate-200">
          <table className="heatmap-table border-collapse text-left text-sm">
            <caption className="sr-only">
              {view === 'heat' ? t('heatmap.captionHeat') : t('heatmap.captionTable')}
            </caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" rowSpan={view === 'table' ? 2 : 1} className="px-3 py-2 font-semibold">
                  {t('heatmap.participant')}
                </th>
                {competencies.map((c) => (
                  <th
                    key={c}
                    scope={view === 'table' ? 'colgroup' : 'col'}
                    colSpan={view === 'table' ? 2 : 1}
                    className="min-w-24 px-3 py-2 font-semibold [overflow-wrap:normal]"
                  >
                    {c}
                  </th>
                ))}
              </tr>
              {view === 'table' ? (
                <tr>
                  {competencies.map((c) => (
                    <Fragment key={c}>
                      <th scope="col" className="px-3 py-1 text-xs font-semibold">
                        {t('heatmap.self')}
                      </th>
                      <th scope="col" className="px-3 py-1 text-xs font-semibold">
                        {t('heatmap.colleagues')}
                      </th>
                    </Fragment>
                  ))}
                </tr>
              ) : null}
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-slate-200">
                  <th scope="row" className="px-3 py-2 font-normal">
                    <span className="block whitespace-nowrap">{row.name}</span>
                    {company ? <span className="block text-xs text-slate-700">{row.schemeName}</span> : null}
                  </th>
                  {row.cells.map((cell, i) =>
                    view === 'table' ? (
                      <TableCells key={competencies[i]} self={cell.self} colleagues={cell.colleagues} />
                    ) : (
                      <HeatCell key={competencies[i]} {...cell} min={min} max={max} />
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      ) : (
        <p className="card">{t('heatmap.empty')}</p>
      )}
      <nav aria-label={t('heatmap.pages')} className="no-print flex flex-wrap gap-2">
        {pageQuery ? (
          <Link className="btn btn-secondary" to={`${base}${view === 'table' ? '?view=table' : ''}`}>
            {t('heatmap.firstPage')}
          </Link>
        ) : null}
        {next ? (
          <Link
            className="btn btn-secondary"
            to={`${base}?${view === 'table' ? 'view=table&' : ''}${afterParam(next)}`}
          >
            {t('heatmap.next')}
          </Link>
        ) : null}
      </nav>
    </section>
  )
}

function HeatCell({
  colleagues,
  self,
  min,
  max,
}: {
  colleagues: number | null
  self: number | null
  min: number
  max: number
}) {
  const { t } = useTranslation('cohort')
  const score = useScore()
  const band = heatBand(colleagues, min, max)
  return (
    <td
      className={`heat-cell relative px-3 py-2 text-center tabular-nums ${band === null ? 'text-slate-700' : BAND_CLASSES[band]}`}
      title={
        colleagues === null
          ? t('heatmap.noColleagues', { score: score(self) })
          : t('heatmap.colleaguesScore', { colleagues: score(colleagues), self: score(self) })
      }
    >
      <span className="font-semibold">{score(colleagues)}</span>
      <span className="sr-only">{`, ${t('heatmap.selfScore', { score: score(self) })}`}</span>
    </td>
  )
}

function TableCells({ self, colleagues }: { self: number | null; colleagues: number | null }) {
  const score = useScore()
  return (
    <>
      <td className="px-3 py-2 tabular-nums">{score(self)}</td>
      <td className="px-3 py-2 font-semibold tabular-nums">{score(colleagues)}</td>
    </>
  )
}
