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
import { barStyle, chartSummary, radarScale, seriesStyle, wrapLabel, type Series } from './chart-series'

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
}

const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches

const legend = { position: 'bottom' as const, labels: { color: '#0f172a', boxWidth: 14 } }

/** What both charts' options say: they fill their slot, animate unless told not to, the legend below. */
const commonOptions = (animate: boolean) => ({
  responsive: true,
  maintainAspectRatio: false,
  animation: !animate || reducedMotion() ? (false as const) : undefined,
  plugins: { legend },
})

/** Self against the colleagues' average and each colleague, one axis per category. */
export function RadarChart({ title, labels, series, min, max, animate = true }: ChartProps) {
  const data: ChartData<'radar', (number | null)[], string> = {
    labels,
    datasets: series.map((s, i) => ({ label: s.label, data: s.values, ...seriesStyle(i), spanGaps: true })),
  }
  const options: ChartOptions<'radar'> = { ...commonOptions(animate), scales: { r: radarScale(min, max) } }
  const name = chartSummary(`Radar chart: ${title}`, labels, series)
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
}: ChartProps & { horizontal?: boolean }) {
  const data: ChartData<'bar', (number | null)[], string | string[]> = {
    labels: horizontal ? labels.map((l) => wrapLabel(l)) : labels,
    datasets: series.map((s, i) => ({ label: s.label, data: s.values, ...barStyle(i) })),
  }
  const valueAxis = { min: Math.min(0, min), max, ticks: { stepSize: 1, color: '#334155' } }
  const labelAxis = { ticks: { color: '#0f172a', autoSkip: false } }
  const options: ChartOptions<'bar'> = {
    ...commonOptions(animate),
    indexAxis: horizontal ? 'y' : 'x',
    scales: horizontal ? { x: valueAxis, y: labelAxis } : { x: labelAxis, y: valueAxis },
  }
  const name = chartSummary(`Bar chart: ${title}`, labels, series)
  return <Chart type="bar" data={data} options={options} role="img" aria-label={name} />
}
