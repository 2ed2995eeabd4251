import type { Page } from '@playwright/test'
import {
  expect,
  expectAccessible,
  expectFits,
  NARROW_SCREEN,
  signInAs,
  test,
  waitForHydration,
} from './support/fixtures'

/**
 * A cohort's group report and heatmap (issue 19 §4, ADR 045), on the demo seed's closed "Acme
 * management cohort 2026": nine participants released at its close, one of them with two colleagues
 * (their report shows the self-assessment alone). The admin opens the group report from the scheme's
 * page, reads its figures, moves to the heatmap and its table view; axe finds nothing serious; at
 * 360 px the page never scrolls sideways (the heatmap scrolls inside its own named region).
 */

const SCHEME = 'Acme management cohort 2026'

async function openScheme(page: Page) {
  await signInAs(page, 'admin@panorama.test')
  await page.goto(`/admin/scheme-management?q=${encodeURIComponent(SCHEME)}`)
  await page.getByRole('link', { name: SCHEME }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: SCHEME })).toBeVisible()
  await waitForHydration(page)
}

test('the admin opens a scheme’s group report and its heatmap, from released reports only', async ({
  page,
}) => {
  await openScheme(page)
  await page.getByRole('link', { name: 'Group report' }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Group report: ${SCHEME}` })).toBeVisible()
  await expect(
    page.getByText('9 participants with a released report, 8 of them with colleagues’ results.'),
  ).toBeVisible()
  for (const name of ['At a glance', 'Competencies', 'Questions'])
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible()
  const competencies = page.getByRole('table', { name: 'Competency averages by rater group' })
  for (const column of ['Self', 'All colleagues', 'Manager', 'Peers', 'Other colleagues'])
    await expect(competencies.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
  // Two direct reports each: every participant's report pools them into "Other colleagues", so the
  // group has no direct reports' figure either.
  await expect(competencies.getByRole('columnheader', { name: 'Direct reports' })).toHaveCount(0)
  // Self counts all nine (the self-assessment alone still counts), colleagues' figures eight.
  const communication = competencies.getByRole('row', { name: /^Communication/ })
  await expect(communication.getByRole('cell').first()).toContainText('n = 9')
  await expect(communication.getByRole('cell').nth(1)).toContainText('n = 8')
  await expect(page.getByRole('heading', { name: 'Blind spots the group shares' })).toBeVisible()
  await expect(page.getByText(/of 8 participants/).first()).toBeVisible()
  // The cohort beside its previous cycle (the seed's 2025 cohort, which this scheme follows).
  await expect(page.getByRole('heading', { level: 2, name: 'Over time' })).toBeVisible()
  await expect(page.getByText('“Acme management cohort 2025”')).toBeVisible()
  const overTime = page.getByRole('table', { name: 'Per competency: colleagues’ average' })
  await expect(overTime.getByRole('columnheader', { name: 'Change' })).toBeVisible()
  await expect(overTime.getByRole('cell', { name: /· higher$/ }).first()).toBeVisible()
  // The brand's header is part of the page (and of its printout).
  await expect(page.locator('.cohort-brand')).toContainText('Acme')
  await page.screenshot({ path: '/tmp/shots/group-over-time.png', fullPage: true })
  await expectAccessible(page)

  await page.getByRole('link', { name: 'Heatmap', exact: true }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: `Heatmap: ${SCHEME}` })).toBeVisible()
  const heat = page.getByRole('table', { name: /Colleagues’ average per participant and competency/ })
  await expect(heat.getByRole('rowheader')).toHaveCount(9)
  const ada = heat.getByRole('row', { name: /Ada Archer/ })
  // The value is printed in each cell, the self score is in its description (hover and screen readers).
  await expect(ada.getByRole('cell').first()).toHaveAttribute('title', /Colleagues \d\.\d; self \d\.\d/)
  const iris = heat.getByRole('row', { name: /Iris Irving/ })
  await expect(iris.getByRole('cell').first()).toHaveAttribute('title', /No colleagues’ figure; self \d\.\d/)
  await expectAccessible(page)

  await page.getByRole('link', { name: 'Table with self scores' }).click()
  const table = page.getByRole('table', { name: /Self score and colleagues’ average/ })
  await expect(table.getByRole('columnheader', { name: 'Self' }).first()).toBeVisible()
  await expect(table.getByRole('rowheader')).toHaveCount(9)
  await expectAccessible(page)
})

test('the company’s group report covers its schemes; no page scrolls sideways at 360 px', async ({
  page,
}) => {
  await page.setViewportSize(NARROW_SCREEN)
  await openScheme(page)
  await page.getByRole('link', { name: 'Group report' }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Group report: ${SCHEME}` })).toBeVisible()
  await expectFits(page)
  await page.getByRole('link', { name: 'Heatmap', exact: true }).first().click()
  const region = page.getByRole('region', { name: 'Table: participants by competency' })
  await expect(region).toBeVisible()
  await expectFits(page)
  // The heatmap is wider than a phone: it scrolls inside its own region, from the keyboard too.
  expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  await region.focus()
  await page.keyboard.press('ArrowRight')
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)

  await page.goto('/admin/company-management?q=Acme')
  await page
    .getByRole('link', { name: /^Group report/ })
    .first()
    .click()
  await expect(page.getByRole('heading', { level: 1, name: /^Group report: Acme/ })).toBeVisible()
  await expect(page.getByText(/across \d+ schemes/)).toBeVisible()
  await expectFits(page)
  await expectAccessible(page)
})
