import fs from 'node:fs'
import { expect, signInAs, test, waitForHydration } from './support/fixtures'
import { isPdf, zipEntries } from '../tests/support/pdf'

/**
 * People's data, access (issue 21 §4, ADR 055) on the demo seed: Erin Employee opens her profile,
 * reads what "Download my data" holds and gets one ZIP of her data, her released report as a PDF in it.
 */
test('the employee downloads her own data as a ZIP from her profile', async ({ page }) => {
  test.setTimeout(180_000)
  await signInAs(page, 'employee@panorama.test')
  await page.goto('/user/edit-profile')
  await waitForHydration(page)
  const card = page.getByRole('region', { name: 'Download my data' })
  await expect(card).toContainText('Not included: what your colleagues answered one by one')
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 150_000 }),
    card.getByRole('link', { name: 'Download my data' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^panorama-my-data-\d{4}-\d{2}-\d{2}\.zip$/)
  const entries = await zipEntries(fs.readFileSync(await download.path()))
  const names = entries.map((e) => e.name)
  for (const name of ['README.txt', 'account.json', 'reports.json', 'given-feedback.json'])
    expect(names).toContain(name)
  const account = JSON.parse(entries.find((e) => e.name === 'account.json')!.bytes.toString('utf8'))
  expect(account.email).toBe('employee@panorama.test')
  const pdfs = entries.filter((e) => e.name.startsWith('reports/') && e.name.endsWith('.pdf'))
  expect(pdfs.length).toBeGreaterThan(0)
  for (const pdf of pdfs) expect(isPdf(pdf.bytes)).toBe(true)
  // Still on the profile: the ZIP came as an attachment.
  await expect(page).toHaveURL(/\/user\/edit-profile$/)
})
