import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Release, not live (ADR 022), on the demo seed: Wren Waiting (employee3) has six colleague answers
 * but no release, so her report says when the results appear; the admin releases it from the scheme
 * page; she then reads groups, blind spots and hidden strengths. axe on every step; the suite's
 * fixture checks every page at 360 px.
 */

async function openReport(page: Page, email: string) {
  await signInAs(page, email)
  await expect(page).toHaveURL(/\/user$/)
  await page.locator('a[href^="/user/response-"]').first().click()
  await expect(page).toHaveURL(/\/user\/response-[0-9a-f-]{36}$/)
  await waitForHydration(page)
}

test('the employee waits for the release, the admin releases, the employee reads the insight', async ({
  page,
  browser,
}) => {
  await openReport(page, 'employee3@panorama.test')
  const notice = page.getByRole('status').filter({ hasText: 'Colleagues’ results are not released yet' })
  await expect(notice).toContainText('Your colleagues’ results appear when the programme closes on')
  await expect(page.getByRole('region', { name: 'At a glance' })).toHaveCount(0)
  await expect(page.getByRole('columnheader', { name: /colleagues/i })).toHaveCount(0)
  await expectAccessible(page)

  const admin = await (await browser.newContext()).newPage()
  await signInAs(admin, 'admin@panorama.test')
  await expect(admin).toHaveURL(/\/admin$/)
  await admin.goto(`/admin/scheme-management?q=${encodeURIComponent('Acme leadership programme')}`)
  await admin.getByRole('link', { name: 'Acme leadership programme', exact: true }).first().click()
  await expect(admin).toHaveURL(/\/admin\/scheme-management\/[0-9a-f-]{36}/)
  await waitForHydration(admin)
  await admin.getByRole('link', { name: 'Release report (Wren Waiting)' }).click()
  await expect(admin.getByText('Invitations not answered yet are closed')).toBeVisible()
  await expectAccessible(admin)
  await admin.getByRole('button', { name: 'Yes, release the report' }).click()
  await expect(admin.getByText('Report released')).toBeVisible()
  const row = admin.getByRole('row').filter({ hasText: 'employee3@panorama.test' })
  await expect(row).toContainText('Released')
  await expect(row.getByRole('link', { name: /Release again/ })).toBeVisible()
  await admin.context().close()

  await page.reload()
  await waitForHydration(page)
  const glance = page.getByRole('region', { name: 'At a glance' })
  await expect(glance).toBeVisible()
  for (const name of ['Blind spots', 'Hidden strengths'])
    await expect(glance.getByRole('region', { name }).getByRole('listitem').first()).toBeVisible()
  const categories = page.getByRole('table', { name: /^Average score per category/ })
  await expect(categories.getByRole('columnheader', { name: /^Peers \(\d+\)$/ })).toBeVisible()
  await expect(categories.getByRole('columnheader', { name: /^Other colleagues \(\d+\)$/ })).toBeVisible()
  await expectAccessible(page)
})
