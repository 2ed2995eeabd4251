import { expect, expectAccessible, signInAs, test, waitForHydration } from './support/fixtures'

/**
 * Reporting lines and the group outlook (issue 18 §1 and §3, ADR 041) in a real browser, on the
 * demo seed's operations team (Erin manages Sam, Wren and Noah). The admin reads the line both
 * ways and cannot close a circle; Sam sees Erin suggested on the invite page, has the form filled in
 * for her, and reads how the report will group the colleague already invited. Nothing is saved,
 * so the seed stays as other specs expect it.
 */

test('an admin reads a reporting line both ways and cannot close a circle', async ({ page }) => {
  await signInAs(page, 'admin@panorama.test')
  await page.goto('/admin/employee-management?q=employee2%40panorama.test')
  await page.getByRole('link', { name: 'Sam Second' }).click()
  const line = page.getByRole('region', { name: 'Reporting line' })
  await expect(line).toContainText('Reports to Erin Employee.')
  await expect(page.getByLabel('Job title (optional)')).toHaveValue('Operations analyst')
  await expectAccessible(page)

  await line.getByRole('link', { name: 'Erin Employee' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Erin Employee' })).toBeVisible()
  const reports = page.getByRole('region', { name: 'Reporting line' })
  await expect(reports.getByRole('heading', { name: '3 direct reports' })).toBeVisible()
  for (const name of ['Noah Newcomer', 'Sam Second', 'Wren Waiting'])
    await expect(reports.getByRole('link', { name })).toBeVisible()

  // Erin cannot report to someone who reports to her.
  await waitForHydration(page)
  await page.getByLabel('Manager’s e-mail address (optional)').fill('employee2@panorama.test')
  await page.getByRole('button', { name: 'Save details' }).click()
  const manager = page.getByLabel('Manager’s e-mail address (optional)')
  await expect(
    page.getByText('Sam Second already reports to this employee, directly or through others'),
  ).toBeVisible()
  await expect(manager).toHaveAttribute('aria-invalid', 'true')
  await page.reload()
  // Nothing was saved: she still reports to Dana (the seed's manager of Erin, issue 19 §2).
  await expect(page.getByRole('region', { name: 'Reporting line' })).toContainText(
    'Reports to Dana Director.',
  )

  // The list shows the line, and filters by a department of the chosen company.
  const erin = new URL(page.url()).pathname.split('/').pop()
  await page.goto(`/admin/employee-management?manager=${erin}`)
  await expect(page.getByText('Showing the direct reports of Erin Employee')).toBeVisible()
  await expect(page.getByRole('row')).toHaveCount(4)
  await expectAccessible(page)
})

test('the employee’s manager is suggested, and the outlook says how the report will group them', async ({
  page,
}) => {
  await signInAs(page, 'employee2@panorama.test')
  await page.goto('/user/colleague-invite')
  await waitForHydration(page)
  const outlook = page.getByRole('region', { name: 'How the report will group them' })
  await expect(outlook).toContainText('once at least 3 of them have answered')
  await expect(outlook).toContainText('Not shown until at least 3 colleagues have answered.')

  const form = page.getByRole('region', { name: 'Invite a colleague' })
  await expect(form).toContainText('Your manager on record, Erin Employee, is not invited yet.')
  await expect(form.getByLabel('Name')).toHaveValue('')
  await form.getByRole('link', { name: 'Fill in the form for them' }).click()
  await expect(page).toHaveURL(/fill=manager/)
  await expect(form.getByLabel('Name')).toHaveValue('Erin Employee')
  await expect(form.getByLabel('E-mail address')).toHaveValue('employee@panorama.test')
  await expect(form.getByLabel('Relationship')).toHaveValue('manager')
  await expect(form).toContainText('The form is filled in for them.')
  await expectAccessible(page)
})
