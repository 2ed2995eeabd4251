import crypto from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  assignments,
  auditLog,
  emailOutbox,
  employeeImportRows,
  employeeImports,
  schemeMembers,
  sessions,
  users,
} from '#db/schema/index'
import { queryRows } from '#db/client'
import { createCompany, createRaterAssignment, createScheme, createUser, enrolEmployee } from '#db/factories'
import { EMAIL_PATTERN_SQL } from '#app/modules/employee/schemas'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, signedIn, useTestServer } from '#tests/support/app'
import { fieldErrors, textOf } from '#tests/integration/auth/helpers'

/**
 * The CSV import of employees (ADR 012) through the real HTTP stack: upload (multipart, streamed),
 * the preview with every row's problems, the import in one transaction (idempotent on the address),
 * the optional enrolment, the summary and the two downloads — with the CSV shapes people really
 * send (BOM, semicolons, quoted commas, headers in another case and order) and 10,000 rows.
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/employee-management'
let admin = { id: '', email: '' }
let adminCookie = ''
let acme = { id: '', name: '' }
let globex = { id: '', name: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  acme = await createCompany({ name: 'Acme Widgets' })
  globex = await createCompany({ name: 'Globex Corporation' })
})

const tag = () => crypto.randomBytes(4).toString('hex')

function upload(
  content: string | Buffer,
  fileName = 'people.csv',
  { cookie = adminCookie, intent = 'upload' } = {},
) {
  const form = new FormData()
  form.append('intent', intent)
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), fileName)
  return send(server, PAGE, { form, cookie })
}

/** Uploads a file that must be accepted; returns the import's id. */
async function staged(content: string | Buffer, fileName?: string) {
  const response = await upload(content, fileName)
  if (response.status !== 302)
    throw new Error(`upload answered ${response.status}: ${textOf(await response.text())}`)
  const to = location(response)!
  expect(to).toMatch(new RegExp(`^${PAGE}\\?import=[0-9a-f-]{36}$`))
  return new URL(to, 'http://x').searchParams.get('import')!
}

const rowsOf = (importId: string) =>
  db()
    .select()
    .from(employeeImportRows)
    .where(eq(employeeImportRows.importId, importId))
    .orderBy(employeeImportRows.line)

const problemsOf = async (importId: string) =>
  Object.fromEntries((await rowsOf(importId)).map((r) => [r.line, r.errors]))

const runImport = (importId: string, schemeId = '', extra: Record<string, string> = {}) =>
  send(server, `${PAGE}?import=${importId}`, {
    form: { intent: 'import', importId, schemeId, ...extra },
    cookie: adminCookie,
  })

async function page(path: string) {
  const response = await send(server, path, { cookie: adminCookie })
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

describe('reading the file', () => {
  test('UTF-8 with a BOM, semicolons, quoted separators, and a header in another case and order', async () => {
    const t = tag()
    const csv =
      '\uFEFFE-Mail;COMPANY;Phone;Full Name\r\n' +
      `"Zoë.${t}@Example.test";acme widgets;+44 20 7946 0958;"Müller; Zoë"\r\n` +
      `"o'brien.${t}@example.test";"Acme Widgets";;"O'Brien, ""Pat"""\r\n`
    const id = await staged(csv, 'semicolons.csv')
    const rows = await rowsOf(id)
    expect(
      rows.map((r) => ({
        line: r.line,
        name: r.name,
        email: r.email,
        company: r.companyName,
        phone: r.phone,
        errors: r.errors,
      })),
    ).toEqual([
      {
        line: 2,
        name: 'Müller; Zoë',
        email: `zoë.${t}@example.test`,
        company: 'acme widgets',
        phone: '+44 20 7946 0958',
        errors: ['email_invalid'],
      },
      {
        line: 3,
        name: 'O\'Brien, "Pat"',
        email: `o'brien.${t}@example.test`,
        company: 'Acme Widgets',
        phone: null,
        errors: [],
      },
    ])
    // The company is matched ignoring case.
    expect(rows.every((r) => r.companyId === acme.id)).toBe(true)
  })

  test('commas, no BOM, quoted commas and line breaks inside quotes, blank lines skipped', async () => {
    const t = tag()
    const csv =
      'name,email,company\n' +
      `"Smith, John",john.${t}@example.test,Acme Widgets\n` +
      '\n' +
      `"Two\nLines",two.${t}@example.test,Acme Widgets\n` +
      ',,\n' +
      `Last One,last.${t}@example.test,Globex Corporation`
    const id = await staged(csv)
    const rows = await rowsOf(id)
    expect(rows.map((r) => [r.name, r.companyId, r.errors])).toEqual([
      ['Smith, John', acme.id, []],
      ['Two\nLines', acme.id, ['name_control']],
      ['Last One', globex.id, []],
    ])
  })

  test('every kind of problem is found, on its own row, in one pass', async () => {
    const t = tag()
    const otherCompanys = await createUser({ role: 'employee', companyId: globex.id })
    const csv = [
      'name,email,company,phone',
      `Valid Person,valid.${t}@example.test,Acme Widgets,`,
      `,noname.${t}@example.test,Acme Widgets,`,
      `No Address,,Acme Widgets,`,
      `Bad Address,not-an-address,Acme Widgets,`,
      `Twin One,twin.${t}@example.test,Acme Widgets,`,
      `Twin Two,TWIN.${t}@example.test,Acme Widgets,`,
      `The Admin,${admin.email},Acme Widgets,`,
      `Poached,${otherCompanys.email},Acme Widgets,`,
      `Nowhere,nowhere.${t}@example.test,Initech,`,
      `Homeless,homeless.${t}@example.test,,`,
      `Bad Phone,phone.${t}@example.test,Acme Widgets,call me`,
      `Long Phone,longphone.${t}@example.test,Acme Widgets,${'1'.repeat(31)}`,
      `${'n'.repeat(121)},long.${t}@example.test,Acme Widgets,`,
      `Extra,extra.${t}@example.test,Acme Widgets,,surplus`,
      `Trailing Empty,trailing.${t}@example.test,Acme Widgets,,,`,
    ].join('\n')
    const id = await staged(csv)
    expect(await problemsOf(id)).toEqual({
      2: [],
      3: ['name_missing'],
      4: ['email_missing'],
      5: ['email_invalid'],
      // The first row with an address keeps it; a later one is flagged (issue 15, A8).
      6: [],
      7: ['email_duplicate'],
      8: ['email_unavailable'],
      9: ['email_unavailable'],
      10: ['company_unknown'],
      11: ['company_missing'],
      12: ['phone_invalid'],
      13: ['phone_too_long'],
      14: ['name_too_long'],
      15: ['too_many_values'],
      16: [],
    })
    // The preview lists every row with its problems in words, and counts them.
    const preview = textOf(await page(`${PAGE}?import=${id}`))
    expect(preview).toContain(
      '15 rows read: 3 rows are ready to import (3 new employees, 0 existing accounts), and 12 rows have problems',
    )
    expect(preview).toContain('1 × e-mail address repeats an earlier row')
    expect(preview).toContain(
      'Duplicate of row 6: the same e-mail address is on line 6, and only that first row is imported.',
    )
    // An admin's address and another company's employee's get the same words.
    const neutral =
      'The e-mail address belongs to another account, so it cannot be imported for this company.'
    expect(preview).toContain(`The Admin ${admin.email} Acme Widgets ${neutral}`)
    expect(preview).toContain(`Poached ${otherCompanys.email} Acme Widgets ${neutral}`)
    expect(preview).toContain('No company has this name: create it first, or correct the name.')
    expect(preview).toContain('Ready: new employee')
  })

  test('bytes that are not UTF-8 are reported, not guessed at; a NUL byte does not break the upload', async () => {
    const t = tag()
    const latin1 = Buffer.concat([
      Buffer.from('name,email,company\n'),
      Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]), // "Müller" in Latin-1
      Buffer.from(
        `,latin.${t}@example.test,Acme Widgets\nNul\u0000Byte,nul.${t}@example.test,Acme Widgets\n`,
      ),
    ])
    const id = await staged(latin1)
    expect(await problemsOf(id)).toEqual({ 2: ['not_utf8'], 3: ['not_utf8'] })
  })

  test('a lone surrogate’s bytes (ED A0 80) and a NUL are flagged rows, never stored as such; the file name is cleaned', async () => {
    const t = tag()
    const file = Buffer.concat([
      Buffer.from('name,email,company\n'),
      Buffer.from('Half'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from(
        `Pair,half.${t}@example.test,Acme Widgets\nNul\u0000Byte,nul2.${t}@example.test,Acme Widgets\n`,
      ),
      Buffer.from(`Fine Person,fine.${t}@example.test,Acme Widgets\n`),
    ])
    // A file name cannot carry a lone surrogate either (the form's encoding makes it U+FFFD), and a
    // NUL in it breaks the multipart header: the upload is refused whole, nothing kept.
    const refused = await upload(file, 'people\u0000.csv')
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain('This file could not be read as CSV.')
    const id = await staged(file, 'people\ud800.csv')
    expect(await problemsOf(id)).toEqual({ 2: ['not_utf8'], 3: ['not_utf8'], 4: [] })
    const [row] = await db().select().from(employeeImports).where(eq(employeeImports.id, id))
    expect(row!.fileName).toBe('people\ufffd.csv')
    expect((await runImport(id)).status).toBe(302)
    const written = await db()
      .select({ email: users.email })
      .from(users)
      .where(
        inArray(users.email, [`half.${t}@example.test`, `nul2.${t}@example.test`, `fine.${t}@example.test`]),
      )
    expect(written.map((u) => u.email)).toEqual([`fine.${t}@example.test`])
  })

  test.each([
    ['an empty file', '', 'The file is empty.'],
    ['a header only', 'name,email,company\n', 'The file is empty.'],
    [
      'a header without the company',
      'name,email\nJo,jo@example.test\n',
      'The first line must name the columns name, e-mail and company',
    ],
    ['a column named twice', 'name,email,E-mail,company\n', 'The header names the E-mail column twice.'],
    [
      'a quotation mark never closed, in the middle',
      `name,email,company\nA,a.${tag()}@example.test,Acme Widgets\n"B,b@example.test,Acme Widgets\nC,c@example.test,Acme Widgets\n`,
      'could not be read (a quotation mark is opened and never closed)',
    ],
    [
      'text after a closing quotation mark, in the middle',
      `name,email,company\nA,a.${tag()}@example.test,Acme Widgets\n"B"x,b@example.test,Acme Widgets\nC,c@example.test,Acme Widgets\n`,
      'Line 3 could not be read (a quotation mark closes a value but more text follows it)',
    ],
  ])('refuses %s as a whole, keeping nothing of it', async (_label, csv, message) => {
    const before = (await db().select({ id: employeeImports.id }).from(employeeImports)).length
    const response = await upload(csv)
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, 'file').join(' ')).toContain(message)
    expect((await db().select({ id: employeeImports.id }).from(employeeImports)).length).toBe(before)
  })

  test('refuses a file over 2 MB, keeping nothing of it', async () => {
    const before = (await db().select({ id: employeeImports.id }).from(employeeImports)).length
    const row = (i: number) => `${'Long Name '.repeat(20)}${i},long.${i}@example.test,Acme Widgets`
    const big = ['name,email,company', ...Array.from({ length: 9_000 }, (_, i) => row(i))].join('\n')
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024)
    expect(big.length).toBeLessThan(3 * 1024 * 1024)
    const response = await upload(big)
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'file')).toEqual([
      'The file is larger than 2 MB. Split it into smaller files.',
    ])
    expect((await db().select({ id: employeeImports.id }).from(employeeImports)).length).toBe(before)
  })

  test('refuses more than 10,000 rows, a post without a file, and an upload without its intent', async () => {
    const big = [
      'name,email,company',
      ...Array.from({ length: 10_001 }, (_, i) => `P${i},p${i}@x.test,Acme Widgets`),
    ].join('\n')
    const tooMany = await upload(big)
    expect(tooMany.status).toBe(400)
    expect(fieldErrors(await tooMany.text(), 'file').join(' ')).toContain('more than 10,000 rows')

    const noFile = new FormData()
    noFile.append('intent', 'upload')
    const missing = await send(server, PAGE, { form: noFile, cookie: adminCookie })
    expect(missing.status).toBe(400)
    expect(fieldErrors(await missing.text(), 'file')).toEqual(['Choose a CSV file to upload.'])

    const wrongIntent = await upload('name,email,company\nA,a@x.test,Acme Widgets\n', 'x.csv', {
      intent: 'create',
    })
    expect(wrongIntent.status).toBe(400)
    expect(textOf(await wrongIntent.text())).toContain('could not be read as CSV')

    const broken = await send(server, PAGE, {
      cookie: adminCookie,
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      form: undefined,
    })
    expect([400, 405]).toContain(broken.status)
  })

  test('only an admin may upload', async () => {
    const employee = await createUser({ role: 'employee', companyId: acme.id })
    const response = await upload('name,email,company\nA,a@x.test,Acme Widgets\n', 'x.csv', {
      cookie: await sessionCookieFor(employee.id),
    })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/user')
  })
})

describe('importing', () => {
  test('imports the valid rows in one go; a failing row in the middle is skipped with its reason; audited; no e-mail', async () => {
    const t = tag()
    const csv = [
      'name,email,company,phone',
      `First Person,first.${t}@example.test,Acme Widgets,+44 161 496 0000`,
      `Second Person,second.${t}@example.test,Acme Widgets,`,
      `Broken Middle,broken-middle.${t}@,Acme Widgets,`,
      `Fourth Person,fourth.${t}@example.test,Globex Corporation,`,
      `Fifth Person,fifth.${t}@example.test,Acme Widgets,`,
    ].join('\n')
    const id = await staged(csv)
    const before = await countUsers()
    const response = await runImport(id)
    expect(response.status).toBe(302)
    expect(location(response)).toBe(`${PAGE}?import=${id}`)
    const summary = textOf(
      await (await send(server, location(response)!, { cookie: cookiesFrom(response, adminCookie) })).text(),
    )
    expect(summary).toContain('Import finished')
    expect(summary).toContain('4 employees created, 0 updated, 0 unchanged, 1 row skipped.')
    expect(summary).toContain('Skipped: The e-mail address is not valid.')
    expect(await countUsers()).toBe(before + 4)
    expect(await userByEmail(`first.${t}@example.test`)).toMatchObject({
      displayName: 'First Person',
      role: 'employee',
      companyId: acme.id,
      phone: '+44 161 496 0000',
      passwordHash: null,
    })
    expect((await userByEmail(`fourth.${t}@example.test`))!.companyId).toBe(globex.id)
    expect((await rowsOf(id)).map((r) => r.outcome)).toEqual([
      'created',
      'created',
      'skipped',
      'created',
      'created',
    ])
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'employee_import'),
          eq(auditLog.entityId, id),
          eq(auditLog.action, 'employee_import.import'),
        ),
      )
    expect(entry).toMatchObject({
      actorId: admin.id,
      details: { created: 4, updated: 0, unchanged: 0, skipped: 1, enrolled: 0 },
    })
    const outbox = await db()
      .select()
      .from(emailOutbox)
      .where(sql`${emailOutbox.recipient} LIKE ${`%.${t}@example.test`}`)
    expect(outbox).toEqual([])
    // The same preview cannot be imported twice.
    const again = await runImport(id)
    expect(again.status).toBe(400)
    expect(textOf(await again.text())).toContain('This file has already been imported.')
  })

  test('re-importing is idempotent on the address: names and phones updated when asked, nobody duplicated', async () => {
    const t = tag()
    const first = [
      'name,email,company,phone',
      `Ann Old,ann.${t}@example.test,Acme Widgets,`,
      `Bob Same,bob.${t}@example.test,Acme Widgets,0161 496 0000`,
    ].join('\n')
    expect((await runImport(await staged(first))).status).toBe(302)
    const ann = await userByEmail(`ann.${t}@example.test`)
    const before = await countUsers()

    // The same file again: nothing changes.
    const sameId = await staged(first)
    expect(textOf(await page(`${PAGE}?import=${sameId}`))).toContain('(0 new employees, 2 existing accounts)')
    expect((await runImport(sameId)).status).toBe(302)
    expect((await rowsOf(sameId)).map((r) => r.outcome)).toEqual(['unchanged', 'unchanged'])

    // New names and phones, in another case: updated in place.
    const second = [
      'Email,Name,Company,Phone',
      `ANN.${t}@EXAMPLE.TEST,Ann New,ACME WIDGETS,+1 202 555 0100`,
      `bob.${t}@example.test,Bob Same,Acme Widgets,0161 496 0000`,
    ].join('\n')
    // Without "update names" ticked (issue 15, A8), the people keep theirs; ticked, they take the file's.
    const keptId = await staged(second)
    expect((await runImport(keptId)).status).toBe(302)
    expect((await rowsOf(keptId)).map((r) => r.outcome)).toEqual(['unchanged', 'unchanged'])
    expect(await userByEmail(`ann.${t}@example.test`)).toMatchObject({ displayName: 'Ann Old', phone: null })
    const secondId = await staged(second)
    expect((await runImport(secondId, '', { updateNames: 'on' })).status).toBe(302)
    expect((await rowsOf(secondId)).map((r) => r.outcome)).toEqual(['updated', 'unchanged'])
    expect(await countUsers()).toBe(before)
    expect(await userByEmail(`ann.${t}@example.test`)).toMatchObject({
      id: ann!.id,
      displayName: 'Ann New',
      phone: '+1 202 555 0100',
    })
    const [summary] = await db()
      .select({ summary: employeeImports.summary })
      .from(employeeImports)
      .where(eq(employeeImports.id, secondId))
    expect(summary!.summary).toEqual({
      created: 0,
      updated: 1,
      unchanged: 1,
      skipped: 0,
      enrolled: 0,
      schemeName: null,
    })
  })

  test('accounts that changed after the preview are re-checked inside the import: an admin is never touched', async () => {
    const t = tag()
    const id = await staged(
      [
        'name,email,company',
        `Later Admin,later.${t}@example.test,Acme Widgets`,
        `Fine,fine.${t}@example.test,Acme Widgets`,
      ].join('\n'),
    )
    const sneaky = await createUser({
      role: 'admin',
      email: `later.${t}@example.test`,
      displayName: 'Real Admin',
    })
    expect((await runImport(id)).status).toBe(302)
    expect(await userByEmail(sneaky.email)).toMatchObject({
      role: 'admin',
      displayName: 'Real Admin',
      companyId: null,
    })
    expect((await rowsOf(id)).map((r) => [r.outcome, r.errors])).toEqual([
      ['skipped', ['email_unavailable']],
      ['created', []],
    ])
  })

  test('a colleague’s account becomes an employee’s, and the sessions its invitation links opened end', async () => {
    const colleague = await createUser({ role: 'colleague', displayName: 'Was Colleague' })
    await sessionCookieFor(colleague.id)
    const id = await staged(`name,email,company\nNow Employee,${colleague.email},Acme Widgets\n`)
    expect((await runImport(id)).status).toBe(302)
    // The name is kept unless the admin asks for the file's (issue 15, A8; it was renamed before).
    expect(await userByEmail(colleague.email)).toMatchObject({
      id: colleague.id,
      role: 'employee',
      companyId: acme.id,
      displayName: 'Was Colleague',
    })
    expect(await db().select().from(sessions).where(eq(sessions.userId, colleague.id))).toEqual([])
    expect((await rowsOf(id))[0]!.outcome).toBe('updated')
  })

  test('a file with no valid row cannot be imported', async () => {
    const id = await staged('name,email,company\n,nobody@example.test,Acme Widgets\n')
    const response = await runImport(id)
    expect(response.status).toBe(400)
    expect(textOf(await response.text())).toContain('No row of this file can be imported.')
    const [row] = await db().select().from(employeeImports).where(eq(employeeImports.id, id))
    expect(row!.importedAt).toBeNull()
  })

  describe('enrolling into a scheme', () => {
    test('enrols the scheme’s company’s imported people (memberships and self assignments), others are imported only', async () => {
      const t = tag()
      const scheme = await createScheme({ companyId: acme.id, status: 'draft', name: `Draft ${t}` })
      const id = await staged(
        [
          'name,email,company',
          `In Scheme,in.${t}@example.test,Acme Widgets`,
          `Also In,also.${t}@example.test,Acme Widgets`,
          `Other Co,other.${t}@example.test,Globex Corporation`,
        ].join('\n'),
      )
      // The preview offers the draft schemes of the file's companies.
      const preview = await page(`${PAGE}?import=${id}`)
      expect(preview).toContain(`<option value="${scheme.id}">Draft ${t} (Acme Widgets)</option>`)
      const response = await runImport(id, scheme.id)
      expect(response.status).toBe(302)
      const summary = textOf(await (await send(server, location(response)!, { cookie: adminCookie })).text())
      expect(summary).toContain(`2 people newly enrolled into “Draft ${t}”`)
      const members = await db()
        .select({ email: users.email })
        .from(schemeMembers)
        .innerJoin(users, eq(users.id, schemeMembers.employeeId))
        .where(eq(schemeMembers.schemeId, scheme.id))
      expect(members.map((m) => m.email).sort()).toEqual([`also.${t}@example.test`, `in.${t}@example.test`])
      const selfs = await db()
        .select()
        .from(assignments)
        .where(and(eq(assignments.schemeId, scheme.id), eq(assignments.relationship, 'self')))
      expect(selfs).toHaveLength(2)
      // Launch sends the e-mails, not the import.
      expect(
        await db()
          .select()
          .from(emailOutbox)
          .where(sql`${emailOutbox.recipient} LIKE ${`%.${t}@example.test`}`),
      ).toEqual([])
    })

    test.each([
      ['a launched scheme', { status: 'open' as const }, 'acme', 'That scheme has been launched'],
      [
        'a scheme of a company with no row in the file',
        { status: 'draft' as const },
        'globex',
        'None of the rows to import are employees of Globex Corporation',
      ],
    ])('refuses %s and imports nothing', async (_label, overrides, company, message) => {
      const t = tag()
      const scheme = await createScheme({ companyId: company === 'acme' ? acme.id : globex.id, ...overrides })
      const id = await staged(`name,email,company\nNot Yet,notyet.${t}@example.test,Acme Widgets\n`)
      const response = await runImport(id, scheme.id)
      expect(response.status).toBe(400)
      expect(fieldErrors(await response.text(), 'schemeId').join(' ')).toContain(message)
      expect(await userByEmail(`notyet.${t}@example.test`)).toBeUndefined()
    })

    test('an unknown or malformed scheme is a field message', async () => {
      const id = await staged(`name,email,company\nX,x.${tag()}@example.test,Acme Widgets\n`)
      expect(
        fieldErrors(await (await runImport(id, crypto.randomUUID())).text(), 'schemeId').join(' '),
      ).toContain('That scheme no longer exists.')
      expect(fieldErrors(await (await runImport(id, 'nope')).text(), 'schemeId').join(' ')).toContain(
        'Choose a scheme from the list, or none.',
      )
    })
  })

  test('discarding a preview removes it; an imported file stays', async () => {
    const id = await staged(`name,email,company\nX,x.${tag()}@example.test,Acme Widgets\n`)
    const response = await send(server, `${PAGE}?import=${id}`, {
      form: { intent: 'discard', importId: id },
      cookie: adminCookie,
    })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(PAGE)
    expect(await db().select().from(employeeImports).where(eq(employeeImports.id, id))).toEqual([])
    expect(await rowsOf(id)).toEqual([])

    const kept = await staged(`name,email,company\nY,y.${tag()}@example.test,Acme Widgets\n`)
    await runImport(kept)
    const refused = await send(server, `${PAGE}?import=${kept}`, {
      form: { intent: 'discard', importId: kept },
      cookie: adminCookie,
    })
    expect(refused.status).toBe(400)
    expect(await db().select().from(employeeImports).where(eq(employeeImports.id, kept))).toHaveLength(1)
  })

  test('previews nobody imported are removed a week later, on the next upload; imported files stay', async () => {
    const old = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000)
    const [stale] = await db()
      .insert(employeeImports)
      .values({ createdBy: admin.id, fileName: 'stale.csv', createdAt: old })
      .returning()
    const [record] = await db()
      .insert(employeeImports)
      .values({ createdBy: admin.id, fileName: 'record.csv', createdAt: old, importedAt: old })
      .returning()
    const [recent] = await db()
      .insert(employeeImports)
      .values({ createdBy: admin.id, fileName: 'recent.csv' })
      .returning()
    // A refused upload writes nothing, housekeeping included.
    expect((await upload('')).status).toBe(400)
    expect(await db().select().from(employeeImports).where(eq(employeeImports.id, stale!.id))).toHaveLength(1)
    await staged(`name,email,company\nH,h.${tag()}@example.test,Acme Widgets\n`)
    const left = await db()
      .select({ id: employeeImports.id })
      .from(employeeImports)
      .where(inArray(employeeImports.id, [stale!.id, record!.id, recent!.id]))
    expect(left.map((r) => r.id).sort()).toEqual([record!.id, recent!.id].sort())
  })

  test('unknown or malformed imports answer the 404 page, for the preview, the import and the report', async () => {
    for (const id of [crypto.randomUUID(), 'nope']) {
      expect((await send(server, `${PAGE}?import=${id}`, { cookie: adminCookie })).status).toBe(404)
      expect((await send(server, `${PAGE}/imports/${id}/problems.csv`, { cookie: adminCookie })).status).toBe(
        404,
      )
    }
    const unknown = crypto.randomUUID()
    expect((await runImport(unknown)).status).toBe(404)
  })
})

describe('the preview pages', () => {
  test('pages through every row, and through the rows with problems alone', async () => {
    const t = tag()
    const lines = ['name,email,company']
    for (let i = 0; i < 120; i++)
      lines.push(`Person ${i},${i % 10 === 0 ? 'bad' : `p${i}.${t}@example.test`},Acme Widgets`)
    const id = await staged(lines.join('\n'))
    const lineNumbers = (html: string) =>
      [...html.matchAll(/<tr[^>]*><th scope="row"[^>]*>(\d+)<\/th>/g)].map((m) => Number(m[1]))
    const next = (html: string) =>
      /<a[^>]*rel="next"[^>]*href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null

    const seen: number[] = []
    let path: string | null = `${PAGE}?import=${id}`
    while (path) {
      const html = await page(path)
      seen.push(...lineNumbers(html))
      path = next(html)
    }
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => i + 2))

    const problems = await page(`${PAGE}?import=${id}&show=problems`)
    expect(lineNumbers(problems)).toEqual(Array.from({ length: 12 }, (_, i) => i * 10 + 2))
    expect(next(problems)).toBeNull()
    // Going back from the last page gives the page before it.
    const second = await page(next(await page(`${PAGE}?import=${id}`))!)
    const prev = /<a[^>]*rel="prev"[^>]*href="([^"]+)"/.exec(second)![1]!.replaceAll('&amp;', '&')
    expect(lineNumbers(await page(prev))).toEqual(Array.from({ length: 50 }, (_, i) => i + 2))
  })
})

describe('downloads', () => {
  test('the template is a header line the import accepts; admins only', async () => {
    const response = await send(server, `${PAGE}/template.csv`, { cookie: adminCookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toContain('attachment')
    const body = Buffer.from(await response.arrayBuffer())
    expect(body.toString('utf8')).toBe(
      '\uFEFFname,email,company,phone,manager_email,department,job_title\r\n',
    )
    const anonymous = await send(server, `${PAGE}/template.csv`)
    expect(location(anonymous)).toMatch(/^\/sign-in/)
    // Filled in, it imports.
    expect(
      await staged(Buffer.concat([body, Buffer.from(`T,t.${tag()}@example.test,Acme Widgets,\r\n`)])),
    ).toBeTruthy()
  })

  test('the problems report lists the rows with problems, neutralises formulas, and can be fixed and uploaded again', async () => {
    const t = tag()
    const csv = [
      'name,email,company,phone',
      `Good,good.${t}@example.test,Acme Widgets,`,
      `=HYPERLINK("http://evil.example"),evil.${t}@example.test,Nowhere Ltd,+44 20 7946 0958`,
      `@SUM(A1),at.${t}@,Acme Widgets,-1`,
    ].join('\n')
    const id = await staged(csv, 'team "A".csv')
    const response = await send(server, `${PAGE}/imports/${id}/problems.csv`, { cookie: adminCookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toContain(
      'attachment; filename="team _A_-problems.csv"',
    )
    const report = Buffer.from(await response.arrayBuffer()).toString('utf8')
    expect(
      report.startsWith(
        '\uFEFFname,email,company,phone,manager_email,department,job_title,line,problems\r\n',
      ),
    ).toBe(true)
    const lines = report.slice(1).trim().split('\r\n')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toBe(
      `"'=HYPERLINK(""http://evil.example"")",evil.${t}@example.test,Nowhere Ltd,'+44 20 7946 0958,,,,3,"No company has this name: create it first, or correct the name."`,
    )
    expect(lines[2]!.startsWith(`'@SUM(A1),at.${t}@,Acme Widgets,'-1,,,,4,`)).toBe(true)
    expect(report).not.toContain('good.')
    // Fixed (the company corrected) and uploaded as it is: the apostrophes go, the extra columns are ignored.
    const fixedId = await staged(report.replace('Nowhere Ltd', 'Acme Widgets'))
    const rows = await rowsOf(fixedId)
    expect(rows[0]).toMatchObject({
      name: '=HYPERLINK("http://evil.example")',
      phone: '+44 20 7946 0958',
      errors: [],
    })
    // Only admins.
    const employee = await createUser({ role: 'employee', companyId: acme.id })
    const asEmployee = await send(server, `${PAGE}/imports/${id}/problems.csv`, {
      cookie: await sessionCookieFor(employee.id),
    })
    expect(location(asEmployee)).toBe('/user')
  })
})

test('the SQL address rule accepts and refuses exactly what z.email() does', async () => {
  const addresses = [
    'a@b.co',
    'first.last@example.test',
    "o'brien@example.test",
    'x+tag@sub.example.co.uk',
    'under_score@example.test',
    'a-b@ex-ample.test',
    '.lead@example.test',
    'double..dot@example.test',
    'trail.@example.test',
    'no-at.example.test',
    'a@b',
    'a@b.c',
    'a@-b.test',
    'a@b..test',
    'ünï@example.test',
    'a b@example.test',
    'a@b.test ',
    'a@b.123',
    'UPPER@EXAMPLE.TEST',
    "'@example.test",
    'a@b_c.test',
  ]
  const rows = await queryRows<{ address: string; ok: boolean }>(
    db(),
    sql`SELECT a AS address, a ~ ${EMAIL_PATTERN_SQL} AS ok FROM unnest(string_to_array(${addresses.join('\n')}, ${'\n'})) a`,
  )
  const bySql = Object.fromEntries(rows.map((r) => [r.address, Boolean(r.ok)]))
  const byZod = Object.fromEntries(addresses.map((a) => [a, z.email().safeParse(a).success]))
  expect(bySql).toEqual(byZod)
  expect(Object.values(byZod).filter(Boolean).length).toBeGreaterThan(5)
})

describe('the preview says what happens to existing people, repeats and near names (issue 15, A8)', () => {
  test('a colleague’s row is a notice, not a problem: they become an employee, keep their name, their rater assignments, and lose their link sessions', async () => {
    const t = tag()
    const subject = await createUser({ role: 'employee', companyId: acme.id })
    const scheme = await createScheme({ companyId: acme.id })
    await enrolEmployee(scheme, subject.id)
    const casey = await createUser({
      role: 'colleague',
      displayName: 'Casey Rater',
      email: `casey.${t}@example.test`,
    })
    const rater = await createRaterAssignment({ scheme, subjectId: subject.id, respondentId: casey.id })
    const caseyCookie = await sessionCookieFor(casey.id)
    expect((await send(server, '/user/thank-you', { cookie: caseyCookie })).status).toBe(200)

    const id = await staged(
      `name,email,company\nCasey Employee,casey.${t}@example.test,acme widgets\nNew Person,new.${t}@example.test,Acme Widgets\n`,
    )
    expect(await problemsOf(id)).toEqual({ 2: [], 3: [] })
    const preview = textOf(await page(`${PAGE}?import=${id}`))
    expect(preview).toContain(
      '2 rows read: 2 rows are ready to import (1 new employee, 1 existing account, of which 1 colleague becomes an employee)',
    )
    expect(preview).toContain(
      'Ready: already has an account as a colleague; becomes an employee of Acme Widgets. Keeps the name “Casey Rater” unless you update names.',
    )
    expect(preview).toContain('Update names (and phones) of existing people')

    expect((await runImport(id)).status).toBe(302)
    expect(await userByEmail(casey.email)).toMatchObject({
      id: casey.id,
      role: 'employee',
      companyId: acme.id,
      displayName: 'Casey Rater',
    })
    // The session the invitation link opened was a colleague's: it ended, so it never carries on as
    // an employee's; the employee signs in with their own password once activated.
    expect(await db().select().from(sessions).where(eq(sessions.userId, casey.id))).toEqual([])
    const afterwards = await send(server, '/user', { cookie: caseyCookie })
    expect(afterwards.status).toBe(302)
    expect(location(afterwards)).toMatch(/^\/sign-in/)
    // Their feedback for a colleague stays theirs to give: an employee may be a rater too.
    expect((await db().select().from(assignments).where(eq(assignments.id, rater.id)))[0]).toMatchObject({
      respondentId: casey.id,
      status: rater.status,
    })
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'employee_import.import')))
    expect(audit!.details).toMatchObject({ updateNames: false, created: 1, updated: 1 })
  })

  test('ticking “update names” gives a colleague and this company’s employees the file’s name and phone', async () => {
    const t = tag()
    const colleague = await createUser({
      role: 'colleague',
      displayName: 'Old Colleague',
      email: `oc.${t}@example.test`,
    })
    const employee = await createUser({
      role: 'employee',
      companyId: acme.id,
      displayName: 'Old Employee',
      email: `oe.${t}@example.test`,
    })
    const id = await staged(
      `name,email,company,phone\nNew Colleague,oc.${t}@example.test,Acme Widgets,\nNew Employee,oe.${t}@example.test,Acme Widgets,+44 20 7946 0000\n`,
    )
    expect(textOf(await page(`${PAGE}?import=${id}`))).toContain(
      'Ready: already an employee. Keeps the name “Old Employee” unless you update names.',
    )
    expect((await runImport(id, '', { updateNames: 'on' })).status).toBe(302)
    expect(await userByEmail(colleague.email)).toMatchObject({
      role: 'employee',
      displayName: 'New Colleague',
    })
    expect(await userByEmail(employee.email)).toMatchObject({
      displayName: 'New Employee',
      phone: '+44 20 7946 0000',
    })
  })

  test('a repeated address: the first row is kept and imported, later ones say “duplicate of row N”, in the preview and the problems CSV', async () => {
    const t = tag()
    const csv = [
      'name,email,company',
      `First Twin,twin.${t}@example.test,Acme Widgets`,
      `Someone Else,else.${t}@example.test,Acme Widgets`,
      `Second Twin,TWIN.${t}@example.test,Acme Widgets`,
      `Third Twin,twin.${t}@example.test,Globex Corporation`,
    ].join('\n')
    const id = await staged(csv)
    expect(await problemsOf(id)).toEqual({ 2: [], 3: [], 4: ['email_duplicate'], 5: ['email_duplicate'] })
    const preview = textOf(await page(`${PAGE}?import=${id}`))
    expect(preview).toContain('2 rows are ready to import')
    expect(preview).toContain('2 × e-mail address repeats an earlier row')
    const duplicate =
      'Duplicate of row 2: the same e-mail address is on line 2, and only that first row is imported.'
    expect(preview).toContain(`Second Twin twin.${t}@example.test Acme Widgets ${duplicate}`)
    const report = await (
      await send(server, `${PAGE}/imports/${id}/problems.csv`, { cookie: adminCookie })
    ).text()
    // (Quoted: the sentence holds a comma.)
    expect(report).toContain(`Second Twin,twin.${t}@example.test,Acme Widgets,,,,,4,"${duplicate}"`)
    expect(report).toContain(`Third Twin,twin.${t}@example.test,Globex Corporation,,,,,5,"${duplicate}"`)
    expect((await runImport(id)).status).toBe(302)
    expect(await userByEmail(`twin.${t}@example.test`)).toMatchObject({
      displayName: 'First Twin',
      companyId: acme.id,
    })
    expect((await rowsOf(id)).map((r) => r.outcome)).toEqual(['created', 'created', 'skipped', 'skipped'])
  })

  test('an unknown company gets the closest existing name as a suggestion, or none when nothing is close', async () => {
    await createCompany({ name: 'Globex Logistics' })
    const t = tag()
    const csv = [
      'name,email,company',
      `Typo Person,typo.${t}@example.test,Globex Logistcs`,
      `Other Typo,typo2.${t}@example.test,Globex Logistcs`,
      `Short Name,short.${t}@example.test,Acme`,
      `Far Away,far.${t}@example.test,Umbrella Pharmaceuticals`,
    ].join('\n')
    const id = await staged(csv)
    expect(await problemsOf(id)).toEqual({
      2: ['company_unknown'],
      3: ['company_unknown'],
      4: ['company_unknown'],
      5: ['company_unknown'],
    })
    const preview = textOf(await page(`${PAGE}?import=${id}`))
    expect(preview).toContain('Unknown company “Globex Logistcs” — did you mean Globex Logistics?')
    expect(preview).toContain('Unknown company “Acme” — did you mean Acme Widgets?')
    expect(preview).toContain(
      `Far Away far.${t}@example.test Umbrella Pharmaceuticals No company has this name: create it first, or correct the name.`,
    )
    const report = await (
      await send(server, `${PAGE}/imports/${id}/problems.csv`, { cookie: adminCookie })
    ).text()
    expect(report).toContain(
      `Typo Person,typo.${t}@example.test,Globex Logistcs,,,,,2,Unknown company “Globex Logistcs” — did you mean Globex Logistics?`,
    )
  })
})

test('10,000 rows, each with its own unknown company and every address twice: suggestions and duplicates stay set-based', async () => {
  // The worst case for the check's new parts (issue 15, A8): 5,000 distinct near-miss company names
  // against 200 companies, each address on two rows. Timed and logged beside the plain 10,000 rows.
  const t = tag()
  await queryRows(
    db(),
    sql`INSERT INTO companies (name, brand_id)
        SELECT 'Bench Company ' || g || ' ' || ${t}, (SELECT brand_id FROM companies WHERE id = ${acme.id}::uuid)
        FROM generate_series(1, 200) g`,
  )
  const lines = ['name,email,company']
  for (let i = 0; i < 5_000; i++) {
    const row = `Person ${i},p.${i}.${t}@example.test,Bench Compny ${i % 200} ${t}x${i}`
    lines.push(row, row)
  }
  const started = performance.now()
  const id = await staged(Buffer.from(lines.join('\n')), 'worst-case.csv')
  const checked = performance.now()
  const preview = textOf(await page(`${PAGE}?import=${id}`))
  const shown = performance.now()
  expect(preview).toContain('10,000 rows read: 0 rows are ready to import')
  expect(preview).toContain('5,000 × e-mail address repeats an earlier row')
  expect(preview).toMatch(
    /Unknown company “Bench Compny 0 [0-9a-f]+x0” — did you mean Bench Company \d+ [0-9a-f]+\?/,
  )
  expect(preview).toContain('Duplicate of row 2:')
  console.log(
    `[csv-import worst case, 10,000 rows, 5,000 unknown companies against 200, ${process.env.TEST_DATABASE_URL ? 'Postgres' : 'PGlite'}] ` +
      `upload+check ${Math.round(checked - started)} ms, preview page ${Math.round(shown - checked)} ms`,
  )
})

test('10,000 rows: uploaded, checked and imported, with time and memory measured', async () => {
  const t = tag()
  // With an org chart (issue 18): ten reports a manager, four levels, every manager on a later row
  // than their reports; a department and a job title each.
  const lines = ['name,email,company,phone,manager_email,department,job_title']
  const address = (i: number) => `employee.${i}.${t}@subsidiary.example.test`
  for (let i = 0; i < 10_000; i++) {
    const rank = 9_999 - i
    const manager = rank === 0 ? '' : address(9_999 - Math.floor((rank - 1) / 10))
    lines.push(
      `Employee ${i} Surname-Longer,${address(i)},Acme Widgets,+44 20 7946 ${String(i).padStart(4, '0')},${manager},Department ${rank % 40},Engineer`,
    )
  }
  const csv = Buffer.from(lines.join('\r\n'))
  global.gc?.()
  const base = process.memoryUsage()
  let peakRss = base.rss
  let peakHeap = base.heapUsed
  const sampler = setInterval(() => {
    const m = process.memoryUsage()
    peakRss = Math.max(peakRss, m.rss)
    peakHeap = Math.max(peakHeap, m.heapUsed)
  }, 5)
  const before = await countUsers()
  const started = performance.now()
  const id = await staged(csv, 'ten-thousand.csv')
  const uploaded = performance.now()
  const response = await runImport(id)
  const imported = performance.now()
  clearInterval(sampler)
  expect(response.status).toBe(302)
  expect(await countUsers()).toBe(before + 10_000)
  const [summary] = await db()
    .select({ summary: employeeImports.summary })
    .from(employeeImports)
    .where(eq(employeeImports.id, id))
  expect(summary!.summary).toMatchObject({ created: 10_000, skipped: 0 })
  const [managed] = await queryRows<{ n: number; departments: number }>(
    db(),
    sql`SELECT count(*) FILTER (WHERE m.email = r.manager_email)::int AS n,
          count(DISTINCT u.department)::int AS departments
        FROM employee_import_rows r JOIN users u ON u.email = r.email LEFT JOIN users m ON m.id = u.manager_id
        WHERE r.import_id = ${id}::uuid`,
  )
  expect(managed).toMatchObject({ n: 9_999, departments: 40 })
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
  console.log(
    `[csv-import 10,000 rows, ${mb(csv.length)} file, ${process.env.TEST_DATABASE_URL ? 'Postgres' : 'PGlite'}] ` +
      `upload+check ${Math.round(uploaded - started)} ms, import ${Math.round(imported - uploaded)} ms; ` +
      `peak RSS +${mb(peakRss - base.rss)} (${mb(peakRss)}), peak heap +${mb(peakHeap - base.heapUsed)}`,
  )
  // A second import of the same 10,000 rows changes nobody.
  const againId = await staged(csv, 'ten-thousand.csv')
  expect((await runImport(againId)).status).toBe(302)
  const [again] = await db()
    .select({ summary: employeeImports.summary })
    .from(employeeImports)
    .where(eq(employeeImports.id, againId))
  expect(again!.summary).toMatchObject({ created: 0, updated: 0, unchanged: 10_000 })
  expect(
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(inArray(users.companyId, [acme.id]))
    )[0]!.n,
  ).toBeGreaterThanOrEqual(10_000)
}, 180_000)
