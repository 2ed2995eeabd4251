import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Filler,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  RadarController,
  RadialLinearScale,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js'
import { Chart } from 'react-chartjs-2'
import {
  barStyle,
  chartSummary,
  radarScale,
  seriesHatch,
  seriesStyle,
  wrapLabel,
  type ChartWords,
  type Hatch,
  type Series,
} from './chart-series'

/**
 * The report's charts. Client-only (the `.client` suffix keeps it out of the server build) and loaded
 * by the report page alone, when a chart comes near the screen (chart-slot.tsx), so Chart.js is in no
 * page's bundle. Only the pieces these
 * two charts use are registered, which is what lets the bundler drop the rest of Chart.js.
 */
ChartJS.register(
  RadarController,
  RadialLinearScale,
  PointElement,
  LineElement,
  Filler,
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
)

export type ChartProps = {
  /** What the chart shows, for its accessible name ("Average score per category"). */
  title: string
  labels: string[]
  series: Series[]
  min: number
  max: number
  /** false when printing: a chart drawn for the printout must be whole at once, not mid-animation. */
  animate?: boolean
  /** The chart's words in the page's language (report-view.tsx); English without. */
  words?: ChartWords
}

const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches

const legend = { position: 'bottom' as const, labels: { color: '#0f172a', boxWidth: 14 } }

/** #rrggbb → rgba(r, g, b, alpha); other colours unchanged. */
function tint(color: string, alpha: number) {
  if (!/^#[0-9a-f]{6}$/i.test(color)) return color
  const n = parseInt(color.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`
}

/**
 * A bar's fill: its colour, hatched from the third series on (chart-series.ts), so that bars of
 * similar lightness still differ on a greyscale printout. Drawn at the screen's pixel ratio (at least
 * 2, for print) so the stripes stay crisp.
 */
function hatchFill(color: string, hatch: Hatch): string | CanvasPattern {
  if (hatch.kind === 'solid' || typeof document === 'undefined') return color
  const ratio = Math.max(2, window.devicePixelRatio || 1)
  const size = 8
  const tile = document.createElement('canvas')
  tile.width = tile.height = size * ratio
  const ctx = tile.getContext('2d')
  if (!ctx) return color
  ctx.scale(ratio, ratio)
  ctx.fillStyle = tint(color, 0.28)
  ctx.fillRect(0, 0, size, size)
  ctx.strokeStyle = color
  ctx.fillStyle = color
  ctx.lineWidth = 1.6
  const line = (x1: number, y1: number, x2: number, y2: number) => {
    ctx.beginPath()
    ctx.moveTo(x1, y1)
    ctx.lineTo(x2, y2)
    ctx.stroke()
  }
  if (hatch.kind === 'dots') {
    ctx.beginPath()
    ctx.arc(size / 2, size / 2, 1.8, 0, Math.PI * 2)
    ctx.fill()
  } else if (hatch.kind === 'grid') {
    line(0, size / 2, size, size / 2)
    line(size / 2, 0, size / 2, size)
  } else if (hatch.angle === 0) line(0, size / 2, size, size / 2)
  else if (hatch.angle === 90) line(size / 2, 0, size / 2, size)
  else {
    // Diagonals that meet their neighbours across the tile's edges.
    const flip = hatch.angle < 0
    for (const offset of [-size, 0, size]) {
      if (flip) line(offset, 0, offset + size, size)
      else line(offset, size, offset + size, 0)
    }
  }
  return ctx.createPattern(tile, 'repeat') ?? color
}

/** What both charts' options say: they fill their slot, animate unless told not to, the legend below. */
const commonOptions = (animate: boolean) => ({
  responsive: true,
  maintainAspectRatio: false,
  animation: !animate || reducedMotion() ? (false as const) : undefined,
  plugins: { legend },
})

/** The radar's legend shows each series' point shape, which tells them apart without colour. */
const shapeLegend = { ...legend, labels: { ...legend.labels, usePointStyle: true } }

/** Self against the colleagues' average and each colleague, one axis per category. */
export function RadarChart({ title, labels, series, min, max, animate = true, words }: ChartProps) {
  const data: ChartData<'radar', (number | null)[], string> = {
    labels,
    datasets: series.map((s, i) => ({ label: s.label, data: s.values, ...seriesStyle(i), spanGaps: true })),
  }
  const options: ChartOptions<'radar'> = {
    ...commonOptions(animate),
    locale: words?.locale,
    plugins: { legend: shapeLegend },
    scales: { r: radarScale(min, max) },
  }
  const name = chartSummary(words ? words.radar(title) : `Radar chart: ${title}`, labels, series, words)
  return <Chart type="radar" data={data} options={options} role="img" aria-label={name} />
}

/**
 * Bars for the same data: used per question (horizontal, one row per question) and per category
 * when there are too few categories for a radar to mean anything.
 */
export function BarChart({
  title,
  labels,
  series,
  min,
  max,
  animate = true,
  horizontal = true,
  words,
}: ChartProps & { horizontal?: boolean }) {
  const data: ChartData<'bar', (number | null)[], string | string[]> = {
    labels: horizontal ? labels.map((l) => wrapLabel(l)) : labels,
    datasets: series.map((s, i) => {
      const style = barStyle(i)
      return {
        label: s.label,
        data: s.values,
        ...style,
        backgroundColor: hatchFill(style.backgroundColor, seriesHatch(i)),
      }
    }),
  }
  const valueAxis = { min: Math.min(0, min), max, ticks: { stepSize: 1, color: '#334155' } }
  const labelAxis = { ticks: { color: '#0f172a', autoSkip: false } }
  const options: ChartOptions<'bar'> = {
    ...commonOptions(animate),
    locale: words?.locale,
    indexAxis: horizontal ? 'y' : 'x',
    scales: horizontal ? { x: valueAxis, y: labelAxis } : { x: labelAxis, y: valueAxis },
  }
  const name = chartSummary(words ? words.bar(title) : `Bar chart: ${title}`, labels, series, words)
  return <Chart type="bar" data={data} options={options} role="img" aria-label={name} />
}
