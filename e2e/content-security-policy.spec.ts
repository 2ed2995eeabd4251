import type { Page } from '@playwright/test'
import { expect, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * The pages run within their Content-Security-Policy (app/server/security-headers.ts): no script,
 * style or eval the policy refuses. A refusal is reported to the page as a `securitypolicyviolation`
 * event (and in the browser's Issues panel, which costs Lighthouse's best-practices score) even when
 * the code that tried catches the error, as Zod's probe for `new Function` did on every form page.
 */

type Violation = { directive: string; blocked: string; source: string }

async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: Violation[] = []
    ;(window as unknown as { __violations: Violation[] }).__violations = seen
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      })
    })
  })
}

async function violationsOn(page: Page, path: string) {
  await page.goto(path)
  await waitForHydration(page)
  // What a visitor does first on a form page: type, which runs the form's checks.
  const field = page.getByRole('textbox').first()
  if (await field.count()) await field.fill('a')
  return page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations)
}

test('the public pages and their forms run without a CSP violation', async ({ page }) => {
  await watchViolations(page)
  for (const path of ['/', '/sign-in', '/forgot-password']) {
    expect(await violationsOn(page, path), path).toEqual([])
  }
})

test('an employee’s pages run without a CSP violation', async ({ page }) => {
  await watchViolations(page)
  await signInAs(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  const report = await page.locator('a[href^="/user/response-"]').first().getAttribute('href')
  for (const path of ['/user', '/user/colleague-invite', '/user/edit-profile', report!]) {
    expect(await violationsOn(page, path), path).toEqual([])
  }
})
