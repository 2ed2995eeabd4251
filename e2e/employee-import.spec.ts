import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * An admin brings a client's people in from a spreadsheet: the preview shows the two rows that
 * cannot be imported and why, the admin fixes the file, uploads it again and imports it.
 */
test('an admin imports employees from a CSV, fixing the two bad rows the preview shows', async ({ page }) => {
  const run = Date.now().toString(36)
  const person = (n: number) =>
    `Imported Person ${n} ${run};person.${n}.${run}@example.test;Acme Ltd;+44 20 7946 000${n}`
  const csv = (rows: string[]) => Buffer.from(`\uFEFFName;E-mail;Company;Phone\r\n${rows.join('\r\n')}\r\n`)

  await signInAs(page, 'admin@panorama.test')
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
  // A near miss of an existing company is offered as a correction (issue 15, A8).
  await expect(rows.getByRole('row', { name: /Lost Soul/ })).toContainText(
    'Unknown company “Acme Limited” — did you mean Acme Ltd?',
  )
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

/**
 * Issue 15, A8, on a phone: the preview says out loud that a colleague's account becomes an
 * employee's (keeping its name), flags a repeated address against its first row, and suggests the
 * company a typo meant. Preview only, then discarded: Casey's seeded invitation stays as it is.
 */
test('on a phone, the preview tells of a colleague becoming an employee, a repeat and a near company name', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const run = Date.now().toString(36)
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/employee-management')
  await waitForHydration(page)
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({
    name: 'phone-check.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'name,email,company',
        'Casey Employee,colleague@panorama.test,Acme Ltd',
        `Typo Person ${run},typo.${run}@example.test,Acme Ldt`,
        `Twin ${run},twin.${run}@example.test,Acme Ltd`,
        `Twin Again ${run},twin.${run}@example.test,Acme Ltd`,
      ].join('\n'),
    ),
  })
  await page.getByRole('button', { name: 'Upload and preview' }).click()
  await expect(page.getByRole('heading', { name: 'Preview of “phone-check.csv”' })).toBeVisible()
  await expect(page.getByText('of which 1 colleague becomes an employee', { exact: false })).toBeVisible()
  const rows = page.getByRole('table', { name: 'Rows of phone-check.csv' })
  await expect(rows.getByRole('row', { name: /colleague@panorama\.test/ })).toContainText(
    'Ready: already has an account as a colleague; becomes an employee of Acme Ltd. Keeps the name “Casey Colleague” unless you update names.',
  )
  await expect(rows.getByRole('row', { name: /Typo Person/ })).toContainText(
    'Unknown company “Acme Ldt” — did you mean Acme Ltd?',
  )
  await expect(rows.getByRole('row', { name: /Twin Again/ })).toContainText('Duplicate of row 4')
  await expect(page.getByLabel('Update names (and phones) of existing people')).not.toBeChecked()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Discard this file' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'File discarded' })).toBeVisible()
})

/**
 * Issue 18 §1: a file with managers, departments and job titles. The preview shows them in one
 * column (narrow enough for a phone), accepts a manager who comes later in the file, and refuses a
 * manager who is not an employee of the row's company, and a circle of two. Screenshots at 1280
 * and 390 px; nothing is imported (the seed's people stay as they are).
 */
test('the preview shows managers, departments and job titles, and a manager problem', async ({ page }) => {
  const run = Date.now().toString(36)
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/employee-management')
  await waitForHydration(page)
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({
    name: 'org-chart.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Name,E-mail,Company,Manager e-mail,Team,Job title',
        `Rita Report ${run},rita.${run}@example.test,Acme Ltd,hugo.${run}@example.test,Sales,Account Manager`,
        `Hugo Head ${run},hugo.${run}@example.test,Acme Ltd,employee@panorama.test,Sales,Head of Sales`,
        `Olga Outside ${run},olga.${run}@example.test,Acme Ltd,admin@panorama.test,Finance,Controller`,
        `Cy Circle ${run},cy.${run}@example.test,Acme Ltd,dee.${run}@example.test,,`,
        `Dee Circle ${run},dee.${run}@example.test,Acme Ltd,cy.${run}@example.test,,`,
      ].join('\n'),
    ),
  })
  await page.getByRole('button', { name: 'Upload and preview' }).click()
  await expect(page.getByRole('heading', { name: 'Preview of “org-chart.csv”' })).toBeVisible()
  await expect(page.getByText('5 rows read: 2 rows are ready to import')).toBeVisible()
  const rows = page.getByRole('table', { name: 'Rows of org-chart.csv' })
  await expect(rows.getByRole('columnheader', { name: 'Manager, department, job title' })).toBeVisible()
  await expect(rows.getByRole('row', { name: /Rita Report/ })).toContainText(
    `Manager: hugo.${run}@example.test`,
  )
  await expect(rows.getByRole('row', { name: /Rita Report/ })).toContainText('Ready: new employee')
  await expect(rows.getByRole('row', { name: /Olga Outside/ })).toContainText(
    'The manager’s e-mail address is not that of an employee of this company',
  )
  await expect(rows.getByRole('row', { name: /Cy Circle/ })).toContainText(
    'The managers go round in a circle',
  )
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('import-org-1280.png'), fullPage: true })

  await page.setViewportSize({ width: 390, height: 844 })
  await expect(rows.getByRole('row', { name: /Olga Outside/ })).toContainText('not that of an employee')
  await page.screenshot({ path: test.info().outputPath('import-org-390.png'), fullPage: true })
  await page.setViewportSize({ width: 360, height: 800 })
  // The table scrolls inside its own box; the page itself never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await expectAccessible(page)

  await page.getByRole('button', { name: 'Discard this file' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'File discarded' })).toBeVisible()
})
