import type { Page } from '@playwright/test'
import { expect, signInAs, test, waitForHydration } from './support/fixtures'
import { layoutShifts, recordLayoutShifts } from './support/layout-shift'

/**
 * The feedback report on a phone (issue 8 §2.5): the server renders everything but the canvases,
 * with each chart's box at its final size, so neither hydration nor a chart arriving moves the page;
 * Chart.js is fetched only when a chart comes near the screen. On the demo seed, as
 * employee@panorama.test (Erin Employee, past the anonymity threshold: five categories, a radar
 * and a bar chart per category).
 */

const PHONE = { width: 390, height: 844 }
const CHARTS_CHUNK = /\/assets\/charts\.client-[\w-]+\.js$/

test.use({ viewport: PHONE })

async function reportPath(page: Page) {
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  const href = await page.locator('a[href^="/user/response-"]').first().getAttribute('href')
  expect(href).toMatch(/^\/user\/response-[0-9a-f-]{36}$/)
  return href!
}

test('the report does not shift on a phone, from the first paint through hydration and every chart', async ({
  page,
}) => {
  const path = await reportPath(page)
  await recordLayoutShifts(page)
  await page.goto(path)
  await waitForHydration(page)
  // The "Save as PDF" button is part of the first paint, not added by hydration.
  await expect(page.getByRole('button', { name: 'Save as PDF' })).toBeVisible()

  // Down the whole report a screen at a time, letting every chart load and draw where it comes into view.
  const charts = page.locator('.report-chart')
  const count = await charts.count()
  expect(count).toBeGreaterThanOrEqual(2)
  for (let i = 0; i < count; i++) {
    await charts.nth(i).scrollIntoViewIfNeeded()
    await expect(charts.nth(i).locator('canvas')).toBeVisible()
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1_500) // Chart.js animates for 1 s; a shift at the end of it counts too

  const { cls, described } = await layoutShifts(page)
  expect(cls, described).toBeLessThan(0.1)
})

test('Chart.js is fetched only when a chart comes near the screen; the tables are there before it', async ({
  page,
}) => {
  // A phone a little shorter than most, so that "not near the screen" holds with room to spare.
  await page.setViewportSize({ width: PHONE.width, height: 700 })
  const path = await reportPath(page)
  const fetched: string[] = []
  page.on('request', (request) => {
    if (CHARTS_CHUNK.test(new URL(request.url()).pathname)) fetched.push(request.url())
  })
  await page.goto(path)
  await waitForHydration(page)

  // Hydrated and quiet, and still no Chart.js: the tables carry the numbers meanwhile.
  expect(fetched).toEqual([])
  // …because at the top of the report on a phone no chart is on screen or just below it.
  const firstChartTop = await page
    .locator('.report-chart')
    .first()
    .evaluate((el) => el.getBoundingClientRect().top)
  expect(firstChartTop).toBeGreaterThan(700 + 200)
  await expect(page.getByRole('table', { name: /^Average score per category/ })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Radar chart/ })).toHaveCount(0)

  // Scrolled to, the radar loads Chart.js and draws.
  await page.getByRole('heading', { name: 'By category' }).scrollIntoViewIfNeeded()
  await page.locator('.report-chart').first().scrollIntoViewIfNeeded()
  const radar = page.getByRole('img', { name: /^Radar chart: Average score per category/ })
  await expect(radar).toBeVisible()
  expect(fetched).toHaveLength(1)
})

/** Replaces window.print with a probe noting, at the moment of printing, how many chart boxes hold a drawn chart. */
async function probePrint(page: Page) {
  await page.evaluate(() => {
    window.print = () => {
      const boxes = [...document.querySelectorAll('.report-chart')]
      const drawn = boxes.filter((box) => {
        const canvas = box.querySelector('canvas')
        if (!canvas?.width || !canvas.height) return false
        const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) return true
        return false
      })
      ;(window as unknown as { printed: { boxes: number; drawn: number } }).printed = {
        boxes: boxes.length,
        drawn: drawn.length,
      }
    }
  })
}

const printed = (page: Page) =>
  page.evaluate(() => (window as unknown as { printed?: { boxes: number; drawn: number } }).printed ?? null)

test('Save as PDF prints every chart drawn, also those never scrolled to', async ({ page }) => {
  const path = await reportPath(page)

  // From the top: no chart has been near the screen, so the button fetches Chart.js first.
  await page.goto(path)
  await waitForHydration(page)
  await probePrint(page)
  await page.getByRole('button', { name: 'Save as PDF' }).click()
  await expect.poll(() => printed(page)).not.toBeNull()
  const fromTop = (await printed(page))!
  expect(fromTop.boxes).toBeGreaterThanOrEqual(2)
  expect(fromTop.drawn).toBe(fromTop.boxes)

  // With Chart.js already here (the radar was scrolled to), the rest draw before the print starts.
  await page.goto(path)
  await waitForHydration(page)
  await page.locator('.report-chart').first().scrollIntoViewIfNeeded()
  await expect(page.getByRole('img', { name: /^Radar chart/ })).toBeVisible()
  await probePrint(page)
  await page.getByRole('button', { name: 'Save as PDF' }).click()
  const afterScroll = (await printed(page))!
  expect(afterScroll.drawn).toBe(afterScroll.boxes)
})
