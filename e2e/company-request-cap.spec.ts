import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test } from './support/fixtures'

/**
 * The rater fatigue cap (issue 18 §4, ADR 038) in the back office: an admin sets Acme's cap on its
 * edit form and sees who is near it. Casey Colleague holds an open request in Acme's programme (the
 * suite never has Casey submit), so under a cap of 1 Casey is listed at the cap. The demo cap (5)
 * is put back before the spec ends, so later specs invite as before.
 */

async function editAcme(page: Page) {
  await page.goto('/admin/company-management?q=Acme')
  await page.getByRole('link', { name: 'Edit Acme Ltd' }).click()
  await expect(page.getByRole('form', { name: 'Edit Acme Ltd' })).toBeVisible()
}

async function saveCap(page: Page, value: string) {
  await page.getByLabel('Open feedback requests per person').fill(value)
  await page.getByRole('button', { name: 'Save company' }).click()
}

test('an admin sets a company’s feedback-request cap and sees who is near it', async ({ page }) => {
  await signInAs(page, 'admin@panorama.test')
  await editAcme(page)
  await expect(page.getByLabel('Open feedback requests per person')).toHaveValue('5')
  const nearCap = page.getByRole('region', { name: 'People near the feedback-request cap' })
  await expect(nearCap).toBeVisible()

  try {
    // A value out of range is a field message, in the browser as on the server.
    await saveCap(page, '0')
    await expect(page.getByText(/a whole number from 1 to 50/)).toBeVisible()

    await saveCap(page, '1')
    await expect(page.getByRole('status').filter({ hasText: 'Company saved' })).toBeVisible()
    await editAcme(page)
    await expect(page.getByLabel('Open feedback requests per person')).toHaveValue('1')
    await expect(
      nearCap.getByRole('listitem').filter({ hasText: 'Casey Colleague' }).filter({ hasText: 'at the cap' }),
    ).toBeVisible()
    await expectAccessible(page)
  } finally {
    await editAcme(page)
    await saveCap(page, '5')
    await expect(page.getByRole('status').filter({ hasText: 'Company saved' })).toBeVisible()
  }
})
