import { expect, expectAccessible, test } from './support/fixtures'

test('the invite link from the seed opens a colleague session', async ({ page }) => {
  const link = process.env.E2E_INVITE_LINK!
  expect(link).toContain('/verification?mode=invite&code=')
  await page.goto(link)
  // The code leaves the address bar: the exchange redirects to the questionnaire.
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leadership 360')
  await expect(page.getByText('Casey Colleague')).toBeVisible()
  await expectAccessible(page)
  // A colleague may not see employee or admin pages.
  await page.goto('/user')
  await expect(page).toHaveURL(/\/assignment\/[0-9a-f-]{36}$/)
  await page.goto('/user/thank-you')
  await expect(page).toHaveURL(/\/user\/thank-you$/)
  await expectAccessible(page)
})

test('a tampered invite link shows the expired-link message', async ({ page }) => {
  const response = await page.goto('/verification?mode=invite&code=not-a-real-code-0000000')
  expect(response?.status()).toBe(410)
  await expect(page.getByRole('alert')).toContainText('This link has expired or has already been used.')
  await expectAccessible(page)
})
