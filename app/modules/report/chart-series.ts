import { CHART_BORDER_WIDTH, CHART_COLORS } from '#app/config/constants'
import { formatScore } from './report'

/**
 * What the charts draw, independent of Chart.js (so it is unit-testable and the server can share it):
 * series in the spec's colour order — self black, all colleagues red, then each colleague group shown —
 * and the words a screen reader hears for a canvas.
 */

export type Series = { label: string; values: (number | null)[] }

export type SeriesStyle = {
  borderColor: string
  backgroundColor: string
  pointBackgroundColor: string
  borderWidth: number
  borderDash: number[]
  fill: boolean
}

const TRANSPARENT = /^rgba\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*0(\.0+)?\s*\)$/

/** #rrggbb → rgba(r, g, b, alpha). */
function withAlpha(hex: string, alpha: number) {
  const n = parseInt(hex.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`
}

/**
 * The style of the series at `index`: colours in the spec's order, border width 2. Self and the
 * all colleagues get a light fill (on a radar they read as areas); the groups are lines
 * over a transparent-white fill. The tenth colour, transparent white, would draw an invisible line,
 * so that series keeps it as its colour but gets a dashed grey outline to stay visible.
 */
export function seriesStyle(index: number): SeriesStyle {
  const color = CHART_COLORS[index % CHART_COLORS.length]!
  const invisible = TRANSPARENT.test(color)
  const line = invisible ? '#475569' : color
  const emphasised = index < 2
  return {
    borderColor: line,
    backgroundColor: emphasised ? withAlpha(color, 0.12) : CHART_COLORS[CHART_COLORS.length - 1]!,
    pointBackgroundColor: line,
    borderWidth: CHART_BORDER_WIDTH,
    borderDash: invisible ? [6, 4] : [],
    fill: emphasised,
  }
}

/** Bars are solid: a bar's fill is its colour. */
export function barStyle(index: number) {
  const style = seriesStyle(index)
  const color = CHART_COLORS[index % CHART_COLORS.length]!
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
export function chartSummary(title: string, labels: string[], series: Series[]): string {
  const shown = series.slice(0, 2)
  const parts = labels.map(
    (label, i) =>
      `${label}: ${shown.map((s) => `${s.label.toLowerCase() === 'you' ? 'you' : s.label} ${formatScore(s.values[i])}`).join(', ')}`,
  )
  const more = series.length > 2 ? ` ${series.length - 2} more series, one per colleague group.` : ''
  return `${title}. ${parts.join('; ')}.${more} The table beside the chart lists every value.`
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
