import { expect, expectAccessible, signInAs, test, waitForHydration, waitForMail } from './support/fixtures'

const ADMIN = 'admin@panorama.test'

test('an admin invites another admin, who sets their password from the e-mail; then the first disables and enables them', async ({
  browser,
  page,
}) => {
  const invitee = `e2e-admin-${Date.now()}@example.test`
  await signInAs(page, ADMIN)
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/admin-management')
  await expect(page.getByRole('heading', { name: 'Administrators', level: 1 })).toBeVisible()
  await expectAccessible(page)
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill('Nova Newadmin')
  await page.getByLabel('E-mail address', { exact: true }).fill(invitee)
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('Invitation sent')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Nova Newadmin' })).toBeVisible()

  // The invitee, in a browser of their own, follows the e-mailed link and chooses a password.
  const mail = await waitForMail((m) => m.to.includes(invitee))
  const link = mail.text.match(/https?:\/\/\S+\/verification\?mode=activate&code=[\w-]+/)?.[0]
  expect(link, 'the invitation carries an activation link').toBeTruthy()
  const theirs = await browser.newContext()
  const other = await theirs.newPage()
  await other.goto(link!)
  await waitForHydration(other)
  await other.getByLabel('New password').fill('their own passphrase')
  await other.getByLabel('Repeat the password').fill('their own passphrase')
  await other.getByRole('button', { name: /password|activate/i }).click()
  await expect(other).toHaveURL(/\/admin$/)

  // Back in the first browser: the new admin is active with a session, and can be disabled.
  await page.getByRole('link', { name: 'Nova Newadmin' }).click()
  await expect(page.getByRole('heading', { name: 'Nova Newadmin', level: 1 })).toBeVisible()
  await expect(page.getByText('Active', { exact: true })).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('link', { name: 'Disable…' }).click()
  await expect(page.getByRole('heading', { name: 'Disable Nova Newadmin?' })).toBeFocused()
  await page.getByRole('button', { name: 'Yes, disable' }).click()
  await expect(page.getByText('Administrator disabled')).toBeVisible()
  await expect(page.getByText('No live sessions')).toBeVisible()
  // Their open page now sends them to sign in.
  await other.reload()
  await expect(other).toHaveURL(/\/sign-in/)
  await page.getByRole('button', { name: 'Enable' }).click()
  await expect(page.getByText('Administrator enabled')).toBeVisible()
  await theirs.close()
})
