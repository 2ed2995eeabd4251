import type { Page } from '@playwright/test'
import { expect, expectAccessible, expectFits, NARROW_SCREEN, signInAs, test } from './support/fixtures'

/**
 * Repeat cycles (issue 19 §5, ADR 044): on the demo seed the Acme leadership programme follows last
 * year's, in which Erin's report was released too; her report shows the previous cycle's colleague
 * averages beside this one's, the change, and "about the same" where it is noise.
 */

async function openReport(page: Page) {
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await page.locator('a[href^="/user/response-"]').first().click()
  await expect(page).toHaveURL(/\/user\/response-/)
}

test('the report shows the previous cycle beside this one, with the change and its label', async ({
  page,
}) => {
  await openReport(page)
  const section = page.getByRole('region', { name: 'Over time' })
  await expect(section).toBeVisible()
  await expect(section).toContainText('Acme leadership review, last year')
  await expect(section).toContainText('A change smaller than 0.3 on this 1–5 scale reads “about the same”')
  const competencies = section.getByRole('table', { name: 'Per competency: colleagues’ average' })
  await expect(competencies.getByRole('columnheader')).toHaveText([
    'Competency',
    'Previous cycle',
    'This cycle',
    'Change',
  ])
  const questions = section.getByRole('table', { name: 'Per question: colleagues’ average' })
  await expect(questions.locator('td[data-verdict="same"]').first()).toContainText('about the same')
  await expect(questions.locator('td[data-verdict="higher"]').first()).toContainText(/^\+\d\.\d · higher$/)
  await expect(questions.locator('td[data-verdict="lower"]').first()).toContainText(/^−\d\.\d · lower$/)
  await expectAccessible(page)
})

test('on a 360 px phone the section fits without sideways scroll', async ({ page }) => {
  await page.setViewportSize(NARROW_SCREEN)
  await openReport(page)
  await page.getByRole('heading', { name: 'Over time' }).scrollIntoViewIfNeeded()
  await expectFits(page)
  await expectAccessible(page)
})
