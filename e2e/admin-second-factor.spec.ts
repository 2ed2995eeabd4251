import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import type { Page } from '@playwright/test'
import {
  expect,
  expectAccessible,
  expectFits,
  NARROW_SCREEN,
  saveShots,
  signIn,
  test,
  waitForHydration,
} from './support/fixtures'

/**
 * Issue 20 §2 (ADR 048): an admin sets up a TOTP authenticator on their profile, signs out, signs in
 * with a code from the app, then with a recovery code — on the narrowest phone, axe clean at each
 * step. The codes are computed here from the key the page shows for typing in, as an app would.
 */
test.use({ viewport: NARROW_SCREEN })

/** An admin of their own (the demo's admin never gets an authenticator): see support/session-door.mjs. */
async function freshAdmin() {
  const door = new URL('admin-with-password', process.env.E2E_SESSION_URL)
  door.searchParams.set('run', `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`)
  const response = await fetch(door)
  if (!response.ok) throw new Error(`No admin: ${await response.text()}`)
  return ((await response.json()) as { email: string }).email
}

/** The app's code for the 30-second step `offset` steps from now. */
const codeFor = (key: Uint8Array, offset = 0) =>
  generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + offset), 6)

async function signOut(page: Page) {
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
}

test('an admin sets up TOTP, signs out, signs in with a code, then with a recovery code', async ({
  page,
}) => {
  // Four sign-ins (argon2 each) and six axe passes on a shared 2-core machine.
  test.setTimeout(150_000)
  const email = await freshAdmin()
  // Without an authenticator the password alone signs in, as on a fresh install.
  await signIn(page, email)
  await expect(page).toHaveURL(/\/admin$/)

  await page.goto('/admin/profile')
  const card = page.getByRole('region', { name: 'Two-factor sign-in' })
  await expect(card).toContainText('Off.')
  await waitForHydration(page)
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
  await expect(card.getByRole('img', { name: /QR code for your authenticator app/ })).toBeVisible()
  await expectFits(page, '/admin/profile while setting up')
  await expectAccessible(page)
  await saveShots(page, 'two-factor-set-up')

  const key = decodeBase32IgnorePadding(
    ((await card.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, ''),
  )
  expect(key).toHaveLength(20)
  // A wrong code first: said beside the field, nothing turned on.
  await card.getByLabel('Code from the app').fill(codeFor(key, 5))
  await card.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()
  await expect(card.getByText(/That code is not right/)).toBeVisible()
  const setUpCode = codeFor(key)
  await card.getByLabel('Code from the app').fill(setUpCode)
  await card.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()

  const list = card.getByRole('list', { name: 'Recovery codes' })
  await expect(list.getByRole('listitem')).toHaveCount(10)
  const recoveryCodes = await list.getByRole('listitem').allTextContents()
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/)
  await expect(card).toContainText('On since')
  await expectFits(page, '/admin/profile with the recovery codes')
  await expectAccessible(page)
  await saveShots(page, 'two-factor-recovery-codes')

  // Signed out, the password alone no longer opens the back office.
  await signOut(page)
  await signIn(page, email)
  await expect(page).toHaveURL(/\/sign-in\/second-factor$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor sign-in' })).toBeVisible()
  await expect(page.getByRole('main')).toContainText(`finish signing in as ${email}`)
  await expectFits(page)
  await expectAccessible(page)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fadmin$/)

  await signIn(page, email)
  await expect(page).toHaveURL(/\/sign-in\/second-factor$/)
  await waitForHydration(page)
  // The code the set-up used is spent: a later one (the app's next) signs in.
  await page.getByLabel('Authentication code').fill(setUpCode)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText(/That code is not right/)).toBeVisible()
  await expectFits(page, '/sign-in/second-factor after a wrong code')
  await expectAccessible(page)
  await saveShots(page, 'second-factor-step')
  await page.getByLabel('Authentication code').fill(codeFor(key, 1))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/admin$/)

  // The phone is lost: a recovery code, typed in capitals, signs in once.
  await signOut(page)
  await signIn(page, email)
  await expect(page).toHaveURL(/\/sign-in\/second-factor$/)
  await waitForHydration(page)
  await page.getByLabel('Authentication code').fill(recoveryCodes[0]!.toUpperCase())
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('status').filter({ hasText: '9 recovery codes left.' })).toBeVisible()
  await page.goto('/admin/profile')
  await expect(page.getByRole('region', { name: 'Two-factor sign-in' })).toContainText(
    '9 recovery codes left.',
  )
  await expectFits(page, '/admin/profile with two-factor sign-in on')
  await expectAccessible(page)
})
