import zlib from 'node:zlib'
import { expect, test } from '@playwright/test'
import { expectAccessible, signIn } from './support/fixtures'

/** A real 2×2 PNG, made from bytes (signature, IHDR, IDAT, IEND with their CRCs). */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (buf: Buffer) => {
    let c = 0xffffffff
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([len, body, sum])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(2, 0)
  ihdr.writeUInt32BE(2, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  const raw = Buffer.from([0, 30, 58, 138, 30, 58, 138, 0, 15, 118, 110, 15, 118, 110])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

test('an admin creates a brand, uploads its logo and renames it', async ({ page }) => {
  await signIn(page, 'admin@panorama.test')
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
  await signIn(page, 'admin@panorama.test')
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/company-management')
  await expect(page).toHaveTitle(/Compan/)
  await expect(page.getByText('Acme Ltd').first()).toBeVisible()
  await expectAccessible(page)
})
