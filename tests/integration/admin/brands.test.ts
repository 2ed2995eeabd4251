import { and, eq, inArray, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, brands, files } from '#db/schema/index'
import { createBrand, createCompany } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, signedIn, useTestServer } from '#tests/support/app'

/**
 * Brand management through the real HTTP stack (the production build): the list, create, edit,
 * logo upload, delete, and every way a request can be wrong.
 */
const db = useTestDatabase()
const server = useTestServer()

const LIST = '/admin/brand-management'
let admin = { id: '' }
let adminCookie = ''
let employeeCookie = ''

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  employeeCookie = (await signedIn({ role: 'employee' })).cookie
})

// A real 1×1 PNG, byte for byte.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

const { post, follow } = client(server, () => adminCookie)

function hasToastCookie(response: Response) {
  return response.headers.getSetCookie().some((c) => c.startsWith('__toast=') && !/max-age=0/i.test(c))
}

const countBrands = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(brands)
  )[0]!.n
const countFiles = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(files)
  )[0]!.n
const auditFor = (entityId: string) =>
  db()
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'brand'), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.at)
const getRow = async (id: string) => (await db().select().from(brands).where(eq(brands.id, id)))[0]

const validUpdate = (overrides: Record<string, string> = {}) => ({
  intent: 'update',
  name: 'Harbour Consulting',
  primaryColor: '#123456',
  accentColor: '#abcdef',
  senderName: 'Harbour People Team',
  callbackUrl: 'https://harbour.example.com/callback',
  contactEmail: 'Team@Harbour.example.com',
  profileUrl: 'https://www.linkedin.com/company/harbour',
  ...overrides,
})

/** Hrefs in the page, decoded from HTML. */
function hrefs(html: string, pattern: RegExp) {
  return [...html.matchAll(pattern)].map((m) => m[1]!.replaceAll('&amp;', '&'))
}

describe('create', () => {
  test('creates a brand, audits it, and opens its page with a toast', async () => {
    const response = await post(LIST, {
      intent: 'create',
      name: '  Northwind Advisory  ',
      primaryColor: '#112233',
      accentColor: '#AABBCC',
    })
    expect(response.status).toBe(302)
    expect(hasToastCookie(response)).toBe(true)
    const id = location(response)!.split('/').pop()!
    expect(location(response)).toBe(`${LIST}/${id}`)
    const row = await getRow(id)
    expect(row).toMatchObject({
      name: 'Northwind Advisory',
      primaryColor: '#112233',
      accentColor: '#aabbcc',
      senderName: null,
      logoFileId: null,
    })
    expect(await auditFor(id)).toEqual([
      {
        action: 'brand.create',
        actorId: admin.id,
        details: { name: 'Northwind Advisory', primaryColor: '#112233', accentColor: '#aabbcc' },
      },
    ])
    const page = await follow(response)
    expect(page).toContain('Brand created')
    expect(page).toContain('<title>Northwind Advisory · Brand management · Panorama admin</title>')
  })

  test('the toast names the brand in the possessive without quotation marks around it (issue 15, B12)', async () => {
    const page = await follow(
      await post(LIST, {
        intent: 'create',
        name: 'Harbour Partners',
        primaryColor: '#112233',
        accentColor: '#aabbcc',
      }),
    )
    expect(page).toContain('Add Harbour Partners’ logo and contact links here, or keep the defaults.')
    expect(page).not.toContain('”’s')
  })

  test.each([
    ['an empty name', { name: '' }, 'Enter the brand’s name.'],
    ['a blank name', { name: '   ' }, 'Enter the brand’s name.'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'The name must be 100 characters or fewer.'],
    ['a colour name', { primaryColor: 'blue' }, 'Enter the primary colour as # followed by six hex digits'],
    [
      'a short hex colour',
      { accentColor: '#abc' },
      'Enter the accent colour as # followed by six hex digits',
    ],
    ['a missing colour', { primaryColor: '' }, 'Enter the primary colour.'],
  ])('refuses %s with a message and writes nothing', async (_label, overrides, message) => {
    const before = await countBrands()
    const response = await post(LIST, {
      intent: 'create',
      name: 'Valid Name',
      primaryColor: '#112233',
      accentColor: '#445566',
      ...overrides,
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain(message)
    expect(await countBrands()).toBe(before)
  })

  test('refuses a name another brand has (ignoring case)', async () => {
    await createBrand({ name: 'Duplicate Partners' })
    const before = await countBrands()
    const response = await post(LIST, {
      intent: 'create',
      name: 'duplicate partners',
      primaryColor: '#112233',
      accentColor: '#445566',
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('A brand called “duplicate partners” already exists.')
    expect(await countBrands()).toBe(before)
  })

  test('an empty POST, a form without intent and a non-form body are 400s, not 500s', async () => {
    for (const response of [
      await post(LIST, {}),
      await post(LIST, { name: 'No intent' }),
      await send(server, LIST, { json: { intent: 'create', name: 'JSON' }, cookie: adminCookie }),
    ]) {
      expect(response.status).toBe(400)
      expect(await response.text()).toContain('This form could not be read.')
    }
  })
})

describe('edit', () => {
  test('saves every field, turns blank overrides into null, and audits what changed', async () => {
    const brand = await createBrand({ name: 'Harbour', senderName: 'Old sender' })
    const response = await post(`${LIST}/${brand.id}`, validUpdate())
    expect(response.status).toBe(302)
    expect(location(response)).toBe(`${LIST}/${brand.id}`)
    expect(hasToastCookie(response)).toBe(true)
    expect(await follow(response)).toContain('Brand saved')
    expect(await getRow(brand.id)).toMatchObject({
      name: 'Harbour Consulting',
      primaryColor: '#123456',
      accentColor: '#abcdef',
      senderName: 'Harbour People Team',
      callbackUrl: 'https://harbour.example.com/callback',
      contactEmail: 'team@harbour.example.com',
      profileUrl: 'https://www.linkedin.com/company/harbour',
    })

    const cleared = await post(
      `${LIST}/${brand.id}`,
      validUpdate({ senderName: '', callbackUrl: '', contactEmail: '  ', profileUrl: '' }),
    )
    // A blank-looking e-mail is still not an e-mail; the three truly empty ones are fine.
    expect(cleared.status).toBe(400)
    const ok = await post(
      `${LIST}/${brand.id}`,
      validUpdate({ senderName: '', callbackUrl: '', contactEmail: '', profileUrl: '' }),
    )
    expect(ok.status).toBe(302)
    expect(await getRow(brand.id)).toMatchObject({
      senderName: null,
      callbackUrl: null,
      contactEmail: null,
      profileUrl: null,
    })

    const audit = await auditFor(brand.id)
    expect(audit.map((a) => a.action)).toEqual(['brand.update', 'brand.update'])
    expect(audit[0]!.details).toEqual({
      changes: {
        name: { from: 'Harbour', to: 'Harbour Consulting' },
        primaryColor: { from: '#1d4ed8', to: '#123456' },
        accentColor: { from: '#0f766e', to: '#abcdef' },
        senderName: { from: 'Old sender', to: 'Harbour People Team' },
        callbackUrl: { from: null, to: 'https://harbour.example.com/callback' },
        contactEmail: { from: null, to: 'team@harbour.example.com' },
        profileUrl: { from: null, to: 'https://www.linkedin.com/company/harbour' },
      },
    })
  })

  test('saving unchanged details writes nothing and says so', async () => {
    const brand = await createBrand({ name: 'Steady Co', primaryColor: '#000000', accentColor: '#ffffff' })
    const response = await post(`${LIST}/${brand.id}`, {
      intent: 'update',
      name: 'Steady Co',
      primaryColor: '#000000',
      accentColor: '#ffffff',
    })
    expect(await follow(response)).toContain('Nothing to save')
    expect(await auditFor(brand.id)).toEqual([])
  })

  test.each([
    ['an empty name', { name: '' }, 'Enter the brand’s name.'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'The name must be 100 characters or fewer.'],
    [
      'a bad primary colour',
      { primaryColor: '#12345g' },
      'Enter the primary colour as # followed by six hex digits',
    ],
    [
      'a bad accent colour',
      { accentColor: 'rgb(1,2,3)' },
      'Enter the accent colour as # followed by six hex digits',
    ],
    [
      'a sender name over 100 characters',
      { senderName: 's'.repeat(101) },
      'The sender name must be 100 characters or fewer.',
    ],
    [
      'a sender name with a line break',
      { senderName: 'Team\r\nBcc: x@y.z' },
      'The sender name cannot contain line breaks',
    ],
    [
      'a callback page that is not a URL',
      { callbackUrl: 'not a url' },
      'Enter the callback page as a full web address',
    ],
    [
      'a javascript: callback page',
      { callbackUrl: 'javascript:alert(1)' },
      'Enter the callback page as a full web address',
    ],
    [
      'an ftp profile link',
      { profileUrl: 'ftp://files.example.com/x' },
      'Enter the profile link as a full web address',
    ],
    [
      'a profile link without a host',
      { profileUrl: 'https://' },
      'Enter the profile link as a full web address',
    ],
    [
      'a contact e-mail without @',
      { contactEmail: 'team.example.com' },
      'Enter the contact e-mail as an address',
    ],
    [
      'a contact e-mail with spaces',
      { contactEmail: 'team @example.com' },
      'Enter the contact e-mail as an address',
    ],
  ])('refuses %s with the field’s message and changes nothing', async (label, overrides, message) => {
    const brand = await createBrand({ name: `Unchanged Ltd (${label})` })
    const before = await getRow(brand.id)
    const response = await post(`${LIST}/${brand.id}`, validUpdate(overrides))
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain(message)
    expect(html).toContain('aria-invalid="true"')
    expect(await getRow(brand.id)).toEqual(before)
    expect(await auditFor(brand.id)).toEqual([])
  })

  test('refuses renaming to another brand’s name', async () => {
    await createBrand({ name: 'Taken Name' })
    const brand = await createBrand({ name: 'Free Name' })
    const response = await post(`${LIST}/${brand.id}`, validUpdate({ name: 'TAKEN NAME' }))
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('A brand called “TAKEN NAME” already exists.')
    expect((await getRow(brand.id))!.name).toBe('Free Name')
  })

  test('the edit page shows every field filled in, with a meaningful title', async () => {
    const brand = await createBrand({
      name: 'Shown & Co',
      senderName: 'Shown Team',
      contactEmail: 'hi@shown.example.com',
    })
    const response = await send(server, `${LIST}/${brand.id}`, { cookie: adminCookie })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('<title>Shown &amp; Co · Brand management · Panorama admin</title>')
    expect(html).toContain('value="Shown Team"')
    expect(html).toContain('value="hi@shown.example.com"')
    expect(html).toMatch(/enctype="multipart\/form-data"/i)
    expect(html).toContain('No logo yet')
  })

  test('an unknown, malformed or missing id is a 404; "new" leads to the create form', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' OR '1'='1"]) {
      const path = `${LIST}/${encodeURIComponent(id)}`
      expect((await send(server, path, { cookie: adminCookie })).status).toBe(404)
      expect((await post(path, validUpdate())).status).toBe(404)
    }
    const response = await send(server, `${LIST}/new`, { cookie: adminCookie })
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe(`${LIST}#new-brand`)
  })

  test('an empty POST to a brand is a 400 with a message', async () => {
    const brand = await createBrand()
    const response = await post(`${LIST}/${brand.id}`, {})
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('This form could not be read.')
  })
})

describe('logo', () => {
  function upload(
    fields: Record<string, string>,
    file?: { bytes: Uint8Array<ArrayBuffer>; type: string; name: string },
  ) {
    const form = new FormData()
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    if (file) form.append('logo', new Blob([file.bytes], { type: file.type }), file.name)
    return form
  }
  const keep = (brand: { name: string; primaryColor: string; accentColor: string }) => ({
    intent: 'update',
    name: brand.name,
    primaryColor: brand.primaryColor,
    accentColor: brand.accentColor,
  })

  test('a PNG is stored in files, served with its type and nosniff, and shown on the page', async () => {
    const brand = await createBrand({ name: 'Logo Works' })
    const response = await post(
      `${LIST}/${brand.id}`,
      upload(keep(brand), { bytes: PNG, type: 'image/png', name: 'logo.png' }),
    )
    expect(response.status).toBe(302)
    expect(await follow(response)).toContain('Brand saved')
    const row = await getRow(brand.id)
    expect(row!.logoFileId).toBeTruthy()
    const [file] = await db().select().from(files).where(eq(files.id, row!.logoFileId!))
    expect(file).toMatchObject({ mime: 'image/png', size: PNG.byteLength, ownerId: brand.id })

    const served = await send(server, `/files/${row!.logoFileId}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('Content-Type')).toBe('image/png')
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
    // Shown from other origins: mail clients and the sandboxed (opaque-origin) e-mail previews.
    expect(served.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin')
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true)

    const page = await (await send(server, `${LIST}/${brand.id}`, { cookie: adminCookie })).text()
    expect(page).toContain(`src="/files/${row!.logoFileId}"`)
    expect(page).toContain(`alt="Current logo of Logo Works"`)
    expect(page).toContain('Remove the current logo')

    const audit = await auditFor(brand.id)
    expect(audit.at(-1)!.details).toEqual({ changes: { logoFileId: { from: null, to: row!.logoFileId } } })
  })

  test('the type is judged by content: a text file named .png is refused', async () => {
    const brand = await createBrand({ name: 'Not An Image' })
    const before = await countFiles()
    const response = await post(
      `${LIST}/${brand.id}`,
      upload(keep(brand), {
        bytes: Buffer.from('<svg onload=alert(1)>hello</svg>'),
        type: 'image/png',
        name: 'logo.png',
      }),
    )
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('Upload a PNG, JPEG or WebP image.')
    expect(await countFiles()).toBe(before)
    expect((await getRow(brand.id))!.logoFileId).toBeNull()
  })

  test('an image over 2 MB is refused', async () => {
    const brand = await createBrand({ name: 'Too Big' })
    const before = await countFiles()
    const big = new Uint8Array(2 * 1024 * 1024 + 1)
    big.set(PNG)
    const response = await post(
      `${LIST}/${brand.id}`,
      upload(keep(brand), { bytes: big, type: 'image/png', name: 'big.png' }),
    )
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('The logo must be 2 MB or smaller.')
    expect(await countFiles()).toBe(before)
  })

  test('replacing the logo drops the old file; removing it drops the file too', async () => {
    const brand = await createBrand({ name: 'Logo Churn' })
    await post(`${LIST}/${brand.id}`, upload(keep(brand), { bytes: PNG, type: 'image/png', name: 'a.png' }))
    const first = (await getRow(brand.id))!.logoFileId!
    // The same bytes declared as something else: the stored type still comes from the content.
    await post(
      `${LIST}/${brand.id}`,
      upload(keep(brand), { bytes: PNG, type: 'application/octet-stream', name: 'b.bin' }),
    )
    const second = (await getRow(brand.id))!.logoFileId!
    expect(second).not.toBe(first)
    expect(
      await db()
        .select({ id: files.id })
        .from(files)
        .where(inArray(files.id, [first, second])),
    ).toEqual([{ id: second }])
    expect((await send(server, `/files/${second}`)).headers.get('Content-Type')).toBe('image/png')

    const removed = await post(`${LIST}/${brand.id}`, upload({ ...keep(brand), removeLogo: 'on' }))
    expect(removed.status).toBe(302)
    expect((await getRow(brand.id))!.logoFileId).toBeNull()
    expect(await db().select({ id: files.id }).from(files).where(eq(files.id, second))).toEqual([])
    expect((await send(server, `/files/${second}`)).status).toBe(404)
  })
})

describe('delete', () => {
  test('is refused with a clear message while a company uses the brand', async () => {
    const brand = await createBrand({ name: 'In Use Brand' })
    await createCompany({ brandId: brand.id })
    const confirm = await send(server, `${LIST}/${brand.id}?delete`, { cookie: adminCookie })
    const confirmHtml = await confirm.text()
    expect(confirmHtml).toContain('Delete “In Use Brand”?')
    expect(confirmHtml).toContain('One company uses this brand, so it cannot be deleted.')

    const response = await post(`${LIST}/${brand.id}?delete`, { intent: 'delete' })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain(
      '“In Use Brand” is used by 1 company, so it cannot be deleted. Move that company to another brand first.',
    )
    expect(await getRow(brand.id)).toBeTruthy()
    expect(await auditFor(brand.id)).toEqual([])
  })

  test('asks first, then deletes the brand and its logo, audits it, and returns to the list with a toast', async () => {
    const brand = await createBrand({ name: 'Short Lived' })
    await post(
      `${LIST}/${brand.id}`,
      (() => {
        const form = new FormData()
        for (const [k, v] of Object.entries({
          intent: 'update',
          name: brand.name,
          primaryColor: brand.primaryColor,
          accentColor: brand.accentColor,
        }))
          form.append(k, v)
        form.append('logo', new Blob([PNG], { type: 'image/png' }), 'logo.png')
        return form
      })(),
    )
    const logo = (await getRow(brand.id))!.logoFileId!
    expect(logo).toBeTruthy()

    const confirm = await send(server, `${LIST}/${brand.id}?delete`, { cookie: adminCookie })
    const html = await confirm.text()
    expect(html).toContain('This cannot be undone.')
    expect(html).toContain('Yes, delete the brand')

    const response = await post(`${LIST}/${brand.id}?delete`, { intent: 'delete' })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(LIST)
    expect(hasToastCookie(response)).toBe(true)
    expect(await follow(response)).toContain('Brand deleted')
    expect(await getRow(brand.id)).toBeUndefined()
    expect(await db().select({ id: files.id }).from(files).where(eq(files.id, logo))).toEqual([])
    const audit = await auditFor(brand.id)
    expect(audit.at(-1)).toMatchObject({
      action: 'brand.delete',
      actorId: admin.id,
      details: { name: 'Short Lived' },
    })

    // Gone means 404 from now on.
    expect((await send(server, `${LIST}/${brand.id}`, { cookie: adminCookie })).status).toBe(404)
  })
})

describe('list', () => {
  test('search is case-insensitive and treats % and _ literally', async () => {
    await createBrand({ name: 'Promo_1 Brand' })
    await createBrand({ name: 'PromoX1 Brand' })
    await createBrand({ name: '100% Growth' })
    const page = async (q: string) =>
      (await send(server, `${LIST}?${new URLSearchParams({ q })}`, { cookie: adminCookie })).text()
    const underscore = await page('promo_')
    expect(underscore).toContain('Promo_1 Brand')
    expect(underscore).not.toContain('PromoX1 Brand')
    const percent = await page('%')
    expect(percent).toContain('100% Growth')
    expect(percent).not.toContain('Promo_1 Brand')
    expect(await page('no such brand anywhere')).toContain(
      'No brand’s name contains “no such brand anywhere”.',
    )
  })

  test('shows how many companies use each brand', async () => {
    const brand = await createBrand({ name: 'Counted Brand' })
    await createCompany({ brandId: brand.id })
    await createCompany({ brandId: brand.id })
    const html = await (await send(server, `${LIST}?q=Counted+Brand`, { cookie: adminCookie })).text()
    expect(html).toMatch(/Counted Brand<\/a><\/div><\/th><td[^>]*>.*?<\/td><td[^>]*>2<\/td>/)
  })

  describe('keyset pagination', () => {
    const ids: string[] = []
    beforeAll(async () => {
      // 25 brands; ten share one created_at so the id must break ties across a page boundary.
      const sameMoment = new Date('2024-01-01T00:00:00.000Z')
      for (let i = 1; i <= 25; i++) {
        const brand = await createBrand({
          name: `Pager ${String(i).padStart(2, '0')}`,
          ...(i % 2 === 0 && i <= 20 ? { createdAt: sameMoment } : {}),
        })
        ids.push(brand.id)
      }
    })

    /** Walks every page forward from the first, returning the ids in order and the pages' hrefs. */
    async function walk(sort: string) {
      const seen: string[] = []
      const pages: string[] = []
      let path: string | null = `${LIST}?${new URLSearchParams({ q: 'pager', sort })}`
      while (path) {
        pages.push(path)
        const response = await send(server, path, { cookie: adminCookie })
        expect(response.status).toBe(200)
        const html = await response.text()
        seen.push(...hrefs(html, /href="\/admin\/brand-management\/([0-9a-f-]{36})"/g))
        const next = hrefs(html, /<a[^>]*rel="next"[^>]*href="([^"]+)"/g)[0] ?? null
        if (next) {
          const url = new URL(next, 'http://x')
          // The next page keeps the search and the sort.
          expect(url.searchParams.get('q')).toBe('pager')
          expect(url.searchParams.get('sort')).toBe(sort)
        }
        path = next
        expect(pages.length).toBeLessThan(5)
      }
      return { seen, pages }
    }

    test.each(['name-asc', 'name-desc', 'created-desc', 'created-asc'])(
      'sorted %s: 20 then 5 rows, no duplicates, no gaps, in order',
      async (sort) => {
        const { seen, pages } = await walk(sort)
        expect(pages).toHaveLength(2)
        expect(new Set(seen).size).toBe(25)
        expect(new Set(seen)).toEqual(new Set(ids))
        const column = sort.startsWith('name') ? sql`name` : sql`created_at`
        const direction = sort.endsWith('desc') ? sql`DESC` : sql`ASC`
        const expected = await db().execute(
          sql`SELECT id FROM brands WHERE name ILIKE 'pager%' ORDER BY ${column} ${direction}, id ${direction}`,
        )
        expect(seen).toEqual((expected as unknown as { rows: { id: string }[] }).rows.map((r) => r.id))
      },
    )

    test('"Previous page" walks back to the same first page; "First page" too', async () => {
      const first = await (
        await send(server, `${LIST}?q=pager&sort=name-asc`, { cookie: adminCookie })
      ).text()
      expect(first).not.toContain('rel="prev"')
      const next = hrefs(first, /<a[^>]*rel="next"[^>]*href="([^"]+)"/g)[0]!
      const second = await (await send(server, next, { cookie: adminCookie })).text()
      expect(second).toContain('Pager 21')
      expect(second).not.toContain('rel="next"')
      const prev = hrefs(second, /<a[^>]*rel="prev"[^>]*href="([^"]+)"/g)[0]!
      const back = await (await send(server, prev, { cookie: adminCookie })).text()
      const ids = (html: string) => hrefs(html, /href="\/admin\/brand-management\/([0-9a-f-]{36})"/g)
      expect(ids(back)).toEqual(ids(first))
      expect(back).not.toContain('rel="prev"')
      expect(second).toContain('First page')
    })

    test('a tampered or foreign cursor shows the first page with a notice, never a 500', async () => {
      const forged = Buffer.from(
        JSON.stringify({ s: 'created', v: "'; DROP TABLE brands; --", id: ids[0] }),
      ).toString('base64url')
      for (const cursor of ['garbage', forged, 'x'.repeat(2000)]) {
        const response = await send(server, `${LIST}?q=pager&sort=created-asc&after=${cursor}`, {
          cookie: adminCookie,
        })
        expect(response.status).toBe(200)
        expect(await response.text()).toContain('That page link is out of date')
      }
      const badSort = await send(server, `${LIST}?sort=sideways`, { cookie: adminCookie })
      expect(badSort.status).toBe(200)
    })
  })
})

describe('who may change brands', () => {
  test('an employee’s POST is redirected to their home and writes nothing', async () => {
    const before = await countBrands()
    const response = await post(
      LIST,
      { intent: 'create', name: 'Employee Brand', primaryColor: '#111111', accentColor: '#222222' },
      employeeCookie,
    )
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/user')
    const brand = await createBrand({ name: 'Target Brand' })
    const update = await post(`${LIST}/${brand.id}`, validUpdate({ name: 'Hijacked' }), employeeCookie)
    expect(update.status).toBe(302)
    expect(location(update)).toBe('/user')
    expect((await getRow(brand.id))!.name).toBe('Target Brand')
    expect(await countBrands()).toBe(before + 1)
  })

  test('a cross-site POST is refused by the origin check (400) and writes nothing', async () => {
    const before = await countBrands()
    const response = await send(server, LIST, {
      form: { intent: 'create', name: 'Evil Brand', primaryColor: '#111111', accentColor: '#222222' },
      cookie: adminCookie,
      headers: { Origin: 'https://evil.example' },
    })
    expect(response.status).toBe(400)
    const brand = await createBrand({ name: 'Victim Brand' })
    const del = await send(server, `${LIST}/${brand.id}`, {
      form: { intent: 'delete' },
      cookie: adminCookie,
      headers: { Origin: 'https://evil.example' },
    })
    expect(del.status).toBe(400)
    expect(await getRow(brand.id)).toBeTruthy()
    expect(await countBrands()).toBe(before + 1)
  })
})
