import zlib from 'node:zlib'
import { expect, test, type Page } from '@playwright/test'
import { expectAccessible, signIn, waitForHydration } from './support/fixtures'

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

const SEEDED_NAME = 'Erin Employee'

/** Whether an <img> has actually loaded (a broken src has no natural size). */
const loaded = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)

async function saveName(page: Page, name: string) {
  await page.getByLabel('Display name').fill(name)
  await page.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toBeVisible()
  await expect(page.getByRole('banner')).toContainText(name)
}

// The seeded employee is shared with other specs: their name and photo are put back at the end, and
// their password and e-mail address are never touched here (the integration tests cover those).
test('the employee changes their name and photo and sees both in the header', async ({ page }) => {
  await signIn(page, 'employee@panorama.test')
  await expect(page).toHaveURL(/\/user$/)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click()
  await expect(page).toHaveURL(/\/user\/edit-profile$/)
  await expect(page).toHaveTitle('Edit profile · Panorama')
  await waitForHydration(page)
  await expect(page.getByLabel('Display name')).toHaveValue(SEEDED_NAME)
  await expectAccessible(page)

  const header = page.getByRole('banner')
  const newName = `Erin Renamed ${Date.now()}`
  await saveName(page, newName)
  await expect(header).not.toContainText(SEEDED_NAME)

  // A bad phone number is caught beside the field before anything is sent.
  await page.getByLabel('Phone (optional)').fill('call me maybe')
  await page.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByText('Enter a phone number such as +44 20 7946 0958')).toBeVisible()
  await page.getByLabel('Phone (optional)').fill('')

  await page
    .getByLabel('Upload a photo')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() })
  await page.getByRole('button', { name: 'Save photo' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Photo saved' })).toBeVisible()
  const photo = page.getByRole('img', { name: `Your current photo, ${newName}` })
  await expect(photo).toBeVisible()
  const src = await photo.getAttribute('src')
  expect(src).toMatch(/^\/files\/[0-9a-f-]{36}$/)
  // The same file, decorative (alt=""), beside the name in the header, and really loaded.
  const headerPhoto = `header img[src="${src}"]`
  await expect(page.locator(headerPhoto)).toBeVisible()
  await expect(page.locator(headerPhoto)).toHaveAttribute('alt', '')
  expect(await loaded(page, headerPhoto)).toBe(true)
  await expectAccessible(page)

  // Put the seeded employee back as the other specs expect them.
  await page.getByRole('button', { name: 'Remove photo' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Photo removed' })).toBeVisible()
  await expect(page.locator('header img')).toHaveCount(0)
  await saveName(page, SEEDED_NAME)
  await expect(header).toContainText(SEEDED_NAME)
})
