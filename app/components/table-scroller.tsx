import { useEffect, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * A table wider than its column scrolls sideways inside this box, and says so: a shadow at each edge
 * that hides content (following the scroll position) and the line "Scroll sideways for more
 * columns", both only while something is cut off. The box is focusable and named, so keyboard users
 * can scroll it with the arrow keys and screen readers announce what it holds.
 *
 * The cue is CSS (app.css, `.table-scroller`): a scroll-driven animation shows it, and a scroll
 * timeline is inactive when the box has nothing to scroll, so a table that fits shows nothing — from
 * the first paint, with or without JavaScript. Browsers without scroll-driven animations get the
 * same cue from a few lines of script instead (data-cut on the outer box). ADR 031.
 */
export function TableScroller({
  label,
  className = '',
  children,
}: {
  /** The box's accessible name ("Table: …"). */
  label: string
  /** Classes for the scrolling box itself (a border, a background, a print hook). */
  className?: string
  children: ReactNode
}) {
  const { t } = useTranslation('common')
  const outer = useRef<HTMLDivElement>(null)
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (typeof CSS !== 'undefined' && CSS.supports('animation-timeline: scroll()')) return
    const scroller = box.current
    const root = outer.current
    if (!scroller || !root) return
    const update = () => {
      const left = Math.abs(scroller.scrollLeft)
      const hidden = scroller.scrollWidth - scroller.clientWidth
      const cut = [left > 1 ? 'start' : '', hidden - left > 1 ? 'end' : ''].filter(Boolean).join(' ')
      if (root.dataset.cut !== cut) root.dataset.cut = cut
    }
    update()
    scroller.addEventListener('scroll', update, { passive: true })
    const resized = new ResizeObserver(update)
    resized.observe(scroller)
    if (scroller.firstElementChild) resized.observe(scroller.firstElementChild)
    return () => {
      scroller.removeEventListener('scroll', update)
      resized.disconnect()
    }
  }, [])
  return (
    <div ref={outer} className="table-scroller">
      <p className="table-scroller-hint">
        {t('kit.scrollSideways')} <span aria-hidden="true">→</span>
      </p>
      <div className="table-scroller-frame">
        <div
          ref={box}
          className={`table-scroller-box ${className}`}
          tabIndex={0}
          role="region"
          aria-label={label}
        >
          {children}
        </div>
      </div>
    </div>
  )
}
