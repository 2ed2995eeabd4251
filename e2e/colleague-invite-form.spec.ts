import type { Page } from '@playwright/test'
import { expect, expectAccessible, signInAs, test, waitForHydration, waitForMail } from './support/fixtures'

/**
 * A seeded employee (Wren: Erin's eight places are all taken by her released report's colleagues and
 * two pending ones) invites a colleague from /user/colleague-invite, sees them listed as invited
 * and the count of free places drop, the invitation e-mail reaches the SMTP catcher with a working
 * link, and they revoke it again. The seed's own invitations are left as they were.
 */

const summary = (page: Page) => page.getByRole('region', { name: 'Acme leadership programme' })

async function remaining(page: Page): Promise<number> {
  const text = await summary(page)
    .getByText(/You can invite \d+ more colleagues?\./)
    .textContent()
  return Number(/invite (\d+) more/.exec(text ?? '')![1])
}

test('the employee invites a colleague, the e-mail arrives, and they revoke the invitation', async ({
  page,
}) => {
  const stamp = Date.now()
  const name = `Taylor Tester ${stamp}`
  const email = `taylor.${stamp}@example.test`

  await signInAs(page, 'employee3@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await page.goto('/user/colleague-invite')
  await waitForHydration(page)
  await expect(page).toHaveTitle('Invite colleagues · Panorama')
  await expect(page.getByRole('heading', { level: 1, name: 'Invite colleagues' })).toBeVisible()
  await expect(summary(page).getByRole('heading', { name: 'Acme leadership programme' })).toBeVisible()
  await expectAccessible(page)
  const before = await remaining(page)
  expect(before).toBeGreaterThan(0)

  // Conform checks as you type: a wrong address is flagged beside the field before anything is sent.
  const form = page.getByRole('region', { name: 'Invite a colleague' })
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('E-mail address').fill('not-an-address')
  await form.getByLabel('Relationship').selectOption({ label: 'Peer' })
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(form.getByText('Enter an e-mail address like name@example.com.')).toBeVisible()
  await expect(form.getByLabel('E-mail address')).toHaveAttribute('aria-invalid', 'true')

  await form.getByLabel('E-mail address').fill(email)
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByRole('status').getByText(`Invitation sent to ${name}`)).toBeVisible()
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText(email)
  await expect(row).toContainText('Peer')
  await expect(row).toContainText('Invited')
  await expect(summary(page)).toContainText(
    before - 1 > 0 ? `invite ${before - 1} more` : 'cannot invite any more',
  )
  // The form starts empty again for the next colleague.
  await expect(form.getByLabel('Name')).toHaveValue('')
  await expectAccessible(page)

  const mail = await waitForMail((m) => m.to.includes(email))
  expect(mail.subject).toBe('Wren Waiting would value your feedback')
  expect(mail.text).toContain(`Hello ${name}`)
  const link = /https?:\/\/\S+\/verification\?mode=invite&code=[\w-]+/.exec(mail.text)?.[0]
  expect(link).toBeTruthy()

  // The link works for the colleague (in a browser context of their own).
  const colleague = await page.context().browser()!.newContext()
  const colleaguePage = await colleague.newPage()
  await colleaguePage.goto(link!)
  await expect(colleaguePage).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}$/)
  await colleague.close()

  // Revoking asks first; the confirmation is a page state (?revoke=), so it works without JavaScript too.
  await row.getByRole('link', { name: `Revoke… the invitation to ${name}` }).click()
  const question = page.getByRole('heading', { name: `Revoke the invitation to ${name}?` })
  await expect(question).toBeVisible()
  await expect(question).toBeFocused()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Yes, revoke the invitation' }).click()
  await expect(page.getByRole('status').getByText(`Invitation to ${name} revoked`)).toBeVisible()
  await expect(page).not.toHaveURL(/revoke=/)
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Revoked')
  expect(await remaining(page)).toBe(before)

  // The revoked link no longer opens anything.
  const response = await page.request.get(link!, { maxRedirects: 0 })
  expect(response.status()).toBe(410)
})

test('without JavaScript the form still invites and shows errors from the server', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/sign-in')
  await page.getByLabel('E-mail address').fill('employee3@panorama.test')
  await page.getByLabel('Password').fill(process.env.E2E_SEED_PASSWORD ?? 'panorama-demo')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/user$/)
  await page.goto('/user/colleague-invite')

  const form = page.getByRole('region', { name: 'Invite a colleague' })
  // The employee's own address is refused by the server, beside the field.
  await form.getByLabel('Name').fill('Me Myself')
  await form.getByLabel('E-mail address').fill('employee3@panorama.test')
  await form.getByLabel('Relationship').selectOption({ label: 'Other' })
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('That is your own e-mail address.', { exact: false })).toBeVisible()

  // A real address goes through: the redirect lands back here with the colleague listed.
  const stamp = Date.now()
  const name = `Nora NoScript ${stamp}`
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('E-mail address').fill(`nora.${stamp}@example.test`)
  await form.getByLabel('Relationship').selectOption({ label: 'Other' })
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText(`Invitation sent to ${name}`)).toBeVisible()
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('Invited')

  // Revoking: the link opens the confirmation, its button posts the form.
  await row.getByRole('link', { name: `Revoke… the invitation to ${name}` }).click()
  await expect(page).toHaveURL(/revoke=/)
  await page.getByRole('button', { name: 'Yes, revoke the invitation' }).click()
  await expect(page.getByText(`Invitation to ${name} revoked`)).toBeVisible()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Revoked')
  await context.close()
})
