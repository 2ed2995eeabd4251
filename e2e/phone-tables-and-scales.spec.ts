import type { Locator, Page } from '@playwright/test'
import { addQuestion, addSection, questionCards, sectionRegion } from './support/builder'
import { expect, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Reading on a phone (issue 15, B9). The report's data tables are wider than a 360–390 px screen:
 * each scrolls sideways in its own box and says so — a shadow at the edge that hides columns and the
 * line "Scroll sideways for more columns" — only while something is cut off, following the scroll
 * position; the box scrolls from the keyboard. A rating scale's points stay one ordered row, 1–5 as
 * 0–10 (the widest scale the builder allows). On the demo seed: Erin's released report, Noah's
 * self-assessment (not started; looking changes nothing) and a draft questionnaire's preview.
 */

const PHONES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
]

type Cue = { overflows: boolean; start: number; end: number; hint: boolean; cut: string | null }

/** What one table box shows: whether it overflows, the two edge shadows' opacity, the hint line. */
function cueOf(scroller: Locator): Promise<Cue> {
  return scroller.evaluate((el) => {
    const box = el.querySelector('.table-scroller-box')!
    const frame = el.querySelector('.table-scroller-frame')!
    const hint = el.querySelector('.table-scroller-hint')!
    const rect = hint.getBoundingClientRect()
    return {
      overflows: box.scrollWidth > box.clientWidth,
      start: Number(getComputedStyle(frame, '::before').opacity),
      end: Number(getComputedStyle(frame, '::after').opacity),
      hint: getComputedStyle(hint).visibility === 'visible' && rect.height > 0,
      cut: (el as HTMLElement).dataset.cut ?? null,
    }
  })
}

async function openReport(page: Page) {
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  const href = await page.locator('a[href^="/user/response-"]').first().getAttribute('href')
  await page.goto(href!)
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name: 'At a glance' })).toBeVisible()
}

/** Every table box of the report, with its cue, checked against whether it overflows. */
async function expectCuesMatchOverflow(page: Page) {
  const scrollers = page.locator('.table-scroller')
  const count = await scrollers.count()
  expect(count).toBeGreaterThanOrEqual(5)
  const cues: Cue[] = []
  for (let i = 0; i < count; i++) cues.push(await cueOf(scrollers.nth(i)))
  // The demo report has both kinds at phone width: wide score tables and narrow choice tables.
  expect(cues.filter((c) => c.overflows).length).toBeGreaterThanOrEqual(3)
  expect(cues.filter((c) => !c.overflows).length).toBeGreaterThanOrEqual(1)
  for (const cue of cues)
    expect(cue).toMatchObject({ start: 0, end: cue.overflows ? 1 : 0, hint: cue.overflows })
  return scrollers
}

for (const phone of PHONES) {
  test(`at ${phone.width} px the report’s wide tables show that they scroll sideways, and the others do not`, async ({
    page,
  }) => {
    await page.setViewportSize(phone)
    await openReport(page)
    const scrollers = await expectCuesMatchOverflow(page)

    // "Difference", the last column of the first table, is off to the side: the table says so.
    const overview = scrollers.filter({
      has: page.getByRole('table', { name: 'Per category: self and all colleagues' }),
    })
    const box = overview.getByRole('region', { name: 'Table: per category, self and all colleagues' })
    expect((await cueOf(overview)).overflows).toBe(true)
    await expect(overview.getByText('Scroll sideways for more columns')).toBeVisible()
    const difference = overview.getByRole('columnheader', { name: 'Difference' })
    const hidden = () =>
      difference.evaluate((th) => {
        const box = th.closest('.table-scroller-box')!.getBoundingClientRect()
        return th.getBoundingClientRect().right > box.right + 0.5
      })
    expect(await hidden()).toBe(true)

    // The box scrolls from the keyboard; the shadow moves to the side that now hides columns.
    await box.focus()
    await expect(box).toBeFocused()
    await expect
      .poll(async () => {
        await page.keyboard.press('ArrowRight')
        return box.evaluate((el) => el.scrollLeft + el.clientWidth >= el.scrollWidth - 1)
      })
      .toBe(true)
    await expect.poll(() => cueOf(overview)).toMatchObject({ start: 1, end: 0, hint: true })
    expect(await hidden()).toBe(false)
  })
}

test('a browser without scroll-driven animations gets the same cue from the component’s script', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const supports = CSS.supports.bind(CSS)
    CSS.supports = ((...args: [string, string?]) =>
      String(args[0]).includes('animation-timeline')
        ? false
        : supports(...(args as [string]))) as typeof CSS.supports
  })
  await page.setViewportSize(PHONES[0]!)
  await openReport(page)
  const scrollers = page.locator('.table-scroller')
  const cues: Cue[] = []
  for (let i = 0; i < (await scrollers.count()); i++) cues.push(await cueOf(scrollers.nth(i)))
  expect(cues.some((c) => !c.overflows)).toBe(true)
  for (const cue of cues) expect(cue.cut).toBe(cue.overflows ? 'end' : '')
  const wide = scrollers.nth(cues.findIndex((c) => c.overflows))
  await wide.locator('.table-scroller-box').evaluate((el) => el.scrollTo({ left: el.scrollWidth }))
  await expect(wide).toHaveAttribute('data-cut', 'start')
  await wide.locator('.table-scroller-box').evaluate((el) => el.scrollTo({ left: 40 }))
  await expect(wide).toHaveAttribute('data-cut', 'start end')
})

/** The boxes of a rating scale's points (the radios but "Not applicable"), in document order. */
async function pointBoxes(group: Locator) {
  const radios = group.getByRole('radio')
  const names: string[] = []
  const boxes: Array<{ x: number; y: number; width: number; height: number }> = []
  for (const radio of await radios.all()) {
    const name = (await radio.getAttribute('value'))!
    if (name === 'na') continue
    names.push(name)
    boxes.push((await radio.locator('xpath=ancestor::label[1]').boundingBox())!)
  }
  return { names, boxes }
}

/** One row, left to right, lowest point first, every card inside the screen. */
function expectOneOrderedLine(
  { names, boxes }: Awaited<ReturnType<typeof pointBoxes>>,
  expected: string[],
  width: number,
) {
  expect(names).toEqual(expected)
  for (let i = 0; i < boxes.length; i++) {
    expect(
      Math.abs(boxes[i]!.y - boxes[0]!.y),
      `point ${names[i]} is on the first point’s line`,
    ).toBeLessThan(1)
    if (i)
      expect(boxes[i]!.x, `point ${names[i]} is right of ${names[i - 1]}`).toBeGreaterThan(
        boxes[i - 1]!.x + boxes[i - 1]!.width - 1,
      )
    expect(boxes[i]!.x).toBeGreaterThanOrEqual(0)
    expect(boxes[i]!.x + boxes[i]!.width).toBeLessThanOrEqual(width)
  }
}

test('a 1–5 rating scale reads as one ordered line at 360 and 390 px, labels still in each point’s name', async ({
  page,
}) => {
  // The seeded questionnaire as its respondents see it (the answering page's own question fields):
  // the builder's preview, which no other spec changes (Noah's self-assessment may be answered by
  // the feedback-loop spec before this one runs).
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto(`/admin/questionnaire-management?q=${encodeURIComponent('Leadership 360')}`)
  await page
    .getByRole('list', { name: 'Versions of Leadership 360' })
    .getByRole('link', { name: 'Version 1' })
    .first()
    .click()
  await expect(page).toHaveURL(/\/admin\/questionnaire-management\/[0-9a-f-]{36}/)
  const path = `${new URL(page.url()).pathname}?preview=self`
  for (const phone of PHONES) {
    await page.setViewportSize(phone)
    await page.goto(path)
    await waitForHydration(page)
    // The rating scales (the preview shows every section, choice questions among them).
    const groups = page
      .getByRole('radiogroup')
      .filter({ has: page.getByRole('radio', { name: '4 – Often' }) })
    expect(await groups.count()).toBeGreaterThanOrEqual(2)
    for (const group of await groups.all()) {
      expectOneOrderedLine(await pointBoxes(group), ['1', '2', '3', '4', '5'], phone.width)
      await expect(group.getByRole('radio', { name: '4 – Often' })).toBeVisible()
      await expect(group.getByRole('radio', { name: 'Not applicable' })).toBeVisible()
    }
    await page.screenshot({ path: test.info().outputPath(`scale-1-5-${phone.width}.png`), fullPage: true })
  }
})

test('a 0–10 rating scale, the widest the builder allows, also fits one line at 360 and 390 px', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/questionnaire-management')
  await waitForHydration(page)
  await page.getByLabel('Title', { exact: true }).fill(`Eleven points ${Date.now().toString(36)}`)
  await page.getByRole('button', { name: 'Create questionnaire' }).click()
  await expect(page).toHaveURL(/\/admin\/questionnaire-management\/[0-9a-f-]{36}$/)
  await waitForHydration(page)
  await addSection(page, 'Wide scale')
  const section = sectionRegion(page, 1, 'Wide scale')
  await addQuestion(page, section, {
    kind: 'Rating scale',
    text: 'How likely am I to recommend this team?',
    rater: 'How likely is {{name}} to recommend this team?',
    competency: 'Advocacy',
  })
  const card = questionCards(section).first()
  await card.getByLabel('Lowest point').fill('0')
  await card.getByLabel('Highest point').fill('10')
  await card.getByRole('button', { name: 'Save question' }).click()
  await expect(card.getByLabel('Highest point')).toHaveValue('10')
  const preview = `${new URL(page.url()).pathname}?preview=self`
  for (const phone of PHONES) {
    await page.setViewportSize(phone)
    await page.goto(preview)
    await waitForHydration(page)
    const group = page.getByRole('radiogroup', { name: /How likely am I to recommend/ })
    expectOneOrderedLine(
      await pointBoxes(group),
      Array.from({ length: 11 }, (_, i) => String(i)),
      phone.width,
    )
    // The default labels sit on the lowest points, in each radio's name and in the key under the row.
    await expect(group.getByRole('radio', { name: '2 – Sometimes' })).toBeAttached()
    await expect(group.getByText('2 Sometimes', { exact: true })).toBeVisible()
    await page.screenshot({ path: test.info().outputPath(`scale-0-10-${phone.width}.png`), fullPage: true })
  }
})
