import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { rateLimits, users } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { getDb } from '#db/client'
import {
  directoryLimitKey,
  resolveDirectoryPerson,
  searchDirectory,
} from '#app/modules/nomination/directory.server'
import { DIRECTORY_MESSAGES, DIRECTORY_PATH } from '#app/modules/nomination/directory'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'

/**
 * The colleague directory's type-ahead (issue 18 §3) through its resource route: who is found (an
 * enabled employee of the list's company, never the employee themself, an administrator, an outside
 * colleague or another company's people), by what (name, e-mail, department, title; wildcards are
 * letters), who may search for whose list (the employee, their manager, administrators: anyone
 * else gets the same 404), the rate limit, and that no answer ever carries an e-mail address.
 */
const db = useTestDatabase()
const server = useTestServer()

type Person = Awaited<ReturnType<typeof createUser>>
const w = {} as {
  employee: Person
  manager: Person
  peer: Person
  titled: Person
  outsider: Person
  disabled: Person
  admin: Person
  colleague: Person
  elsewhere: Person
  prefixed: Person
  unprefixed: Person
  underscore: Person
  underx: Person
  percent: Person
  zero: Person
}
const cookies = {} as Record<'employee' | 'manager' | 'outsider' | 'admin' | 'colleague', string>

beforeAll(async () => {
  const acme = await createCompany({ name: 'Directory Acme' })
  const other = await createCompany({ name: 'Directory Other' })
  const person = (displayName: string, department: string | null, jobTitle: string | null, extra = {}) =>
    createUser({ role: 'employee', companyId: acme.id, displayName, department, jobTitle, ...extra })
  w.manager = await person('Morgan Manager', 'Operations', 'Head of operations')
  w.employee = await person('Erin Example', 'Operations', 'Operations lead', { managerId: w.manager.id })
  w.peer = await person('Pat Peer', 'Finance', 'Accountant', { email: 'pat.peer.dirtest@acme-dir.test' })
  w.titled = await person('Theo Titled', 'Sales', 'Operations analyst')
  w.outsider = await person('Olga Outsider', 'Marketing', 'Designer')
  w.disabled = await person('Dina Disabled', 'Operations', 'Clerk', { disabledAt: new Date() })
  w.prefixed = await person('Zeno Prefix', 'Research', 'Scientist')
  w.unprefixed = await person('Abe Zeno', 'Research', 'Scientist')
  w.underscore = await person('Uma Under_score', 'Legal', 'Counsel')
  w.underx = await person('Uma Underxscore', 'Legal', 'Counsel')
  w.percent = await person('Xavier Percent', 'People', '100% committed')
  w.zero = await person('Yara Zero', 'People', '1000 committed')
  // Never offered, though they match: an administrator, an outside colleague, another company's.
  w.admin = await createUser({
    role: 'admin',
    companyId: acme.id,
    displayName: 'Ada Operations-Admin',
    department: 'Operations',
  })
  w.colleague = await createUser({
    role: 'colleague',
    companyId: acme.id,
    displayName: 'Cole Operations-Colleague',
    department: 'Operations',
  })
  w.elsewhere = await createUser({
    role: 'employee',
    companyId: other.id,
    displayName: 'Elsa Elsewhere',
    department: 'Operations',
    jobTitle: 'Operations lead',
  })
  for (const name of ['employee', 'manager', 'outsider', 'admin', 'colleague'] as const)
    cookies[name] = await sessionCookieFor(w[name].id)
})

beforeEach(async () => {
  await db().delete(rateLimits)
})

function search(params: Record<string, string>, cookie: string | null = cookies.employee) {
  return send(server, `${DIRECTORY_PATH}?${new URLSearchParams(params)}`, { cookie })
}

async function found(q: string, as: keyof typeof cookies = 'employee', employee = w.employee.id) {
  const response = await search({ employee, q }, cookies[as])
  const text = await response.text()
  expect(response.status, text).toBe(200)
  // Personal: never kept by a shared cache.
  expect(response.headers.get('Cache-Control')).toBe('private, no-store')
  // Never an address in the answer, whatever was searched for.
  expect(text).not.toContain('@')
  const body = JSON.parse(text) as { people: Array<Record<string, unknown>>; hint: string | null }
  for (const p of body.people) expect(Object.keys(p).sort()).toEqual(['department', 'id', 'jobTitle', 'name'])
  return { names: body.people.map((p) => p.name), people: body.people, hint: body.hint }
}

describe('finds', () => {
  test('by department and by job title, case-insensitively, only the enabled employees of the same company', async () => {
    const { names, people } = await found('OPERATIONS')
    // Not Erin herself, not Dina (disabled), not the admin, the colleague or Elsa (another company).
    expect(names).toEqual(['Morgan Manager', 'Theo Titled'])
    expect(people[1]).toEqual({
      id: w.titled.id,
      name: 'Theo Titled',
      department: 'Sales',
      jobTitle: 'Operations analyst',
    })
    expect((await found('oper')).names).toEqual(['Morgan Manager', 'Theo Titled'])
  })

  test('by name, by job title, by department and by a fragment of the e-mail address', async () => {
    expect((await found('pat pe')).names).toEqual(['Pat Peer'])
    expect((await found('accountant')).names).toEqual(['Pat Peer'])
    expect((await found('finan')).names).toEqual(['Pat Peer'])
    expect((await found('peer.dirtest')).names).toEqual(['Pat Peer'])
    expect((await found('PEER.DirTest')).names).toEqual(['Pat Peer'])
  })

  test('names that start with the letters first, then by name', async () => {
    expect((await found('zeno')).names).toEqual(['Zeno Prefix', 'Abe Zeno'])
  })

  test('% and _ are letters, not wildcards', async () => {
    expect((await found('r_s')).names).toEqual(['Uma Under_score'])
    expect((await found('100%')).names).toEqual(['Xavier Percent'])
    expect((await found('%%%')).names).toEqual([])
    expect((await found('___')).names).toEqual([])
  })

  test('at most eight people', async () => {
    const acme = w.employee.companyId!
    for (let i = 0; i < 10; i++)
      await createUser({
        role: 'employee',
        companyId: acme,
        displayName: `Bulk Person ${i}`,
        department: 'Bulkteam',
      })
    const { names } = await found('bulkteam')
    expect(names).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => `Bulk Person ${i}`))
  })

  test('fewer than three letters (after trimming) find nobody and say why', async () => {
    for (const q of ['', 'op', '  op  ', '\u0000op'])
      expect(await found(q)).toEqual({ names: [], people: [], hint: DIRECTORY_MESSAGES.tooShort })
    expect((await found('ope')).hint).toBeNull()
  })

  test('an address the search matches is still not in the answer', async () => {
    const { people } = await found('acme-dir.test')
    expect(people).toEqual([
      { id: w.peer.id, name: 'Pat Peer', department: 'Finance', jobTitle: 'Accountant' },
    ])
  })
})

describe('who may search for whose list', () => {
  test('the employee (their own list, with or without ?employee), their manager and an administrator', async () => {
    expect((await found('theo')).names).toEqual(['Theo Titled'])
    const own = await search({ q: 'theo' })
    expect(own.status).toBe(200)
    expect(((await own.json()) as { people: unknown[] }).people).toHaveLength(1)
    expect((await found('theo', 'manager')).names).toEqual(['Theo Titled'])
    expect((await found('theo', 'admin')).names).toEqual(['Theo Titled'])
    // The list is Erin's: Morgan, searching it, is offered; Erin is not (it is her list).
    expect((await found('erin', 'admin')).names).toEqual([])
    expect((await found('morgan', 'manager')).names).toEqual(['Morgan Manager'])
  })

  test('an employee without a company on record has nobody to name', async () => {
    const loner = await createUser({ role: 'employee', displayName: 'Lone Operations' })
    const response = await search({ q: 'operations' }, await sessionCookieFor(loner.id))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ people: [], hint: null })
  })

  test('anyone else, and any id that is not an employee’s, gets the same 404', async () => {
    const notFound = async (params: Record<string, string>, cookie: string) => {
      const response = await search(params, cookie)
      const text = await response.text()
      expect(response.status, `${JSON.stringify(params)}: ${text}`).toBe(404)
      expect(text).not.toContain('Theo')
    }
    // Another employee of the same company who is not Erin's manager, even with a short term.
    await notFound({ employee: w.employee.id, q: 'theo' }, cookies.outsider)
    await notFound({ employee: w.employee.id, q: 'th' }, cookies.outsider)
    // Erin for her manager's list or a colleague's: not hers.
    await notFound({ employee: w.manager.id, q: 'theo' }, cookies.employee)
    await notFound({ employee: w.outsider.id, q: 'theo' }, cookies.employee)
    for (const employee of [
      'not-a-uuid',
      '00000000-0000-4000-8000-000000000000',
      w.admin.id,
      w.colleague.id,
      'x'.repeat(300),
    ])
      await notFound({ employee, q: 'theo' }, cookies.admin)
    // An administrator has no list of their own.
    await notFound({ q: 'theo' }, cookies.admin)
  })

  test('the guard comes first: signed out to the sign-in page, a colleague to their home', async () => {
    const path = `${DIRECTORY_PATH}?employee=${w.employee.id}&q=theo`
    const anonymous = await send(server, path)
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe(`/sign-in?${new URLSearchParams({ redirectTo: path })}`)
    const colleague = await send(server, path, { cookie: cookies.colleague })
    expect(colleague.status).toBe(302)
    expect(location(colleague)).not.toContain(DIRECTORY_PATH)
  })
})

test('searches are rate limited per person: 429 with Retry-After and the words, then the others still search', async () => {
  // The person's budget for this minute, all but spent (counted by the kit's fixed window).
  await db()
    .insert(rateLimits)
    .values({ key: directoryLimitKey(w.employee.id), windowStart: new Date(), count: 119 })
  expect((await found('theo')).names).toEqual(['Theo Titled'])
  const limited = await search({ employee: w.employee.id, q: 'theo' })
  expect(limited.status).toBe(429)
  expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
  expect(Number(limited.headers.get('Retry-After'))).toBeLessThanOrEqual(60)
  const body = (await limited.json()) as { people: unknown[]; hint: string }
  expect(body.people).toEqual([])
  expect(body.hint).toMatch(/^Too many searches in a short time\. Try again in \d+ seconds?\.$/)
  // The same through the combobox's fetcher (a `.data` request): the words and the Retry-After.
  const viaFetcher = await send(
    server,
    `${DIRECTORY_PATH}.data?${new URLSearchParams({ employee: w.employee.id, q: 'theo', _routes: 'routes/user/colleague-invite.directory' })}`,
    { cookie: cookies.employee },
  )
  expect(viaFetcher.status).toBe(429)
  expect(Number(viaFetcher.headers.get('Retry-After'))).toBeGreaterThan(0)
  expect(await viaFetcher.text()).toContain('Too many searches in a short time')
  // Refused ids count too: guessing costs the same as searching.
  expect((await search({ employee: 'not-a-uuid', q: 'theo' })).status).toBe(429)
  // Their manager has a budget of their own.
  expect((await found('theo', 'manager')).names).toEqual(['Theo Titled'])
})

test('the module answers the same as the route (the 404 and the limit as refusals)', async () => {
  const actor = { id: w.outsider.id, role: 'employee' as const }
  expect(await searchDirectory(actor, { employeeId: w.employee.id, q: 'theo' })).toEqual({
    ok: false,
    notFound: true,
  })
  const self = { id: w.employee.id, role: 'employee' as const }
  const outcome = await searchDirectory(self, { employeeId: w.employee.id, q: 'theo' })
  expect(outcome).toEqual({
    ok: true,
    value: {
      people: [{ id: w.titled.id, name: 'Theo Titled', department: 'Sales', jobTitle: 'Operations analyst' }],
      hint: null,
    },
  })
})

describe('resolveDirectoryPerson', () => {
  const resolve = (personId: string, employeeId = w.employee.id) =>
    getDb().transaction((tx) => resolveDirectoryPerson(tx, { employeeId, personId }))

  test('finds a person the list may name, with the address the invitation goes to', async () => {
    expect(await resolve(w.peer.id)).toEqual({
      id: w.peer.id,
      email: 'pat.peer.dirtest@acme-dir.test',
      name: 'Pat Peer',
    })
    // Without a name on record, the address stands in for it.
    await db().update(users).set({ displayName: '' }).where(eq(users.id, w.zero.id))
    expect(await resolve(w.zero.id)).toEqual({ id: w.zero.id, email: w.zero.email, name: w.zero.email })
  })

  test('nobody the search would not offer: self, disabled, admin, colleague, another company, junk ids', async () => {
    for (const id of [w.employee.id, w.disabled.id, w.admin.id, w.colleague.id, w.elsewhere.id])
      expect(await resolve(id), id).toBeNull()
    expect(await resolve('not-a-uuid')).toBeNull()
    expect(await resolve(w.peer.id, 'not-a-uuid')).toBeNull()
    // The list must be an employee's: an administrator's "list" names nobody.
    expect(await resolve(w.peer.id, w.admin.id)).toBeNull()
  })
})
