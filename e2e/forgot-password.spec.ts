import type { Page } from '@playwright/test'
import {
  expect,
  expectAccessible,
  PASSWORD,
  signIn,
  test,
  waitForHydration,
  waitForMails,
} from './support/fixtures'

const EMAIL = 'employee@panorama.test'

async function resetPassword(page: Page, newPassword: string, after: number) {
  await page.goto('/forgot-password')
  await waitForHydration(page)
  await page.getByLabel('E-mail address').fill(EMAIL)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'If an account exists' })).toBeVisible()
  // Several resets in one run: wait for the (after + 1)-th reset mail and take it.
  const mails = await waitForMails((m) => m.to.includes(EMAIL) && /password/i.test(m.subject), after + 1)
  const mail = mails[after]!
  const link = mail.text.match(/https?:\/\/\S+\/verification\?mode=resetPassword&code=[\w-]+/)?.[0]
  expect(link, 'the e-mail carries a reset link').toBeTruthy()
  await page.goto(link!)
  await expect(page).toHaveURL(/\/verification\?mode=resetPassword$/)
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  await expectAccessible(page)
  await waitForHydration(page)
  await page.getByLabel('New password').fill(newPassword)
  await page.getByLabel('Repeat the password').fill(newPassword)
  await page.getByRole('button', { name: 'Save new password' }).click()
  await expect(page).toHaveURL(/\/user$/)
  return link!
}

test('forgot password → e-mail → new password → sign in', async ({ page }) => {
  const link = await resetPassword(page, 'a-brand-new-secret', 0)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
  await signIn(page, EMAIL, PASSWORD())
  await expect(page.getByRole('alert')).toContainText('do not match')
  await signIn(page, EMAIL, 'a-brand-new-secret')
  await expect(page).toHaveURL(/\/user$/)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
  // The link works once.
  await page.goto(link)
  await expect(page.getByRole('alert')).toContainText('expired or has already been used')
  // Put the demo password back for the other specs.
  await resetPassword(page, PASSWORD(), 1)
})
