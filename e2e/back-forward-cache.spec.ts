import type { Page } from '@playwright/test'
import config from '../playwright.config'
import { expect, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Signed-in pages may be kept in the browser's back/forward cache (ADR 009): the back button shows
 * them at once, and the page then reads its data again, so that a session ended in the meantime
 * sends it to the sign-in page instead of leaving personal data on screen.
 */

// Playwright starts Chromium with the back/forward cache turned off; these tests need it on.
test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] },
})

const EMPLOYEE = 'employee@panorama.test'

/** Marks the page so that its return from the back/forward cache can be told from a fresh load. */
async function mark(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { restoredFromCache?: boolean }
    w.restoredFromCache = false
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) w.restoredFromCache = true
    })
  })
}

/** True when this page came back from the cache; undefined when it was loaded afresh. */
function restoredFromCache(page: Page) {
  return page.evaluate(() => (window as unknown as { restoredFromCache?: boolean }).restoredFromCache)
}

/** Why Chromium did not restore the page, when it did not (for the failure message). */
function notRestoredReasons(page: Page) {
  return page.evaluate(() =>
    JSON.stringify(
      (performance.getEntriesByType('navigation')[0] as unknown as { notRestoredReasons?: unknown })
        ?.notRestoredReasons ?? null,
    ),
  )
}

test('the back button shows the employee’s home from the cache, and the page reads its data again', async ({
  page,
}) => {
  await signInAs(page, EMPLOYEE)
  await expect(page).toHaveURL(/\/user$/)
  await waitForHydration(page)
  await mark(page)

  // Another document, then back.
  await page.goto('/user/edit-profile')
  await waitForHydration(page)
  const reread = page.waitForRequest((r) => new URL(r.url()).pathname === '/user.data')
  // A page restored from the cache fires no load event: wait for the navigation itself only.
  await page.goBack({ waitUntil: 'commit' })
  await expect(page).toHaveURL(/\/user$/)
  expect(await restoredFromCache(page), await notRestoredReasons(page)).toBe(true)
  await reread
  await expect(page.getByRole('heading', { level: 1, name: 'My feedback' })).toBeVisible()
})

test('a page shown from the cache after its session ended leaves for the sign-in page', async ({
  page,
  context,
}) => {
  await signInAs(page, EMPLOYEE)
  await expect(page).toHaveURL(/\/user$/)
  await waitForHydration(page)
  await mark(page)
  const card = page.getByRole('article', { name: 'Acme leadership programme' })
  await expect(card).toBeVisible()

  await page.goto('/user/edit-profile')
  await waitForHydration(page)
  // The session ends while the page sits in the cache (its cookie gone: expired, or signed out).
  await context.clearCookies()
  // A page restored from the cache fires no load event: wait for the navigation itself only.
  await page.goBack({ waitUntil: 'commit' })
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fuser$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/sign in/i)
  await expect(card).toHaveCount(0)
})
