import type { Page } from '@playwright/test'
import { expect, expectAccessibleAndFits, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Retention (issue 21 §3, ADR 058) in the back office: an admin opens Acme's retention page from
 * the company list, is told a bad period in words, sets retention, reads the dry run, and places a
 * legal hold on Acme's programme, which the retention page then lists. Everything is put back before
 * the spec ends (no retention, no hold), so the worker never touches the demo data in later specs.
 */

const RETENTION = 'Retention for Acme Ltd'

async function openRetention(page: Page) {
  await page.goto('/admin/company-management?q=Acme')
  await page
    .getByRole('link', { name: /^Retention/ })
    .first()
    .click()
  await expect(page.getByRole('heading', { name: RETENTION })).toBeVisible()
  await waitForHydration(page)
}

async function saveRetention(page: Page, answers: string, accounts: string, audit: string) {
  await page.getByLabel('Keep answers and report snapshots for (months after a scheme closes)').fill(answers)
  await page.getByLabel('Delete accounts never activated or disabled after (months)').fill(accounts)
  await page.getByLabel('Keep audit entries with their personal data for (months)').fill(audit)
  await page.getByRole('button', { name: 'Save retention' }).click()
}

async function openProgramme(page: Page) {
  await page.goto('/admin/scheme-management?q=Acme%20leadership')
  await page.getByRole('link', { name: 'Acme leadership programme' }).first().click()
  await expect(page.getByRole('heading', { name: 'Acme leadership programme', level: 1 })).toBeVisible()
  await waitForHydration(page)
}

test('an admin sets retention, reads the dry run and places a legal hold', async ({ page }) => {
  await signInAs(page, 'admin@panorama.test')
  await openRetention(page)
  const dryRun = page.getByRole('region', { name: 'What the next pass would remove' })
  // Counted on request only (seconds on a large company): the button.
  await expect(dryRun).toContainText('No period is set')
  await dryRun.getByRole('button', { name: 'Run the dry run' }).click()
  await expect(dryRun).toContainText('Nothing has been changed.')
  await expect(page).toHaveURL(/\?dry-run=1$/)
  await expect(page.getByRole('region', { name: 'Last pass' })).toContainText('No pass has run')

  try {
    // Words, not a 500: in the browser as on the server.
    await saveRetention(page, '-3', '', '')
    await expect(page.getByText(/Enter how many months to keep answers after a scheme closes/)).toBeVisible()

    await saveRetention(page, '600', '600', '600')
    await expect(page.getByRole('status').filter({ hasText: 'Company saved' })).toBeVisible()
    await expect(
      page.getByLabel('Keep answers and report snapshots for (months after a scheme closes)'),
    ).toHaveValue('600')
    // Fifty years: nothing of the demo is due.
    await expect(dryRun.getByRole('definition').first()).toHaveText('0')
    await expect(dryRun).toContainText('No scheme is past its period.')
    await expectAccessibleAndFits(page, 'retention page')

    await openProgramme(page)
    const hold = page.getByRole('region', { name: 'Legal hold' })
    await hold.getByRole('button', { name: 'Place a legal hold' }).click()
    await expect(hold.getByText(/Enter why the scheme is on legal hold/)).toBeVisible()
    await hold.getByLabel('Reason').fill('Works council request 2026-14')
    await hold.getByRole('button', { name: 'Place a legal hold' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Legal hold placed' })).toBeVisible()
    await expect(hold).toContainText('On legal hold since')
    await expect(hold).toContainText('Works council request 2026-14')
    await expectAccessibleAndFits(page, 'scheme page with a legal hold')

    await openRetention(page)
    await expect(page.getByRole('region', { name: 'Schemes on legal hold' })).toContainText(
      'Works council request 2026-14',
    )
  } finally {
    await openProgramme(page)
    const lift = page.getByRole('button', { name: 'Lift the legal hold' })
    if (await lift.isVisible()) {
      await lift.click()
      await expect(page.getByRole('status').filter({ hasText: 'Legal hold lifted' })).toBeVisible()
    }
    await openRetention(page)
    await saveRetention(page, '', '', '')
    await expect(page.getByRole('status')).toBeVisible()
  }
})
