import { expect, expectAccessible, signInAs, test } from './support/fixtures'

/**
 * The invite link's page (ADR 007): the GET shows one button, "Continue as a colleague giving
 * feedback on …"; its POST opens the colleague's session. Without JavaScript the button is pressed
 * by hand; with it, the page presses it itself — unless the browser is signed in as someone else.
 */
const LINK = () => process.env.E2E_INVITE_LINK!
const CONTINUE = /^Continue as a colleague giving feedback on Erin Employee$/

test('without JavaScript: one button, on a 360 px screen, and the button opens the questionnaire', async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 360, height: 740 },
  })
  const page = await context.newPage()
  await page.goto(LINK())
  // The code has left the address bar.
  await expect(page).toHaveURL(/\/verification\?mode=invite$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Give feedback')
  const button = page.getByRole('button', { name: CONTINUE })
  await expect(button).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  // (axe needs page scripts; it checks this page in the last test.)
  expect((await context.cookies()).some((c) => c.name === '__session')).toBe(false)
  await button.click()
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}$/)
  await context.close()
})

test('with JavaScript the page presses the button itself; opening the link again keeps the same session', async ({
  browser,
}) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(LINK())
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}$/)
  const session = (await context.cookies()).find((c) => c.name === '__session')?.value
  expect(session).toBeTruthy()
  await page.goto(LINK())
  await expect(page).toHaveURL(/\/questionnaire\/[0-9a-f-]{36}$/)
  expect((await context.cookies()).find((c) => c.name === '__session')?.value).toBe(session)
  await context.close()
})

test('a browser signed in as someone else is not switched by the script: it is asked', async ({ page }) => {
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await page.goto(LINK())
  await expect(page).toHaveURL(/\/verification\?mode=invite$/)
  await expect(
    page.getByText(/^This browser is signed in as .+\. Continuing signs that account out here\.$/),
  ).toBeVisible()
  await page.waitForLoadState('networkidle')
  await expect(page).toHaveURL(/\/verification\?mode=invite$/)
  await expectAccessible(page)
})
