import { CHART_BORDER_WIDTH, CHART_COLORS } from '#app/config/constants'
import { formatScore } from './report'

/**
 * What the charts draw, independent of Chart.js (so it is unit-testable and the server can share it):
 * each series' colour, line pattern, point shape and bar hatching, and the words a screen reader
 * hears for a canvas.
 *
 * Colours come from the spec's ten, but not in the spec's order (ADR 047): red, orange and gold read
 * as one colour beside each other and all of them print as the same mid grey. So the series take
 * the colours that differ most — self black, all colleagues red, then blue, green, magenta, cyan —
 * and every series besides the first two also differs by something that survives greyscale print
 * and colour-blind eyes: a dash pattern, a point shape and, for bars, a hatching.
 */

export type Series = { label: string; values: (number | null)[] }

/** Chart.js's built-in point shapes used here. */
export type PointShape =
  'circle' | 'rect' | 'triangle' | 'rectRot' | 'star' | 'crossRot' | 'cross' | 'rectRounded'

/** How a bar is filled besides its colour: solid, or stripes at an angle (degrees), or dots. */
export type Hatch =
  { kind: 'solid' } | { kind: 'stripes'; angle: number } | { kind: 'dots' } | { kind: 'grid' }

export type SeriesStyle = {
  borderColor: string
  backgroundColor: string
  pointBackgroundColor: string
  pointStyle: PointShape
  pointRadius: number
  borderWidth: number
  borderDash: number[]
  fill: boolean
}

/** Index into CHART_COLORS of each series' colour, in series order (all ten, each once). */
export const SERIES_COLOR_ORDER = [0, 1, 7, 5, 4, 6, 8, 2, 3, 9] as const

const DASHES: number[][] = [
  [],
  [],
  [7, 4],
  [2, 3],
  [10, 3, 2, 3],
  [14, 5],
  [5, 2, 1, 2],
  [1, 4],
  [9, 2, 2, 2, 2, 2],
  [6, 4],
]
const POINTS: PointShape[] = [
  'circle',
  'rect',
  'triangle',
  'rectRot',
  'star',
  'crossRot',
  'cross',
  'rectRounded',
  'circle',
  'rect',
]
const HATCHES: Hatch[] = [
  { kind: 'solid' },
  { kind: 'solid' },
  { kind: 'stripes', angle: 45 },
  { kind: 'dots' },
  { kind: 'stripes', angle: -45 },
  { kind: 'grid' },
  { kind: 'stripes', angle: 0 },
  { kind: 'stripes', angle: 90 },
  { kind: 'dots' },
  { kind: 'solid' },
]

const TRANSPARENT = /^rgba\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*0(\.0+)?\s*\)$/

/** #rrggbb → rgba(r, g, b, alpha). */
function withAlpha(hex: string, alpha: number) {
  const n = parseInt(hex.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`
}

const at = <T>(list: readonly T[], index: number) => list[index % list.length]!

/** The colour of the series at `index` (one of the spec's ten). */
export function seriesColor(index: number): string {
  return CHART_COLORS[at(SERIES_COLOR_ORDER, index)]!
}

/** The series' line pattern (empty: solid). */
export const seriesDash = (index: number) => at(DASHES, index)
/** The series' point shape. */
export const seriesPoint = (index: number) => at(POINTS, index)
/** The series' bar filling. */
export const seriesHatch = (index: number) => at(HATCHES, index)

/**
 * The style of the series at `index`, border width 2. Self and the all colleagues get a light fill
 * (on a radar they read as areas); the groups are lines over a transparent-white fill. The tenth
 * colour, transparent white, would draw an invisible line, so that series keeps it as its colour but
 * gets a dashed grey outline to stay visible.
 */
export function seriesStyle(index: number): SeriesStyle {
  const color = seriesColor(index)
  const invisible = TRANSPARENT.test(color)
  const line = invisible ? '#475569' : color
  const emphasised = index < 2
  return {
    borderColor: line,
    backgroundColor: emphasised ? withAlpha(color, 0.12) : CHART_COLORS[CHART_COLORS.length - 1]!,
    pointBackgroundColor: line,
    pointStyle: seriesPoint(index),
    pointRadius: 4,
    borderWidth: CHART_BORDER_WIDTH,
    borderDash: seriesDash(index),
    fill: emphasised,
  }
}

/** Bars: the colour as fill (hatched from the third series on, by the client), a border to match. */
export function barStyle(index: number) {
  const style = seriesStyle(index)
  const color = seriesColor(index)
  return {
    borderColor: style.borderColor,
    backgroundColor: TRANSPARENT.test(color) ? CHART_COLORS[CHART_COLORS.length - 1]! : color,
    borderWidth: CHART_BORDER_WIDTH,
  }
}

/**
 * The canvas's accessible name: what it shows, the first two series value by value (self and the
 * all colleagues), and where the full numbers are.
 */
export function chartSummary(title: string, labels: string[], series: Series[], words?: ChartWords): string {
  const shown = series.slice(0, 2)
  const you = words?.you ?? 'you'
  const score = words?.score ?? formatScore
  const parts = labels.map(
    (label, i) =>
      `${label}: ${shown.map((s) => `${s.label.toLowerCase() === you.toLowerCase() ? you : s.label} ${score(s.values[i])}`).join(', ')}`,
  )
  if (words) return words.summary(title, parts.join('; '), Math.max(0, series.length - 2))
  const more = series.length > 2 ? ` ${series.length - 2} more series, one per colleague group.` : ''
  return `${title}. ${parts.join('; ')}.${more} The table beside the chart lists every value.`
}

/** A chart's words in the page's language (report-view.tsx builds them from the `report` namespace). */
export type ChartWords = {
  radar: (title: string) => string
  bar: (title: string) => string
  summary: (title: string, parts: string, more: number) => string
  you: string
  score: (value: number | null | undefined) => string
  /** The Intl locale Chart.js formats its axis numbers in. */
  locale: string
}

/** Long question texts as several lines (Chart.js draws an array label as lines). */
export function wrapLabel(text: string, width = 28): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines.length ? lines : ['']
}

/**
 * The radar's scale: one ring per step, drawn without numbers. Numbers on the radar sit on the top
 * axis, under that axis's data points, where they hide each other ("5", "3", "2" overlapping); the
 * ring note under the chart (radarScaleNote) and the table beside it carry the scale instead.
 */
export function radarScale(min: number, max: number) {
  return {
    min,
    max,
    ticks: { stepSize: 1, display: false },
    pointLabels: { color: '#0f172a', font: { size: 13 }, padding: 8 },
    grid: { color: '#cbd5e1' },
    angleLines: { color: '#cbd5e1' },
  }
}

/** How to read the rings, said beside the radar: "Rings from 1 at the centre to 5 on the outside, one per step." */
export function radarScaleNote(min: number, max: number): string {
  return `Rings from ${min} at the centre to ${max} on the outside, one per step.`
}
