import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, companies } from '#db/schema/index'
import { createBrand, createCompany, createScheme, createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * Company management through the real HTTP stack (the production build): the list with its brand
 * names, create, inline edit, delete behind a confirmation, and every way a request can be wrong.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/company-management'
let admin = { id: '' }
let adminCookie = ''
let employeeCookie = ''
let brand = { id: '', name: '' }
let otherBrand = { id: '', name: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  employeeCookie = (await signedIn({ role: 'employee' })).cookie
  brand = await createBrand({ name: 'Primary Brand' })
  otherBrand = await createBrand({ name: 'Other Brand' })
})

const admin$ = client(server, () => adminCookie)
const post = (form: Record<string, string>, { cookie = adminCookie, path = PAGE } = {}) =>
  admin$.post(path, form, cookie)
const { follow } = admin$

function hasToastCookie(response: Response) {
  return response.headers.getSetCookie().some((c) => c.startsWith('__toast=') && !/max-age=0/i.test(c))
}

const countCompanies = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(companies)
  )[0]!.n
const getRow = async (id: string) => (await db().select().from(companies).where(eq(companies.id, id)))[0]
const auditFor = (entityId: string) =>
  db()
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'company'), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.at)

function hrefs(html: string, pattern: RegExp) {
  return [...html.matchAll(pattern)].map((m) => m[1]!.replaceAll('&amp;', '&'))
}

describe('page', () => {
  test('has a meaningful title, a labelled create form with every brand, and a search form', async () => {
    const response = await send(server, PAGE, { cookie: adminCookie })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('<title>Company management · Panorama admin</title>')
    expect(html).toContain('<h1 id="page-title"')
    expect(html).toMatch(/<label for="create-company-name"[^>]*>Company name<\/label>/)
    expect(html).toMatch(/<label for="create-company-brandId"[^>]*>Brand<\/label>/)
    expect(html).toContain(`<option value="${brand.id}">Primary Brand</option>`)
    expect(html).toContain(`<option value="${otherBrand.id}">Other Brand</option>`)
    expect(html).toContain('role="search"')
  })
})

describe('create', () => {
  test('creates a company, audits it, and comes back to the list with a toast', async () => {
    const response = await post({ intent: 'create', name: '  Acme Widgets  ', brandId: brand.id })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(PAGE)
    expect(hasToastCookie(response)).toBe(true)
    const page = await follow(response)
    expect(page).toContain('Company created')
    const [row] = await db().select().from(companies).where(eq(companies.name, 'Acme Widgets'))
    expect(row).toMatchObject({ name: 'Acme Widgets', brandId: brand.id })
    expect(await auditFor(row!.id)).toEqual([
      {
        action: 'company.create',
        actorId: admin.id,
        details: { name: 'Acme Widgets', brandId: brand.id, brandName: 'Primary Brand' },
      },
    ])
    // The list shows the brand's name beside the company's.
    expect(page).toMatch(/Acme Widgets<\/th><td[^>]*><a[^>]*>Primary Brand<\/a>/)
  })

  test('keeps the search and sort it was posted from', async () => {
    const response = await post(
      { intent: 'create', name: 'Kept Query Ltd', brandId: brand.id },
      { path: `${PAGE}?q=kept&sort=created-desc` },
    )
    expect(location(response)).toBe(`${PAGE}?q=kept&sort=created-desc`)
  })

  test.each([
    ['an empty name', { name: '' }, 'Enter the company’s name.'],
    ['a blank name', { name: '    ' }, 'Enter the company’s name.'],
    ['a name over 100 characters', { name: 'c'.repeat(101) }, 'The name must be 100 characters or fewer.'],
    ['no brand', { brandId: '' }, 'Choose the brand this company’s e-mails and pages use.'],
    [
      'a malformed brand id',
      { brandId: 'not-a-uuid' },
      'Choose the brand this company’s e-mails and pages use.',
    ],
    [
      'a brand that does not exist',
      { brandId: '00000000-0000-4000-8000-000000000000' },
      'That brand no longer exists.',
    ],
  ])('refuses %s with a message and writes nothing', async (_label, overrides, message) => {
    const before = await countCompanies()
    const response = await post({ intent: 'create', name: 'Valid Company', brandId: brand.id, ...overrides })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain(message)
    expect(html).toContain('aria-invalid="true"')
    expect(await countCompanies()).toBe(before)
  })

  test('refuses a name another company has (ignoring case)', async () => {
    await createCompany({ name: 'Twin Peaks Ltd', brandId: brand.id })
    const before = await countCompanies()
    const response = await post({ intent: 'create', name: 'TWIN PEAKS LTD', brandId: otherBrand.id })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('A company called “TWIN PEAKS LTD” already exists.')
    expect(await countCompanies()).toBe(before)
  })

  test('an empty POST, an unknown intent and a non-form body are 400s with a message', async () => {
    for (const response of [
      await post({}),
      await post({ intent: 'explode' }),
      await send(server, PAGE, { json: { intent: 'create' }, cookie: adminCookie }),
    ]) {
      expect(response.status).toBe(400)
      expect(await response.text()).toContain('This form could not be read.')
    }
  })
})

describe('edit', () => {
  test('?edit=<id> shows the row as a form with its values', async () => {
    const company = await createCompany({ name: 'Editable Inc', brandId: otherBrand.id })
    const html = await (
      await send(server, `${PAGE}?edit=${company.id}&q=editable`, { cookie: adminCookie })
    ).text()
    expect(html).toContain(`aria-label="Edit Editable Inc"`)
    expect(html).toContain('value="Editable Inc"')
    expect(html).toMatch(new RegExp(`<option value="${otherBrand.id}" selected="">Other Brand</option>`))
    expect(html).toContain('Save company')
  })

  test('saves the name and brand, audits the change, and closes the form with a toast', async () => {
    const company = await createCompany({ name: 'Before Name', brandId: brand.id })
    const response = await post(
      {
        intent: 'update',
        companyId: company.id,
        name: 'After Name',
        brandId: otherBrand.id,
        feedbackRequestCap: '5',
      },
      { path: `${PAGE}?edit=${company.id}&sort=name-desc` },
    )
    expect(response.status).toBe(302)
    expect(location(response)).toBe(`${PAGE}?sort=name-desc`)
    expect(hasToastCookie(response)).toBe(true)
    expect(await follow(response)).toContain('Company saved')
    expect(await getRow(company.id)).toMatchObject({ name: 'After Name', brandId: otherBrand.id })
    expect(await auditFor(company.id)).toEqual([
      {
        action: 'company.update',
        actorId: admin.id,
        details: {
          changes: {
            name: { from: 'Before Name', to: 'After Name' },
            brandId: { from: brand.id, to: otherBrand.id },
          },
        },
      },
    ])
  })

  test.each([
    ['an empty name', { name: '' }, 'Enter the company’s name.'],
    ['a name over 100 characters', { name: 'e'.repeat(101) }, 'The name must be 100 characters or fewer.'],
    ['no brand', { brandId: '' }, 'Choose the brand this company’s e-mails and pages use.'],
    [
      'a brand that does not exist',
      { brandId: '00000000-0000-4000-8000-000000000000' },
      'That brand no longer exists.',
    ],
    ['a malformed company id', { companyId: 'nope' }, 'This company could not be identified.'],
    [
      'a company that does not exist',
      { companyId: '00000000-0000-4000-8000-000000000000' },
      'This company no longer exists.',
    ],
  ])('refuses %s with a message and changes nothing', async (_label, overrides, message) => {
    const company = await createCompany({ name: `Stable ${Math.random()}`, brandId: brand.id })
    const before = await getRow(company.id)
    const response = await post(
      {
        intent: 'update',
        companyId: company.id,
        name: 'Changed',
        brandId: brand.id,
        feedbackRequestCap: '5',
        ...overrides,
      },
      { path: `${PAGE}?edit=${company.id}` },
    )
    expect(response.status).toBe(400)
    expect(await response.text()).toContain(message)
    expect(await getRow(company.id)).toEqual(before)
    expect(await auditFor(company.id)).toEqual([])
  })
})

describe('delete', () => {
  test('?delete=<id> asks first; confirming deletes, audits and returns with a toast', async () => {
    const company = await createCompany({ name: 'Doomed Co', brandId: brand.id })
    const confirm = await (await send(server, `${PAGE}?delete=${company.id}`, { cookie: adminCookie })).text()
    expect(confirm).toContain('Delete “Doomed Co”?')
    expect(confirm).toContain('This cannot be undone.')
    expect(confirm).toContain('Yes, delete the company')

    const response = await post(
      { intent: 'delete', companyId: company.id },
      { path: `${PAGE}?delete=${company.id}` },
    )
    expect(response.status).toBe(302)
    expect(location(response)).toBe(PAGE)
    expect(hasToastCookie(response)).toBe(true)
    expect(await follow(response)).toContain('Company deleted')
    expect(await getRow(company.id)).toBeUndefined()
    expect(await auditFor(company.id)).toEqual([
      { action: 'company.delete', actorId: admin.id, details: { name: 'Doomed Co', brandId: brand.id } },
    ])
  })

  test('is refused with a clear message while the company has employees', async () => {
    const company = await createCompany({ name: 'Staffed Ltd', brandId: brand.id })
    await createUser({ role: 'employee', companyId: company.id })
    await createUser({ role: 'employee', companyId: company.id })
    const confirm = await (await send(server, `${PAGE}?delete=${company.id}`, { cookie: adminCookie })).text()
    expect(confirm).toContain('“Staffed Ltd” still has 2 employees, so it cannot be deleted.')
    // The visible text: the page's messages (its i18n data block) hold the button's words too.
    expect(textOf(confirm)).not.toContain('Yes, delete the company')

    const response = await post(
      { intent: 'delete', companyId: company.id },
      { path: `${PAGE}?delete=${company.id}` },
    )
    expect(response.status).toBe(400)
    expect(await response.text()).toContain(
      '“Staffed Ltd” still has 2 employees, so it cannot be deleted. Move or remove them first.',
    )
    expect(await getRow(company.id)).toBeTruthy()
    expect(await auditFor(company.id)).toEqual([])
  })

  test('is refused while the company has a scheme, even posted without the confirmation on screen', async () => {
    const company = await createCompany({ name: 'Scheming Ltd', brandId: brand.id })
    await createScheme({ companyId: company.id })
    const response = await post({ intent: 'delete', companyId: company.id })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('“Scheming Ltd” still has 1 scheme, so it cannot be deleted.')
    expect(await getRow(company.id)).toBeTruthy()
  })

  test('a company that is already gone is a message, not a 500', async () => {
    const response = await post({ intent: 'delete', companyId: '00000000-0000-4000-8000-000000000000' })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('This company no longer exists.')
    const stale = await send(server, `${PAGE}?delete=00000000-0000-4000-8000-000000000000`, {
      cookie: adminCookie,
    })
    expect(stale.status).toBe(200)
    expect(await stale.text()).toContain('That company does not exist')
  })
})

describe('list', () => {
  test('search is case-insensitive and treats % and _ literally', async () => {
    await createCompany({ name: 'Under_score Ltd', brandId: brand.id })
    await createCompany({ name: 'UnderXscore Ltd', brandId: brand.id })
    const html = await (await send(server, `${PAGE}?q=UNDER_`, { cookie: adminCookie })).text()
    expect(html).toContain('Under_score Ltd')
    expect(html).not.toContain('UnderXscore Ltd')
    const none = await (
      await send(server, `${PAGE}?q=${encodeURIComponent('%%')}`, { cookie: adminCookie })
    ).text()
    expect(none).toContain('No company’s name contains “%%”.')
  })

  describe('keyset pagination', () => {
    const ids: string[] = []
    beforeAll(async () => {
      const sameMoment = new Date('2024-06-01T12:00:00.000Z')
      for (let i = 1; i <= 25; i++) {
        const company = await createCompany({
          name: `Paged Company ${String(i).padStart(2, '0')}`,
          brandId: i % 2 ? brand.id : otherBrand.id,
          ...(i % 3 === 0 ? { createdAt: sameMoment } : {}),
        })
        ids.push(company.id)
      }
    })

    const rowIds = (html: string) =>
      hrefs(html, /href="\/admin\/company-management\?[^"]*edit=([0-9a-f-]{36})/g)

    test.each(['name-asc', 'name-desc', 'created-desc', 'created-asc'])(
      'sorted %s: every row exactly once, in order, across pages',
      async (sort) => {
        const seen: string[] = []
        let path: string | null = `${PAGE}?${new URLSearchParams({ q: 'paged company', sort })}`
        let pages = 0
        while (path) {
          pages++
          const html = await (await send(server, path, { cookie: adminCookie })).text()
          const onPage = rowIds(html)
          expect(onPage.length).toBe(pages === 1 ? 20 : 5)
          seen.push(...onPage)
          path = hrefs(html, /<a[^>]*rel="next"[^>]*href="([^"]+)"/g)[0] ?? null
          if (path) {
            const url = new URL(path, 'http://x')
            expect(url.searchParams.get('q')).toBe('paged company')
            expect(url.searchParams.get('sort')).toBe(sort)
          }
          expect(pages).toBeLessThan(4)
        }
        expect(pages).toBe(2)
        expect(new Set(seen)).toEqual(new Set(ids))
        expect(seen).toHaveLength(25)
        const column = sort.startsWith('name') ? sql`name` : sql`created_at`
        const direction = sort.endsWith('desc') ? sql`DESC` : sql`ASC`
        const expected = (await db().execute(
          sql`SELECT id FROM companies WHERE name ILIKE 'paged company%' ORDER BY ${column} ${direction}, id ${direction}`,
        )) as unknown as { rows: { id: string }[] }
        expect(seen).toEqual(expected.rows.map((r) => r.id))
      },
    )

    test('"Previous page" returns to the first page exactly', async () => {
      const first = await (
        await send(server, `${PAGE}?q=paged+company&sort=created-desc`, { cookie: adminCookie })
      ).text()
      const next = hrefs(first, /<a[^>]*rel="next"[^>]*href="([^"]+)"/g)[0]!
      const second = await (await send(server, next, { cookie: adminCookie })).text()
      const prev = hrefs(second, /<a[^>]*rel="prev"[^>]*href="([^"]+)"/g)[0]!
      const back = await (await send(server, prev, { cookie: adminCookie })).text()
      expect(rowIds(back)).toEqual(rowIds(first))
      expect(back).not.toContain('rel="prev"')
    })

    test('a cursor from another sort is ignored with a notice', async () => {
      const first = await (
        await send(server, `${PAGE}?q=paged+company&sort=name-asc`, { cookie: adminCookie })
      ).text()
      const next = new URL(hrefs(first, /<a[^>]*rel="next"[^>]*href="([^"]+)"/g)[0]!, 'http://x')
      next.searchParams.set('sort', 'created-asc')
      const response = await send(server, next.pathname + next.search, { cookie: adminCookie })
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(html).toContain('That page link is out of date')
      expect(rowIds(html)).toHaveLength(20)
    })
  })
})

describe('who may change companies', () => {
  test('an employee’s POSTs are redirected to their home and write nothing', async () => {
    const company = await createCompany({ name: 'Protected Co', brandId: brand.id })
    const before = await countCompanies()
    for (const form of [
      { intent: 'create', name: 'Employee Co', brandId: brand.id } as Record<string, string>,
      {
        intent: 'update',
        companyId: company.id,
        name: 'Hijacked',
        brandId: brand.id,
        feedbackRequestCap: '5',
      },
      { intent: 'delete', companyId: company.id },
    ]) {
      const response = await post(form, { cookie: employeeCookie })
      expect(response.status).toBe(302)
      expect(location(response)).toBe('/user')
    }
    expect(await countCompanies()).toBe(before)
    expect((await getRow(company.id))!.name).toBe('Protected Co')
  })

  test('a cross-site POST is refused by the origin check (400) and writes nothing', async () => {
    const company = await createCompany({ name: 'Targeted Co', brandId: brand.id })
    const before = await countCompanies()
    for (const form of [
      { intent: 'create', name: 'Evil Co', brandId: brand.id } as Record<string, string>,
      { intent: 'delete', companyId: company.id },
    ]) {
      const response = await send(server, PAGE, {
        form,
        cookie: adminCookie,
        headers: { Origin: 'https://evil.example' },
      })
      expect(response.status).toBe(400)
    }
    expect(await countCompanies()).toBe(before)
    expect(await getRow(company.id)).toBeTruthy()
  })
})
