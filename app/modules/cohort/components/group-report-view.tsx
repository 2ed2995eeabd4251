import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { TableScroller } from '#app/components/table-scroller'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { COHORT_SERIES, type CohortFigure, type CohortRow, type CommonBlindSpot } from '../cohort'
import type { GroupReport } from '../cohort.server'
import { CycleSection } from '#app/modules/cycle/components/cycle-section'
import { BackLink, CohortAnonymityNote, CohortBrandBand, cohortHref, useScore } from './cohort-parts'

/**
 * A column of the group report's tables: self, all colleagues, each rater group with a figure
 * somewhere. The cohort's change since an earlier cycle and its norm (issue 19 §5/§6) have their own
 * section, the report's "Over time" (CycleSection), so both pages read them alike.
 */
export type CohortColumn = { key: string; label: string; cell: (row: CohortRow) => ReactNode }

function FigureCell({ figure }: { figure: CohortFigure }) {
  const { t } = useTranslation('cohort')
  const score = useScore()
  if (!figure) return <span title={t('report.tooFew')}>—</span>
  return (
    <span className="flex flex-col">
      <span className="font-semibold tabular-nums">{score(figure.mean)}</span>
      <span className="text-xs text-slate-700">
        {figure.fewest === figure.participants
          ? t('report.n', { n: figure.participants })
          : t('report.nRange', { from: figure.fewest, to: figure.participants })}
      </span>
    </span>
  )
}

/** The series columns that have a figure in at least one row (an empty manager column says nothing). */
export function columnsFor(rows: CohortRow[], t: TFunction<'cohort'>): CohortColumn[] {
  return COHORT_SERIES.filter((s) => rows.some((r) => r.figures[s] !== null)).map((s) => ({
    key: s,
    label: t(`series.${s}`),
    cell: (row: CohortRow) => <FigureCell figure={row.figures[s]} />,
  }))
}

function FiguresTable({
  caption,
  rows,
  columns,
  rowLabel,
}: {
  caption: string
  rows: CohortRow[]
  columns: CohortColumn[]
  rowLabel: string
}) {
  const { t } = useTranslation('cohort')
  return (
    <TableScroller
      label={t('report.table', { caption })}
      className="cohort-table-wrap rounded-md border border-slate-200"
    >
      <table className="cohort-table w-full min-w-[36rem] table-fixed border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="w-2/5 px-3 py-2 font-semibold">
              {rowLabel}
            </th>
            {columns.map((c) => (
              <th key={c.key} scope="col" className="px-3 py-2 font-semibold">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-t border-slate-200 align-top">
              <th scope="row" className="px-3 py-2 font-normal">
                {row.label}
              </th>
              {columns.map((c) => (
                <td key={c.key} className="px-3 py-2">
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  )
}

function Section({
  id,
  title,
  children,
  className = '',
}: {
  id: string
  title: string
  children: ReactNode
  className?: string
}) {
  return (
    <section aria-labelledby={id} className={`cohort-section card flex flex-col gap-4 ${className}`}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

function RowList({
  id,
  title,
  help,
  rows,
  empty,
}: {
  id: string
  title: string
  help: string
  rows: CohortRow[]
  empty: string
}) {
  const { t } = useTranslation('cohort')
  const score = useScore()
  return (
    <section aria-labelledby={id} className="cohort-list flex min-w-0 flex-col gap-2">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      <p className="text-sm text-slate-700">{help}</p>
      {rows.length ? (
        <ol className="flex flex-col gap-2">
          {rows.map((r) => (
            <li key={r.key} className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
              <span className="block">{r.label}</span>
              <span className="block text-sm text-slate-700">
                {t('report.rowFigures', {
                  category: r.category,
                  all: score(r.figures.all?.mean),
                  self: score(r.figures.self?.mean),
                })}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm">{empty}</p>
      )}
    </section>
  )
}

function BlindSpotList({ spots, minRaters }: { spots: CommonBlindSpot[]; minRaters: number }) {
  const { t } = useTranslation('cohort')
  return (
    <section aria-labelledby="cohort-blind-spots" className="cohort-list flex min-w-0 flex-col gap-2">
      <h3 id="cohort-blind-spots" className="font-semibold">
        {t('report.blindSpots')}
      </h3>
      <p className="text-sm text-slate-700">{t('report.blindSpotsHelp', { count: minRaters })}</p>
      {spots.length ? (
        <ol className="flex flex-col gap-2">
          {spots.map((s) => (
            <li key={s.key} className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
              <span className="block">{s.label}</span>
              <span className="block text-sm text-slate-700">
                {t('report.blindSpotShare', { category: s.category, with: s.with, of: s.of })}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm">{t('report.noBlindSpot')}</p>
      )}
    </section>
  )
}

function PrintButton() {
  const { t } = useTranslation('cohort')
  return (
    <button
      type="button"
      className="btn btn-secondary no-print noscript:hidden"
      onClick={() => window.print()}
    >
      {t('report.saveAsPdf')}
    </button>
  )
}

/**
 * The group report of a cohort (issue 19 §4): what an admin reads and shares with the client's HR
 * contact. Server-rendered throughout, with no chart that waits for a script, so a printout (or the
 * PDF renderer) gets every figure; each section starts a page on paper (cohort.css).
 */
export function GroupReportView({
  report,
  pdfAvailable = false,
}: {
  report: GroupReport
  /** The server can print the page as a branded PDF (ADR 046); else "Save as PDF" alone. */
  pdfAvailable?: boolean
}) {
  const { t } = useTranslation('cohort')
  const { header, summary, cycle } = report
  const categoryColumns = columnsFor(summary.categories, t)
  const questionColumns = columnsFor(summary.questions, t)
  const byCategory = new Map<string, CohortRow[]>()
  for (const q of summary.questions) byCategory.set(q.category, [...(byCategory.get(q.category) ?? []), q])
  const nothing = summary.participants === 0
  const noFigure = !summary.questions.some((r) => COHORT_SERIES.some((s) => r.figures[s] !== null))
  return (
    <article aria-labelledby="page-title" className="cohort-report flex max-w-6xl flex-col gap-6">
      <BackLink header={header} />
      <CohortBrandBand header={header} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 id="page-title" className="text-2xl font-bold tracking-tight">
            {t('report.title', { name: header.name })}
          </h1>
          <p className="mt-1 text-slate-700">
            {header.scope === 'company'
              ? t('report.acrossSchemes', { company: header.companyName, count: header.schemes.length })
              : header.companyName}
          </p>
        </div>
        <div className="no-print flex flex-wrap gap-2">
          <Link className="btn btn-secondary" to={cohortHref(header, 'heatmap')}>
            {t('report.heatmap')}
          </Link>
          {pdfAvailable && summary.participants > 0 ? (
            <a className="btn btn-primary" href={`${cohortHref(header, 'group-report')}.pdf`} download>
              {t('report.downloadPdf')}
            </a>
          ) : null}
          <PrintButton />
        </div>
      </div>
      <p>
        {t('report.participants', { count: summary.participants, withColleagues: summary.withColleagues })}
      </p>
      <CohortAnonymityNote header={header} />
      {header.scope === 'company' ? (
        <p className="text-sm text-slate-700">{t('report.companyNote')}</p>
      ) : null}

      {nothing ? (
        <p className="card">{t('report.nothing')}</p>
      ) : noFigure ? (
        <p className="card">{t('report.noFigure', { count: header.minRaters })}</p>
      ) : (
        <>
          <Section id="cohort-glance" title={t('report.glance')} className="cohort-glance">
            <div className="cohort-glance-grid grid gap-6 md:grid-cols-3">
              <RowList
                id="cohort-strengths"
                title={t('report.strengths')}
                help={t('report.strengthsHelp')}
                rows={summary.strengths}
                empty={t('report.tooClose')}
              />
              <RowList
                id="cohort-needs"
                title={t('report.needs')}
                help={t('report.needsHelp')}
                rows={summary.developmentNeeds}
                empty={t('report.tooClose')}
              />
              <BlindSpotList spots={summary.blindSpots} minRaters={header.minRaters} />
            </div>
          </Section>

          {cycle ? <CycleSection view={cycle} scale={header.scale} timeZone="UTC" of="group" /> : null}

          <Section id="cohort-competencies" title={t('report.competencies')}>
            <p className="text-sm text-slate-700">{t('report.competenciesHelp')}</p>
            <FiguresTable
              caption={t('report.competencyCaption')}
              rows={summary.categories}
              columns={categoryColumns}
              rowLabel={t('report.competency')}
            />
          </Section>

          <Section id="cohort-questions" title={t('report.questions')}>
            {[...byCategory].map(([category, rows]) => (
              <div key={category} className="cohort-question-group flex flex-col gap-2">
                <h3 className="font-semibold">{category}</h3>
                <FiguresTable
                  caption={t('report.questionCaption', { category })}
                  rows={rows}
                  columns={questionColumns}
                  rowLabel={t('report.question')}
                />
              </div>
            ))}
          </Section>
        </>
      )}
    </article>
  )
}
