import { expect, expectAccessible, signInAs, test } from './support/fixtures'
import { tinyPng } from './support/png'

test('an admin creates a brand, uploads its logo and renames it', async ({ page }) => {
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Brands' }).click()
  await expect(page).toHaveURL(/\/admin\/brand-management$/)
  await expect(
    page
      .getByRole('cell', { name: 'Northwind Consulting' })
      .or(page.getByRole('link', { name: 'Northwind Consulting' }))
      .first(),
  ).toBeVisible()
  await expectAccessible(page)

  const name = `Harbour Partners ${Date.now()}`
  await page.getByLabel('Brand name').fill(name)
  await page.getByRole('button', { name: /create brand/i }).click()
  // Creating leads to the brand's own page, where the logo and contact links are set.
  await expect(page).toHaveURL(/\/admin\/brand-management\/[0-9a-f-]{36}$/)
  await expect(page.getByLabel('Brand name')).toHaveValue(name)
  await expectAccessible(page)

  await page
    .getByLabel('Upload a logo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng() })
  await page.getByLabel('Callback page').fill('https://harbour.example/callback')
  await page.getByRole('button', { name: 'Save brand' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Brand saved' })).toBeVisible()
  const logo = page.getByRole('img', { name: `Current logo of ${name}` })
  await expect(logo).toBeVisible()
  const src = await logo.getAttribute('src')
  const served = await page.request.get(src!)
  expect(served.headers()['content-type']).toBe('image/png')
  expect(served.headers()['x-content-type-options']).toBe('nosniff')

  // A file that only claims to be an image is refused with a clear message.
  await page
    .getByLabel('Upload a new logo')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') })
  await page.getByRole('button', { name: 'Save brand' }).click()
  await expect(page.getByText('Upload a PNG, JPEG or WebP image.')).toBeVisible()
  await expectAccessible(page)

  await page.getByLabel('Brand name').fill(`${name} (renamed)`)
  await page.getByLabel('Upload a new logo').setInputFiles([])
  await page.getByRole('button', { name: 'Save brand' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Brand saved' })).toBeVisible()
  await expect(page.getByLabel('Brand name')).toHaveValue(`${name} (renamed)`)
  await expect(page.getByRole('img', { name: `Current logo of ${name} (renamed)` })).toBeVisible()
})

test('company management lists the demo company with its brand', async ({ page }) => {
  await signInAs(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/company-management')
  await expect(page).toHaveTitle(/Compan/)
  await expect(page.getByText('Acme Ltd').first()).toBeVisible()
  await expectAccessible(page)
})
