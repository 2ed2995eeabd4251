import { expect, expectAccessible, signIn, test } from './support/fixtures'

test('an admin filters responses, opens one, reopens it with a reason and exports the answers', async ({
  page,
}) => {
  await signIn(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)

  await page.goto('/admin/answer-management')
  await expect(page.getByRole('heading', { level: 1, name: 'Answer management' })).toBeVisible()
  await expectAccessible(page)

  // Filters live in the URL.
  await page.getByLabel('State', { exact: true }).selectOption({ label: 'Submitted' })
  // A peer's answers about Erin: her report is released, so reopening them changes no report (ADR
  // 022) and leaves the other specs' demo states (Wren waiting, Sam below the threshold) alone.
  await page.getByLabel('Relationship', { exact: true }).selectOption({ value: 'peer' })
  await page.getByLabel('Subject (name or e-mail)').fill('employee@panorama.test')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/state=submitted/)
  await expect(page).toHaveURL(/relationship=peer/)
  const rows = page.getByRole('table').getByRole('row')
  await expect(rows.nth(1)).toBeVisible()
  await expectAccessible(page)

  // The export keeps the filters; a download, UTF-8 with a BOM.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^answers-\d{4}-\d{2}-\d{2}\.csv$/)
  const stream = await download.createReadStream()
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  const csv = Buffer.concat(chunks)
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  expect(csv.toString('utf8')).toContain(
    'scheme,subject,relationship group,rater,competency,question,value,text',
  )

  // Open one response: read-only, with who answered.
  await rows.nth(1).getByRole('link').click()
  await expect(page).toHaveURL(/\/admin\/answer-management\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1, name: /Response about/ })).toBeVisible()
  await expect(page.getByText('Answered by')).toBeVisible()
  await expectAccessible(page)

  // Reopen: a reason is required; then the respondent can answer again (or the page says why not).
  const reopen = page.getByRole('button', { name: 'Reopen' })
  if (await reopen.isVisible()) {
    await reopen.click()
    await expect(page.getByText('Say why the answers are reopened')).toBeVisible()
    await page.getByLabel('Reason (sent to the respondent)').fill('Please check your answers to section one.')
    await reopen.click()
    await expect(page.getByRole('status').filter({ hasText: 'Answers reopened' })).toBeVisible()
    await expect(page.getByText('Reopened', { exact: true }).first()).toBeVisible()
  } else {
    await expect(page.getByText(/only while their scheme is open|Only submitted answers/)).toBeVisible()
  }
  await expectAccessible(page)
})
