import { expect, expectAccessible, test } from './support/fixtures'

test('the landing page shows the portal and the three contact links', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle(/Panorama/)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    'See yourself the way your colleagues do',
  )
  const talk = page.getByRole('region', { name: 'Talk to us' })
  await expect(talk.getByRole('link', { name: 'Request a callback' })).toHaveAttribute('href', /^https?:\/\//)
  await expect(talk.getByRole('link', { name: 'E-mail us' })).toHaveAttribute('href', /^mailto:/)
  await expect(talk.getByRole('link', { name: 'Our professional profile' })).toHaveAttribute(
    'href',
    /^https?:\/\//,
  )
  await expectAccessible(page)
})

test('sign-in and forgot-password carry the titles the spec fixes', async ({ page }) => {
  await page.goto('/sign-in')
  await expect(page).toHaveTitle('Sign In')
  await expectAccessible(page)
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await expect(page).toHaveTitle('Forgot Password')
  await expectAccessible(page)
})

test('an unknown address shows the 404 page', async ({ page }) => {
  const response = await page.goto('/this/page/does-not-exist')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found')
  await expect(page.getByText('404', { exact: true })).toBeVisible()
  await expect(page).toHaveTitle(/Page Not Found/)
  await expectAccessible(page)
})

test('a protected page sends an anonymous visitor to sign in and back', async ({ page }) => {
  await page.goto('/admin/company-management')
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fadmin%2Fcompany-management$/)
})
