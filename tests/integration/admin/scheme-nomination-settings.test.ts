import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, assignments, nominees, schemes } from '#db/schema/index'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { updateScheme } from '#app/modules/scheme/scheme.server'
import { SCHEME_MESSAGES } from '#app/modules/scheme/schemas'
import { useTestDatabase } from '#tests/support/database'
import { client, cookiesFrom, location, send, signedIn, useTestServer } from '#tests/support/app'
import { textOf as visibleText } from '#tests/integration/auth/helpers'

/**
 * A scheme's nomination settings (issue 18 §2, ADR 042) through the real HTTP stack: who chooses
 * the raters, the approval before invitations go out and the nomination deadline, on the create
 * and edit forms; their clear refusals; and the rule that fixes the chooser, the approval, the most
 * colleagues and the group minimums once a list or an invitation exists (the deadline stays
 * movable). Every change is audited with the scheme's other fields.
 */
const db = useTestDatabase()
const server = useTestServer()

const LIST = '/admin/scheme-management'
const DAY = 24 * 60 * 60 * 1000
let admin = { id: '' }
let adminCookie = ''
let company = { id: '' }
let questionnaire = { id: '' }

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin' }))
  company = await createCompany({ name: 'Nomination Co' })
  questionnaire = await createQuestionnaire({ title: 'Nomination 360' })
})

const http = client(server, () => adminCookie)
const pathOf = (id: string) => `${LIST}/${id}`
/** The HTML without the comments React puts between adjacent text pieces. */
const textOf = async (response: Response) => (await response.text()).replaceAll('<!-- -->', '')
const view = async (id: string, query = '') => {
  const response = await send(server, pathOf(id) + query, { cookie: adminCookie })
  expect(response.status).toBe(200)
  return textOf(response)
}
/** The radio button of one choice, as the page sends it. */
const radio = (html: string, name: string, value: string) =>
  (html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`, 'g')) ?? []).find(
    (tag) => tag.includes('type="radio"') && tag.includes(`value="${value}"`),
  ) ?? ''
/** The (first) input of a name. */
const input = (html: string, name: string) =>
  html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? ''
const local = (date: Date) => date.toISOString().slice(0, 16)
const minute = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000)
const schemeRow = async (id: string) => (await db().select().from(schemes).where(eq(schemes.id, id)))[0]!
const countSchemes = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(schemes)
  )[0]!.n
const auditsOf = (id: string, action: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, action)))

async function succeeded(response: Response, id: string) {
  if (response.status !== 302)
    throw new Error(`expected 302, got ${response.status}: ${(await response.text()).slice(0, 3000)}`)
  expect(location(response)).toMatch(new RegExp(`^${pathOf(id)}`))
  return textOf(await send(server, location(response)!, { cookie: cookiesFrom(response, adminCookie) }))
}

describe('create', () => {
  const valid = () => ({
    intent: 'create',
    name: 'Nominated 360',
    companyId: company.id,
    questionnaireId: questionnaire.id,
    timeZone: 'Europe/London',
    opensAt: '2031-06-01T09:00',
    closesAt: '2031-06-30T17:30',
    maxColleagues: '8',
    minRaters: '3',
    reminderCadenceDays: '7',
    reportRelease: 'on_close',
  })
  const createdId = (response: Response) => {
    expect(response.status).toBe(302)
    return location(response)!.split('/').pop()!
  }

  test('a new scheme defaults to: the employee chooses, no approval, no nomination deadline (audited)', async () => {
    const id = createdId(await http.post(LIST, { ...valid(), name: 'Defaults 360' }))
    expect(await schemeRow(id)).toMatchObject({
      nominationChooser: 'employee',
      nominationApproval: 'none',
      nominationsCloseAt: null,
    })
    const [audit] = await auditsOf(id, 'scheme.create')
    expect(audit!.details).toMatchObject({
      nominationChooser: 'employee',
      nominationApproval: 'none',
      nominationsCloseAt: null,
    })
    // The read view says so in words.
    const html = await view(id)
    expect(html).toContain('Who chooses the raters')
    expect(html).toContain('The employee')
    expect(html).toContain('None: employees invite colleagues directly')
    expect(html).toContain('None: lists can change until the scheme closes')
    // Nobody approves lists: no queue.
    expect(visibleText(html)).not.toContain('Nomination lists waiting for approval')
  })

  test('stores each setting, the deadline read in the scheme’s time zone, and audits them', async () => {
    const id = createdId(
      await http.post(LIST, {
        ...valid(),
        name: 'Approved lists 360',
        nominationChooser: 'employee_admin_edits',
        nominationApproval: 'manager',
        // British Summer Time: 12:00 in London is 11:00 UTC.
        nominationsCloseAt: '2031-06-15T12:00',
      }),
    )
    const row = await schemeRow(id)
    expect(row).toMatchObject({ nominationChooser: 'employee_admin_edits', nominationApproval: 'manager' })
    expect(row.nominationsCloseAt?.toISOString()).toBe('2031-06-15T11:00:00.000Z')
    const [audit] = await auditsOf(id, 'scheme.create')
    expect(audit!.details).toMatchObject({
      nominationChooser: 'employee_admin_edits',
      nominationApproval: 'manager',
      nominationsCloseAt: '2031-06-15T11:00:00.000Z',
    })
    const html = await view(id)
    expect(html).toContain('The employee, and administrators may change it')
    expect(html).toContain('The employee’s manager (administrators for someone with no manager recorded)')
    expect(html).toMatch(/Nomination deadline<\/dt><dd[^>]*>[^<]*15[^<]*2031[^<]*12:00/)
    // The scheme approves lists: its page has the queue, empty.
    expect(html).toContain('Nomination lists waiting for approval')
    expect(html).toContain('No list is waiting for approval.')
  })

  test('the form offers every choice in words, with a hint each, the defaults chosen', async () => {
    const html = (await (await send(server, LIST, { cookie: adminCookie })).text()).replaceAll('<!-- -->', '')
    for (const words of [
      'Who chooses the raters',
      'Administrators only',
      'Approval before invitations go out',
      'An administrator or coach',
      'for someone with no manager recorded, administrators approve it',
      'Nomination deadline (optional)',
      'Fewest colleagues to invite, per group',
    ])
      expect(html).toContain(words)
    expect(radio(html, 'nominationChooser', 'employee')).toContain('checked')
    expect(radio(html, 'nominationApproval', 'none')).toContain('checked')
  })

  const cases: Array<[string, Record<string, string>, string]> = [
    ['an unknown chooser', { nominationChooser: 'manager' }, SCHEME_MESSAGES.nominationChooser],
    ['an unknown approval', { nominationApproval: 'hr' }, SCHEME_MESSAGES.nominationApproval],
    [
      'a deadline after the close',
      { nominationsCloseAt: '2031-07-01T09:00' },
      SCHEME_MESSAGES.nominationsCloseAfterCloses,
    ],
    [
      'a deadline at the close',
      { nominationsCloseAt: '2031-06-30T17:30' },
      SCHEME_MESSAGES.nominationsCloseAfterCloses,
    ],
    [
      'a deadline before the opening',
      { nominationsCloseAt: '2031-05-31T09:00' },
      SCHEME_MESSAGES.nominationsCloseBeforeOpens,
    ],
    [
      'a deadline that is not a date',
      { nominationsCloseAt: 'next friday' },
      SCHEME_MESSAGES.nominationsCloseAt,
    ],
    [
      'a deadline the clocks skip',
      { nominationsCloseAt: '2031-03-30T01:30', opensAt: '2031-03-01T09:00' },
      'That time does not exist in Europe/London',
    ],
  ]
  test.each(cases)(
    'refuses %s with a clear 400 beside the field and writes nothing',
    async (_l, over, message) => {
      const before = await countSchemes()
      const response = await http.post(LIST, { ...valid(), ...over })
      expect(response.status).toBe(400)
      const html = await textOf(response)
      expect(html).toContain(message)
      expect(html).toContain('aria-invalid="true"')
      const after = await countSchemes()
      expect(after).toBe(before)
    },
  )
})

/** A draft scheme with an enrolled employee, dates whole minutes apart in UTC. */
async function setting(overrides: Partial<Parameters<typeof createScheme>[0]> = {}) {
  const employee = await createUser({ role: 'employee', companyId: company.id })
  const colleague = await createUser({ role: 'employee', companyId: company.id })
  const scheme = await createScheme({
    companyId: company.id,
    questionnaireId: questionnaire.id,
    status: 'draft',
    opensAt: minute(Date.now() + DAY),
    closesAt: minute(Date.now() + 30 * DAY),
    ...overrides,
  })
  await enrolEmployee(scheme, employee.id)
  return { scheme, employee, colleague }
}

function updateForm(row: Awaited<ReturnType<typeof schemeRow>>, overrides: Record<string, string> = {}) {
  return {
    intent: 'update',
    name: row.name,
    companyId: row.companyId,
    questionnaireId: row.questionnaireId,
    timeZone: 'UTC',
    opensAt: local(row.opensAt),
    closesAt: local(row.closesAt),
    maxColleagues: String(row.maxColleagues),
    minRaters: String(row.minRaters),
    reminderCadenceDays: String(row.reminderCadenceDays),
    reportRelease: row.reportRelease,
    minManager: String(row.minManager),
    minPeer: String(row.minPeer),
    minDirectReport: String(row.minDirectReport),
    minOther: String(row.minOther),
    nominationChooser: row.nominationChooser,
    nominationApproval: row.nominationApproval,
    nominationsCloseAt: row.nominationsCloseAt ? local(row.nominationsCloseAt) : '',
    ...overrides,
  }
}

describe('edit', () => {
  test('saves each setting and audits each change from → to', async () => {
    const { scheme } = await setting()
    const deadline = minute(Date.now() + 10 * DAY)
    const steps: Array<[Record<string, string>, Record<string, { from: unknown; to: unknown }>]> = [
      [{ nominationChooser: 'admin' }, { nominationChooser: { from: 'employee', to: 'admin' } }],
      [{ nominationApproval: 'admin' }, { nominationApproval: { from: 'none', to: 'admin' } }],
      [
        { nominationsCloseAt: local(deadline) },
        { nominationsCloseAt: { from: null, to: deadline.toISOString() } },
      ],
      [{ nominationsCloseAt: '' }, { nominationsCloseAt: { from: deadline.toISOString(), to: null } }],
    ]
    for (const [over, changes] of steps) {
      const html = await succeeded(
        await http.post(pathOf(scheme.id), updateForm(await schemeRow(scheme.id), over)),
        scheme.id,
      )
      expect(html).toContain('Scheme saved')
      const audits = await auditsOf(scheme.id, 'scheme.update')
      expect(audits.map((a) => a.details)).toContainEqual({ changes })
    }
    expect(await schemeRow(scheme.id)).toMatchObject({
      nominationChooser: 'admin',
      nominationApproval: 'admin',
      nominationsCloseAt: null,
    })
    expect(await auditsOf(scheme.id, 'scheme.update')).toHaveLength(4)
    // The read view, in words.
    const html = await view(scheme.id)
    expect(html).toContain('Administrators only')
    expect(html).toContain('An administrator or coach')
  })

  test('the edit form shows the settings chosen and the deadline in the scheme’s zone', async () => {
    const { scheme } = await setting({
      timeZone: 'America/New_York',
      nominationChooser: 'admin',
      nominationApproval: 'manager',
      opensAt: new Date('2031-01-10T14:00:00Z'),
      nominationsCloseAt: new Date('2031-01-20T22:00:00Z'),
      closesAt: new Date('2031-02-01T14:00:00Z'),
    })
    const html = await view(scheme.id, '?edit')
    expect(radio(html, 'nominationChooser', 'admin')).toContain('checked')
    expect(radio(html, 'nominationApproval', 'manager')).toContain('checked')
    // 22:00 UTC is 17:00 in New York in January.
    expect(input(html, 'nominationsCloseAt')).toContain('value="2031-01-20T17:00"')
    expect(visibleText(html)).not.toContain('can no longer change. The nomination deadline still can.')
  })

  const refusals: Array<
    [string, (row: Awaited<ReturnType<typeof schemeRow>>) => Record<string, string>, string]
  > = [
    ['an unknown chooser', () => ({ nominationChooser: 'anyone' }), SCHEME_MESSAGES.nominationChooser],
    ['an unknown approval', () => ({ nominationApproval: 'board' }), SCHEME_MESSAGES.nominationApproval],
    [
      'a deadline after the close',
      (row) => ({ nominationsCloseAt: local(new Date(row.closesAt.getTime() + DAY)) }),
      SCHEME_MESSAGES.nominationsCloseAfterCloses,
    ],
    [
      'a deadline before the opening',
      (row) => ({ nominationsCloseAt: local(new Date(row.opensAt.getTime() - 60_000)) }),
      SCHEME_MESSAGES.nominationsCloseBeforeOpens,
    ],
    [
      'a close moved before the deadline',
      (row) => ({
        nominationsCloseAt: local(new Date(row.opensAt.getTime() + 5 * DAY)),
        closesAt: local(new Date(row.opensAt.getTime() + 4 * DAY)),
      }),
      SCHEME_MESSAGES.nominationsCloseAfterCloses,
    ],
  ]
  test.each(refusals)('refuses %s with a clear 400 and changes nothing', async (_l, over, message) => {
    const { scheme } = await setting()
    const row = await schemeRow(scheme.id)
    const response = await http.post(pathOf(scheme.id) + '?edit', updateForm(row, over(row)))
    expect(response.status).toBe(400)
    expect(await textOf(response)).toContain(message)
    expect(await schemeRow(scheme.id)).toEqual(row)
    expect(await auditsOf(scheme.id, 'scheme.update')).toEqual([])
  })

  test('the service refuses a close moved before a deadline it was not given (the deadline stays)', async () => {
    const { scheme } = await setting({ nominationsCloseAt: minute(Date.now() + 20 * DAY) })
    const row = await schemeRow(scheme.id)
    const refused = await updateScheme({ id: admin.id }, scheme.id, {
      name: row.name,
      companyId: row.companyId,
      questionnaireId: row.questionnaireId,
      timeZone: row.timeZone,
      opensAt: row.opensAt,
      closesAt: minute(Date.now() + 15 * DAY),
      maxColleagues: row.maxColleagues,
      minRaters: row.minRaters,
      reminderCadenceDays: row.reminderCadenceDays,
      reportRelease: row.reportRelease,
    })
    expect(refused).toEqual({
      ok: false,
      fieldErrors: { nominationsCloseAt: [SCHEME_MESSAGES.nominationsCloseAfterCloses] },
    })
    expect(await schemeRow(scheme.id)).toEqual(row)
  })
})

describe('fixed once a list or an invitation exists', () => {
  const fixedCases: Array<[string, (row: Awaited<ReturnType<typeof schemeRow>>) => Record<string, string>]> =
    [
      ['who chooses the raters', () => ({ nominationChooser: 'admin' })],
      ['the approval', () => ({ nominationApproval: 'manager' })],
      ['the most colleagues', (row) => ({ maxColleagues: String(row.maxColleagues - 1) })],
      ['a group minimum', (row) => ({ minPeer: String(row.minPeer + 1) })],
    ]

  const withNominee = async () => {
    const w = await setting({ nominationApproval: 'admin' })
    await db().insert(nominees).values({
      schemeId: w.scheme.id,
      employeeId: w.employee.id,
      email: 'proposed@example.test',
      name: 'Proposed Person',
      relationship: 'peer',
      addedBy: w.employee.id,
    })
    return w
  }
  const withInvitation = async () => {
    const w = await setting()
    const rater = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: w.colleague.id,
    })
    // Withdrawn, even: it was made under the settings.
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, rater.id))
    return w
  }

  for (const [made, world] of [
    ['a nominee', withNominee],
    ['an invitation (withdrawn since)', withInvitation],
  ] as const) {
    test.each(fixedCases)(
      `with ${made}: a change of %s is refused with the reason, nothing written`,
      async (_l, over) => {
        const { scheme } = await world()
        const row = await schemeRow(scheme.id)
        const response = await http.post(pathOf(scheme.id) + '?edit', updateForm(row, over(row)))
        expect(response.status).toBe(400)
        expect(await textOf(response)).toContain(SCHEME_MESSAGES.nominationsFixed)
        expect(await schemeRow(scheme.id)).toEqual(row)
        expect(await auditsOf(scheme.id, 'scheme.update')).toEqual([])
      },
    )

    test(`with ${made}: the settings posted unchanged, the rest and the deadline still save (audited)`, async () => {
      const { scheme } = await world()
      const row = await schemeRow(scheme.id)
      const deadline = minute(Date.now() + 12 * DAY)
      const html = await succeeded(
        await http.post(
          pathOf(scheme.id),
          updateForm(row, { name: 'Renamed', nominationsCloseAt: local(deadline) }),
        ),
        scheme.id,
      )
      expect(html).toContain('Scheme saved')
      const after = await schemeRow(scheme.id)
      expect(after.name).toBe('Renamed')
      expect(after.nominationsCloseAt?.toISOString()).toBe(deadline.toISOString())
      const [audit] = await auditsOf(scheme.id, 'scheme.update')
      expect(audit!.details).toEqual({
        changes: {
          name: { from: row.name, to: 'Renamed' },
          nominationsCloseAt: { from: null, to: deadline.toISOString() },
        },
      })
    })

    test(`with ${made}: the edit form shows the settings fixed, with the reason`, async () => {
      const { scheme } = await world()
      const html = await view(scheme.id, '?edit')
      expect(html).toContain(
        'so who chooses the raters, the approval, the most colleagues and the fewest per group can no longer change',
      )
      expect(radio(html, 'nominationChooser', 'employee')).toContain('disabled')
      expect(html).toMatch(/<input type="hidden" name="nominationChooser" value="employee"\/>/)
      expect(input(html, 'maxColleagues').toLowerCase()).toContain('readonly')
      expect(input(html, 'minPeer').toLowerCase()).toContain('readonly')
      // The deadline is not fixed.
      expect(input(html, 'nominationsCloseAt')).toMatch(/^<input[^>]*type="datetime-local"/)
      expect(input(html, 'nominationsCloseAt')).not.toMatch(/disabled|readonly/i)
    })
  }

  test('enrolment alone (the self-assessment) fixes nothing', async () => {
    const { scheme } = await setting()
    const row = await schemeRow(scheme.id)
    await succeeded(
      await http.post(pathOf(scheme.id), updateForm(row, { nominationChooser: 'admin', maxColleagues: '6' })),
      scheme.id,
    )
    expect(await schemeRow(scheme.id)).toMatchObject({ nominationChooser: 'admin', maxColleagues: 6 })
  })

  test('another scheme’s nominee does not fix this one', async () => {
    const { scheme } = await setting()
    await withNominee()
    const row = await schemeRow(scheme.id)
    await succeeded(
      await http.post(pathOf(scheme.id), updateForm(row, { nominationApproval: 'admin' })),
      scheme.id,
    )
    expect((await schemeRow(scheme.id)).nominationApproval).toBe('admin')
  })
})
