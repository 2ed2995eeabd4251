import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, signInAs, test, waitForHydration } from './support/fixtures'
import { isPdf, pdfPages, pdfTitle, zipEntries } from '../tests/support/pdf'

/**
 * Branded PDFs (issue 19 §7, ADR 046) on the demo seed: Erin Employee downloads her released report
 * from its page ("Download PDF"); the admin downloads every released report of her scheme as one
 * ZIP from the scheme page — one PDF per released participant, each with the brand.
 */

async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), click()])
  const file = await download.path()
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(file) }
}

test('the employee downloads her released report as a branded PDF', async ({ page }) => {
  test.setTimeout(120_000)
  await signInAs(page, 'employee@panorama.test')
  await page.locator('a[href^="/user/response-"]').first().click()
  await expect(page).toHaveURL(/\/user\/response-[0-9a-f-]{36}$/)
  await waitForHydration(page)
  const brand = (await page.locator('.report-header p').first().textContent())!.split(' · ')[0]!
  const link = page.getByRole('link', { name: 'Download PDF' })
  await expect(link).toBeVisible()
  const { name, bytes } = await downloaded(page, () => link.click())
  expect(name).toMatch(/^feedback-report-erin-employee-[0-9a-f]{8}\.pdf$/)
  expect(isPdf(bytes)).toBe(true)
  expect(pdfPages(bytes)).toBeGreaterThan(1)
  expect(pdfTitle(bytes)).toBe(`Feedback report · Erin Employee · ${brand}`)
})

test('the admin downloads every released report of a scheme as one ZIP', async ({ page }) => {
  test.setTimeout(240_000)
  await signInAs(page, 'admin@panorama.test')
  await page.goto(`/admin/scheme-management?q=${encodeURIComponent('Acme leadership programme')}`)
  await page.getByRole('link', { name: 'Acme leadership programme', exact: true }).first().click()
  await expect(page).toHaveURL(/\/admin\/scheme-management\/[0-9a-f-]{36}$/)
  await waitForHydration(page)
  // The participants whose report is released (with colleagues' results or the self view alone).
  const released = await page
    .getByRole('row')
    .filter({ hasText: /Released|Self-assessment released/ })
    .count()
  expect(released).toBeGreaterThan(0)
  const { name, bytes } = await downloaded(page, () =>
    page.getByRole('link', { name: 'Download released reports (ZIP of PDFs)' }).click(),
  )
  expect(name).toBe('feedback-reports-acme-leadership-programme.zip')
  const entries = await zipEntries(bytes)
  expect(entries).toHaveLength(released)
  expect(new Set(entries.map((e) => e.name)).size).toBe(released)
  expect(entries.map((e) => e.name)).toContainEqual(expect.stringMatching(/^feedback-report-erin-employee-/))
  const brands = new Set<string>()
  for (const entry of entries) {
    expect(entry.name).toMatch(/^feedback-report-[a-z0-9-]+-[0-9a-f]{8}\.pdf$/)
    expect(isPdf(entry.bytes)).toBe(true)
    expect(pdfPages(entry.bytes)).toBeGreaterThan(1)
    const title = pdfTitle(entry.bytes)!
    expect(title).toMatch(/^Feedback report · .+ · .+$/)
    brands.add(title.split(' · ').at(-1)!)
  }
  // One scheme, one brand: on every PDF.
  expect(brands.size).toBe(1)
})
