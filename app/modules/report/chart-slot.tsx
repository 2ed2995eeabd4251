import { Component, createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type * as ChartComponents from './charts.client'

/**
 * Where a chart of the report goes. The server renders the box at the chart's final height (so
 * neither hydration nor the chart arriving moves anything below it); the chart itself — Chart.js,
 * ≈ 63 kB gzip and a few hundred milliseconds of a phone's CPU — is fetched only when a box comes
 * near the screen, or when the report is printed. The table beside each chart has every number, so
 * nothing waits for it, and without JavaScript the box is not shown at all.
 */

export type Charts = typeof ChartComponents

let loaded: Charts | null = null
let loading: Promise<Charts> | null = null

/** Fetches the charts' chunk once; every box (and the print button) shares the one request. */
export function loadCharts(): Promise<Charts> {
  loading ??= import('./charts.client').then(
    (module) => (loaded = module),
    (error: unknown) => {
      // A lost connection: the next box that comes into view tries again.
      loading = null
      throw error
    },
  )
  return loading
}

/** The charts' module when it has arrived, else null (always null on the server). */
export const loadedCharts = () => loaded

/** True while the report is printed: every chart draws, in view or not, without animation. */
export const DrawAllCharts = createContext(false)

/** How far below (or above) the screen a box starts loading its chart: about a third of a phone's screen. */
export const CHART_LOAD_MARGIN_PX = 200

/** Becomes true once the element comes within CHART_LOAD_MARGIN_PX of the viewport, and stays true. */
function useNearViewport(ref: React.RefObject<HTMLElement | null>) {
  const [near, setNear] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (near || !element) return
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true)
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return
        observer.disconnect()
        setNear(true)
      },
      { rootMargin: `${CHART_LOAD_MARGIN_PX}px 0px` },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [near, ref])
  return near
}

/** Said in a chart's place when it cannot be drawn (report:chart.unavailable). */
function Unavailable() {
  const { t } = useTranslation('report')
  return <p className="p-4 text-sm text-slate-700">{t('chart.unavailable')}</p>
}

/** A chart failing to draw must not take the tables down with it. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    if (this.state.failed) return <Unavailable />
    return this.props.children
  }
}

export function ChartSlot({
  height,
  draw,
}: {
  /** The chart's height in CSS pixels: the box has it from the first paint. */
  height: number
  draw: (charts: Charts, options: { animate: boolean }) => ReactNode
}) {
  const { t } = useTranslation('report')
  const ref = useRef<HTMLDivElement>(null)
  const drawAll = useContext(DrawAllCharts)
  const near = useNearViewport(ref)
  const wanted = near || drawAll
  // Re-renders the box when the module arrives; the module itself lives at module level, so a box
  // asked to draw after it arrived (printing) draws in the same render.
  const [, setArrived] = useState<Charts | null>(null)
  const [failed, setFailed] = useState(false)
  const charts = wanted ? loadedCharts() : null
  useEffect(() => {
    if (!wanted || charts) return
    let live = true
    loadCharts().then(
      (module) => live && setArrived(module),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [wanted, charts])
  return (
    <div
      ref={ref}
      className={`report-chart relative w-full ${charts ? '' : 'rounded-md bg-slate-100'}`}
      style={{ height }}
    >
      {charts ? (
        <ChartBoundary>{draw(charts, { animate: !drawAll })}</ChartBoundary>
      ) : failed ? (
        <Unavailable />
      ) : wanted ? (
        <p className="p-4 text-sm text-slate-700">{t('chart.loading')}</p>
      ) : null}
    </div>
  )
}
