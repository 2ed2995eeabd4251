import { expect, expectAccessible, signInAs, waitForHydration, test } from './support/fixtures'

/** An admin reaches their own profile from the admin header and changes their name (issue 7). */
test('the admin opens their profile from the header, renames themself, and the header follows', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 800 })
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByRole('link', { name: 'Alex Admin, your profile' }).click()
  await expect(page).toHaveURL(/\/admin\/profile$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your profile')
  await expect(page.getByRole('navigation', { name: 'Administration' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await expectAccessible(page)

  await waitForHydration(page)
  const details = page.getByRole('form', { name: 'Your details' })
  await details.getByLabel('Display name').fill('Alex Admin-Renamed')
  await details.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByRole('link', { name: 'Alex Admin-Renamed, your profile' })).toBeVisible()

  // Back as the seed had it, for the other specs.
  await waitForHydration(page)
  await details.getByLabel('Display name').fill('Alex Admin')
  await details.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByRole('link', { name: 'Alex Admin, your profile' })).toBeVisible()
})
