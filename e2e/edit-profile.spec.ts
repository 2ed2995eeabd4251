import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'
import { tinyPng } from './support/png'

const SEEDED_NAME = 'Erin Employee'

/** Whether an <img> has actually loaded (a broken src has no natural size). */
const loaded = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)

async function saveName(page: Page, name: string) {
  await page.getByLabel('Display name').fill(name)
  await page.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toBeVisible()
  await expect(page.getByRole('banner')).toContainText(name)
}

// The seeded employee is shared with other specs: their name and photo are put back at the end, and
// their password and e-mail address are never touched here (the integration tests cover those).
test('the employee changes their name and photo and sees both in the header', async ({ page }) => {
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click()
  await expect(page).toHaveURL(/\/user\/edit-profile$/)
  await expect(page).toHaveTitle('Edit profile · Panorama')
  await waitForHydration(page)
  await expect(page.getByLabel('Display name')).toHaveValue(SEEDED_NAME)
  await expectAccessible(page)

  const header = page.getByRole('banner')
  const newName = `Erin Renamed ${Date.now()}`
  await saveName(page, newName)
  await expect(header).not.toContainText(SEEDED_NAME)

  // A bad phone number is caught beside the field before anything is sent.
  await page.getByLabel('Phone (optional)').fill('call me maybe')
  await page.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByText('Enter a phone number such as +44 20 7946 0958')).toBeVisible()
  await page.getByLabel('Phone (optional)').fill('')

  await page
    .getByLabel('Upload a photo')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() })
  await page.getByRole('button', { name: 'Save photo' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Photo saved' })).toBeVisible()
  const photo = page.getByRole('img', { name: `Your current photo, ${newName}` })
  await expect(photo).toBeVisible()
  const src = await photo.getAttribute('src')
  expect(src).toMatch(/^\/files\/[0-9a-f-]{36}$/)
  // The same file, decorative (alt=""), beside the name in the header, and really loaded.
  const headerPhoto = `header img[src="${src}"]`
  await expect(page.locator(headerPhoto)).toBeVisible()
  await expect(page.locator(headerPhoto)).toHaveAttribute('alt', '')
  expect(await loaded(page, headerPhoto)).toBe(true)
  await expectAccessible(page)

  // Put the seeded employee back as the other specs expect them.
  await page.getByRole('button', { name: 'Remove photo' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Photo removed' })).toBeVisible()
  await expect(page.locator('header img')).toHaveCount(0)
  await saveName(page, SEEDED_NAME)
  await expect(header).toContainText(SEEDED_NAME)
})
