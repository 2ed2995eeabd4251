import {
  expect,
  expectAccessible,
  expectFits,
  PASSWORD,
  signIn,
  test,
  waitForHydration,
  waitForMails,
} from './support/fixtures'

/**
 * Issue 15, A6: a browser held back by the sign-in limits (a spray on the account, ADR 007) is
 * offered a one-time sign-in link by e-mail, on a phone as on a desk.
 */
test.use({ viewport: { width: 390, height: 844 } })

const OFFER = 'E-mail me a one-time sign-in link'
const SENT = 'If an account exists for that address, we have sent it a one-time sign-in link.'

test('refused by the limits, the sign-in page offers a one-time link, with the same answer for any address', async ({
  page,
}) => {
  // A made-up address: its limit is its own, so no other spec's account is held back by this one.
  const email = 'held-back@panorama.test'
  for (let i = 0; i < 5; i++) {
    await signIn(page, email, `wrong ${i}`)
    await expect(page.getByRole('alert')).toHaveText(
      'That e-mail address and password do not match an account.',
    )
  }
  await signIn(page, email, 'wrong again')
  await expect(page.getByRole('alert')).toHaveText(
    'Too many attempts. Please wait a few minutes and try again.',
  )
  const offer = page.getByRole('region', { name: 'Can’t sign in right now?' })
  await expect(offer).toContainText(email)
  await expect(offer.getByRole('button', { name: OFFER })).toBeVisible()
  await expectFits(page, '/sign-in after a refusal')
  await expectAccessible(page)

  await offer.getByRole('button', { name: OFFER }).click()
  await expect(page.getByRole('status').filter({ hasText: SENT })).toBeVisible()
  await expect(offer).toHaveCount(0)
  // The refusal is no longer the news.
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expectFits(page, '/sign-in after asking for a link')
  await expectAccessible(page)
})

test('refused with a wrong password, an employee signs in with the e-mailed link, once', async ({ page }) => {
  const email = 'employee2@panorama.test'
  await signIn(page, email, 'not-the-password')
  await expect(page.getByRole('alert')).toHaveText(
    'That e-mail address and password do not match an account.',
  )
  await page
    .getByRole('region', { name: 'Can’t sign in right now?' })
    .getByRole('button', { name: OFFER })
    .click()
  await expect(page.getByRole('status').filter({ hasText: SENT })).toBeVisible()

  const [mail] = await waitForMails((m) => m.to.includes(email) && /sign-in link/i.test(m.subject), 1)
  const link = mail!.text.match(/https?:\/\/\S+\/verification\?mode=signIn&code=[\w-]+/)?.[0]
  expect(link, 'the e-mail carries a sign-in link').toBeTruthy()
  await page.goto(link!)
  // The code leaves the address bar at once; nothing happens until the press.
  await expect(page).toHaveURL(/\/verification\?mode=signIn$/)
  await expect(page.getByRole('heading', { name: 'Sign in with your link' })).toBeVisible()
  await expect(page.getByRole('main')).toContainText(`Sign in as ${email}.`)
  await expectFits(page)
  await expectAccessible(page)
  await waitForHydration(page)
  await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/user$/)

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
  await page.goto(link!)
  await expect(page.getByRole('alert')).toContainText('expired or has already been used')
  // The password still works as before.
  await signIn(page, email, PASSWORD())
  await expect(page).toHaveURL(/\/user$/)
})
