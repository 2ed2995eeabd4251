import { expect, expectAccessible, signInAs, test, waitForHydration, waitForMail } from './support/fixtures'

/**
 * The first page an employee sees of a programme (issue 15, B10): the activation link opens in the
 * brand of their company's consultancy — the demo seed's Acme Ltd is Northwind Consulting's — and
 * so does the same link once used, which says nothing more of the account. On a 390 px phone.
 */
test.use({ viewport: { width: 390, height: 844 } })

test('the activation page, and the link once used, wear the programme’s brand', async ({ page, browser }) => {
  const email = `e2e-activation-${Date.now()}@example.test`
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/employee-management')
  await waitForHydration(page)
  const add = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add employee' }) })
  await add.getByLabel('Name', { exact: true }).fill('Ada Activation')
  await add.getByLabel('E-mail address', { exact: true }).fill(email)
  await add.getByLabel('Company', { exact: true }).selectOption({ label: 'Acme Ltd' })
  await add.getByRole('button', { name: 'Add employee' }).click()
  await expect(page.getByText('Ada Activation was added.')).toBeVisible()
  await page.getByRole('link', { name: 'Ada Activation' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Ada Activation' })).toBeVisible()
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Send the activation e-mail again' }).click()
  const mail = await waitForMail((m) => m.to.includes(email))
  const link = mail.text.match(/https?:\/\/\S+\/verification\?mode=activate&code=[\w-]+/)?.[0]
  expect(link, 'the e-mail carries an activation link').toBeTruthy()

  // The employee, in a browser of their own: Northwind's header, Panorama only in the footer.
  const theirs = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const other = await theirs.newPage()
  await other.goto(link!)
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Activate your account')
  const header = other.getByRole('banner')
  await expect(header.getByRole('link', { name: 'Northwind Consulting' })).toBeVisible()
  await expect(header).not.toContainText('Panorama')
  await expect(other.getByRole('contentinfo')).toContainText(
    'Northwind Consulting · 360° feedback · powered by Panorama',
  )
  await expect(other).toHaveTitle('Activate your account · Northwind Consulting')
  await expectAccessible(other)
  await other.screenshot({ path: test.info().outputPath('activation-390.png'), fullPage: true })

  await waitForHydration(other)
  await other.getByLabel('New password').fill('my own passphrase')
  await other.getByLabel('Repeat the password').fill('my own passphrase')
  await other.getByRole('button', { name: 'Activate account' }).click()
  await expect(other).toHaveURL(/\/user$/)

  // The same link again, in a fresh browser: used, still Northwind's, and nothing of Ada.
  const later = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const again = await later.newPage()
  await again.goto(link!)
  await expect(again.getByRole('alert')).toContainText('expired')
  await expect(again.getByRole('banner').getByRole('link', { name: 'Northwind Consulting' })).toBeVisible()
  await expect(again.locator('body')).not.toContainText('Ada Activation')
  await expect(again.locator('body')).not.toContainText(email)
  await expectAccessible(again)
  await again.screenshot({ path: test.info().outputPath('activation-used-390.png'), fullPage: true })
  await theirs.close()
  await later.close()
})
