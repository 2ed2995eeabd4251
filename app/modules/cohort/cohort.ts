/**
 * A cohort's group report and heatmap (issue 19 §4, ADR 045): the pure rules, no database, no Node,
 * so the page, the server and the exhaustive test share them.
 *
 * A participant enters a cohort figure only through what their own released report shows
 * (`contributionOf` reads a shaped report, report.ts, never rows): their self-assessment, the
 * all-colleagues figure and the rater-group figures the report itself shows. A figure their report
 * hides (below its threshold, a group pooled into "Other colleagues", a release of the
 * self-assessment alone) is absent from their contribution, so it cannot reach any cohort figure.
 * Comments are not read at all.
 *
 * A cohort figure (one item × one series) is the mean of the admitted participants' figures, and the
 * admitted participants are chosen by `admitted`: in the order they were first released, a
 * participant joins only together with at least the scheme's threshold (`min_raters`) of
 * participants who have not joined yet. So every figure stands on none or at least the threshold of
 * participants, and a figure that changes because participants were released later changes by at
 * least the threshold of participants at once. A company's figure is the union of its schemes'
 * admitted participants, each scheme by its own threshold: the company view minus any scheme views
 * is again a union of whole admitted sets (tests/unit/cohort/cohort.property.test.ts).
 */

import { threshold } from '#app/modules/report/threshold'
import { INSIGHT_GAP, type ReportData } from '#app/modules/report/report'

/** The series of a group report: self, all colleagues, then each rater group as reports show them. */
export const COHORT_SERIES = ['self', 'all', 'manager', 'peer', 'direct_report', 'others'] as const
export type SeriesKey = (typeof COHORT_SERIES)[number]

export const SERIES_LABELS: Record<SeriesKey, string> = {
  self: 'Self',
  all: 'All colleagues',
  manager: 'Manager',
  peer: 'Peers',
  direct_report: 'Direct reports',
  others: 'Other colleagues',
}

/** One item's figures as one participant's report shows them (absent: not shown there). */
export type ItemFigures = Partial<Record<SeriesKey, number>>

/** What one participant's released report lets into the cohort. */
export type Contribution = {
  /** The report (its self response id): a participant of one scheme. */
  id: string
  schemeId: string
  /** The scheme's min_raters: its own cohort threshold. */
  minRaters: number
  /** When the participant's report was first released (ISO): the order participants join in. */
  joinedAt: string
  /** Per question key (see `questionKey`), the report's question figures (scale questions only). */
  questions: Record<string, ItemFigures>
  /** The questions whose report lists them as a blind spot (self well above colleagues). */
  blindSpots: string[]
}

/**
 * A question's key in a cohort: its id within one scheme; across a company's schemes (different
 * questionnaires and versions) the same competency and wording are the same question.
 */
export function questionKey(scope: 'scheme' | 'company', q: { id: string; category: string; text: string }) {
  return scope === 'scheme' ? q.id : `${q.category}\u0001${q.text}`
}

/**
 * The numbers a participant's report shows, and nothing else: a report that is not released with
 * colleagues' results gives its self-assessment alone; a report whose self-assessment is not in
 * gives nothing.
 */
export function contributionOf(
  report: ReportData,
  meta: { id: string; schemeId: string; minRaters: number; joinedAt: string; scope: 'scheme' | 'company' },
): Contribution | null {
  if (report.status === 'self-pending' || report.status === 'awaiting-release') return null
  const { id, schemeId, minRaters, joinedAt, scope } = meta
  const questions: Record<string, ItemFigures> = {}
  const keyOf = new Map(report.questions.map((q) => [q.id, questionKey(scope, q)]))
  for (const q of report.questions) {
    if (q.kind !== 'scale') continue
    const self = q.self && !q.self.notApplicable ? q.self.value : null
    questions[keyOf.get(q.id)!] = present({ self })
  }
  if (report.status === 'gathering') return { id, schemeId, minRaters, joinedAt, questions, blindSpots: [] }
  const parts = report.groups.map((g) => g.key)
  for (const q of report.questions) {
    if (q.kind !== 'scale') continue
    const figures: ItemFigures = { all: q.colleagues.average ?? undefined }
    parts.forEach((key, i) => (figures[key] = q.colleagues.groups[i] ?? undefined))
    Object.assign(questions[keyOf.get(q.id)!]!, present(figures))
  }
  // A blind spot by the report's measure (self at least INSIGHT_GAP above the colleagues' average as
  // shown), whichever of the report's lists shows it: "At a glance" lists a question once (ADR 047),
  // so a lowest-rated blind spot is listed under "lowest" with its difference in words.
  const blindSpots = report.questions
    .filter((q) => {
      const self = q.self && !q.self.notApplicable ? q.self.value : null
      const average = q.colleagues.average
      return (
        q.kind === 'scale' &&
        self !== null &&
        average !== null &&
        self - Math.round(average * 10) / 10 >= INSIGHT_GAP
      )
    })
    .map((q) => keyOf.get(q.id)!)
  return { id, schemeId, minRaters, joinedAt, questions, blindSpots }
}

function present(figures: Partial<Record<SeriesKey, number | null | undefined>>): ItemFigures {
  const out: ItemFigures = {}
  for (const key of COHORT_SERIES) {
    const v = figures[key]
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v
  }
  return out
}

/** A participant's place in the join order: when first released, then its id (a fixed tie-break). */
export type Joiner = { id: string; joinedAt: string }

/**
 * Of the participants who have a figure, those the cohort may count: in the order they were first
 * released, participants released at the same moment (a "release all") join together, and a
 * participant joins only once at least `minRaters` participants not yet counted are waiting,
 * themselves included. The result is empty or at least `minRaters` strong, and a later release adds
 * nobody or at least `minRaters` participants to it.
 */
export function admitted<T extends Joiner>(candidates: readonly T[], minRaters: number): T[] {
  const t = threshold(minRaters)
  const ordered = [...candidates].sort((a, b) =>
    a.joinedAt < b.joinedAt ? -1 : a.joinedAt > b.joinedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  )
  const out: T[] = []
  let waiting: T[] = []
  for (let i = 0; i < ordered.length; i++) {
    waiting.push(ordered[i]!)
    // Everyone released at one moment joins (or waits) together.
    if (ordered[i + 1]?.joinedAt === ordered[i]!.joinedAt) continue
    if (waiting.length >= t) {
      out.push(...waiting)
      waiting = []
    }
  }
  return out
}

/**
 * A cohort figure: the mean of the admitted participants' figures and how many they are (for a
 * competency, the mean of its question figures, and the fewest and most participants behind them).
 */
export type CohortFigure = { mean: number; participants: number; fewest: number } | null

const round2 = (v: number) => Math.round(v * 100) / 100

/**
 * One cell of the cohort: per scheme, the participants with a figure for it, admitted by that
 * scheme's threshold; the cell is their union (a company's cohort), or nothing.
 */
export function cohortCell(
  contributions: readonly Contribution[],
  valueOf: (c: Contribution) => number | undefined,
): { figure: CohortFigure; members: Contribution[] } {
  const bySheme = new Map<string, Contribution[]>()
  for (const c of contributions) {
    if (valueOf(c) === undefined) continue
    const list = bySheme.get(c.schemeId) ?? []
    list.push(c)
    bySheme.set(c.schemeId, list)
  }
  const members: Contribution[] = []
  for (const list of bySheme.values()) members.push(...admitted(list, list[0]!.minRaters))
  if (!members.length) return { figure: null, members }
  const sum = members.reduce((acc, c) => acc + valueOf(c)!, 0)
  const n = members.length
  return { figure: { mean: round2(sum / n), participants: n, fewest: n }, members }
}

/** One row of the group report: a competency or a question, with one figure per series. */
export type CohortRow = {
  key: string
  label: string
  category: string
  figures: Record<SeriesKey, CohortFigure>
}

/** A blind spot common to the cohort: how many of the participants who could have it do. */
export type CommonBlindSpot = { key: string; label: string; category: string; with: number; of: number }

export type CohortSummary = {
  /** Participants with a released report the cohort counts from (self at least). */
  participants: number
  /** Of them, those whose report shows colleagues' results. */
  withColleagues: number
  categories: CohortRow[]
  questions: CohortRow[]
  /** The questions the cohort's colleagues rate highest (ties shown together), best first. */
  strengths: CohortRow[]
  /** Rated lowest (none of the strengths), lowest first. */
  developmentNeeds: CohortRow[]
  blindSpots: CommonBlindSpot[]
}

/** The items of the cohort, in questionnaire order (first seen): key, label, competency. */
export type CohortItem = { key: string; label: string; category: string }

/** How many items a strengths or development list holds before ties. */
const LIST_SIZE = 3
/** A highest/lowest list needs a real spread: the all-colleagues figures must span this much. */
const MIN_SPREAD = 0.3
/** A blind spot is common when at least this share of the participants who could have it do. */
const COMMON_SHARE = 1 / 3

/**
 * The group report from the participants' contributions: competency and question figures per
 * series, the top strengths and development needs by the all-colleagues figure, and the blind spots
 * that at least a third of the participants share (and at least the threshold of them).
 */
export function summarise(
  contributions: readonly Contribution[],
  categories: readonly string[],
  questions: readonly CohortItem[],
): CohortSummary {
  const row = (
    key: string,
    label: string,
    category: string,
    of: (c: Contribution) => ItemFigures | undefined,
  ): CohortRow => ({
    key,
    label,
    category,
    figures: Object.fromEntries(
      COHORT_SERIES.map((s) => [s, cohortCell(contributions, (c) => of(c)?.[s]).figure]),
    ) as Record<SeriesKey, CohortFigure>,
  })
  const questionRows = questions.map((q) => row(q.key, q.label, q.category, (c) => c.questions[q.key]))
  // A competency's figures are means of its question figures as shown (as a report's are, ADR 021):
  // they add nothing a reader could not work out from the question rows.
  const categoryRows: CohortRow[] = categories.map((name) => {
    const rows = questionRows.filter((r) => r.category === name)
    const figures = Object.fromEntries(
      COHORT_SERIES.map((s) => {
        const shown = rows.map((r) => r.figures[s]).filter((f): f is NonNullable<CohortFigure> => f !== null)
        if (!shown.length) return [s, null]
        return [
          s,
          {
            mean: round2(shown.reduce((acc, f) => acc + f.mean, 0) / shown.length),
            participants: Math.max(...shown.map((f) => f.participants)),
            fewest: Math.min(...shown.map((f) => f.fewest)),
          },
        ]
      }),
    ) as Record<SeriesKey, CohortFigure>
    return { key: name, label: name, category: name, figures }
  })

  const rated = questionRows.filter((r) => r.figures.all !== null)
  const byScore = rated.toSorted((a, b) => b.figures.all!.mean - a.figures.all!.mean)
  const spread = byScore.length ? byScore[0]!.figures.all!.mean - byScore.at(-1)!.figures.all!.mean : 0
  const withTies = (list: CohortRow[]) => {
    if (list.length <= LIST_SIZE) return list
    const edge = list[LIST_SIZE - 1]!.figures.all!.mean
    return list.filter((r, i) => i < LIST_SIZE || r.figures.all!.mean === edge)
  }
  const strengths = spread >= MIN_SPREAD ? withTies(byScore) : []
  const developmentNeeds =
    spread >= MIN_SPREAD ? withTies(byScore.filter((r) => !strengths.includes(r)).toReversed()) : []

  const blindSpots: CommonBlindSpot[] = []
  for (const q of questions) {
    // Who could have it: those whose report shows both their self score and colleagues' figure.
    const could = cohortCell(contributions, (c) => {
      const f = c.questions[q.key]
      return f?.self !== undefined && f.all !== undefined ? 1 : undefined
    }).members
    const have = cohortCell(could, (c) => (c.blindSpots.includes(q.key) ? 1 : undefined)).members
    if (have.length && have.length >= could.length * COMMON_SHARE)
      blindSpots.push({
        key: q.key,
        label: q.label,
        category: q.category,
        with: have.length,
        of: could.length,
      })
  }
  blindSpots.sort((a, b) => b.with / b.of - a.with / a.of || b.with - a.with)

  return {
    participants: contributions.length,
    withColleagues: contributions.filter((c) => Object.values(c.questions).some((f) => f.all !== undefined))
      .length,
    categories: categoryRows,
    questions: questionRows,
    strengths,
    developmentNeeds,
    blindSpots,
  }
}

/** The heatmap's colour band for a value on a scale: 0 (lowest) to 4 (highest), never colour alone. */
export function heatBand(value: number | null, min: number, max: number): number | null {
  if (value === null || max <= min) return null
  const share = (value - min) / (max - min)
  return Math.max(0, Math.min(4, Math.floor(share * 5 - 1e-9)))
}
