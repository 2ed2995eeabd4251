import { and, eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  actionCodes,
  assignments,
  auditLog,
  emailOutbox,
  schemeMembers,
  schemes,
  users,
} from '#db/schema/index'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { instantToZonedTime } from '#app/lib/dates'
import { hashSecret } from '#app/lib/secret-hash.server'
import { releaseOnClose } from '#app/modules/report/release.server'
import { useTestDatabase } from '#tests/support/database'
import {
  client,
  cookiesFrom,
  location,
  send,
  sessionCookieFor,
  signedIn,
  useTestServer,
} from '#tests/support/app'
import { textOf as visibleText } from '#tests/integration/auth/helpers'

/**
 * One scheme's page through the real HTTP stack (the production build): every loader state and
 * every action — edit, enrol (chosen, whole company, someone new), remove, launch (exactly one
 * e-mail per employee, activation or "programme open", held until opens_at), extend, close now,
 * reopen, remind — with the refusals each one has, and the 404 for unknown ids.
 */
const db = useTestDatabase()
const server = useTestServer()

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
let admin = { id: '' }
let adminCookie = ''
let questionnaire = { id: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  questionnaire = await createQuestionnaire({ title: 'Detail 360' })
})

const pathOf = (id: string) => `/admin/scheme-management/${id}`
/** The HTML without the comments React puts between adjacent text pieces ("Each of the <!-- -->3"). */
const textOf = async (response: Response) => (await response.text()).replaceAll('<!-- -->', '')
const view = async (id: string, query = '') => {
  const response = await send(server, pathOf(id) + query, { cookie: adminCookie })
  expect(response.status).toBe(200)
  return textOf(response)
}
const admin$ = client(server, () => adminCookie)
const post = (id: string, form: Record<string, string> | FormData, query = '') =>
  admin$.post(pathOf(id) + query, form)
/** A redirect back to the page with a toast, then the page it leads to. */
async function succeeded(response: Response, id: string) {
  if (response.status !== 302)
    throw new Error(`expected 302, got ${response.status}: ${(await response.text()).slice(0, 3000)}`)
  expect(location(response)).toMatch(new RegExp(`^${pathOf(id)}`))
  const next = await send(server, location(response)!, { cookie: cookiesFrom(response, adminCookie) })
  return textOf(next)
}
async function refused(response: Response, message: string, status = 400) {
  expect(response.status).toBe(status)
  const html = await textOf(response)
  expect(html).toContain(message)
  return html
}
const local = (date: Date) => date.toISOString().slice(0, 16)
/** Times as a form can write them: whole minutes. */
const minute = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000)
const schemeRow = async (id: string) => (await db().select().from(schemes).where(eq(schemes.id, id)))[0]!
const members = async (id: string) =>
  (await db().select().from(schemeMembers).where(eq(schemeMembers.schemeId, id)))
    .map((m) => m.employeeId)
    .sort()
const mailsOf = (schemeId: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.entity, 'scheme'), eq(emailOutbox.entityId, schemeId)))
const auditsOf = (id: string, action: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, action)))

/** A company with active employees (with and without a password), one disabled, and a scheme. */
async function setting(overrides: Partial<Parameters<typeof createScheme>[0]> = {}) {
  // A name that ends in a letter: the page says "Adds them to <company> without a password", and a
  // random name ending in 0 would read as "…0 without…" to the launch test's check for a zero count.
  const company = await createCompany({ name: `Company ${Math.random().toString(16).slice(2, 10)}f` })
  const withPassword = await createUser({
    role: 'employee',
    companyId: company.id,
    displayName: 'Pat Password',
  })
  const newcomer = await createUser({
    role: 'employee',
    companyId: company.id,
    displayName: 'Nell Newcomer',
    password: null,
    emailVerifiedAt: null,
  })
  const disabled = await createUser({ role: 'employee', companyId: company.id, disabledAt: new Date() })
  const scheme = await createScheme({
    companyId: company.id,
    questionnaireId: questionnaire.id,
    status: 'draft',
    opensAt: minute(Date.now() - HOUR),
    closesAt: minute(Date.now() + 20 * DAY),
    ...overrides,
  })
  return { company, withPassword, newcomer, disabled, scheme }
}

function updateForm(scheme: Awaited<ReturnType<typeof schemeRow>>, overrides: Record<string, string> = {}) {
  return {
    intent: 'update',
    name: scheme.name,
    companyId: scheme.companyId,
    questionnaireId: scheme.questionnaireId,
    timeZone: 'UTC',
    opensAt: local(scheme.opensAt),
    closesAt: local(scheme.closesAt),
    maxColleagues: String(scheme.maxColleagues),
    minRaters: String(scheme.minRaters),
    reminderCadenceDays: String(scheme.reminderCadenceDays),
    reportRelease: scheme.reportRelease,
    ...overrides,
  }
}

describe('unknown schemes', () => {
  test.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'new', '%00'])(
    '%s is the not-found page, reading or posting',
    async (id) => {
      const read = await send(server, pathOf(id), { cookie: adminCookie })
      expect(read.status).toBe(404)
      expect(await read.text()).toContain('Page Not Found')
      const write = await send(server, pathOf(id), { form: { intent: 'launch' }, cookie: adminCookie })
      expect(write.status).toBe(404)
    },
  )

  test('an employee is sent home and changes nothing', async () => {
    const { scheme } = await setting()
    const cookie = await sessionCookieFor((await createUser({ role: 'employee' })).id)
    const response = await send(server, pathOf(scheme.id), { form: { intent: 'launch' }, cookie })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/user')
    expect((await schemeRow(scheme.id)).status).toBe('draft')
  })
})

describe('the page', () => {
  test('shows the details in the scheme’s zone, the enrol picker and the empty progress table', async () => {
    const { scheme, withPassword, newcomer, disabled } = await setting({
      name: 'Page Scheme',
      timeZone: 'Europe/Paris',
      opensAt: new Date('2031-01-10T08:00:00Z'),
      closesAt: new Date('2031-02-10T16:00:00Z'),
    })
    const html = await view(scheme.id)
    expect(html).toContain('<title>Page Scheme · Schemes · Panorama admin</title>')
    expect(html).toContain('10 January 2031 at 09:00 CET')
    expect(html).toContain('Europe/Paris')
    expect(html).toContain(`value="${withPassword.id}"`)
    expect(html).toContain(`value="${newcomer.id}"`)
    expect(html).not.toContain(`value="${disabled.id}"`)
    expect(html).toContain('Nobody is enrolled yet. Enrol employees above.')
    expect(html).toContain('Launch the scheme')
    // The edit form shows the dates as wall-clock times in the zone.
    const edit = await view(scheme.id, '?edit')
    expect(edit).toContain('value="2031-01-10T09:00"')
    expect(edit).toContain('value="2031-02-10T17:00"')
  })

  test('the enrol picker searches by name or e-mail and says how many match', async () => {
    const { scheme, company } = await setting()
    for (let i = 0; i < 3; i++)
      await createUser({ role: 'employee', companyId: company.id, displayName: `Findable ${i}` })
    const html = await view(scheme.id, '?find=findable')
    expect(html).toContain('3 employees not enrolled yet matching “findable”')
    expect(html).not.toContain('Pat Password')
    const none = await view(scheme.id, '?find=zzzz')
    expect(none).toContain('No employee who is not enrolled yet matches “zzzz”.')
    // "Enrol the whole company" counts the company, whatever the search (the same statement).
    const whole = (page: string) =>
      page.match(/Enrol the whole company \((?:<!-- -->)?(\d+)(?:<!-- -->)?\)/)?.[1]
    const all = whole(await view(scheme.id))
    expect(Number(all)).toBeGreaterThanOrEqual(4)
    expect(whole(html)).toBe(all)
    expect(whole(none)).toBe(all)
  })

  test('a company with no employees: the picker says so and where to add them (issue 15, B12)', async () => {
    const company = await createCompany({ name: 'Empty Hall Ltd' })
    const scheme = await createScheme({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      status: 'draft',
    })
    const html = await view(scheme.id)
    expect(html).toContain('Empty Hall Ltd has no employees yet — add them in')
    expect(html).toContain(`href="/admin/employee-management?company=${company.id}"`)
    expect(html).not.toContain('Every active employee')
    expect(visibleText(html)).not.toContain('is enrolled. Add someone new below.')

    // Once everyone there is enrolled, that is what it says.
    const only = await createUser({ role: 'employee', companyId: company.id })
    await enrolEmployee(scheme, only.id)
    const all = await view(scheme.id)
    expect(all).toContain('Every employee of Empty Hall Ltd is enrolled. Add someone new below.')
    expect(visibleText(all)).not.toContain('has no employees yet')
  })
})

describe('edit', () => {
  test('saves every field, reads dates in the new zone, audits the changes and moves the deadline of assignments', async () => {
    const { scheme, withPassword } = await setting()
    await enrolEmployee(scheme, withPassword.id)
    const row = await schemeRow(scheme.id)
    const response = await post(
      scheme.id,
      updateForm(row, {
        name: 'Renamed',
        timeZone: 'America/New_York',
        closesAt: '2031-07-04T12:00',
        maxColleagues: '5',
        minRaters: '2',
        reminderCadenceDays: '0',
        reportRelease: 'by_admin',
        // The same instant as before, written in New York.
        opensAt: instantToZonedTime(row.opensAt, 'America/New_York'),
      }),
      '?edit',
    )
    const html = await succeeded(response, scheme.id)
    expect(html).toContain('Scheme saved')
    const after = await schemeRow(scheme.id)
    expect(after).toMatchObject({
      name: 'Renamed',
      timeZone: 'America/New_York',
      maxColleagues: 5,
      minRaters: 2,
      reminderCadenceDays: 0,
      reportRelease: 'by_admin',
    })
    expect(after.closesAt.toISOString()).toBe('2031-07-04T16:00:00.000Z')
    const [self] = await db().select().from(assignments).where(eq(assignments.schemeId, scheme.id))
    expect(self!.dueAt?.toISOString()).toBe('2031-07-04T16:00:00.000Z')
    const [audit] = await auditsOf(scheme.id, 'scheme.update')
    expect(Object.keys((audit!.details as { changes: object }).changes).sort()).toEqual(
      [
        'closesAt',
        'maxColleagues',
        'minRaters',
        'name',
        'reminderCadenceDays',
        'reportRelease',
        'timeZone',
      ].sort(),
    )
    expect(location(response)).toBe(pathOf(scheme.id))
  })

  test('saving unchanged details says so and writes nothing', async () => {
    const { scheme } = await setting()
    const html = await succeeded(await post(scheme.id, updateForm(await schemeRow(scheme.id))), scheme.id)
    expect(html).toContain('Nothing to save')
    expect(await auditsOf(scheme.id, 'scheme.update')).toEqual([])
  })

  test('the questionnaire is fixed once anyone has answered, and may change before', async () => {
    const { scheme, withPassword } = await setting()
    const other = await createQuestionnaire({ title: 'Other 360' })
    const self = await enrolEmployee(scheme, withPassword.id)
    const change = () => post(scheme.id, updateForm(row!, { questionnaireId: other.id }))
    let row = await schemeRow(scheme.id)
    await succeeded(await change(), scheme.id)
    // Its assignments follow.
    const [moved] = await db().select().from(assignments).where(eq(assignments.id, self!.id))
    expect(moved!.questionnaireId).toBe(other.id)
    row = await schemeRow(scheme.id)
    await createResponse({ assignmentId: self!.id })
    const html = await refused(
      await post(scheme.id, updateForm(row, { questionnaireId: questionnaire.id }), '?edit'),
      'Someone has already answered in this scheme, so its questionnaire can no longer change.',
    )
    expect(html).toContain('aria-invalid="true"')
    expect((await schemeRow(scheme.id)).questionnaireId).toBe(other.id)
    // The edit form says so and does not offer the choice.
    expect(await view(scheme.id, '?edit')).toContain(
      'Someone has answered already, so the questionnaire can no longer change.',
    )
  })

  test('the company is fixed once anyone is enrolled', async () => {
    const { scheme, withPassword } = await setting()
    const elsewhere = await createCompany({})
    await enrolEmployee(scheme, withPassword.id)
    await refused(
      await post(scheme.id, updateForm(await schemeRow(scheme.id), { companyId: elsewhere.id }), '?edit'),
      'Employees are enrolled in this scheme, so its company can no longer change.',
    )
    // Posted from a stale tab without the form on screen, the message shows at the top.
    await refused(
      await post(scheme.id, updateForm(await schemeRow(scheme.id), { companyId: elsewhere.id })),
      'Employees are enrolled in this scheme, so its company can no longer change.',
    )
  })

  test('an open scheme’s close cannot move into the past (“Close now” instead), nor its opening once opened', async () => {
    const { scheme } = await setting({ status: 'open', launchedAt: new Date() })
    const row = await schemeRow(scheme.id)
    await refused(
      await post(
        scheme.id,
        updateForm(row, { closesAt: local(new Date(Date.now() - 5 * 60 * 1000)) }),
        '?edit',
      ),
      'That time has already passed. To end the scheme now, use “Close now” instead.',
    )
    await refused(
      await post(scheme.id, updateForm(row, { opensAt: local(new Date(Date.now() + DAY)) }), '?edit'),
      'This scheme has already opened, so its opening time can no longer change.',
    )
    expect((await schemeRow(scheme.id)).closesAt.getTime()).toBe(row.closesAt.getTime())
  })

  test.each([
    ['a bad zone', { timeZone: 'Nowhere/Else' }, 'Enter a time zone by its IANA name'],
    ['a close before the opening', { closesAt: '2020-01-01T00:00' }, 'The scheme must close after it opens.'],
    ['max colleagues 9', { maxColleagues: '9' }, 'Enter a number of colleagues from 1 to 8.'],
    ['min raters 0', { minRaters: '0' }, 'Enter a number of colleagues from 1 to 8.'],
    ['a cadence of 31', { reminderCadenceDays: '31' }, 'Enter a number of days from 0 (no reminders) to 30.'],
    ['a draft questionnaire', { questionnaireId: 'draft' }, 'That questionnaire is not published'],
  ])('refuses %s and changes nothing', async (_label, overrides, message) => {
    const { scheme } = await setting()
    const row = await schemeRow(scheme.id)
    const draft = await createQuestionnaire({ status: 'draft' })
    const form = updateForm(row, overrides)
    if (form.questionnaireId === 'draft') form.questionnaireId = draft.id
    await refused(await post(scheme.id, form, '?edit'), message)
    expect(await schemeRow(scheme.id)).toEqual(row)
  })
})

describe('enrolment', () => {
  test('enrols the chosen active employees of the company, with their self-assessments; others are skipped', async () => {
    const { scheme, withPassword, newcomer, disabled } = await setting()
    const foreign = await createUser({ role: 'employee' })
    const form = new FormData()
    form.append('intent', 'enrol')
    for (const id of [withPassword.id, newcomer.id, disabled.id, foreign.id]) form.append('employeeIds', id)
    const html = await succeeded(await post(scheme.id, form), scheme.id)
    expect(html).toContain('2 employees enrolled; 2 already enrolled or not active.')
    expect(await members(scheme.id)).toEqual([withPassword.id, newcomer.id].sort())
    const selfs = await db()
      .select()
      .from(assignments)
      .where(and(eq(assignments.schemeId, scheme.id), eq(assignments.relationship, 'self')))
    expect(selfs.map((a) => a.subjectId).sort()).toEqual([withPassword.id, newcomer.id].sort())
    // A draft tells nobody yet.
    expect(await mailsOf(scheme.id)).toEqual([])
    expect(await auditsOf(scheme.id, 'scheme.enrol')).toHaveLength(1)
  })

  test('one chosen employee is a list of one', async () => {
    const { scheme, withPassword } = await setting()
    await succeeded(await post(scheme.id, { intent: 'enrol', employeeIds: withPassword.id }), scheme.id)
    expect(await members(scheme.id)).toEqual([withPassword.id])
  })

  test.each([
    ['nobody chosen', {}, 'Choose at least one employee to enrol.'],
    ['a malformed id', { employeeIds: 'x' }, 'This employee could not be identified.'],
  ])('refuses %s with a message', async (_label, fields, message) => {
    const { scheme } = await setting()
    await refused(await post(scheme.id, { intent: 'enrol', ...fields }), message)
    expect(await members(scheme.id)).toEqual([])
  })

  test('refuses more than 200 at a time', async () => {
    const { scheme } = await setting()
    const form = new FormData()
    form.append('intent', 'enrol')
    for (let i = 0; i < 201; i++) form.append('employeeIds', crypto.randomUUID())
    await refused(await post(scheme.id, form), 'Choose at most 200 employees at a time')
  })

  test('the whole company, after a confirmation', async () => {
    const { scheme, withPassword, newcomer } = await setting()
    const confirm = await view(scheme.id, '?confirm=enrol-all')
    expect(confirm).toMatch(/Enrol all 2 employees of Company [0-9a-f]+\?/)
    const html = await succeeded(
      await post(scheme.id, { intent: 'enrol-all' }, '?confirm=enrol-all'),
      scheme.id,
    )
    expect(html).toContain('2 employees of')
    expect(await members(scheme.id)).toEqual([withPassword.id, newcomer.id].sort())
    const again = await succeeded(await post(scheme.id, { intent: 'enrol-all' }), scheme.id)
    expect(again).toContain('Nobody new to enrol')
  })

  test('someone new joins the company without a password and is enrolled', async () => {
    const { scheme, company } = await setting()
    const html = await succeeded(
      await post(scheme.id, {
        intent: 'add-employee',
        displayName: 'Fresh Face',
        email: ' Fresh.Face@Example.com ',
      }),
      scheme.id,
    )
    expect(html).toContain('Fresh Face was added to')
    const [user] = await db().select().from(users).where(eq(users.email, 'fresh.face@example.com'))
    expect(user).toMatchObject({
      role: 'employee',
      companyId: company.id,
      passwordHash: null,
      displayName: 'Fresh Face',
    })
    expect(await members(scheme.id)).toEqual([user!.id])
    expect(await auditsOf(user!.id, 'employee.create')).toHaveLength(1)
  })

  test('an address of another company’s employee, an admin or a disabled employee is refused beside the field', async () => {
    const { scheme, disabled } = await setting()
    const foreign = await createUser({ role: 'employee' })
    for (const [email, message] of [
      [foreign.email, 'This address belongs to an account that is not an employee of this scheme’s company.'],
      [
        admin.id && (await db().select().from(users).where(eq(users.id, admin.id)))[0]!.email,
        'not an employee of this scheme’s company',
      ],
      [disabled.email, 'This employee’s account is disabled.'],
      ['not-an-address', 'Enter an e-mail address such as name@example.com.'],
    ] as const) {
      await refused(await post(scheme.id, { intent: 'add-employee', displayName: 'X', email }), message)
    }
    await refused(
      await post(scheme.id, { intent: 'add-employee', displayName: '', email: 'a@b.co' }),
      'Enter the employee’s name.',
    )
    expect(await members(scheme.id)).toEqual([])
  })

  test('a closed scheme takes nobody', async () => {
    const { scheme, withPassword } = await setting({
      status: 'closed',
      launchedAt: new Date(),
      closedAt: new Date(),
    })
    await refused(
      await post(scheme.id, { intent: 'enrol', employeeIds: withPassword.id }),
      'has closed, so nobody can be enrolled. Reopen it first to take more people.',
    )
    expect(visibleText(await view(scheme.id))).not.toContain('Enrol the chosen employees')
  })
})

describe('launch', () => {
  test('draft → open: exactly one e-mail per employee, activation or “programme open”, all in one go', async () => {
    const { scheme, withPassword, newcomer, disabled } = await setting()
    await enrolEmployee(scheme, withPassword.id)
    await enrolEmployee(scheme, newcomer.id)
    await enrolEmployee(scheme, disabled.id)
    const confirm = await view(scheme.id, '?confirm=launch')
    // The disabled one gets no e-mail, so the question says so (issue 15, B12).
    expect(confirm).toContain(
      '2 of the 3 enrolled employees get one e-mail each: the one without an account yet an activation link, the other one a “your programme is open” message. The remaining one is disabled: no e-mail while their account is.',
    )
    const html = await succeeded(await post(scheme.id, { intent: 'launch' }, '?confirm=launch'), scheme.id)
    expect(html).toContain('Scheme launched')
    expect(html).toContain('2 e-mails queued (1 to activate an account, 1 “your programme is open”)')

    const row = await schemeRow(scheme.id)
    expect(row.status).toBe('open')
    expect(row.launchedAt).not.toBeNull()
    const mails = await mailsOf(scheme.id)
    expect(mails.map((m) => [m.recipient, m.templateKey]).sort()).toEqual(
      [
        [newcomer.email, 'activate_account'],
        [withPassword.email, 'programme_open'],
      ].sort(),
    )
    // Opened already: they go out now.
    for (const m of mails) expect(m.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now())
    const activation = mails.find((m) => m.templateKey === 'activate_account')!
    const code = /mode=activate&code=([A-Za-z0-9_-]+)/.exec(activation.text)![1]!
    const [stored] = await db()
      .select()
      .from(actionCodes)
      .where(eq(actionCodes.codeHash, hashSecret(code)))
    expect(stored).toMatchObject({ kind: 'activate_account', userId: newcomer.id, usedAt: null })
    expect(activation.linkExpiresAt?.getTime()).toBe(stored!.expiresAt.getTime())
    const open = mails.find((m) => m.templateKey === 'programme_open')!
    expect(open.text).toContain('/user')
    expect(open.text).toContain(scheme.name)
    expect(open.linkExpiresAt).toBeNull()
    // The disabled employee waits; the others are marked as told.
    const told = await db().select().from(schemeMembers).where(eq(schemeMembers.schemeId, scheme.id))
    expect(
      told
        .filter((m) => m.invitedAt)
        .map((m) => m.employeeId)
        .sort(),
    ).toEqual([withPassword.id, newcomer.id].sort())
    expect(await auditsOf(scheme.id, 'scheme.launch')).toHaveLength(1)

    // Launching twice is refused, and nobody hears twice.
    await refused(await post(scheme.id, { intent: 'launch' }), 'has already been launched')
    expect(await mailsOf(scheme.id)).toHaveLength(2)
  })

  test('the question and the toast are built from the counts: no “others” when there are none (issue 15, B12)', async () => {
    const question = async (ids: string[]) => {
      const { scheme } = await setting()
      for (const id of ids) await enrolEmployee(scheme, id)
      return { scheme, text: await view(scheme.id, '?confirm=launch') }
    }
    const { company } = await setting()
    const person = (password: string | null) =>
      createUser({ role: 'employee', companyId: company.id, password })

    const one = await question([(await person(null)).id])
    expect(one.text).toContain(
      'The enrolled employee gets one e-mail: an activation link, as they have no account yet. The scheme is open from now on and the e-mail goes out at once.',
    )
    const accounts = await question([(await person('a password')).id, (await person('a password')).id])
    expect(accounts.text).toContain(
      'Each of the 2 enrolled employees gets one e-mail: a “your programme is open” message.',
    )
    const newcomers = await question([(await person(null)).id, (await person(null)).id])
    expect(newcomers.text).toContain(
      'Each of the 2 enrolled employees gets one e-mail: an activation link, as none of them has an account yet.',
    )
    for (const { text } of [one, accounts, newcomers]) expect(text).not.toMatch(/the others|0 without/)

    const launched = await succeeded(
      await post(accounts.scheme.id, { intent: 'launch' }, '?confirm=launch'),
      accounts.scheme.id,
    )
    expect(launched).toContain('2 “your programme is open” e-mails queued.')
    expect(launched).not.toContain('0 to activate')
  })

  test('held until opens_at when the scheme opens later; activation links live from then', async () => {
    const opensAt = minute(Date.now() + 10 * DAY)
    const { scheme, withPassword, newcomer } = await setting({
      opensAt,
      closesAt: minute(Date.now() + 30 * DAY),
    })
    await enrolEmployee(scheme, withPassword.id)
    await enrolEmployee(scheme, newcomer.id)
    const html = await succeeded(await post(scheme.id, { intent: 'launch' }), scheme.id)
    expect(html).toContain(', held until')
    expect(html).toContain('Launched, not open yet')
    const mails = await mailsOf(scheme.id)
    expect(mails).toHaveLength(2)
    for (const m of mails) expect(m.nextAttemptAt.getTime()).toBe(opensAt.getTime())
    const [code] = await db()
      .select()
      .from(actionCodes)
      .where(and(eq(actionCodes.userId, newcomer.id), eq(actionCodes.kind, 'activate_account')))
    expect(code!.expiresAt.getTime()).toBe(opensAt.getTime() + 7 * DAY)

    // Moving the opening moves the held e-mails and the links' life with it.
    const later = new Date(opensAt.getTime() + 3 * DAY)
    await succeeded(
      await post(scheme.id, updateForm(await schemeRow(scheme.id), { opensAt: local(later) })),
      scheme.id,
    )
    for (const m of await mailsOf(scheme.id)) expect(m.nextAttemptAt.getTime()).toBe(later.getTime())
    const [moved] = await db().select().from(actionCodes).where(eq(actionCodes.id, code!.id))
    expect(moved!.expiresAt.getTime()).toBe(later.getTime() + 7 * DAY)
  })

  test('two launches at once: one launches, one is refused, one e-mail each', async () => {
    const { scheme, withPassword, newcomer } = await setting()
    await enrolEmployee(scheme, withPassword.id)
    await enrolEmployee(scheme, newcomer.id)
    const results = await Promise.all([
      post(scheme.id, { intent: 'launch' }),
      post(scheme.id, { intent: 'launch' }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([302, 400])
    expect(await mailsOf(scheme.id)).toHaveLength(2)
    expect(await auditsOf(scheme.id, 'scheme.launch')).toHaveLength(1)
  })

  test('refused with nobody enrolled, and past its closing time', async () => {
    const { scheme } = await setting()
    expect(await view(scheme.id, '?confirm=launch')).toContain(
      'Nobody is enrolled yet. Enrol at least one employee first.',
    )
    await refused(
      await post(scheme.id, { intent: 'launch' }),
      'Enrol at least one employee before launching the scheme.',
    )
    const late = await setting({
      opensAt: new Date(Date.now() - 2 * DAY),
      closesAt: new Date(Date.now() - DAY),
    })
    await enrolEmployee(late.scheme, late.withPassword.id)
    await refused(await post(late.scheme.id, { intent: 'launch' }), 'Its closing time has already passed.')
    expect((await schemeRow(scheme.id)).status).toBe('draft')
  })

  test('someone enrolled after the launch gets their e-mail when enrolled, and only once', async () => {
    const { scheme, withPassword, newcomer } = await setting()
    await enrolEmployee(scheme, withPassword.id)
    await succeeded(await post(scheme.id, { intent: 'launch' }), scheme.id)
    const html = await succeeded(
      await post(scheme.id, { intent: 'enrol', employeeIds: newcomer.id }),
      scheme.id,
    )
    expect(html).toContain('1 employee enrolled; 1 e-mail queued.')
    await succeeded(await post(scheme.id, { intent: 'enrol', employeeIds: newcomer.id }), scheme.id)
    await succeeded(await post(scheme.id, { intent: 'enrol-all' }), scheme.id)
    const mails = await mailsOf(scheme.id)
    expect(mails.filter((m) => m.recipient === newcomer.email).map((m) => m.templateKey)).toEqual([
      'activate_account',
    ])
    expect(mails).toHaveLength(2)
    // Someone new added after the launch too.
    await succeeded(
      await post(scheme.id, {
        intent: 'add-employee',
        displayName: 'Late Lou',
        email: 'late.lou@example.com',
      }),
      scheme.id,
    )
    expect((await mailsOf(scheme.id)).filter((m) => m.recipient === 'late.lou@example.com')).toHaveLength(1)
  })
})

describe('remove an enrolment', () => {
  test('one that has not started goes, after a confirmation, with its e-mail still waiting', async () => {
    const { scheme, withPassword, newcomer } = await setting({ opensAt: new Date(Date.now() + 5 * DAY) })
    await enrolEmployee(scheme, withPassword.id)
    await enrolEmployee(scheme, newcomer.id)
    await succeeded(await post(scheme.id, { intent: 'launch' }), scheme.id)
    const confirm = await view(scheme.id, `?remove=${newcomer.id}`)
    expect(confirm).toContain('Remove Nell Newcomer from this scheme?')
    expect(confirm).toContain('Yes, remove the enrolment')
    const html = await succeeded(
      await post(scheme.id, { intent: 'remove', employeeId: newcomer.id }, `?remove=${newcomer.id}`),
      scheme.id,
    )
    expect(html).toContain('Nell Newcomer is no longer enrolled')
    expect(await members(scheme.id)).toEqual([withPassword.id])
    const left = await db()
      .select()
      .from(assignments)
      .where(and(eq(assignments.schemeId, scheme.id), eq(assignments.subjectId, newcomer.id)))
    expect(left).toEqual([])
    const mail = (await mailsOf(scheme.id)).find((m) => m.recipient === newcomer.email)!
    expect(mail).toMatchObject({ status: 'failed', html: '', text: '' })
    expect(mail.lastError).toContain('enrolment was removed')
    expect(await auditsOf(scheme.id, 'scheme.unenrol')).toHaveLength(1)
  })

  test('refused once the self-assessment has a response, or while colleague invitations stand', async () => {
    const { scheme, withPassword, newcomer } = await setting({ status: 'open', launchedAt: new Date() })
    const self = await enrolEmployee(scheme, withPassword.id)
    await createResponse({ assignmentId: self!.id })
    await enrolEmployee(scheme, newcomer.id)
    const colleague = await createUser({ role: 'colleague' })
    const rater = await createRaterAssignment({ scheme, subjectId: newcomer.id, respondentId: colleague.id })

    const started = await view(scheme.id, `?remove=${withPassword.id}`)
    expect(started).toContain(
      'Pat Password has started their self-assessment, so their enrolment can no longer be removed.',
    )
    expect(visibleText(started)).not.toContain('Yes, remove the enrolment')
    await refused(
      await post(scheme.id, { intent: 'remove', employeeId: withPassword.id }),
      'Pat Password has started their self-assessment',
    )
    await refused(
      await post(scheme.id, { intent: 'remove', employeeId: newcomer.id }),
      'Nell Newcomer has 1 colleague invitation standing in this scheme. Revoke it on their behalf first',
    )
    expect(await members(scheme.id)).toEqual([withPassword.id, newcomer.id].sort())
    // Revoked, the invitation no longer stands in the way.
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, rater.id))
    await succeeded(await post(scheme.id, { intent: 'remove', employeeId: newcomer.id }), scheme.id)
    expect(await members(scheme.id)).toEqual([withPassword.id])
  })

  test('someone not enrolled, or a malformed id, is a message', async () => {
    const { scheme, withPassword } = await setting()
    await refused(
      await post(scheme.id, { intent: 'remove', employeeId: withPassword.id }),
      'is not enrolled in this scheme',
    )
    await refused(
      await post(scheme.id, { intent: 'remove', employeeId: 'nope' }),
      'This employee could not be identified.',
    )
    expect(await view(scheme.id, `?remove=${withPassword.id}`)).toContain(
      'That employee is not enrolled in this scheme (any more).',
    )
  })
})

describe('the lifecycle', () => {
  test('extend: a later deadline moves due dates and colleagues’ links; an earlier one is refused', async () => {
    const { scheme, withPassword } = await setting({ status: 'open', launchedAt: new Date() })
    await enrolEmployee(scheme, withPassword.id)
    const colleague = await createUser({ role: 'colleague' })
    const rater = await createRaterAssignment({
      scheme,
      subjectId: withPassword.id,
      respondentId: colleague.id,
    })
    await db()
      .insert(actionCodes)
      .values({
        kind: 'colleague_invite',
        codeHash: hashSecret(`extend-${scheme.id}`),
        userId: colleague.id,
        assignmentId: rater.id,
        expiresAt: scheme.closesAt,
      })
    await refused(
      await post(scheme.id, { intent: 'extend', closesAt: local(new Date(scheme.closesAt.getTime() - DAY)) }),
      'Choose a time after the current deadline',
    )
    const later = new Date(Math.floor((scheme.closesAt.getTime() + 7 * DAY) / 60000) * 60000)
    const html = await succeeded(
      await post(scheme.id, { intent: 'extend', closesAt: local(later) }),
      scheme.id,
    )
    expect(html).toContain('Deadline extended')
    expect((await schemeRow(scheme.id)).closesAt.getTime()).toBe(later.getTime())
    const due = await db()
      .select({ dueAt: assignments.dueAt })
      .from(assignments)
      .where(eq(assignments.schemeId, scheme.id))
    expect(due.every((a) => a.dueAt?.getTime() === later.getTime())).toBe(true)
    const [code] = await db().select().from(actionCodes).where(eq(actionCodes.assignmentId, rater.id))
    expect(code!.expiresAt.getTime()).toBe(later.getTime())
    expect(await auditsOf(scheme.id, 'scheme.extend')).toHaveLength(1)
    await refused(
      await post(scheme.id, { intent: 'extend', closesAt: 'soon' }),
      'Enter when the scheme closes',
    )
  })

  test('close now: closed at once, pending colleague assignments left as they are', async () => {
    const { scheme, withPassword } = await setting({ status: 'open', launchedAt: new Date() })
    await enrolEmployee(scheme, withPassword.id)
    const rater = await createRaterAssignment({
      scheme,
      subjectId: withPassword.id,
      respondentId: (await createUser({ role: 'colleague' })).id,
    })
    expect(await view(scheme.id, '?confirm=close')).toContain('Yes, close it now')
    const html = await succeeded(await post(scheme.id, { intent: 'close' }, '?confirm=close'), scheme.id)
    expect(html).toContain('Scheme closed')
    const row = await schemeRow(scheme.id)
    expect(row.status).toBe('closed')
    expect(Math.abs(row.closedAt!.getTime() - Date.now())).toBeLessThan(60_000)
    const [still] = await db().select().from(assignments).where(eq(assignments.id, rater.id))
    expect(still!.status).toBe('pending')
    await refused(await post(scheme.id, { intent: 'close' }), 'is already closed')
    expect(await auditsOf(scheme.id, 'scheme.close')).toHaveLength(1)
  })

  test('closing before it opened withdraws the waiting e-mails; reopening sends them afresh', async () => {
    const { scheme, withPassword } = await setting({ opensAt: new Date(Date.now() + 3 * DAY) })
    await enrolEmployee(scheme, withPassword.id)
    await succeeded(await post(scheme.id, { intent: 'launch' }), scheme.id)
    const html = await succeeded(await post(scheme.id, { intent: 'close' }), scheme.id)
    expect(html).toContain('1 e-mail waiting for its opening was withdrawn')
    expect((await mailsOf(scheme.id)).map((m) => m.status)).toEqual(['failed'])
    const closes = new Date(Math.floor((Date.now() + 10 * DAY) / 60000) * 60000)
    const reopened = await succeeded(
      await post(scheme.id, { intent: 'reopen', closesAt: local(closes) }),
      scheme.id,
    )
    expect(reopened).toContain('Scheme reopened')
    const row = await schemeRow(scheme.id)
    expect(row).toMatchObject({ status: 'open', closedAt: null })
    expect(row.closesAt.getTime()).toBe(closes.getTime())
    expect((await mailsOf(scheme.id)).map((m) => m.status).sort()).toEqual(['failed', 'queued'])
  })

  test('reopen: only a closed scheme, with a closing time in the future', async () => {
    const { scheme } = await setting({ status: 'closed', launchedAt: new Date(), closedAt: new Date() })
    await refused(
      await post(scheme.id, { intent: 'reopen', closesAt: local(new Date(Date.now() - DAY)) }),
      'That time has already passed.',
    )
    await refused(await post(scheme.id, { intent: 'reopen', closesAt: '' }), 'Enter when the scheme closes')
    const open = await setting({ status: 'open', launchedAt: new Date() })
    await refused(
      await post(open.scheme.id, { intent: 'reopen', closesAt: local(new Date(Date.now() + 9 * DAY)) }),
      'is not closed, so there is nothing to reopen',
    )
    const draft = await setting()
    await refused(
      await post(draft.scheme.id, { intent: 'close' }),
      'has not been launched, so there is nothing to close',
    )
    await refused(
      await post(draft.scheme.id, { intent: 'extend', closesAt: local(new Date(Date.now() + 40 * DAY)) }),
      'This scheme is still a draft',
    )
  })

  test('a scheme past its closing time reads as closed and can be reopened before the clock came round', async () => {
    const { scheme } = await setting({
      status: 'open',
      launchedAt: new Date(Date.now() - 3 * DAY),
      opensAt: new Date(Date.now() - 3 * DAY),
      closesAt: new Date(Date.now() - HOUR),
    })
    expect(await view(scheme.id)).toContain('Reopen the scheme')
    await succeeded(
      await post(scheme.id, { intent: 'reopen', closesAt: local(new Date(Date.now() + 2 * DAY)) }),
      scheme.id,
    )
    expect((await schemeRow(scheme.id)).status).toBe('open')
  })
})

describe('progress and reminders', () => {
  test('the table shows each participant’s account, self-assessment, colleagues and report state', async () => {
    const { scheme, withPassword, newcomer } = await setting({
      status: 'open',
      launchedAt: new Date(),
      minRaters: 2,
    })
    const self = await enrolEmployee(scheme, withPassword.id)
    await createResponse({ assignmentId: self!.id, submitted: true })
    for (let k = 0; k < 3; k++) {
      const rater = await createRaterAssignment({
        scheme,
        subjectId: withPassword.id,
        respondentId: (await createUser({ role: 'colleague' })).id,
      })
      if (k < 2) await createResponse({ assignmentId: rater.id, submitted: true })
    }
    await enrolEmployee(scheme, newcomer.id)
    const html = await view(scheme.id)
    const rowOf = (name: string) =>
      html.slice(html.indexOf(`>${name}<`), html.indexOf('</tr>', html.indexOf(`>${name}<`)))
    const pat = rowOf('Pat Password')
    expect(pat).toContain('>Active<')
    expect(pat).toContain('>Submitted<')
    expect(pat).toContain('Answered: 2 of 3')
    expect(pat).toContain('Ready, not released')
    expect(pat).toContain(`href="/user/colleague-invite?employee=${withPassword.id}&amp;scheme=${scheme.id}"`)
    expect(pat).not.toContain('>Remove<')
    const nell = rowOf('Nell Newcomer')
    expect(nell).toContain('No account yet')
    expect(nell).toContain('>Not started<')
    expect(nell).toContain('After the self-assessment')
    // Released on close: once the scheme has closed (and the clock's release has run, ADR 022),
    // the report is out; a closed scheme without a release is not.
    await db()
      .update(schemes)
      .set({ status: 'closed', closedAt: new Date() })
      .where(eq(schemes.id, scheme.id))
    expect((await view(scheme.id)).slice((await view(scheme.id)).indexOf('>Pat Password<'))).toMatch(
      /^[^]*?Ready, not released/,
    )
    await releaseOnClose(new Date(), { schemeId: scheme.id })
    const closed = await view(scheme.id)
    expect(closed.slice(closed.indexOf('>Pat Password<'))).toMatch(/^[^]*?>Released</)
    await db().update(schemes).set({ status: 'open', closedAt: null }).where(eq(schemes.id, scheme.id))
    // The page that link leads to takes the employee and scheme it names.
    const invite = await send(
      server,
      `/user/colleague-invite?employee=${withPassword.id}&scheme=${scheme.id}`,
      {
        cookie: adminCookie,
      },
    )
    expect(invite.status).toBe(200)
    expect(await invite.text()).toContain(scheme.name)
  })

  test('searches participants and pages through them by name', async () => {
    const { scheme, company } = await setting()
    for (let i = 0; i < 27; i++) {
      const u = await createUser({
        role: 'employee',
        companyId: company.id,
        displayName: `Member ${String(i).padStart(2, '0')}`,
      })
      await enrolEmployee(scheme, u.id)
    }
    const first = await view(scheme.id, '?q=member')
    const names = (html: string) =>
      [...html.matchAll(/<span class="block">(Member \d\d)<\/span>/g)].map((m) => m[1])
    expect(names(first)).toHaveLength(25)
    const next = /<a[^>]*rel="next"[^>]*href="([^"]+)"/.exec(first)![1]!.replaceAll('&amp;', '&')
    const second = await (await send(server, next, { cookie: adminCookie })).text()
    expect(names(second)).toEqual(['Member 25', 'Member 26'])
    expect(await view(scheme.id, '?q=member+07')).toContain('Member 07')
  })

  test('send a reminder now: the employee and their colleagues who have not answered, then rate-limited', async () => {
    const { scheme, withPassword, newcomer } = await setting({ status: 'open', launchedAt: new Date() })
    const self = await enrolEmployee(scheme, withPassword.id)
    const pending = await createRaterAssignment({
      scheme,
      subjectId: withPassword.id,
      respondentId: (await createUser({ role: 'colleague' })).id,
    })
    const answered = await createRaterAssignment({
      scheme,
      subjectId: withPassword.id,
      respondentId: (await createUser({ role: 'colleague' })).id,
    })
    await createResponse({ assignmentId: answered.id, submitted: true })
    const html = await succeeded(
      await post(scheme.id, { intent: 'remind', employeeId: withPassword.id }),
      scheme.id,
    )
    expect(html).toContain('2 reminders queued')
    const reminders = await db()
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.entity, 'assignment'),
          inArray(emailOutbox.entityId, [self!.id, pending.id, answered.id]),
        ),
      )
    expect(reminders.map((r) => [r.entityId, r.templateKey]).sort()).toEqual(
      [
        [self!.id, 'reminder'],
        [pending.id, 'reminder'],
      ].sort(),
    )
    const [counted] = await db().select().from(assignments).where(eq(assignments.id, pending.id))
    expect(counted!.remindersSent).toBe(1)

    const again = await post(scheme.id, { intent: 'remind', employeeId: withPassword.id })
    expect(again.status).toBe(429)
    expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await again.text()).toContain('A reminder for this participant went out less than an hour ago.')

    // Someone who never activated gets a fresh activation link instead.
    await enrolEmployee(scheme, newcomer.id)
    await succeeded(await post(scheme.id, { intent: 'remind', employeeId: newcomer.id }), scheme.id)
    const [activation] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.recipient, newcomer.email))
    expect(activation!.templateKey).toBe('activate_account')
  })

  test('reminders are refused before the scheme opens and when nobody owes an answer', async () => {
    const upcoming = await setting({
      status: 'open',
      launchedAt: new Date(),
      opensAt: new Date(Date.now() + DAY),
    })
    await enrolEmployee(upcoming.scheme, upcoming.withPassword.id)
    await refused(
      await post(upcoming.scheme.id, { intent: 'remind', employeeId: upcoming.withPassword.id }),
      'Reminders can be sent once the scheme is open.',
    )
    const open = await setting({ status: 'open', launchedAt: new Date() })
    const self = await enrolEmployee(open.scheme, open.withPassword.id)
    await createResponse({ assignmentId: self!.id, submitted: true })
    await refused(
      await post(open.scheme.id, { intent: 'remind', employeeId: open.withPassword.id }),
      'have answered everything, so there is nobody to remind',
    )
    // A refusal does not use up the hour: once there is something to remind, it goes.
    await createRaterAssignment({
      scheme: open.scheme,
      subjectId: open.withPassword.id,
      respondentId: (await createUser({ role: 'colleague' })).id,
    })
    await succeeded(
      await post(open.scheme.id, { intent: 'remind', employeeId: open.withPassword.id }),
      open.scheme.id,
    )
  })
})
