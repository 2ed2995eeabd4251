import type { Page } from '@playwright/test'

export type Shift = { value: number; sources: string[] }

/**
 * Records every layout shift of the pages opened after this call, from the first byte on
 * (PerformanceObserver 'layout-shift', buffered), with the elements that moved. Shifts right after
 * a click or key press do not count, as in the Core Web Vitals' CLS; a scroll is not such input.
 */
export async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: Shift[] = []
    ;(window as unknown as { __shifts: Shift[] }).__shifts = shifts
    type LayoutShift = PerformanceEntry & {
      value: number
      hadRecentInput: boolean
      sources?: Array<{ node?: Node | null }>
    }
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as LayoutShift[]) {
        if (entry.hadRecentInput) continue
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((s) => {
            const el = s.node instanceof Element ? s.node : s.node?.parentElement
            if (!el) return '?'
            const cls =
              typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 2).join('.') : ''
            return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`
          }),
        })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

/** The shifts so far on the current page, their sum (the cumulative layout shift) and a description. */
export async function layoutShifts(page: Page) {
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts)
  const cls = shifts.reduce((sum, s) => sum + s.value, 0)
  const described = `layout shift ${cls.toFixed(3)}: ${shifts
    .map((s) => `${s.value.toFixed(3)} (${s.sources.join(', ')})`)
    .join('; ')}`
  return { shifts, cls, described }
}
