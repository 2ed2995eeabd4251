/**
 * Change over time (issue 19 §5, ADR 044): this release beside the previous cycle's, per competency
 * and question, and whether a change is more than noise. Pure: no database, no Node; the report's
 * cycle section, its tests and (later) the group report share it.
 *
 * Only what each report showed is compared: the previous figures are the previous report as its own
 * latest release shows it (the all-colleagues averages its page shows, its gates applied), never
 * live answers; a figure either report leaves out is left out of the comparison too.
 */

import {
  formatScore,
  type FullCategory,
  type FullQuestion,
  type ScaleRange,
} from '#app/modules/report/report'

/**
 * The noise band on a 1–5 scale: a change of the all-colleagues average smaller than this (as the
 * report shows it, to one decimal) reads "about the same". On another scale it is scaled to the
 * scale's range (0.3 of 4 points: 7.5 % of the range).
 */
export const NOISE_ON_FIVE_POINTS = 0.3

export type ChangeVerdict = 'higher' | 'lower' | 'same'

export type Change = {
  /** The change as the report shows it: to one decimal. */
  change: number
  verdict: ChangeVerdict
}

/** The band below which a change is noise, on this scale. */
export function noiseBand(scale: ScaleRange): number {
  const range = Math.max(1, scale.max - scale.min)
  return Math.round(((NOISE_ON_FIVE_POINTS * range) / 4) * 100) / 100
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10

/**
 * The change from `previous` to `now` (both as shown, or null when not shown), or null when either is
 * missing. Judged on the change as shown to one decimal, so the label never disagrees with the figure.
 */
export function changeOf(previous: number | null, now: number | null, scale: ScaleRange): Change | null {
  if (previous === null || now === null) return null
  // The figures as the page shows them (one decimal), then their difference.
  const change = oneDecimal(oneDecimal(now) - oneDecimal(previous))
  const band = noiseBand(scale)
  const verdict: ChangeVerdict = Math.abs(change) < band - 1e-9 ? 'same' : change > 0 ? 'higher' : 'lower'
  return { change, verdict }
}

/** "+0.6 · higher", "−0.4 · lower", "+0.1 · about the same". */
export function changeText(change: Change | null): string {
  if (!change) return '—'
  const sign = change.change > 0 ? '+' : change.change < 0 ? '−' : '±'
  const words = change.verdict === 'same' ? 'about the same' : change.verdict
  return `${sign}${Math.abs(change.change).toFixed(1)} · ${words}`
}

/** What a report passes: its questions and categories as shown, with each question's key. */
export type ShownReport = {
  scale: ScaleRange
  categories: readonly Pick<FullCategory, 'category' | 'colleagues'>[]
  questions: readonly (Pick<FullQuestion, 'id' | 'kind' | 'text' | 'category'> & {
    colleagues: Pick<FullQuestion['colleagues'], 'average'>
  })[]
}

export type ComparedRow = {
  /** The category name, or the question's id in this report. */
  id: string
  label: string
  previous: number | null
  now: number | null
  change: Change | null
}

export type CycleComparison = {
  categories: ComparedRow[]
  questions: ComparedRow[]
  /** Questions of this report with a shown figure that the previous report had not (new or hidden then). */
  unmatched: number
}

/**
 * This report beside the previous one: competencies matched by name, scale questions by key (a
 * question's key is stable across the versions of a questionnaire line). Rows follow this report's
 * order; a row appears only when this report shows a colleague figure for it.
 */
export function compareCycles(
  now: ShownReport,
  previous: ShownReport,
  keys: { now: Readonly<Record<string, string>>; previous: Readonly<Record<string, string>> },
): CycleComparison {
  const scale = now.scale
  const previousCategory = new Map(previous.categories.map((c) => [c.category, c.colleagues]))
  const previousByKey = new Map<string, number | null>()
  for (const q of previous.questions) {
    const key = keys.previous[q.id]
    if (key && q.kind === 'scale') previousByKey.set(key, q.colleagues.average)
  }
  const categories = now.categories
    .filter((c) => c.colleagues !== null)
    .map((c) => {
      const before = previousCategory.get(c.category) ?? null
      return {
        id: c.category,
        label: c.category,
        previous: before,
        now: c.colleagues,
        change: changeOf(before, c.colleagues, scale),
      }
    })
  const questions = now.questions
    .filter((q) => q.kind === 'scale' && q.colleagues.average !== null)
    .map((q) => {
      const key = keys.now[q.id]
      const before = key === undefined ? null : (previousByKey.get(key) ?? null)
      return {
        id: q.id,
        label: q.text,
        previous: before,
        now: q.colleagues.average,
        change: changeOf(before, q.colleagues.average, scale),
      }
    })
  return { categories, questions, unmatched: questions.filter((q) => q.previous === null).length }
}

/** A figure as the comparison table shows it. */
export const figureText = (value: number | null) => formatScore(value)
