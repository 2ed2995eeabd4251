import crypto from 'node:crypto'
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { employeeImportRows, employeeImports, users } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { ROW_PROBLEMS } from '#app/modules/employee/import-schemas'
import { useTestDatabase } from '#tests/support/database'
import { send, signedIn, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * Issue 18 §1 in the CSV import (ADR 040): manager_email, department and job_title columns. The
 * manager may be on a later row; a manager of another company, an address that is not an employee
 * of the row's company, oneself, a circle of managers (in the file, or closed by an existing
 * employee's current manager) and a manager whose own row cannot be imported are refused per row.
 * Empty cells leave what people have; a change of org data alone is "updated".
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/employee-management'
let adminCookie = ''
let admin = { id: '', email: '' }
let acme = { id: '', name: '' }
let globex = { id: '', name: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  acme = await createCompany({ name: 'Acme Org Widgets' })
  globex = await createCompany({ name: 'Globex Org Corporation' })
})

const tag = () => crypto.randomBytes(4).toString('hex')
const HEADER = 'name,email,company,manager_email,department,job_title'

async function staged(content: string | Buffer, fileName = 'org.csv') {
  const form = new FormData()
  form.append('intent', 'upload')
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), fileName)
  const response = await send(server, PAGE, { form, cookie: adminCookie })
  if (response.status !== 302)
    throw new Error(`upload answered ${response.status}: ${textOf(await response.text())}`)
  return new URL(response.headers.get('location')!, 'http://x').searchParams.get('import')!
}

const rowsOf = (importId: string) =>
  db()
    .select()
    .from(employeeImportRows)
    .where(eq(employeeImportRows.importId, importId))
    .orderBy(employeeImportRows.line)

const problemsOf = async (importId: string) =>
  Object.fromEntries((await rowsOf(importId)).map((r) => [r.line, r.errors]))

const runImport = (importId: string, extra: Record<string, string> = {}) =>
  send(server, `${PAGE}?import=${importId}`, {
    form: { intent: 'import', importId, schemeId: '', ...extra },
    cookie: adminCookie,
  })

async function preview(importId: string, query = '') {
  const response = await send(server, `${PAGE}?import=${importId}${query}`, { cookie: adminCookie })
  expect(response.status).toBe(200)
  return textOf(await response.text())
}

const userByEmail = async (email: string) =>
  (await db().select().from(users).where(eq(users.email, email)))[0]

const employee = (overrides: Partial<typeof users.$inferInsert> = {}) =>
  createUser({ role: 'employee', companyId: acme.id, password: null, ...overrides })

async function managerOf(email: string) {
  const person = await userByEmail(email)
  if (!person?.managerId) return null
  const [manager] = await db().select().from(users).where(eq(users.id, person.managerId))
  return manager!.email
}

const summaryOf = async (importId: string) =>
  (
    await db()
      .select({ summary: employeeImports.summary })
      .from(employeeImports)
      .where(eq(employeeImports.id, importId))
  )[0]!.summary

describe('reading the org columns', () => {
  test('header aliases: “Manager’s E-mail”, “Team”, “Job Title”, and “Manager”, “Department”, “Role”', async () => {
    const t = tag()
    const first = await staged(
      `Name;E-mail;Company;Manager’s E-mail;Team;Job Title\n` +
        `Ann ${t};ann.${t}@example.test;Acme Org Widgets;BOSS.${t}@Example.test ; Sales ;  Head of Sales \n` +
        `Boss ${t};boss.${t}@example.test;Acme Org Widgets;;;\n`,
    )
    const second = await staged(
      `email,Manager,Department,Role,name,company\n` +
        `cy.${t}@example.test,boss2.${t}@example.test,Finance,Controller,Cy ${t},Acme Org Widgets\n` +
        `boss2.${t}@example.test,,,,Boss Two ${t},Acme Org Widgets\n`,
    )
    const third = await staged(
      `name,email,company,manager_email,department,title\nDi ${t},di.${t}@example.test,Acme Org Widgets,,,Analyst\n`,
    )
    const shape = (r: Awaited<ReturnType<typeof rowsOf>>[number]) => ({
      manager: r.managerEmail,
      department: r.department,
      jobTitle: r.jobTitle,
      errors: r.errors,
    })
    expect((await rowsOf(first)).map(shape)).toEqual([
      { manager: `boss.${t}@example.test`, department: 'Sales', jobTitle: 'Head of Sales', errors: [] },
      { manager: '', department: null, jobTitle: null, errors: [] },
    ])
    expect((await rowsOf(second)).map(shape)).toEqual([
      { manager: `boss2.${t}@example.test`, department: 'Finance', jobTitle: 'Controller', errors: [] },
      { manager: '', department: null, jobTitle: null, errors: [] },
    ])
    expect((await rowsOf(third)).map(shape)).toEqual([
      { manager: '', department: null, jobTitle: 'Analyst', errors: [] },
    ])
    // The preview shows the org column when a row has org data, and not otherwise.
    const shown = await preview(first)
    expect(shown).toContain('Manager, department, job title')
    expect(shown).toContain(`Manager: boss.${t}@example.test Department: Sales Job title: Head of Sales`)
    const plain = await staged(`name,email,company\nEd ${t},ed.${t}@example.test,Acme Org Widgets\n`)
    expect(await preview(plain)).not.toContain('Manager, department, job title')
  })

  test('department and job title: length and one line; the manager must be an address', async () => {
    const t = tag()
    const id = await staged(
      [
        HEADER,
        `Long Dept,ld.${t}@example.test,Acme Org Widgets,,${'d'.repeat(101)},`,
        `Fine Dept,fd.${t}@example.test,Acme Org Widgets,,${'d'.repeat(100)},${'j'.repeat(100)}`,
        `Long Title,lt.${t}@example.test,Acme Org Widgets,,,${'j'.repeat(101)}`,
        `Tab Dept,td.${t}@example.test,Acme Org Widgets,,"Sales\tNorth","Two\nLines"`,
        `Bad Manager,bm.${t}@example.test,Acme Org Widgets,Jane Smith,,`,
      ].join('\n'),
    )
    expect((await rowsOf(id)).map((r) => r.errors)).toEqual([
      ['department_too_long'],
      [],
      ['job_title_too_long'],
      ['department_control', 'job_title_control'],
      ['manager_invalid'],
    ])
  })
})

describe('managers', () => {
  test('a manager on a later row, and an existing employee as manager, are imported after everyone is written', async () => {
    const t = tag()
    const existing = await employee({ email: `existing.${t}@example.test` })
    const id = await staged(
      [
        HEADER,
        `Report ${t},report.${t}@example.test,Acme Org Widgets,LATER.${t}@example.test,Sales,Rep`,
        `Other ${t},other.${t}@example.test,Acme Org Widgets,${existing.email},Sales,Rep`,
        `Later ${t},later.${t}@example.test,acme org widgets,${existing.email},Sales,Head of Sales`,
      ].join('\n'),
    )
    expect(await problemsOf(id)).toEqual({ 2: [], 3: [], 4: [] })
    expect((await runImport(id)).status).toBe(302)
    expect(await managerOf(`report.${t}@example.test`)).toBe(`later.${t}@example.test`)
    expect(await managerOf(`later.${t}@example.test`)).toBe(existing.email)
    expect(await managerOf(`other.${t}@example.test`)).toBe(existing.email)
    expect(await userByEmail(`later.${t}@example.test`)).toMatchObject({
      department: 'Sales',
      jobTitle: 'Head of Sales',
    })
    expect(await summaryOf(id)).toMatchObject({ created: 3, updated: 0, unchanged: 0, skipped: 0 })
  })

  test('another company’s manager is refused, on a row of the file or already; an admin’s, a colleague’s and an unknown address get the same words', async () => {
    const t = tag()
    const globexBoss = await employee({ companyId: globex.id, email: `gboss.${t}@example.test` })
    const colleague = await createUser({ role: 'colleague', email: `col.${t}@example.test` })
    const id = await staged(
      [
        HEADER,
        `Globex Row ${t},grow.${t}@example.test,Globex Org Corporation,,,`,
        `Cross File ${t},cf.${t}@example.test,Acme Org Widgets,grow.${t}@example.test,,`,
        `Cross Existing ${t},ce.${t}@example.test,Acme Org Widgets,${globexBoss.email},,`,
        `Admin Managed ${t},am.${t}@example.test,Acme Org Widgets,${admin.email},,`,
        `Colleague Managed ${t},cm.${t}@example.test,Acme Org Widgets,${colleague.email},,`,
        `Nobody Managed ${t},nm.${t}@example.test,Acme Org Widgets,nobody.${t}@example.test,,`,
        `Self Managed ${t},self.${t}@example.test,Acme Org Widgets,SELF.${t}@example.test,,`,
      ].join('\n'),
    )
    expect(await problemsOf(id)).toEqual({
      2: [],
      3: ['manager_other_company'],
      4: ['manager_unknown'],
      5: ['manager_unknown'],
      6: ['manager_unknown'],
      7: ['manager_unknown'],
      8: ['manager_self'],
    })
    const shown = await preview(id)
    expect(shown).toContain(
      'The manager is on line 2 of this file, with another company: a manager must work for the same company.',
    )
    const unknown = ROW_PROBLEMS.manager_unknown
    for (const name of ['Cross Existing', 'Admin Managed', 'Colleague Managed', 'Nobody Managed'])
      expect(shown).toMatch(new RegExp(`${name} ${t} [^ ]+ Acme Org Widgets Manager: [^ ]+ ${unknown}`))
    expect(shown).toContain(ROW_PROBLEMS.manager_self)
    expect(shown).toContain('4 × manager not an employee of the company')
    // Nothing of theirs is written.
    expect((await runImport(id)).status).toBe(302)
    expect(await managerOf(`grow.${t}@example.test`)).toBeNull()
    expect(await userByEmail(`cf.${t}@example.test`)).toBeUndefined()
  })

  test('circles of two and three people in the file are refused, and so is whoever reports into one', async () => {
    const t = tag()
    const id = await staged(
      [
        HEADER,
        `A ${t},a.${t}@example.test,Acme Org Widgets,b.${t}@example.test,,`,
        `B ${t},b.${t}@example.test,Acme Org Widgets,a.${t}@example.test,,`,
        `C ${t},c.${t}@example.test,Acme Org Widgets,d.${t}@example.test,,`,
        `D ${t},d.${t}@example.test,Acme Org Widgets,e.${t}@example.test,,`,
        `E ${t},e.${t}@example.test,Acme Org Widgets,c.${t}@example.test,,`,
        `Under ${t},under.${t}@example.test,Acme Org Widgets,e.${t}@example.test,,`,
        `Fine ${t},fine.${t}@example.test,Acme Org Widgets,f2.${t}@example.test,,`,
        `F2 ${t},f2.${t}@example.test,Acme Org Widgets,,,`,
      ].join('\n'),
    )
    expect(await problemsOf(id)).toEqual({
      2: ['manager_cycle'],
      3: ['manager_cycle'],
      4: ['manager_cycle'],
      5: ['manager_cycle'],
      6: ['manager_cycle'],
      7: ['manager_has_problems'],
      8: [],
      9: [],
    })
    const shown = await preview(id)
    expect(shown).toContain(ROW_PROBLEMS.manager_cycle)
    expect(shown).toContain(
      'The manager is on line 6 of this file, which cannot be imported: fix that row first.',
    )
    expect(shown).toContain('5 × managers in a circle')
  })

  test('a circle closed by an existing employee’s current manager is refused; a swap of manager and report is not a circle', async () => {
    const t = tag()
    // Existing: low reports to mid, mid to top.
    const top = await employee({ email: `top.${t}@example.test` })
    const mid = await employee({ email: `mid.${t}@example.test`, managerId: top.id })
    const low = await employee({ email: `low.${t}@example.test`, managerId: mid.id })
    // Existing: x reports to y; the file makes y report to x, and x to someone new (a swap).
    const y = await employee({ email: `y.${t}@example.test` })
    const x = await employee({ email: `x.${t}@example.test`, managerId: y.id })
    const id = await staged(
      [
        HEADER,
        // top → low → mid → top: closed by low's and mid's current managers.
        `Top ${t},${top.email},Acme Org Widgets,${low.email},,`,
        `Y ${t},${y.email},Acme Org Widgets,${x.email},,`,
        `X ${t},${x.email},Acme Org Widgets,newboss.${t}@example.test,,`,
        `New Boss ${t},newboss.${t}@example.test,Acme Org Widgets,,,`,
      ].join('\n'),
    )
    expect(await problemsOf(id)).toEqual({ 2: ['manager_cycle'], 3: [], 4: [], 5: [] })
    expect((await runImport(id)).status).toBe(302)
    expect(await managerOf(top.email)).toBeNull()
    expect(await managerOf(y.email)).toBe(x.email)
    expect(await managerOf(x.email)).toBe(`newboss.${t}@example.test`)
    expect(await managerOf(low.email)).toBe(mid.email)
  })

  test('a circle that only appears because a refused row keeps its current manager is found too', async () => {
    const t = tag()
    // Existing: p reports to e, f to p. The file makes p report to the row T (which cannot be
    // imported: no name), and e report to f. P's row is refused, so p keeps reporting to e, and
    // e → f → p → e would close: a second round of the check finds it.
    const e = await employee({ email: `e.${t}@example.test` })
    const p = await employee({ email: `p.${t}@example.test`, managerId: e.id })
    await employee({ email: `f.${t}@example.test`, managerId: p.id })
    const id = await staged(
      [
        HEADER,
        `,t.${t}@example.test,Acme Org Widgets,,,`,
        `P ${t},${p.email},Acme Org Widgets,t.${t}@example.test,,`,
        `E ${t},${e.email},Acme Org Widgets,f.${t}@example.test,,`,
      ].join('\n'),
    )
    expect(await problemsOf(id)).toEqual({
      2: ['name_missing'],
      3: ['manager_has_problems'],
      4: ['manager_cycle'],
    })
    expect((await runImport(id)).status).toBe(400)
    expect(await managerOf(e.email)).toBeNull()
  })

  test('a manager whose row cannot be imported refuses the rows under them, transitively, with the line', async () => {
    const t = tag()
    const id = await staged(
      [
        HEADER,
        `Zed ${t},zed.${t}@example.test,Acme Org Widgets,yan.${t}@example.test,,`,
        `Yan ${t},yan.${t}@example.test,Acme Org Widgets,xi.${t}@example.test,,`,
        `Xi ${t},xi.${t}@example.test,No Such Company ${t},,,`,
        `Xi Again ${t},xi.${t}@example.test,Acme Org Widgets,,,`,
        `Free ${t},free.${t}@example.test,Acme Org Widgets,,,`,
      ].join('\n'),
    )
    // The first row of an address is the one that counts: Xi's is line 4, whose company is unknown.
    expect(await problemsOf(id)).toEqual({
      2: ['manager_has_problems'],
      3: ['manager_has_problems'],
      4: ['company_unknown'],
      5: ['email_duplicate'],
      6: [],
    })
    const shown = await preview(id, '&show=problems')
    expect(shown).toContain(
      'The manager is on line 3 of this file, which cannot be imported: fix that row first.',
    )
    expect(shown).toContain(
      'The manager is on line 4 of this file, which cannot be imported: fix that row first.',
    )
    const report = await (
      await send(server, `${PAGE}/imports/${id}/problems.csv`, { cookie: adminCookie })
    ).text()
    expect(report).toContain(
      `Zed ${t},zed.${t}@example.test,Acme Org Widgets,,yan.${t}@example.test,,,2,"The manager is on line 3 of this file`,
    )
  })
})

describe('applying', () => {
  test('empty cells leave what people have; a change of org data alone is “updated”, with or without “update names”', async () => {
    const t = tag()
    const boss = await employee({ email: `boss.${t}@example.test` })
    const newBoss = await employee({ email: `newboss.${t}@example.test` })
    const keep = await employee({
      email: `keep.${t}@example.test`,
      displayName: 'Keep Name',
      department: 'Sales',
      jobTitle: 'Rep',
      managerId: boss.id,
    })
    const move = await employee({
      email: `move.${t}@example.test`,
      displayName: 'Move Name',
      department: 'Sales',
      jobTitle: 'Rep',
      managerId: boss.id,
    })
    const promote = await employee({ email: `promote.${t}@example.test`, displayName: 'Promote Name' })
    const id = await staged(
      [
        HEADER,
        `Keep Other Spelling,${keep.email},Acme Org Widgets,,,`,
        `Move Name,${move.email},Acme Org Widgets,${newBoss.email},,`,
        `Promote Other Spelling,${promote.email},Acme Org Widgets,,Finance,Controller`,
        `Same Again,${boss.email},Acme Org Widgets,,,`,
      ].join('\n'),
    )
    expect(await preview(id)).toContain(
      'Either way, a manager, department or job title in the file replaces theirs; an empty cell leaves what they have.',
    )
    expect((await runImport(id)).status).toBe(302)
    expect(await userByEmail(keep.email)).toMatchObject({
      displayName: 'Keep Name',
      department: 'Sales',
      jobTitle: 'Rep',
      managerId: boss.id,
    })
    expect(await userByEmail(move.email)).toMatchObject({
      department: 'Sales',
      jobTitle: 'Rep',
      managerId: newBoss.id,
    })
    expect(await userByEmail(promote.email)).toMatchObject({
      displayName: 'Promote Name',
      department: 'Finance',
      jobTitle: 'Controller',
      managerId: null,
    })
    expect((await rowsOf(id)).map((r) => r.outcome)).toEqual(['unchanged', 'updated', 'updated', 'unchanged'])
    expect(await summaryOf(id)).toMatchObject({ created: 0, updated: 2, unchanged: 2 })

    // The same file again changes nothing.
    const again = await staged(
      [
        HEADER,
        `Move Name,${move.email},Acme Org Widgets,${newBoss.email},,`,
        `Promote Other Spelling,${promote.email},Acme Org Widgets,,Finance,Controller`,
      ].join('\n'),
    )
    expect((await runImport(again)).status).toBe(302)
    expect((await rowsOf(again)).map((r) => r.outcome)).toEqual(['unchanged', 'unchanged'])
  })

  test('a colleague who becomes an employee takes the file’s department, title and manager', async () => {
    const t = tag()
    const boss = await employee({ email: `cboss.${t}@example.test` })
    const colleague = await createUser({ role: 'colleague', email: `becomes.${t}@example.test` })
    const id = await staged(`${HEADER}\nBecomes,${colleague.email},Acme Org Widgets,${boss.email},Ops,Lead\n`)
    expect((await runImport(id)).status).toBe(302)
    expect(await userByEmail(colleague.email)).toMatchObject({
      role: 'employee',
      companyId: acme.id,
      department: 'Ops',
      jobTitle: 'Lead',
      managerId: boss.id,
    })
  })
})

describe('10,000 rows in one chain of managers (pointer doubling, not a walk per row)', () => {
  test('a chain, each manager on the next row, is imported; closed into one circle, every row is refused', async () => {
    const t = tag()
    const lines = (closed: boolean) => {
      const out = [HEADER]
      for (let i = 0; i < 10_000; i++) {
        const next =
          i < 9_999 ? `chain.${i + 1}.${t}@example.test` : closed ? `chain.0.${t}@example.test` : ''
        out.push(`Chain ${i},chain.${i}.${t}@example.test,Acme Org Widgets,${next},Chain,Link ${i}`)
      }
      return Buffer.from(out.join('\n'))
    }
    let started = performance.now()
    const circleId = await staged(lines(true), 'circle.csv')
    const circleMs = performance.now() - started
    const circle = await rowsOf(circleId)
    expect(circle.filter((r) => r.errors.join() === 'manager_cycle')).toHaveLength(10_000)

    started = performance.now()
    const chainId = await staged(lines(false), 'chain.csv')
    const chainMs = performance.now() - started
    expect((await rowsOf(chainId)).filter((r) => r.errors.length)).toEqual([])
    started = performance.now()
    expect((await runImport(chainId)).status).toBe(302)
    const importMs = performance.now() - started
    expect(await managerOf(`chain.0.${t}@example.test`)).toBe(`chain.1.${t}@example.test`)
    const managed = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(
        and(
          inArray(
            users.email,
            Array.from({ length: 10_000 }, (_, i) => `chain.${i}.${t}@example.test`),
          ),
          isNotNull(users.managerId),
        ),
      )
    expect(managed[0]!.n).toBe(9_999)
    console.log(
      `[csv-import org chain, 10,000 rows, ${process.env.TEST_DATABASE_URL ? 'Postgres' : 'PGlite'}] ` +
        `upload+check as one circle ${Math.round(circleMs)} ms, as a chain ${Math.round(chainMs)} ms, import ${Math.round(importMs)} ms`,
    )
  }, 240_000)
})
