import { expect, expectAccessible, signIn, test, waitForHydration } from './support/fixtures'

/**
 * An admin brings a client's people in from a spreadsheet: the preview shows the two rows that
 * cannot be imported and why, the admin fixes the file, uploads it again and imports it.
 */
test('an admin imports employees from a CSV, fixing the two bad rows the preview shows', async ({ page }) => {
  const run = Date.now().toString(36)
  const person = (n: number) =>
    `Imported Person ${n} ${run};person.${n}.${run}@example.test;Acme Ltd;+44 20 7946 000${n}`
  const csv = (rows: string[]) => Buffer.from(`\uFEFFName;E-mail;Company;Phone\r\n${rows.join('\r\n')}\r\n`)

  await signIn(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: 'Employees' })
    .click()
  await expect(page).toHaveURL(/\/admin\/employee-management$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Employees' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Download the template (CSV)' })).toBeVisible()
  await expectAccessible(page)
  await waitForHydration(page)

  // A spreadsheet with two mistakes: an address that is not one, and a company that does not exist.
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({
    name: 'acme-team.csv',
    mimeType: 'text/csv',
    buffer: csv([
      person(1),
      person(2),
      `Broken Address ${run};not-an-address;Acme Ltd;`,
      `Lost Soul ${run};lost.${run}@example.test;Acme Limited;`,
      person(3),
    ]),
  })
  await page.getByRole('button', { name: 'Upload and preview' }).click()
  await expect(page).toHaveURL(/\/admin\/employee-management\?import=[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { name: 'Preview of “acme-team.csv”' })).toBeVisible()
  await expect(page.getByText('5 rows read: 3 rows are ready to import')).toBeVisible()
  const rows = page.getByRole('table', { name: 'Rows of acme-team.csv' })
  await expect(rows.getByRole('row', { name: /Broken Address/ })).toContainText(
    'The e-mail address is not valid.',
  )
  await expect(rows.getByRole('row', { name: /Lost Soul/ })).toContainText('No company has this name')
  await expect(page.getByRole('link', { name: 'Download the rows with problems (CSV)' })).toBeVisible()
  await expectAccessible(page)

  await page.getByRole('link', { name: 'Show only the rows with problems (2)' }).click()
  const problems = page.getByRole('table', { name: 'Rows with problems of acme-team.csv' })
  await expect(problems.getByRole('row')).toHaveCount(3)

  // Not this file: discard it, fix the two rows and upload it again.
  await page.getByRole('button', { name: 'Discard this file' }).click()
  await expect(page).toHaveURL(/\/admin\/employee-management$/)
  await expect(page.getByRole('status').filter({ hasText: 'File discarded' })).toBeVisible()
  await waitForHydration(page)
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({
    name: 'acme-team.csv',
    mimeType: 'text/csv',
    buffer: csv([
      person(1),
      person(2),
      `Fixed Address ${run};fixed.${run}@example.test;Acme Ltd;`,
      `Found Soul ${run};found.${run}@example.test;Acme Ltd;`,
      person(3),
    ]),
  })
  await page.getByRole('button', { name: 'Upload and preview' }).click()
  await expect(page.getByText('5 rows read: 5 rows are ready to import (5 new employees')).toBeVisible()
  await page.getByRole('button', { name: 'Import 5 employees' }).click()

  await expect(page.getByRole('heading', { name: 'Imported “acme-team.csv”' })).toBeVisible()
  await expect(page.getByText('5 employees created, 0 updated, 0 unchanged, 0 rows skipped.')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toBeVisible()
  await expectAccessible(page)

  await page.getByRole('link', { name: 'Back to the employees' }).click()
  await page.getByLabel('Search by name or e-mail').fill(run)
  await page.getByRole('button', { name: 'Show' }).click()
  const listed = page.getByRole('table', { name: /^Employees matching the filters/ })
  await expect(listed.getByRole('row')).toHaveCount(6)
  await expect(listed.getByRole('link', { name: `Found Soul ${run}` })).toBeVisible()
  await expectAccessible(page)

  // The new employee's page: invited (no password yet), in Acme Ltd.
  await listed.getByRole('link', { name: `Found Soul ${run}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Found Soul ${run}` })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send the activation e-mail again' })).toBeVisible()
  await expectAccessible(page)
})
