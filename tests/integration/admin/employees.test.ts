import crypto from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { actionCodes, auditLog, emailOutbox, sessions, users } from '#db/schema/index'
import {
  createCompany,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, sessionCookieFor, signedIn, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf } from '#tests/integration/auth/helpers'

/**
 * Employee management through the real HTTP stack (the production build): the list (search,
 * filters, sort, keyset pages), adding one, and the detail page (edit, disable / enable, resend the
 * activation e-mail, their schemes and the feedback asked of them), with bad input for every field.
 * The CSV import has its own file (employee-import.test.ts).
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/employee-management'
let admin = { id: '', email: '' }
let adminCookie = ''
let employeeCookie = ''
let acme = { id: '', name: '' }
let globex = { id: '', name: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  acme = await createCompany({ name: 'Acme Widgets' })
  globex = await createCompany({ name: 'Globex Corporation' })
  employeeCookie = (await signedIn({ role: 'employee', companyId: acme.id })).cookie
})

const admin$ = client(server, () => adminCookie)
const post = (form: Record<string, string>, { cookie = adminCookie, path = PAGE } = {}) =>
  admin$.post(path, form, cookie)
const { get, follow } = admin$
const html = async (path: string) => {
  const response = await get(path)
  expect(response.status).toBe(200)
  return response.text()
}

const userByEmail = async (email: string) =>
  (await db().select().from(users).where(eq(users.email, email)))[0]
const countUsers = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
  )[0]!.n
const auditFor = (entityId: string) =>
  db()
    .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.at)

/** The employees a list page shows, by the links to their pages, in order. */
const listed = (page: string) =>
  [...page.matchAll(/<th scope="row"[^>]*><a[^>]*href="\/admin\/employee-management\/([0-9a-f-]{36})"/g)].map(
    (m) => m[1]!,
  )
const nextLink = (page: string) =>
  /<a[^>]*rel="next"[^>]*href="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&') ?? null

const valid = () => ({
  intent: 'create',
  name: 'Jane Doe',
  email: `jane.${crypto.randomBytes(3).toString('hex')}@example.test`,
  companyId: acme.id,
  phone: '',
})

describe('the list', () => {
  test('has its title, the add and import forms, the filters and an empty state that says what to do', async () => {
    const page = await html(`${PAGE}?q=${encodeURIComponent('nobody-is-called-this')}`)
    expect(page).toContain('<title>Employee management · Panorama admin</title>')
    expect(page).toMatch(/<label for="create-employee-name"[^>]*>Name<\/label>/)
    expect(page).toMatch(/<label for="create-employee-email"[^>]*>E-mail address<\/label>/)
    expect(page).toMatch(/<label for="create-employee-companyId"[^>]*>Company<\/label>/)
    expect(page).toContain(`<option value="${acme.id}">Acme Widgets</option>`)
    expect(page).toContain('encType="multipart/form-data"')
    expect(page).toContain('href="/admin/employee-management/template.csv"')
    expect(page).toContain('role="search"')
    expect(textOf(page)).toContain('No employee matches this search and these filters.')
  })

  test('shows employees only: never an admin or a colleague', async () => {
    const colleague = await createUser({ role: 'colleague', displayName: 'Listed Colleague' })
    const employee = await createUser({
      role: 'employee',
      companyId: acme.id,
      displayName: 'Listed Employee',
    })
    const page = await html(`${PAGE}?q=listed`)
    expect(listed(page)).toEqual([employee.id])
    expect(listed(page)).not.toContain(colleague.id)
    expect(listed(await html(PAGE))).not.toContain(admin.id)
  })

  test('searches names and addresses, ignoring case, with % and _ taken literally', async () => {
    const byName = await createUser({
      role: 'employee',
      companyId: acme.id,
      displayName: 'Quentin Under_score',
    })
    const byEmail = await createUser({
      role: 'employee',
      companyId: acme.id,
      displayName: 'Someone Else',
      email: 'q.under_score@example.test',
    })
    const decoy = await createUser({
      role: 'employee',
      companyId: acme.id,
      displayName: 'Quentin UnderXscore',
    })
    const page = await html(`${PAGE}?q=UNDER_SCORE`)
    expect(new Set(listed(page))).toEqual(new Set([byName.id, byEmail.id]))
    expect(page).not.toContain(decoy.id)
    expect(listed(await html(`${PAGE}?q=${encodeURIComponent('%')}`))).toEqual([])
  })

  test('filters by company, scheme and state (invited, active, disabled), kept in the URL', async () => {
    const scheme = await createScheme({ companyId: globex.id })
    const tag = crypto.randomBytes(3).toString('hex')
    const invited = await createUser({
      role: 'employee',
      companyId: globex.id,
      displayName: `Filter ${tag} invited`,
      password: null,
    })
    const active = await createUser({
      role: 'employee',
      companyId: globex.id,
      displayName: `Filter ${tag} active`,
    })
    const disabled = await createUser({
      role: 'employee',
      companyId: globex.id,
      displayName: `Filter ${tag} disabled`,
      disabledAt: new Date(),
    })
    const elsewhere = await createUser({
      role: 'employee',
      companyId: acme.id,
      displayName: `Filter ${tag} acme`,
    })
    await enrolEmployee(scheme, active.id)
    await enrolEmployee(scheme, invited.id)

    const q = `q=${encodeURIComponent(`filter ${tag}`)}`
    expect(new Set(listed(await html(`${PAGE}?${q}&company=${globex.id}`)))).toEqual(
      new Set([invited.id, active.id, disabled.id]),
    )
    expect(new Set(listed(await html(`${PAGE}?${q}&scheme=${scheme.id}`)))).toEqual(
      new Set([invited.id, active.id]),
    )
    expect(listed(await html(`${PAGE}?${q}&state=invited`))).toEqual([invited.id])
    expect(new Set(listed(await html(`${PAGE}?${q}&state=active`)))).toEqual(
      new Set([active.id, elsewhere.id]),
    )
    expect(listed(await html(`${PAGE}?${q}&state=disabled`))).toEqual([disabled.id])
    expect(listed(await html(`${PAGE}?${q}&state=active&scheme=${scheme.id}&company=${globex.id}`))).toEqual([
      active.id,
    ])
    // The form shows the filters it was given.
    const page = await html(`${PAGE}?${q}&state=disabled&company=${globex.id}`)
    expect(page).toMatch(/<option value="disabled" selected="">Disabled<\/option>/)
    expect(page).toMatch(new RegExp(`<option value="${globex.id}" selected="">Globex Corporation</option>`))
    expect(page).toContain('Clear filters')
  })

  test('with more than 100 schemes, the scheme filter lists the chosen company’s and asks for a company otherwise', async () => {
    const busy = await createCompany({ name: 'Busy Schemes Ltd' })
    const first = await createScheme({ companyId: busy.id, name: 'Busy scheme 000' })
    for (let i = 1; i <= 100; i++)
      await createScheme({
        companyId: busy.id,
        questionnaireId: first.questionnaireId,
        name: `Busy scheme ${i}`,
      })
    const options = (page: string) =>
      /<select id="employees-scheme"[\s\S]*?<\/select>/
        .exec(page)![0]
        .match(/<option value="[0-9a-f-]{36}"/g) ?? []
    const unfiltered = await html(PAGE)
    expect(options(unfiltered)).toEqual([])
    expect(textOf(unfiltered)).toContain('Choose a company first to list its schemes.')
    // A chosen scheme stays chosen, even without its company.
    expect(options(await html(`${PAGE}?scheme=${first.id}`))).toEqual([`<option value="${first.id}"`])
    const filtered = await html(`${PAGE}?company=${busy.id}`)
    expect(options(filtered)).toHaveLength(100)
    expect(textOf(filtered)).not.toContain('Choose a company first')
  })

  test('bad filter values fall back to no filter instead of failing the page', async () => {
    for (const search of [
      'company=nope',
      'scheme=%00',
      'state=gone',
      'sort=sideways',
      'q=%00%01',
      'after=%%%',
    ]) {
      expect((await get(`${PAGE}?${search}`)).status).toBe(200)
    }
  })

  describe('sort and keyset pages', () => {
    const ids: string[] = []
    beforeAll(async () => {
      const sameMoment = new Date('2024-06-01T12:00:00.000Z')
      for (let i = 1; i <= 30; i++) {
        const employee = await createUser({
          role: 'employee',
          companyId: i % 2 ? acme.id : globex.id,
          displayName: `Paged Person ${String(i).padStart(2, '0')}`,
          ...(i % 3 === 0 ? { createdAt: sameMoment } : {}),
        })
        ids.push(employee.id)
      }
    })

    test.each(['name-asc', 'name-desc', 'created-desc', 'created-asc'])(
      'sorted %s: every employee exactly once, in order, across pages',
      async (sort) => {
        const seen: string[] = []
        let path: string | null = `${PAGE}?${new URLSearchParams({ q: 'paged person', sort })}`
        let pages = 0
        while (path) {
          pages++
          const page = await html(path)
          const onPage = listed(page)
          expect(onPage.length).toBe(pages === 1 ? 25 : 5)
          seen.push(...onPage)
          path = nextLink(page)
          if (path) expect(new URL(path, 'http://x').searchParams.get('sort')).toBe(sort)
          expect(pages).toBeLessThan(4)
        }
        expect(seen).toHaveLength(30)
        const column = sort.startsWith('name') ? sql`display_name` : sql`created_at`
        const direction = sort.endsWith('desc') ? sql`DESC` : sql`ASC`
        const expected = (await db().execute(
          sql`SELECT id FROM users WHERE role = 'employee' AND display_name ILIKE 'paged person%'
              ORDER BY ${column} ${direction}, id ${direction}`,
        )) as unknown as { rows: { id: string }[] }
        expect(seen).toEqual(expected.rows.map((r) => r.id))
        expect(new Set(seen)).toEqual(new Set(ids))
      },
    )

    test('a cursor from another sort shows the first page with a notice', async () => {
      const first = await html(`${PAGE}?q=paged+person&sort=name-asc`)
      const next = new URL(nextLink(first)!, 'http://x')
      next.searchParams.set('sort', 'created-asc')
      const page = await html(next.pathname + next.search)
      expect(page).toContain('That page link is out of date')
      expect(listed(page)).toHaveLength(25)
    })
  })
})

describe('adding an employee', () => {
  test('creates them lower-cased in their company, audits it, and opens their page with a toast', async () => {
    const before = await countUsers()
    const response = await post({
      ...valid(),
      name: '  Ada Lovelace ',
      email: ' Ada.Lovelace@Example.TEST ',
      phone: '+44 20  7946 0958',
    })
    expect(response.status).toBe(302)
    const row = await userByEmail('ada.lovelace@example.test')
    expect(row).toMatchObject({
      displayName: 'Ada Lovelace',
      role: 'employee',
      companyId: acme.id,
      phone: '+44 20 7946 0958',
      passwordHash: null,
      disabledAt: null,
    })
    expect(location(response)).toBe(`${PAGE}/${row!.id}`)
    expect(await countUsers()).toBe(before + 1)
    const page = await follow(response)
    expect(page).toContain('Employee added')
    expect(await auditFor(row!.id)).toEqual([
      {
        action: 'employee.create',
        actorId: admin.id,
        details: {
          name: 'Ada Lovelace',
          email: 'ada.lovelace@example.test',
          companyId: acme.id,
          companyName: 'Acme Widgets',
          phone: '+44 20 7946 0958',
        },
      },
    ])
    // No e-mail goes out on adding: activation waits for the scheme's launch.
    expect(
      await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, 'ada.lovelace@example.test')),
    ).toEqual([])
  })

  test.each([
    ['an empty name', { name: '' }, 'name', 'Enter the employee’s name.'],
    ['a blank name', { name: '   ' }, 'name', 'Enter the employee’s name.'],
    [
      'a name over 120 characters',
      { name: 'n'.repeat(121) },
      'name',
      'The name must be 120 characters or fewer.',
    ],
    ['a name with a tab', { name: 'Jane\tDoe' }, 'name', 'Use one line of ordinary text'],
    ['a name with a NUL byte', { name: 'Jane\u0000Doe' }, 'name', 'Use one line of ordinary text'],
    ['no e-mail', { email: '' }, 'email', 'Enter the employee’s e-mail address.'],
    ['a malformed e-mail', { email: 'jane@' }, 'email', 'Enter an e-mail address like name@example.com.'],
    ['an e-mail with a space', { email: 'jane doe@example.test' }, 'email', 'Enter an e-mail address like'],
    [
      'an e-mail over 254 characters',
      { email: `${'a'.repeat(250)}@example.test` },
      'email',
      'The e-mail address must be 254 characters or fewer.',
    ],
    ['no company', { companyId: '' }, 'companyId', 'Choose the company this person works for.'],
    ['a malformed company', { companyId: 'acme' }, 'companyId', 'Choose the company this person works for.'],
    [
      'a company that does not exist',
      { companyId: '00000000-0000-4000-8000-000000000000' },
      'companyId',
      'That company no longer exists.',
    ],
    ['a phone with letters', { phone: 'call me' }, 'phone', 'Enter a phone number such as'],
    ['a phone too short', { phone: '12345' }, 'phone', 'Enter a phone number such as'],
    [
      'a phone too long',
      { phone: '1'.repeat(31) },
      'phone',
      'Use at most 30 characters for the phone number.',
    ],
  ])('refuses %s beside the field and writes nothing', async (_label, overrides, field, message) => {
    const before = await countUsers()
    const response = await post({ ...valid(), ...overrides })
    expect(response.status).toBe(400)
    const page = await response.text()
    expect(fieldErrors(page, field).join(' ')).toContain(message)
    expect(page).toContain('aria-invalid="true"')
    expect(await countUsers()).toBe(before)
  })

  test('an address already used: named for this company’s employee, the same neutral words for an admin and another company’s', async () => {
    const ours = await createUser({ role: 'employee', companyId: acme.id })
    const theirs = await createUser({ role: 'employee', companyId: globex.id })
    const before = await countUsers()
    const same = await post({ ...valid(), email: ours.email.toUpperCase() })
    expect(same.status).toBe(400)
    expect(fieldErrors(await same.text(), 'email')).toEqual([
      'This person is already an employee of Acme Widgets.',
    ])
    const neutral = 'This e-mail address belongs to another account, so it cannot be used here.'
    for (const email of [admin.email, theirs.email]) {
      const response = await post({ ...valid(), email })
      expect(response.status).toBe(400)
      expect(fieldErrors(await response.text(), 'email')).toEqual([neutral])
    }
    expect(await countUsers()).toBe(before)
    expect((await userByEmail(admin.email))!.role).toBe('admin')
    expect((await userByEmail(theirs.email))!.companyId).toBe(globex.id)
  })

  test('a colleague’s account becomes this company’s employee, and the sessions its links opened end', async () => {
    const colleague = await createUser({ role: 'colleague', displayName: 'Old Name' })
    await sessionCookieFor(colleague.id)
    const before = await countUsers()
    const response = await post({ ...valid(), name: 'New Name', email: colleague.email })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(`${PAGE}/${colleague.id}`)
    expect(await countUsers()).toBe(before)
    expect(await userByEmail(colleague.email)).toMatchObject({
      id: colleague.id,
      role: 'employee',
      companyId: acme.id,
      displayName: 'New Name',
    })
    expect(await db().select().from(sessions).where(eq(sessions.userId, colleague.id))).toEqual([])
    expect((await auditFor(colleague.id))[0]!.details).toMatchObject({ promotedFrom: 'colleague' })
  })

  test('an employee or a visitor cannot add anyone', async () => {
    const before = await countUsers()
    const asEmployee = await post(valid(), { cookie: employeeCookie })
    expect(asEmployee.status).toBe(302)
    expect(location(asEmployee)).toBe('/user')
    const anonymous = await send(server, PAGE, { form: valid() })
    expect(location(anonymous)).toMatch(/^\/sign-in\?redirectTo=/)
    expect(await countUsers()).toBe(before)
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

describe('an employee’s page', () => {
  test('unknown, malformed, an admin’s or a colleague’s uid: the 404 page, for GET and POST', async () => {
    const colleague = await createUser({ role: 'colleague' })
    for (const uid of [crypto.randomUUID(), 'not-a-uuid', admin.id, colleague.id, '%00']) {
      const page = await get(`${PAGE}/${uid}`)
      expect(page.status).toBe(404)
      expect(await page.text()).toContain('Page Not Found')
      expect((await post({ intent: 'disable', employeeId: uid }, { path: `${PAGE}/${uid}` })).status).toBe(
        404,
      )
    }
  })

  test('shows their details, state, schemes with the report and invite links, and the feedback asked of them', async () => {
    const employee = await createUser({
      role: 'employee',
      companyId: acme.id,
      displayName: 'Grace Hopper',
      phone: '+1 202 555 0100',
    })
    const scheme = await createScheme({ companyId: acme.id, name: 'Leaders 2026' })
    const self = await enrolEmployee(scheme, employee.id)
    const response = await createResponse({ assignmentId: self!.id, submitted: true })
    const colleague = await createUser({ role: 'colleague' })
    await createRaterAssignment({ scheme, subjectId: employee.id, respondentId: colleague.id })
    const other = await createUser({ role: 'employee', companyId: acme.id, displayName: 'Alan Turing' })
    await enrolEmployee(scheme, other.id)
    await createRaterAssignment({
      scheme,
      subjectId: other.id,
      respondentId: employee.id,
      relationship: 'manager',
    })

    const page = await html(`${PAGE}/${employee.id}`)
    expect(page).toContain('<title>Grace Hopper · Employees · Panorama admin</title>')
    expect(page).toContain('value="+1 202 555 0100"')
    expect(page).toMatch(new RegExp(`<option value="${acme.id}" selected="">Acme Widgets</option>`))
    expect(textOf(page)).toContain('Active')
    expect(page).toContain(`href="/user/response-${response.id}"`)
    expect(page).toContain(`href="/user/colleague-invite?employee=${employee.id}&amp;scheme=${scheme.id}"`)
    expect(page).toContain(`href="/user/colleague-invite?employee=${employee.id}"`)
    expect(textOf(page)).toContain('0 of 1 answered')
    expect(textOf(page)).toContain('Submitted')
    // As a rater: about Alan, as his manager, not answered yet.
    expect(page).toContain(`href="/admin/employee-management/${other.id}"`)
    expect(textOf(page)).toMatch(/Alan Turing Leaders 2026 Manager Invited/)
    // Active employees have no resend button; invited ones do.
    expect(textOf(page)).not.toContain('Send the activation e-mail again')
    const invited = await createUser({ role: 'employee', companyId: acme.id, password: null })
    expect(textOf(await html(`${PAGE}/${invited.id}`))).toContain('Send the activation e-mail again')
  })

  describe('edit', () => {
    const form = (employee: { id: string }, overrides: Record<string, string> = {}) => ({
      intent: 'update',
      employeeId: employee.id,
      name: 'Edited Name',
      email: 'edited@example.test',
      companyId: acme.id,
      phone: '',
      ...overrides,
    })

    test('saves name, address, phone and company; audits what changed; an unchanged form is "nothing to save"', async () => {
      const employee = await createUser({ role: 'employee', companyId: globex.id, displayName: 'Before' })
      const path = `${PAGE}/${employee.id}`
      const email = `moved.${crypto.randomBytes(3).toString('hex')}@Example.test`
      const response = await post(form(employee, { email, phone: '0161 496 0000' }), { path })
      expect(response.status).toBe(302)
      expect(location(response)).toBe(path)
      expect(await follow(response)).toContain('Employee saved')
      const row = (await db().select().from(users).where(eq(users.id, employee.id)))[0]!
      expect(row).toMatchObject({
        displayName: 'Edited Name',
        email: email.toLowerCase(),
        phone: '0161 496 0000',
        companyId: acme.id,
        // An address an admin typed is not confirmed.
        emailVerifiedAt: null,
      })
      const [entry] = await auditFor(employee.id)
      expect(entry).toMatchObject({ action: 'employee.update', actorId: admin.id })
      expect(Object.keys((entry!.details as { changes: object }).changes).sort()).toEqual(
        ['companyId', 'email', 'name', 'phone'].sort(),
      )
      const again = await post(form(employee, { email, phone: '0161 496 0000' }), { path })
      expect(await follow(again)).toContain('Nothing to save')
      expect(await auditFor(employee.id)).toHaveLength(1)
    })

    test.each([
      ['an empty name', { name: '' }, 'name', 'Enter the employee’s name.'],
      ['a malformed e-mail', { email: 'x@y' }, 'email', 'Enter an e-mail address like name@example.com.'],
      ['no company', { companyId: '' }, 'companyId', 'Choose the company this person works for.'],
      [
        'an unknown company',
        { companyId: '00000000-0000-4000-8000-000000000000' },
        'companyId',
        'That company no longer exists.',
      ],
      ['a bad phone', { phone: '++44' }, 'phone', 'Enter a phone number such as'],
    ])('refuses %s and changes nothing', async (_label, overrides, field, message) => {
      const employee = await createUser({ role: 'employee', companyId: acme.id })
      const before = (await db().select().from(users).where(eq(users.id, employee.id)))[0]
      const response = await post(form(employee, overrides), { path: `${PAGE}/${employee.id}` })
      expect(response.status).toBe(400)
      expect(fieldErrors(await response.text(), field).join(' ')).toContain(message)
      expect((await db().select().from(users).where(eq(users.id, employee.id)))[0]).toEqual(before)
    })

    test('an address another account has is refused in neutral words', async () => {
      const employee = await createUser({ role: 'employee', companyId: acme.id })
      for (const taken of [admin.email, (await createUser({ role: 'colleague' })).email]) {
        const response = await post(form(employee, { email: taken }), { path: `${PAGE}/${employee.id}` })
        expect(response.status).toBe(400)
        expect(fieldErrors(await response.text(), 'email')).toEqual([
          'This e-mail address belongs to another account, so it cannot be used here.',
        ])
      }
    })

    test('moving them to another company is refused while a scheme of theirs still runs', async () => {
      const employee = await createUser({ role: 'employee', companyId: acme.id, displayName: 'Busy Bee' })
      const scheme = await createScheme({ companyId: acme.id, name: 'Running scheme' })
      await enrolEmployee(scheme, employee.id)
      const response = await post(
        form(employee, { name: 'Busy Bee', email: employee.email, companyId: globex.id }),
        {
          path: `${PAGE}/${employee.id}`,
        },
      )
      expect(response.status).toBe(400)
      expect(fieldErrors(await response.text(), 'companyId').join(' ')).toContain(
        'takes part in “Running scheme”',
      )
      expect((await db().select().from(users).where(eq(users.id, employee.id)))[0]!.companyId).toBe(acme.id)
    })

    test('a form naming another employee than the page’s is refused', async () => {
      const employee = await createUser({ role: 'employee', companyId: acme.id })
      const other = await createUser({ role: 'employee', companyId: acme.id })
      const response = await post(form(other), { path: `${PAGE}/${employee.id}` })
      expect(response.status).toBe(400)
      expect((await db().select().from(users).where(eq(users.id, other.id)))[0]!.displayName).toBe(
        other.displayName,
      )
    })
  })

  describe('disable and enable', () => {
    test('?disable=1 asks first; disabling ends every session in the same change, audited; enabling lets them in again', async () => {
      const employee = await createUser({ role: 'employee', companyId: acme.id, displayName: 'Leaving Soon' })
      const path = `${PAGE}/${employee.id}`
      const theirCookie = await sessionCookieFor(employee.id)
      await sessionCookieFor(employee.id)
      expect((await send(server, '/user', { cookie: theirCookie })).status).toBe(200)

      const confirm = await html(`${path}?disable=1`)
      expect(confirm).toContain('Disable Leaving Soon?')
      expect(confirm).toContain('Yes, disable the account')

      const response = await post(
        { intent: 'disable', employeeId: employee.id },
        { path: `${path}?disable=1` },
      )
      expect(response.status).toBe(302)
      expect(location(response)).toBe(path)
      const page = await follow(response)
      expect(page).toContain('Employee disabled')
      expect(textOf(page)).toContain('their 2 sessions were ended')
      expect((await db().select().from(users).where(eq(users.id, employee.id)))[0]!.disabledAt).not.toBeNull()
      expect(await db().select().from(sessions).where(eq(sessions.userId, employee.id))).toEqual([])
      // Their browser is signed out at once.
      const after = await send(server, '/user', { cookie: theirCookie })
      expect(after.status).toBe(302)
      expect(location(after)).toMatch(/^\/sign-in/)
      expect(await auditFor(employee.id)).toEqual([
        { action: 'employee.disable', actorId: admin.id, details: { sessionsEnded: 2 } },
      ])
      expect(textOf(page)).toContain('Enable the account')

      const again = await post({ intent: 'disable', employeeId: employee.id }, { path })
      expect(await follow(again)).toContain('Already disabled')

      const enabled = await post({ intent: 'enable', employeeId: employee.id }, { path })
      expect(await follow(enabled)).toContain('Employee enabled')
      expect((await db().select().from(users).where(eq(users.id, employee.id)))[0]!.disabledAt).toBeNull()
      expect((await auditFor(employee.id)).map((a) => a.action)).toEqual([
        'employee.disable',
        'employee.enable',
      ])
    })

    test('a malformed id in the form is a 400; an employee cannot disable anyone', async () => {
      const employee = await createUser({ role: 'employee', companyId: acme.id })
      const path = `${PAGE}/${employee.id}`
      expect((await post({ intent: 'disable', employeeId: 'nope' }, { path })).status).toBe(400)
      const asEmployee = await post(
        { intent: 'disable', employeeId: employee.id },
        { path, cookie: employeeCookie },
      )
      expect(location(asEmployee)).toBe('/user')
      expect((await db().select().from(users).where(eq(users.id, employee.id)))[0]!.disabledAt).toBeNull()
    })
  })

  describe('resend activation', () => {
    test('a fresh activate_account code and e-mail in the outbox; earlier links stop working; audited; rate-limited', async () => {
      const employee = await createUser({
        role: 'employee',
        companyId: acme.id,
        password: null,
        displayName: 'New Starter',
      })
      const path = `${PAGE}/${employee.id}`
      const first = await post({ intent: 'resend-activation', employeeId: employee.id }, { path })
      expect(first.status).toBe(302)
      expect(await follow(first)).toContain('Activation e-mail sent')
      const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email))
      expect(mails).toHaveLength(1)
      expect(mails[0]!.templateKey).toBe('activate_account')
      expect(mails[0]!.text).toContain('/verification?mode=activate&code=')
      const codes = await db()
        .select()
        .from(actionCodes)
        .where(and(eq(actionCodes.userId, employee.id), eq(actionCodes.kind, 'activate_account')))
      expect(codes).toHaveLength(1)
      expect(codes[0]!.usedAt).toBeNull()
      expect((await auditFor(employee.id)).map((a) => a.action)).toEqual(['employee.activation_resent'])

      // Again within ten minutes: refused with Retry-After, nothing written.
      const second = await post({ intent: 'resend-activation', employeeId: employee.id }, { path })
      expect(second.status).toBe(429)
      expect(Number(second.headers.get('Retry-After'))).toBeGreaterThan(0)
      expect(textOf(await second.text())).toContain(
        'An activation e-mail was sent to this employee a few minutes ago',
      )
      expect(
        await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email)),
      ).toHaveLength(1)

      // A later resend (the window forgotten) voids the first link.
      await db().execute(
        sql`DELETE FROM rate_limits WHERE key = ${`activation-resend:employee:${employee.id}`}`,
      )
      expect((await post({ intent: 'resend-activation', employeeId: employee.id }, { path })).status).toBe(
        302,
      )
      const after = await db()
        .select()
        .from(actionCodes)
        .where(and(eq(actionCodes.userId, employee.id), eq(actionCodes.kind, 'activate_account')))
      expect(after).toHaveLength(2)
      expect(after.filter((c) => c.usedAt === null)).toHaveLength(1)
      expect(after.find((c) => c.id === codes[0]!.id)!.usedAt).not.toBeNull()
    })

    test('refused for an employee who has a password, or is disabled', async () => {
      const active = await createUser({ role: 'employee', companyId: acme.id })
      const disabled = await createUser({
        role: 'employee',
        companyId: acme.id,
        password: null,
        disabledAt: new Date(),
      })
      for (const [employee, message] of [
        [active, 'This employee has already activated their account.'],
        [disabled, 'This employee is disabled. Enable them first'],
      ] as const) {
        const response = await post(
          { intent: 'resend-activation', employeeId: employee.id },
          { path: `${PAGE}/${employee.id}` },
        )
        expect(response.status).toBe(400)
        expect(textOf(await response.text())).toContain(message)
        expect(
          await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, employee.email)),
        ).toEqual([])
      }
    })
  })
})
