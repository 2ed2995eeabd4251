import { expect, expectAccessible, signIn, test } from './support/fixtures'

test('an admin signs in, lands on the dashboard and signs out', async ({ page }) => {
  await signIn(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Administration' })).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fadmin$/)
})

test('an employee signs in and lands on their home', async ({ page }) => {
  await signIn(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expectAccessible(page)
  // The wrong role's page sends them home.
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/user$/)
})

test('a wrong password is refused with one message that does not reveal the account', async ({ page }) => {
  await signIn(page, 'admin@panorama.test', 'not-the-password')
  await expect(page.getByRole('alert')).toHaveText(
    'That e-mail address and password do not match an account.',
  )
  await signIn(page, 'nobody@panorama.test', 'not-the-password')
  await expect(page.getByRole('alert')).toHaveText(
    'That e-mail address and password do not match an account.',
  )
  await expectAccessible(page)
})

test('sign-in honours a same-site redirectTo', async ({ page }) => {
  await page.goto('/admin/brand-management')
  await expect(page).toHaveURL(/redirectTo=/)
  await page.getByLabel('E-mail address').fill('admin@panorama.test')
  await page.getByLabel('Password').fill(process.env.E2E_SEED_PASSWORD ?? 'panorama-demo')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/admin\/brand-management$/)
})
