import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * The release and the report tell one story (issue 15 A3, B1–B3, ADR 025), on the demo seed and on
 * a phone: Sam Second (employee2) is below the threshold — his home and his report say how many more
 * answers are needed, and the admin's release confirmation offers waiting or the self-assessment
 * alone, with the numbers; Erin's report is released, and releasing it again is refused with the
 * reason (nothing changed, or too few changes). Nothing here releases, so other specs find the seed
 * as it was.
 */
test.use({ viewport: { width: 390, height: 844 } })

async function openScheme(admin: Page) {
  await signInAs(admin, 'admin@panorama.test')
  await expect(admin).toHaveURL(/\/admin$/)
  await admin.goto(`/admin/scheme-management?q=${encodeURIComponent('Acme leadership programme')}`)
  await admin.getByRole('link', { name: 'Acme leadership programme', exact: true }).first().click()
  await expect(admin).toHaveURL(/\/admin\/scheme-management\/[0-9a-f-]{36}/)
  await waitForHydration(admin)
}

test('below the threshold: home and report say how many more answers are needed, in the same words', async ({
  page,
}) => {
  await signInAs(page, 'employee2@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  const needed =
    /Colleagues’ results are shown only once at least 3 colleagues have answered, so that no one’s answers can be singled out: \d more answers? (is|are) needed\./
  const when = 'Your colleagues’ results appear when the programme closes on'
  const card = page.getByRole('region', { name: 'Your report' }).first()
  await expect(card).toContainText(needed)
  await expect(card).toContainText(when)
  await expect(card).not.toContainText('Enough colleagues have answered')
  await expectAccessible(page)
  await card.getByRole('link', { name: 'Read your report' }).click()
  await expect(page).toHaveURL(/\/user\/response-[0-9a-f-]{36}$/)
  const notice = page.getByRole('status').filter({ hasText: 'Colleagues’ results are not released yet' })
  await expect(notice).toContainText(needed)
  await expect(notice).toContainText(when)
  await expectAccessible(page)
})

test('the admin’s release confirmation states the numbers: wait, or the self-assessment alone', async ({
  page,
}) => {
  await openScheme(page)
  await page.getByRole('link', { name: 'Release report (Sam Second)' }).click()
  const panel = page.getByRole('region', { name: 'Release Sam Second’s self-assessment alone?' })
  await expect(panel).toBeVisible()
  await expect(panel).toContainText(/Only 1 colleague answer of the 3 needed is in/)
  await expect(panel).toContainText('wait for 2 more')
  await expect(panel.getByRole('button', { name: 'Release the self-assessment alone' })).toBeVisible()
  await expectAccessible(page)
  await panel.getByRole('link', { name: /Back to the scheme|Cancel/ }).click()
  await expect(panel).toHaveCount(0)

  // Erin's report is released: releasing it again is refused with the reason, never silently.
  await page.getByRole('link', { name: 'Release again (Erin Employee)' }).click()
  const again = page.getByRole('region', { name: 'Release again the report of Erin Employee?' })
  await expect(again).toContainText(
    /Nothing has changed since the last release|changed since the last release \(.*\); 3 are needed before the report can change/,
  )
  await expect(again.getByRole('button', { name: /release/i })).toHaveCount(0)
  await expectAccessible(page)
})
