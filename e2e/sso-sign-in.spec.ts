import {
  expect,
  expectAccessible,
  expectFits,
  NARROW_SCREEN,
  signInAs,
  test,
  waitForHydration,
} from './support/fixtures'
import type { Page } from '@playwright/test'
import { startTestProvider, type TestProvider } from '../tests/support/oidc-provider'

/**
 * Single sign-on (issue 20 §1, ADR 049) in a browser, against a real OpenID provider: `oidc-provider`
 * runs in this Playwright process on a port of 3480–3489. An admin sets the client's provider up in
 * the back office; an employee then signs in through it — first cancelling at the provider, then for
 * real — and signs out; the provider is deleted again, and the sign-in page is the password form as
 * before (the rest of the suite runs without a provider).
 */

const APP = `http://localhost:${process.env.E2E_PORT ?? 3311}`
const LIST = '/admin/identity-provider-management'
const NAME = 'Acme Single Sign-On'
let idp: TestProvider

test.beforeAll(async () => {
  idp = await startTestProvider({
    redirectUris: [`${APP}/sign-in/sso/callback`],
    accounts: [
      { sub: 'erin-at-acme', email: 'employee@panorama.test', emailVerified: true, name: 'Erin Employee' },
    ],
  })
})

/** Deletes the provider through its page (the admin must be signed in). */
async function deleteProvider(page: Page) {
  await page.goto(LIST)
  const link = page.getByRole('link', { name: NAME })
  if (!(await link.count())) return
  await link.click()
  await page.getByRole('link', { name: 'Delete provider…' }).click()
  await page.getByRole('button', { name: 'Yes, delete the provider' }).click()
  await expect(page).toHaveURL(new RegExp(`${LIST}$`))
}

test.afterAll(async ({ browser }) => {
  // Should the spec have stopped half-way, the suite's other specs must still find no provider.
  const context = await browser.newContext({ baseURL: APP })
  const page = await context.newPage()
  await signInAs(page, 'admin@panorama.test')
  await deleteProvider(page)
  await context.close()
  await idp?.close()
})

test('an admin sets up the client’s provider and an employee signs in through it', async ({ page }) => {
  // One journey through two sites and back, twice: longer than the suite's usual minute on a busy machine.
  test.setTimeout(180_000)
  await signInAs(page, 'admin@panorama.test')
  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: 'Identity providers' })
    .click()
  await expect(page).toHaveURL(new RegExp(`${LIST}$`))
  await expect(page.getByRole('heading', { name: 'Identity providers', level: 1 })).toBeVisible()
  await expect(page.getByText(`${APP}/sign-in/sso/callback`)).toBeVisible()
  await expectAccessible(page)

  await page.getByLabel('Name', { exact: true }).fill(NAME)
  await page.getByLabel('Issuer URL').fill(idp.issuer)
  await page.getByLabel('Client ID').fill(idp.clientId)
  await page.getByLabel('Client secret').fill(idp.clientSecret)
  await page.getByLabel('E-mail domains it signs in').fill('panorama.test')
  await page.getByRole('checkbox', { name: 'Acme Ltd' }).check()
  await page.getByRole('button', { name: 'Add provider' }).click()
  await expect(page).toHaveURL(new RegExp(`${LIST}/[0-9a-f-]{36}$`))
  await expect(page.getByRole('status').filter({ hasText: 'Identity provider added' })).toBeVisible()
  // The secret is write-only: its field is empty, and the page says how to keep it.
  await expect(page.getByLabel('Client secret')).toHaveValue('')
  await expect(page.getByText('Leave blank to keep the current secret.')).toBeVisible()
  await expectAccessible(page)

  // The employee, in this browser signed out: the sign-in page now asks for the address first.
  await page.context().clearCookies()
  await page.goto('/sign-in')
  await waitForHydration(page)
  await expect(page.getByLabel('Password')).toHaveCount(0)
  await expectAccessible(page)
  await page.getByLabel('E-mail address').fill('employee@panorama.test')
  await page.getByRole('button', { name: 'Continue' }).click()

  // At the provider: first cancelled, which ends on the portal's page saying so.
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`))
  await page.getByRole('link', { name: '[ Cancel ]' }).click()
  await expect(page).toHaveURL(/\/sign-in\/sso\/callback\?/)
  await expect(page.getByRole('heading', { name: 'Sign-in cancelled' })).toBeVisible()
  await expectAccessible(page)
  await page.setViewportSize(NARROW_SCREEN)
  await expectFits(page, 'the cancelled sign-in page')
  await page.getByRole('link', { name: 'Back to sign in' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
  await waitForHydration(page)
  await expectFits(page, 'the sign-in page’s first step')
  await page.setViewportSize({ width: 1280, height: 720 })

  // Then for real: the provider's login form (any password), its consent, and back home.
  await page.getByLabel('E-mail address').fill('employee@panorama.test')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`))
  await page.locator('input[name="login"]').fill('erin-at-acme')
  await page.locator('input[name="password"]').fill('anything')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(new RegExp(`^${APP}/user$`))
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expectAccessible(page)

  // The same session as a password sign-in: signing out works unchanged.
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
  await page.goto('/user')
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fuser$/)

  // The admin deletes the provider: the sign-in page is the password form again.
  await signInAs(page, 'admin@panorama.test')
  await deleteProvider(page)
  await page.context().clearCookies()
  await page.goto('/sign-in')
  await expect(page.getByLabel('Password')).toBeVisible()
})
