import { useEffect, useState, type ReactNode } from 'react'
import { flushSync } from 'react-dom'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { Link } from 'react-router'
import { TableScroller } from '#app/components/table-scroller'
import { formatDate } from '#app/lib/dates'
import { plural } from '#app/lib/words'
import { useIntlLocale } from '#app/modules/i18n/use-intl-locale'
import { AddToPlan } from '#app/modules/plan/components/add-to-plan'
import { releaseStatusIn } from './release-status'
import {
  seriesColor,
  seriesDash,
  seriesPoint,
  type ChartWords,
  type PointShape,
  type Series,
} from './chart-series'
import { ChartSlot, DrawAllCharts, loadCharts, loadedCharts, type Charts } from './chart-slot'
import {
  decimalIn,
  formatScore,
  INSIGHT_GAP,
  type FullCategory,
  type FullQuestion,
  type Insight,
  type InsightItem,
  type ReportData,
  type ReportGroup,
  type ReportHeader,
  type ScaleRange,
  type SelfCategory,
  type SelfQuestion,
} from './report'

/**
 * The report page's sections. Every chart sits beside a real table with the same numbers. The
 * server renders all of it but the canvases — the tables first, each chart's box at its final size,
 * the "Save as PDF" button — so hydration moves nothing; a chart is drawn when its box comes near
 * the screen (chart-slot.tsx). The tables are what screen readers, the printout's fallback and
 * visitors without JavaScript rely on.
 */

export type Viewer = 'employee' | 'admin'

/**
 * The report's words in the page's language (namespace `report`, ADR 050): the translator, the
 * Intl locale, and the helpers every section uses — scores with the locale's decimal separator,
 * the series' labels, a self answer and a difference in words.
 */
export function useReportWords() {
  const { t } = useTranslation('report')
  const locale = useIntlLocale()
  return reportWords(t, locale)
}

export type ReportWords = ReturnType<typeof reportWords>

export function reportWords(t: TFunction<'report'>, locale: string) {
  const score = (value: number | null | undefined) => formatScore(value, locale)
  const amount = (difference: number) => decimalIn(Math.abs(difference).toFixed(1), locale)
  return {
    t,
    locale,
    score,
    allColleagues: t('allColleagues'),
    /** "Peers (3)": a group's series names how many colleagues it pools. */
    groupLabel: (group: ReportGroup) =>
      t('groupLabel', {
        label: t(`groups.${group.key}`, { defaultValue: group.label }),
        raters: group.raters,
      }),
    answeredLine: (header: Pick<ReportHeader, 'invited' | 'colleaguesSubmitted'>, soFar = false) =>
      header.invited === 0 && header.colleaguesSubmitted === 0
        ? t('answered.none')
        : t(soFar ? 'answered.soFar' : 'answered.some', {
            submitted: header.colleaguesSubmitted,
            invited: header.invited,
          }),
    scaleWords: (scale: ScaleRange) => t('scaleWords', { min: scale.min, max: scale.max }),
    /** A self answer as words: "4 · Often", "Not applicable", "No answer" (describeSelfAnswer's rule). */
    selfAnswer: (question: SelfQuestion) => {
      const answer = question.self
      if (answer?.notApplicable) return t('answer.notApplicable')
      if (!answer) return t('answer.none')
      if (question.kind === 'scale') {
        if (answer.value === null) return t('answer.none')
        const label = question.labels[answer.value - question.min]
        return label ? `${answer.value} · ${label}` : String(answer.value)
      }
      if (question.kind === 'single' || question.kind === 'multi')
        return answer.choices.length ? answer.choices.join(', ') : t('answer.none')
      return answer.text?.trim() ? answer.text : t('answer.none')
    },
    /** differenceWords (report.ts) in the page's language. */
    differenceWords: (difference: number | null, who: Who) => {
      const you = who === 'you'
      if (difference === null) return t(you ? 'difference.noSelfYou' : 'difference.noSelf')
      if (you) {
        if (difference === 0) return t('difference.sameYou')
        return t(difference > 0 ? 'difference.higherYou' : 'difference.lowerYou', {
          amount: amount(difference),
        })
      }
      if (difference === 0) return t('difference.same', { name: who.name })
      return t(difference > 0 ? 'difference.higher' : 'difference.lower', {
        name: who.name,
        amount: amount(difference),
      })
    },
    /** differenceCell (report.ts) in the page's language. */
    differenceCell: (difference: number | null) => {
      if (difference === null) return '—'
      if (difference === 0) return t('difference.cellSame')
      return t(difference > 0 ? 'difference.cellHigher' : 'difference.cellLower', {
        amount: amount(difference),
      })
    },
  }
}

/** "4 of 8 invited colleagues answered" */
export function answeredLine(header: Pick<ReportHeader, 'invited' | 'colleaguesSubmitted'>) {
  if (header.invited === 0 && header.colleaguesSubmitted === 0) return 'No colleagues invited yet.'
  return `${header.colleaguesSubmitted} of ${plural(header.invited, 'invited colleague', 'invited colleagues')} answered.`
}

function ChartWithTable({
  draw,
  table,
  height,
  label,
  note,
}: {
  draw: (charts: Charts, options: { animate: boolean }) => ReactNode
  table: ReactNode
  height: number
  label: string
  /** How to read the chart, under it (the radar's rings). */
  note?: string
}) {
  const { t } = useTranslation('report')
  return (
    <div className="report-figure grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <TableScroller className="report-table-wrap" label={t('tableLabel', { label })}>
        {table}
      </TableScroller>
      {/* A chart needs JavaScript; without it, no empty box: the table has every value. */}
      <div className="min-w-0 noscript:hidden">
        <ChartSlot height={height} draw={draw} />
        {note ? <p className="mt-2 text-sm text-slate-700">{note}</p> : null}
      </div>
    </div>
  )
}

/** The key in table headers, matching the chart series: its colour, line pattern and point shape. */
function Swatch({ index }: { index: number }) {
  const color = seriesColor(index)
  const stroke = /^rgba\(.*,\s*0\)$/.test(color) ? '#475569' : color
  const dash = seriesDash(index)
  return (
    <svg
      aria-hidden="true"
      className="report-swatch mr-1 inline-block align-[-2px]"
      width="22"
      height="12"
      viewBox="0 0 22 12"
    >
      <line
        x1="0"
        y1="6"
        x2="22"
        y2="6"
        stroke={stroke}
        strokeWidth="2"
        strokeDasharray={dash.length ? dash.join(' ') : undefined}
      />
      <PointMark shape={seriesPoint(index)} color={stroke} />
    </svg>
  )
}

/** A series' point shape at the middle of its key (the shapes Chart.js draws on the charts). */
function PointMark({ shape, color }: { shape: PointShape; color: string }) {
  const c = { cx: 11, cy: 6 }
  switch (shape) {
    case 'circle':
      return <circle {...c} r="3.5" fill={color} />
    case 'rect':
    case 'rectRounded':
      return <rect x="7.5" y="2.5" width="7" height="7" rx={shape === 'rectRounded' ? 2 : 0} fill={color} />
    case 'triangle':
      return <polygon points="11,1.5 15.5,10 6.5,10" fill={color} />
    case 'rectRot':
      return <polygon points="11,1 16,6 11,11 6,6" fill={color} />
    case 'star':
      return <path d="M11 1.5v9M6.5 3.5l9 5M6.5 8.5l9-5" stroke={color} strokeWidth="1.8" />
    case 'crossRot':
      return <path d="M7.5 2.5l7 7M14.5 2.5l-7 7" stroke={color} strokeWidth="2" />
    case 'cross':
      return <path d="M11 1.5v9M6.5 6h9" stroke={color} strokeWidth="2" />
  }
}

/**
 * How many colleagues gave each score (a question's spread), as small bars with the counts: only
 * where the report may show it (all colleagues past the threshold; `distribution` is empty below).
 */
function Spread({ distribution }: { distribution: { value: number; count: number }[] }) {
  const { t } = useTranslation('report')
  if (!distribution.length) return <>{t('spread.tooFew')}</>
  const most = Math.max(1, ...distribution.map((d) => d.count))
  const words = distribution.map((d) => `${d.value}: ${d.count}`).join(', ')
  return (
    <span className="report-spread relative inline-flex items-end gap-1">
      <span className="sr-only">{t('spread.words', { words })}</span>
      {distribution.map((d) => (
        <span
          key={d.value}
          aria-hidden="true"
          className="flex w-5 flex-col items-center text-xs leading-tight"
        >
          <span className="tabular-nums text-slate-800">{d.count}</span>
          <span
            className="report-spread-bar w-3 rounded-t-sm bg-slate-600"
            style={{ height: `${Math.round((d.count / most) * 20)}px` }}
          />
          <span className="w-full border-t border-slate-400 text-center text-slate-600">{d.value}</span>
        </span>
      ))}
    </span>
  )
}

const th = 'px-2 py-2 font-semibold'
const rowTh = 'px-2 py-2 font-medium'
const td = 'px-2 py-2 tabular-nums'

/** A section of the report: a card named by its heading, printed on its own (report-section). */
function ReportSection({
  id,
  title,
  className = 'gap-4',
  children,
}: {
  id: string
  title: string
  className?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id} className={`report-section card flex flex-col ${className}`}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** A category's row of a table: its name, the self score, then the colleagues' columns. */
function CategoryRow({
  category,
  self,
  children,
}: {
  category: string
  self: number | null
  children: ReactNode
}) {
  const { score } = useReportWords()
  return (
    <tr>
      <th scope="row" className={rowTh}>
        {category}
      </th>
      <td className={td}>{score(self)}</td>
      {children}
    </tr>
  )
}

function Table({ caption, head, children }: { caption: string; head: ReactNode[]; children: ReactNode }) {
  return (
    <table className="report-table w-full border-collapse text-left text-sm">
      <caption className="mb-2 text-left text-sm font-semibold text-slate-800">{caption}</caption>
      <thead className="border-b border-slate-300 bg-slate-50 text-xs text-slate-800">
        <tr>
          {head.map((h, i) => (
            <th key={i} scope="col" className={th}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200">{children}</tbody>
    </table>
  )
}

function seriesHeads(words: ReportWords, selfLabel: string, groups: ReportGroup[] | null) {
  if (!groups) return [<SeriesHead key="self" index={0} label={selfLabel} />]
  return [
    <SeriesHead key="self" index={0} label={selfLabel} />,
    <SeriesHead key="avg" index={1} label={words.allColleagues} />,
    ...groups.map((group, i) => <SeriesHead key={group.key} index={i + 2} label={words.groupLabel(group)} />),
  ]
}

function SeriesHead({ index, label }: { index: number; label: string }) {
  return (
    <>
      <Swatch index={index} />
      {label}
    </>
  )
}

function CategorySection({
  categories,
  groups,
  scale,
  selfLabel,
}: {
  categories: (SelfCategory | FullCategory)[]
  /** null: no colleague figures (the gate is shut). */
  groups: ReportGroup[] | null
  scale: ScaleRange
  selfLabel: string
}) {
  const words = useReportWords()
  const { t, score } = words
  if (!categories.length) return null
  const labels = categories.map((c) => c.category)
  const series: Series[] = [{ label: selfLabel, values: categories.map((c) => c.self) }]
  if (groups) {
    const full = categories as FullCategory[]
    series.push({ label: words.allColleagues, values: full.map((c) => c.colleagues) })
    groups.forEach((group, i) =>
      series.push({ label: words.groupLabel(group), values: full.map((c) => c.groups[i] ?? null) }),
    )
  }
  const title = t('category.title', { scale: words.scaleWords(scale) })
  const radar = categories.length >= 3
  const draw = ({ RadarChart, BarChart }: Charts, { animate }: { animate: boolean }) => {
    const chart = { title, labels, series, min: scale.min, max: scale.max, animate, words: chartWords(words) }
    return radar ? <RadarChart {...chart} /> : <BarChart {...chart} horizontal={false} />
  }
  return (
    <ReportSection id="by-category" title={t('category.heading')}>
      <ChartWithTable
        label={title}
        height={radar ? 420 : 320}
        note={radar ? t('chart.rings', { min: scale.min, max: scale.max }) : undefined}
        draw={draw}
        table={
          <Table caption={title} head={[t('category.column'), ...seriesHeads(words, selfLabel, groups)]}>
            {categories.map((c) => (
              <CategoryRow key={c.category} category={c.category} self={c.self}>
                {groups ? (
                  <>
                    <td className={td}>{score((c as FullCategory).colleagues)}</td>
                    {(c as FullCategory).groups.map((v, i) => (
                      <td key={i} className={td}>
                        {score(v)}
                      </td>
                    ))}
                  </>
                ) : null}
              </CategoryRow>
            ))}
          </Table>
        }
      />
      {groups ? (
        <AddToPlan items={categories.map((c) => ({ focus: `category:${c.category}`, name: c.category }))} />
      ) : null}
    </ReportSection>
  )
}

function answersCell(t: ReportWords['t'], q: FullQuestion) {
  const na = q.colleagues.notApplicable
  return t(na ? 'question.answersCellNa' : 'question.answersCell', { answered: q.colleagues.answered, na })
}

/** What the charts say in words (their accessible names), in the page's language. */
function chartWords({ t, score, locale }: ReportWords): ChartWords {
  return {
    radar: (title: string) => t('chart.radar', { title }),
    bar: (title: string) => t('chart.bar', { title }),
    summary: (title: string, parts: string, more: number) =>
      t('chart.summary', { title, parts, more: more ? t('chart.more', { count: more }) : '' }),
    you: t('chart.you'),
    score,
    locale,
  }
}

function ScaleQuestions({
  category,
  questions,
  groups,
  selfLabel,
  viewer,
}: {
  category: string
  questions: (SelfQuestion | FullQuestion)[]
  groups: ReportGroup[] | null
  selfLabel: string
  viewer: Viewer
}) {
  const words = useReportWords()
  const { t, score } = words
  const withColleagues = groups !== null
  const min = Math.min(...questions.map((q) => q.min))
  const max = Math.max(...questions.map((q) => q.max))
  const labels = questions.map((q) => q.text)
  const series: Series[] = [
    {
      label: selfLabel,
      values: questions.map((q) => (q.self?.notApplicable ? null : (q.self?.value ?? null))),
    },
  ]
  if (groups) {
    series.push({
      label: words.allColleagues,
      values: (questions as FullQuestion[]).map((q) => q.colleagues.average),
    })
    groups.forEach((group, i) =>
      series.push({
        label: words.groupLabel(group),
        values: (questions as FullQuestion[]).map((q) => q.colleagues.groups[i] ?? null),
      }),
    )
  }
  const key =
    viewer === 'employee'
      ? withColleagues
        ? 'question.titleYourWith'
        : 'question.titleYour'
      : withColleagues
        ? 'question.titleSelfWith'
        : 'question.titleSelf'
  const title = t(key, { category, scale: words.scaleWords({ min, max }) })
  const head: ReactNode[] = [t('question.column'), <SeriesHead key="self" index={0} label={selfLabel} />]
  if (groups)
    head.push(
      <SeriesHead key="avg" index={1} label={words.allColleagues} />,
      ...groups.map((group, i) => (
        <SeriesHead key={group.key} index={i + 2} label={words.groupLabel(group)} />
      )),
      t('question.answeredColumn'),
      t('question.spreadColumn', { min, max }),
    )
  return (
    <ChartWithTable
      label={title}
      height={80 + questions.length * (groups ? 48 + 16 * (groups.length + 1) : 44)}
      draw={({ BarChart }, { animate }) => (
        <BarChart {...{ title, labels, series, min, max, animate }} words={chartWords(words)} />
      )}
      table={
        <Table caption={title} head={head}>
          {questions.map((q) => (
            <tr key={q.id}>
              <th scope="row" className={rowTh}>
                {q.text}
              </th>
              <td className={`${td} whitespace-nowrap`}>{words.selfAnswer(q)}</td>
              {withColleagues ? (
                <>
                  <td className={td}>{score((q as FullQuestion).colleagues.average)}</td>
                  {(q as FullQuestion).colleagues.groups.map((v, i) => (
                    <td key={i} className={td}>
                      {score(v)}
                    </td>
                  ))}
                  <td className={td}>{answersCell(t, q as FullQuestion)}</td>
                  <td className={td}>
                    <Spread distribution={(q as FullQuestion).colleagues.distribution} />
                  </td>
                </>
              ) : null}
            </tr>
          ))}
        </Table>
      }
    />
  )
}

function ChoiceQuestion({
  question,
  withColleagues,
  viewer,
}: {
  question: SelfQuestion | FullQuestion
  withColleagues: boolean
  viewer: Viewer
}) {
  const { t } = useTranslation('report')
  const chosen = new Set(question.self?.choices ?? [])
  const counts = withColleagues ? (question as FullQuestion).colleagues.optionCounts : []
  // Too few colleagues answered this question: their choices stay hidden, the options still list.
  const countsShown = counts.length > 0
  const rows = countsShown ? [...counts] : question.labels.map((label) => ({ label, count: 0 }))
  for (const label of chosen) if (!rows.some((r) => r.label === label)) rows.push({ label, count: 0 })
  const kind = t(question.kind === 'multi' ? 'choice.multi' : 'choice.single')
  const caption = t('choice.caption', { text: question.text, kind })
  return (
    <div>
      <TableScroller className="report-table-wrap" label={t('tableLabel', { label: caption })}>
        <Table
          caption={caption}
          head={[
            t('choice.option'),
            t(viewer === 'employee' ? 'choice.yourChoice' : 'choice.selfChoice'),
            ...(withColleagues ? [t('choice.chosenBy')] : []),
          ]}
        >
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row" className={rowTh}>
                {r.label}
              </th>
              <td className={td}>
                {chosen.has(r.label)
                  ? t('choice.chosen')
                  : question.self?.notApplicable
                    ? t('answer.notApplicable')
                    : '—'}
              </td>
              {withColleagues ? <td className={td}>{countsShown ? r.count : '—'}</td> : null}
            </tr>
          ))}
        </Table>
      </TableScroller>
      {withColleagues ? (
        <p className="mt-1 text-sm text-slate-700">
          {t('choice.answered', { count: (question as FullQuestion).colleagues.answered })}
          {countsShown ? null : t('choice.tooFew')}
        </p>
      ) : null}
    </div>
  )
}

function TextQuestion({ question, viewer }: { question: SelfQuestion; viewer: Viewer }) {
  const words = useReportWords()
  return (
    <div className="report-text-answer">
      <h4 className="font-medium">{question.text}</h4>
      <p className="mt-1 whitespace-pre-line text-slate-800">
        <span className="font-semibold">
          {words.t(viewer === 'employee' ? 'text.yourAnswer' : 'text.selfAnswer')}:{' '}
        </span>
        {words.selfAnswer(question)}
      </p>
    </div>
  )
}

function QuestionSection({
  questions,
  groups,
  selfLabel,
  viewer,
}: {
  questions: (SelfQuestion | FullQuestion)[]
  groups: ReportGroup[] | null
  selfLabel: string
  viewer: Viewer
}) {
  const { t } = useTranslation('report')
  const withColleagues = groups !== null
  const categories: string[] = []
  for (const q of questions) if (!categories.includes(q.category)) categories.push(q.category)
  return (
    <ReportSection id="by-question" title={t('question.heading')} className="gap-6">
      {categories.map((category) => {
        const list = questions.filter((q) => q.category === category)
        const scales = list.filter((q) => q.kind === 'scale')
        const choices = list.filter((q) => q.kind === 'single' || q.kind === 'multi')
        const texts = list.filter((q) => q.kind === 'text' || q.kind === 'textarea')
        return (
          <section key={category} aria-label={category} className="report-category flex flex-col gap-4">
            <h3 className="text-lg font-semibold">{category}</h3>
            {scales.length ? (
              <ScaleQuestions
                category={category}
                questions={scales}
                groups={groups}
                selfLabel={selfLabel}
                viewer={viewer}
              />
            ) : null}
            {choices.map((q) => (
              <ChoiceQuestion key={q.id} question={q} withColleagues={withColleagues} viewer={viewer} />
            ))}
            {texts.map((q) => (
              <TextQuestion key={q.id} question={q} viewer={viewer} />
            ))}
          </section>
        )
      })}
    </ReportSection>
  )
}

function CommentsSection({ comments }: { comments: Extract<ReportData, { status: 'ready' }>['comments'] }) {
  const { t } = useTranslation('report')
  return (
    <ReportSection id="comments" title={t('comments.heading')}>
      <p className="text-sm text-slate-700">{t('comments.note')}</p>
      {comments.length ? (
        comments.map((group) => (
          <div key={group.questionId} className="report-comments">
            <h3 className="font-semibold">{group.question}</h3>
            <ul className="mt-2 flex flex-col gap-2">
              {group.comments.map((comment, i) => (
                <li
                  key={i}
                  className="whitespace-pre-line rounded-md border-l-4 border-slate-300 bg-slate-50 px-4 py-2 text-slate-900"
                >
                  {comment}
                </li>
              ))}
            </ul>
          </div>
        ))
      ) : (
        <p>{t('comments.none')}</p>
      )}
    </ReportSection>
  )
}

/**
 * Prints the report with every chart drawn, also those never scrolled to. Part of the first paint
 * (a button appearing at hydration moved the heading beside it); without JavaScript it is hidden,
 * since window.print() needs it and the browser's own Print menu does the same.
 */
function PrintButton({ drawAllCharts }: { drawAllCharts: () => void }) {
  const { t } = useTranslation('report')
  const [preparing, setPreparing] = useState(false)
  const print = () => {
    if (loadedCharts()) {
      drawAllCharts()
      window.print()
      return
    }
    // No chart has been near the screen yet, so Chart.js is not here: fetch it, then print.
    setPreparing(true)
    loadCharts()
      .catch(() => null) // without the charts the printout still has every table
      .then(() => {
        setPreparing(false)
        drawAllCharts()
        window.print()
      })
  }
  return (
    <button
      type="button"
      className="btn btn-secondary no-print noscript:hidden"
      onClick={print}
      disabled={preparing}
    >
      {preparing ? t('print.preparing') : t('print.save')}
    </button>
  )
}

/**
 * The released report as a PDF made by the server (ADR 046): a download link, or — where the server
 * has no Chromium — a sentence saying so. Null before the release: there is no PDF to have yet.
 */
export type ReportPdfLink = { href: string } | { unavailable: string } | null

function PdfDownload({ pdf }: { pdf: ReportPdfLink }) {
  const { t } = useTranslation('report')
  if (!pdf) return null
  if ('unavailable' in pdf)
    return (
      <p className="no-print max-w-sm text-sm text-slate-700">
        {t('print.unavailable', { defaultValue: pdf.unavailable })}
      </p>
    )
  return (
    <a className="btn btn-primary no-print" href={pdf.href} download>
      {t('print.download')}
    </a>
  )
}

function Header({
  header,
  drawAllCharts,
  pdf,
}: {
  header: ReportHeader
  drawAllCharts: () => void
  pdf: ReportPdfLink
}) {
  const words = useReportWords()
  const { t } = words
  return (
    <div className="report-header flex flex-col gap-3">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-slate-700">
            {header.brandName} · {header.companyName}
          </p>
          <h1 id="page-title" className="text-2xl font-bold tracking-tight">
            {t('header.title', { name: header.subjectName })}
          </h1>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          <PdfDownload pdf={pdf} />
          <PrintButton drawAllCharts={drawAllCharts} />
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm text-slate-800 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">{t('header.scheme')}</dt>
        <dd>{header.schemeName}</dd>
        <dt className="font-semibold">{t('header.questionnaire')}</dt>
        <dd>{header.questionnaireTitle}</dd>
        <dt className="font-semibold">{t(header.schemeClosed ? 'header.closed' : 'header.closes')}</dt>
        <dd>{formatDate(header.closesAt, header.timeZone, words.locale)}</dd>
        <dt className="font-semibold">{t('header.colleagues')}</dt>
        <dd>{words.answeredLine(header)}</dd>
      </dl>
    </div>
  )
}

function AnonymityNote({ minRaters }: { minRaters: number }) {
  const { t } = useTranslation('report')
  return <p className="text-sm text-slate-700">{t('anonymity', { minRaters })}</p>
}

/** Whose difference the words speak of: "you" on the employee's own report, else the subject's name. */
type Who = 'you' | { name: string }

function InsightList({
  id,
  title,
  help,
  items,
  empty,
  selfLabel,
  who,
}: {
  id: string
  title: string
  help: string
  items: InsightItem[]
  empty: string
  selfLabel: string
  who: Who
}) {
  const words = useReportWords()
  const { t, score } = words
  return (
    <section aria-labelledby={id} className="report-insight-list flex min-w-0 flex-col gap-2">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      <p className="text-sm text-slate-700">{help}</p>
      {items.length ? (
        <ol className="flex flex-col gap-2">
          {items.map((item) => (
            <li
              key={item.questionId}
              className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2"
            >
              <span className="min-w-0 flex-1 basis-48">
                <span className="block">{item.text}</span>
                <span className="block text-sm text-slate-700">
                  {t('insight.itemLine', {
                    category: item.category,
                    allLabel: words.allColleagues,
                    colleagues: score(item.colleagues),
                    selfLabel,
                    self: score(item.self),
                  })}
                </span>
                <span className="block text-sm text-slate-800">
                  {words.differenceWords(item.difference, who)}
                </span>
              </span>
              <Spread distribution={item.distribution} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm">{empty}</p>
      )}
    </section>
  )
}

/** Why a highest/lowest list is empty: no colleague average, or no real spread between them. */
function noStandout({ t, score }: ReportWords, insight: Insight) {
  if (!insight.range) return t('insight.tooFew')
  const { low, high } = insight.range
  if (low === high) return t('insight.allSame', { score: score(low) })
  return t('insight.between', { low: score(low), high: score(high) })
}

/** The first screen: what stands out, before the detail (the rules: `insightOf`, ADR 047). */
function InsightSection({
  insight,
  categories,
  selfLabel,
  who,
}: {
  insight: Insight
  categories: FullCategory[]
  selfLabel: string
  who: Who
}) {
  const words = useReportWords()
  const { t, locale } = words
  const you = who === 'you'
  const spread = decimalIn(insight.spread.toFixed(2).replace(/0$/, ''), locale)
  const gap = decimalIn(INSIGHT_GAP.toFixed(1), locale)
  const empty = noStandout(words, insight)
  return (
    <ReportSection id="insight" title={t('insight.heading')} className="report-insight gap-6">
      <p className="text-sm text-slate-700">{t('insight.intro', { spread })}</p>
      <div className="report-insight-grid grid gap-6 md:grid-cols-2">
        <InsightList
          id="insight-highest"
          title={t('insight.highest')}
          help={t('insight.highestHelp')}
          items={insight.highest}
          empty={empty}
          selfLabel={selfLabel}
          who={who}
        />
        <InsightList
          id="insight-lowest"
          title={t('insight.lowest')}
          help={t('insight.lowestHelp')}
          items={insight.lowest}
          empty={empty}
          selfLabel={selfLabel}
          who={who}
        />
        <InsightList
          id="insight-blind-spots"
          title={t('insight.blindSpots')}
          help={t(you ? 'insight.blindSpotsHelpYou' : 'insight.blindSpotsHelp', { gap })}
          items={insight.blindSpots}
          empty={t('insight.blindSpotsNone', { gap })}
          selfLabel={selfLabel}
          who={who}
        />
        <InsightList
          id="insight-hidden-strengths"
          title={t('insight.hiddenStrengths')}
          help={
            you
              ? t('insight.hiddenStrengthsHelpYou', { gap })
              : t('insight.hiddenStrengthsHelp', { gap, name: who.name })
          }
          items={insight.hiddenStrengths}
          empty={t('insight.hiddenStrengthsNone', { gap })}
          selfLabel={selfLabel}
          who={who}
        />
      </div>
      {categories.length ? (
        <>
          <p className="text-sm text-slate-700">
            {you
              ? t('insight.differenceYou', { example: decimalIn('0.8', locale) })
              : t('insight.difference', { example: decimalIn('0.8', locale), name: who.name })}
          </p>
          <TableScroller className="report-table-wrap" label={t('insight.tableLabel')}>
            <Table
              caption={t('insight.caption')}
              head={[t('category.column'), selfLabel, words.allColleagues, t('insight.differenceColumn')]}
            >
              {categories.map((c) => (
                <CategoryRow key={c.category} category={c.category} self={c.self}>
                  <td className={td}>{words.score(c.colleagues)}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    {words.differenceCell(
                      c.self === null || c.colleagues === null
                        ? null
                        : Math.round(Math.round(c.colleagues * 10) - Math.round(c.self * 10)) / 10,
                    )}
                  </td>
                </CategoryRow>
              ))}
            </Table>
          </TableScroller>
        </>
      ) : null}
    </ReportSection>
  )
}

/** A card that says why the report is not whole yet (read out as a status). */
function StatusNotice({
  tone,
  title,
  children,
}: {
  tone: 'amber' | 'sky'
  title: string
  children: ReactNode
}) {
  const colours = tone === 'amber' ? 'border-amber-300 bg-amber-50' : 'border-sky-300 bg-sky-50'
  return (
    <div role="status" className={`card flex flex-col gap-3 ${colours}`}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </div>
  )
}

/** While the scheme runs, the employee can still ask more colleagues. */
function InviteMore({ header, viewer }: { header: ReportHeader; viewer: Viewer }) {
  const { t } = useTranslation('report')
  if (viewer !== 'employee' || header.schemeClosed) return null
  return (
    <p>
      <Link className="link" to="/user/colleague-invite">
        {t('status.inviteMore')}
      </Link>
    </p>
  )
}

function SelfPending({ header, viewer }: { header: ReportHeader; viewer: Viewer }) {
  const { t } = useTranslation('report')
  return (
    <StatusNotice tone="amber" title={t('status.selfPending')}>
      <p>
        {viewer === 'employee'
          ? t('status.selfPendingYou')
          : header.subjectName
            ? t('status.selfPendingOf', { name: header.subjectName })
            : t('status.selfPendingSomeone')}
      </p>
      <p>
        <Link className="btn btn-primary" to={`/assignment/${header.selfAssignmentId}`}>
          {t(viewer === 'employee' ? 'status.continueSelf' : 'status.openSelf')}
        </Link>
      </p>
    </StatusNotice>
  )
}

/** The release as the home page tells it too (release-status.ts): one story, the same numbers. */
function statusOf({ t, locale }: ReportWords, header: ReportHeader, viewer: Viewer) {
  return releaseStatusIn(
    {
      viewer,
      reportRelease: header.reportRelease,
      closesAt: header.closesAt,
      timeZone: header.timeZone,
      schemeClosed: header.schemeClosed,
      releasedAt: header.releasedAt,
      colleaguesShown: header.colleaguesShown,
      releasedAnswers: header.colleaguesSubmitted,
      answeredNow: header.answeredNow ?? header.colleaguesSubmitted,
      minRaters: header.minRaters,
    },
    (key, args) => t(key as 'release.enough', args),
    locale,
  )
}

function AwaitingRelease({ header, viewer }: { header: ReportHeader; viewer: Viewer }) {
  const words = useReportWords()
  const [when, ...rest] = statusOf(words, header, viewer).lines
  return (
    <StatusNotice tone="sky" title={words.t('status.awaiting')}>
      <p>{when}</p>
      <p>{words.t('status.allAtOnce', { answered: words.answeredLine(header, true) })}</p>
      {rest.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <InviteMore header={header} viewer={viewer} />
    </StatusNotice>
  )
}

/** Released without colleagues' results: fewer than the threshold had answered (ADR 025). */
function SelfOnlyRelease({ header, viewer }: { header: ReportHeader; viewer: Viewer }) {
  const words = useReportWords()
  return (
    <StatusNotice tone="amber" title={words.t('status.moreNeeded')}>
      {statusOf(words, header, viewer).lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <InviteMore header={header} viewer={viewer} />
    </StatusNotice>
  )
}

/**
 * Every chart drawn at once, synchronously (flushSync: the boxes render their charts and Chart.js
 * draws them before this returns), for a printout. Needs the charts' module to have arrived.
 */
function useDrawAllCharts() {
  const [drawAll, setDrawAll] = useState(false)
  const drawAllCharts = () => {
    if (loadedCharts()) flushSync(() => setDrawAll(true))
  }
  useEffect(() => {
    // The browser's own Print menu: the charts draw if Chart.js is here (a printout cannot wait for
    // a download); the print sheet leaves out the boxes of charts that are not drawn.
    const beforePrint = () => {
      if (loadedCharts()) flushSync(() => setDrawAll(true))
    }
    window.addEventListener('beforeprint', beforePrint)
    return () => window.removeEventListener('beforeprint', beforePrint)
  }, [])
  return { drawAll, drawAllCharts }
}

export function ReportView({
  report,
  viewer,
  comments = true,
  pdf = null,
  afterInsight,
}: {
  report: ReportData
  viewer: Viewer
  /** False for a manager's shared view (ADR 043): the comments section is left out, not emptied. */
  comments?: boolean
  pdf?: ReportPdfLink
  /** A released report's further section after "At a glance" (the previous cycle and the norm, ADR 044). */
  afterInsight?: ReactNode
}) {
  const { t } = useTranslation('report')
  const selfLabel = t(viewer === 'employee' ? 'you' : 'self')
  const { drawAll, drawAllCharts } = useDrawAllCharts()
  return (
    <DrawAllCharts.Provider value={drawAll}>
      <ReportSections
        report={report}
        viewer={viewer}
        selfLabel={selfLabel}
        drawAllCharts={drawAllCharts}
        comments={comments}
        pdf={pdf}
        afterInsight={afterInsight}
      />
    </DrawAllCharts.Provider>
  )
}

function ReportSections({
  report,
  viewer,
  selfLabel,
  drawAllCharts,
  comments,
  pdf,
  afterInsight,
}: {
  report: ReportData
  viewer: Viewer
  selfLabel: string
  drawAllCharts: () => void
  comments: boolean
  pdf: ReportPdfLink
  afterInsight?: ReactNode
}) {
  return (
    <article aria-labelledby="page-title" className="report flex flex-col gap-8">
      <Header header={report.header} drawAllCharts={drawAllCharts} pdf={pdf} />
      {report.status === 'self-pending' ? <SelfPending header={report.header} viewer={viewer} /> : null}
      {report.status === 'gathering' || report.status === 'awaiting-release' ? (
        <>
          {report.status === 'gathering' ? (
            <SelfOnlyRelease header={report.header} viewer={viewer} />
          ) : (
            <AwaitingRelease header={report.header} viewer={viewer} />
          )}
          <p className="text-slate-800">
            <Meanwhile viewer={viewer} />
          </p>
          <CategorySection
            categories={report.categories}
            groups={null}
            scale={report.scale}
            selfLabel={selfLabel}
          />
          <QuestionSection questions={report.questions} groups={null} selfLabel={selfLabel} viewer={viewer} />
        </>
      ) : null}
      {report.status === 'ready' ? (
        <>
          <AnonymityNote minRaters={report.header.minRaters} />
          <InsightSection
            insight={report.insight}
            categories={report.categories}
            selfLabel={selfLabel}
            who={viewer === 'employee' ? 'you' : { name: report.header.subjectName }}
          />
          {afterInsight}
          <CategorySection
            categories={report.categories}
            groups={report.groups}
            scale={report.scale}
            selfLabel={selfLabel}
          />
          <QuestionSection
            questions={report.questions}
            groups={report.groups}
            selfLabel={selfLabel}
            viewer={viewer}
          />
          {comments ? <CommentsSection comments={report.comments} /> : null}
        </>
      ) : null}
    </article>
  )
}

function Meanwhile({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation('report')
  return <>{t(viewer === 'employee' ? 'status.meanwhileYou' : 'status.meanwhile')}</>
}
