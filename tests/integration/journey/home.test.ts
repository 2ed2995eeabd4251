import { eq } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, inject, test, vi } from 'vitest'
import { getHandle } from '#db/client'
import { assignments, type QuestionOptions } from '#db/schema/index'
import {
  createBrand,
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { storeImage } from '#app/modules/file/file.server'
import { getEmployeeHome, nextAction, type HomeScheme } from '#app/modules/home/home.server'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf, titleOf } from '#tests/integration/auth/helpers'

/**
 * The employee's home (/user): what the loader gives for schemes in every phase and colleagues in
 * every state, that it never carries anyone's answers or anyone else's schemes, that its number of
 * queries does not grow with schemes or colleagues, and the page through the real HTTP stack.
 */
const db = useTestDatabase()
const server = useTestServer()
const onPostgres = inject('testDatabase').kind === 'postgres'

afterEach(() => {
  vi.restoreAllMocks()
})

const DAY = 24 * 60 * 60 * 1000
const NOW = new Date()
const SECRET_TEXT = 'SECRET-ANSWER-never-on-the-home-page'
const SCALE: QuestionOptions = { min: 1, max: 5, labels: ['1', '2', '3', '4', '5'], allowNa: false }

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

async function questionnaire() {
  return createQuestionnaire({
    questions: [
      {
        section: 'A',
        kind: 'scale',
        text: 'I plan.',
        raterText: '{{name}} plans.',
        category: 'Planning',
        options: SCALE,
      },
      {
        section: 'A',
        kind: 'text',
        text: 'Keep doing?',
        raterText: 'Keep doing?',
        category: 'Planning',
        required: false,
      },
    ],
  })
}

/** A response with a distinctive answer that must never reach the home page. */
async function answer(assignmentId: string, questionnaireId: string, submitted: boolean) {
  const [scale, text] = await questionsOf(questionnaireId)
  return createResponse({
    assignmentId,
    submitted,
    answers: [
      { questionId: scale!.id, numericValue: 4 },
      { questionId: text!.id, textValue: SECRET_TEXT },
    ],
  })
}

async function colleague(
  scheme: { id: string; questionnaireId: string; closesAt: Date },
  subjectId: string,
  name: string,
  state: 'pending' | 'in_progress' | 'submitted' | 'revoked',
  relationship: 'manager' | 'peer' | 'direct_report' | 'other' = 'peer',
) {
  const user = await createUser({
    role: 'colleague',
    email: `${name.toLowerCase().replace(/\W+/g, '.')}.${crypto.randomUUID().slice(0, 6)}@example.test`,
  })
  const assignment = await createRaterAssignment({
    scheme,
    subjectId,
    respondentId: user.id,
    relationship,
    respondentName: name,
  })
  if (state === 'in_progress') await answer(assignment.id, scheme.questionnaireId, false)
  if (state === 'submitted') await answer(assignment.id, scheme.questionnaireId, true)
  if (state === 'revoked')
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, assignment.id))
  return { user, assignment }
}

// The world: Erin takes part in four published schemes (and one draft), Olly in one of the same.
let erin = { id: '', email: '' }
let olly = { id: '' }
let erinCookie = ''
let ollyCookie = ''
const ids = {} as Record<string, string>
let logoFileId = ''

beforeAll(async () => {
  erin = await createUser({ role: 'employee', displayName: 'Erin Employee' })
  olly = await createUser({ role: 'employee', displayName: 'Olly Other' })
  erinCookie = await sessionCookieFor(erin.id)
  ollyCookie = await sessionCookieFor(olly.id)
  logoFileId = await storeImage(db(), { bytes: PNG, mime: 'image/png' }, null)
  const brand = await createBrand({
    name: 'Harbour Consulting',
    logoFileId,
    primaryColor: '#123456',
    accentColor: '#abcdef',
  })
  const company = await createCompany({ name: 'Acme Ltd', brandId: brand.id })
  const q = await questionnaire()
  const base = { companyId: company.id, questionnaireId: q.id }

  // Open, self-assessment not started, nobody invited, deadline in 10 days.
  const fresh = await createScheme({
    ...base,
    name: 'Fresh start',
    closesAt: new Date(NOW.getTime() + 10 * DAY),
  })
  const freshSelf = (await enrolEmployee(fresh, erin.id))!
  ids.fresh = fresh.id
  ids.freshSelf = freshSelf.id
  ids.questionnaire = q.id

  // Open, in progress, five colleagues in every state (one withdrawn), max 6 colleagues, 2 needed.
  const busy = await createScheme({
    ...base,
    name: 'Busy programme',
    maxColleagues: 6,
    minRaters: 2,
    closesAt: new Date(NOW.getTime() + 20 * DAY),
  })
  const busySelf = (await enrolEmployee(busy, erin.id))!
  await answer(busySelf.id, q.id, false)
  ids.busy = busy.id
  ids.busySelf = busySelf.id
  await colleague(busy, erin.id, 'Casey Invited', 'pending', 'manager')
  await colleague(busy, erin.id, 'Sam Started', 'in_progress', 'peer')
  await colleague(busy, erin.id, 'Ada Answered', 'submitted', 'direct_report')
  await colleague(busy, erin.id, 'Wes Withdrawn', 'revoked', 'other')
  // Olly is in the same scheme; his colleagues are his alone.
  await enrolEmployee(busy, olly.id)
  await colleague(busy, olly.id, 'Oscar OfOlly', 'submitted')

  // Closed, self submitted, three of three needed colleagues answered.
  const done = await createScheme({
    ...base,
    name: 'Finished programme',
    status: 'closed',
    opensAt: new Date(NOW.getTime() - 60 * DAY),
    closesAt: new Date(NOW.getTime() - 5 * DAY),
    minRaters: 3,
  })
  const doneSelf = (await enrolEmployee(done, erin.id))!
  const doneResponse = await answer(doneSelf.id, q.id, true)
  ids.done = done.id
  ids.doneSelf = doneSelf.id
  ids.doneResponse = doneResponse.id
  for (const name of ['Bea One', 'Cal Two', 'Dee Three']) await colleague(done, erin.id, name, 'submitted')

  // Published but opening next week.
  const later = await createScheme({
    ...base,
    name: 'Later programme',
    opensAt: new Date(NOW.getTime() + 7 * DAY),
    closesAt: new Date(NOW.getTime() + 40 * DAY),
  })
  await enrolEmployee(later, erin.id)
  ids.later = later.id

  // A draft the consultancy is still preparing, and a scheme Erin is not in.
  const draft = await createScheme({ ...base, name: 'Draft programme', status: 'draft' })
  await enrolEmployee(draft, erin.id)
  const foreign = await createScheme({ ...base, name: 'Olly only programme' })
  await enrolEmployee(foreign, olly.id)
})

const byName = (schemes: HomeScheme[], name: string) => schemes.find((s) => s.name === name)!

describe('the loader data', () => {
  test('lists the employee’s published schemes: running first by deadline, then upcoming, then closed', async () => {
    const { schemes } = await getEmployeeHome(erin.id, NOW)
    expect(schemes.map((s) => [s.name, s.phase])).toEqual([
      ['Fresh start', 'open'],
      ['Busy programme', 'open'],
      ['Later programme', 'upcoming'],
      ['Finished programme', 'closed'],
    ])
    const fresh = byName(schemes, 'Fresh start')
    expect(fresh).toMatchObject({
      companyName: 'Acme Ltd',
      brand: { name: 'Harbour Consulting', logoFileId, primaryColor: '#123456', accentColor: '#abcdef' },
      daysLeft: 10,
    })
    expect(fresh.deadline).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/)
    expect(new Date(fresh.closesAt).getTime()).toBe(NOW.getTime() + 10 * DAY)
  })

  test('a self-assessment not started offers to start it from the questionnaire’s introduction', async () => {
    const fresh = byName((await getEmployeeHome(erin.id, NOW)).schemes, 'Fresh start')
    expect(fresh.self).toEqual({
      assignmentId: ids.freshSelf,
      status: 'pending',
      statusLabel: 'Not started',
      submittedOn: null,
      action: {
        kind: 'start',
        href: `/questionnaire/${ids.questionnaire}?assignment=${ids.freshSelf}`,
        label: 'Start your self-assessment',
      },
    })
    expect(fresh.colleagues).toEqual([])
    expect(fresh.invite).toEqual({
      limit: 8,
      live: 0,
      remaining: 8,
      href: `/user/colleague-invite?scheme=${ids.fresh}`,
    })
    expect(fresh.report).toEqual({
      href: null,
      answered: 0,
      minRaters: 3,
      enough: false,
      needed: 3,
      release: {
        state: 'awaiting-release',
        lines: [
          expect.stringMatching(
            /^Your colleagues’ results appear when the programme closes on \d{1,2} [A-Z][a-z]+ \d{4}\.$/,
          ),
          'Colleagues’ results are shown only once at least 3 colleagues have answered, so that no one’s answers can be singled out: 3 more answers are needed.',
        ],
      },
      // Not released with colleagues' views: no development plan yet (ADR 043).
      plan: null,
    })
  })

  test('colleagues show as invited, started or answered; withdrawn ones are left out and free a place', async () => {
    const busy = byName((await getEmployeeHome(erin.id, NOW)).schemes, 'Busy programme')
    expect(busy.self?.action).toEqual({
      kind: 'continue',
      href: `/assignment/${ids.busySelf}`,
      label: 'Continue your self-assessment',
    })
    expect(busy.colleagues.map((c) => [c.name, c.relationshipLabel, c.status, c.statusLabel])).toEqual([
      ['Casey Invited', 'Manager', 'invited', 'Invited'],
      ['Sam Started', 'Peer', 'started', 'Started'],
      ['Ada Answered', 'Direct report', 'answered', 'Answered'],
    ])
    expect(busy.colleagues[0]!.email).toMatch(/^casey\.invited\./)
    // max_colleagues 6, three live invitations.
    expect(busy.invite).toMatchObject({ limit: 6, live: 3, remaining: 3 })
    // Not submitted yet: no report link, though one of two needed colleagues has answered.
    expect(busy.report).toEqual({
      href: null,
      answered: 1,
      minRaters: 2,
      enough: false,
      needed: 1,
      release: {
        state: 'awaiting-release',
        lines: [
          expect.stringMatching(
            /^Your colleagues’ results appear when the programme closes on \d{1,2} [A-Z][a-z]+ \d{4}\.$/,
          ),
          'Colleagues’ results are shown only once at least 2 colleagues have answered, so that no one’s answers can be singled out: 1 more answer is needed.',
        ],
      },
      // Not released with colleagues' views: no development plan yet (ADR 043).
      plan: null,
    })
  })

  test('a submitted self-assessment gives the report link; a closed scheme takes no more invitations', async () => {
    const done = byName((await getEmployeeHome(erin.id, NOW)).schemes, 'Finished programme')
    expect(done.phase).toBe('closed')
    expect(done.daysLeft).toBeNull()
    expect(done.self).toMatchObject({
      status: 'submitted',
      statusLabel: 'Submitted',
      action: { kind: 'view', href: `/assignment/${ids.doneSelf}`, label: 'View your answers' },
    })
    expect(done.self!.submittedOn).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/)
    expect(done.invite.href).toBeNull()
    expect(done.report).toEqual({
      href: `/user/response-${ids.doneResponse}`,
      answered: 3,
      minRaters: 3,
      enough: true,
      needed: 0,
      // Closed on close, not released yet (the clock has not come round): no "read your report"
      // promise of colleagues' views the report cannot keep (issue 15 B1).
      release: {
        state: 'awaiting-release',
        lines: [
          expect.stringMatching(
            /^The programme closed on \d{1,2} [A-Z][a-z]+ \d{4}: your colleagues’ results are released within minutes\.$/,
          ),
          'Enough colleagues have answered (3) for their results to be shown.',
        ],
      },
      // Not released with colleagues' views: no development plan yet (ADR 043).
      plan: null,
    })
  })

  test('an upcoming scheme has no action yet', async () => {
    const later = byName((await getEmployeeHome(erin.id, NOW)).schemes, 'Later programme')
    expect(later.self).toMatchObject({ status: 'pending', action: null })
    expect(later.invite.href).toBeNull()
  })

  test('carries no answers and nothing of other employees (there is no id to tamper with)', async () => {
    const data = JSON.stringify(await getEmployeeHome(erin.id, NOW))
    expect(data).not.toContain(SECRET_TEXT)
    expect(data).not.toContain('Oscar OfOlly')
    expect(data).not.toContain('Olly only programme')
    expect(data).not.toContain('Draft programme')
    const ollys = await getEmployeeHome(olly.id, NOW)
    expect(ollys.schemes.map((s) => s.name).sort()).toEqual(['Busy programme', 'Olly only programme'])
    const ollyBusy = byName(ollys.schemes, 'Busy programme')
    expect(ollyBusy.colleagues.map((c) => c.name)).toEqual(['Oscar OfOlly'])
    expect(JSON.stringify(ollys)).not.toContain('Ada Answered')
  })

  test('the next action follows the scheme’s phase and the assignment’s state', () => {
    const base = { assignmentId: 'a1', questionnaireId: 'q1', hasResponse: false }
    expect(nextAction({ ...base, phase: 'open', status: 'pending' })?.kind).toBe('start')
    expect(nextAction({ ...base, phase: 'open', status: 'pending', hasResponse: true })?.kind).toBe(
      'continue',
    )
    expect(nextAction({ ...base, phase: 'open', status: 'in_progress', hasResponse: true })?.kind).toBe(
      'continue',
    )
    expect(nextAction({ ...base, phase: 'open', status: 'submitted', hasResponse: true })?.kind).toBe('view')
    expect(nextAction({ ...base, phase: 'upcoming', status: 'pending' })).toBeNull()
    expect(nextAction({ ...base, phase: 'closed', status: 'pending' })).toBeNull()
    expect(nextAction({ ...base, phase: 'closed', status: 'in_progress', hasResponse: true })).toEqual({
      kind: 'view',
      href: '/assignment/a1',
      label: 'View your answers',
    })
  })
})

describe('a constant number of queries', () => {
  /** Counts the statements the database driver receives while `fn` runs. */
  async function countQueries(fn: () => Promise<unknown>) {
    const handle = getHandle()
    const spy = onPostgres ? vi.spyOn(handle.pool!, 'query') : vi.spyOn(handle.pglite!, 'query')
    await fn()
    const count = spy.mock.calls.length
    spy.mockRestore()
    return count
  }

  async function employeeWith(schemeCount: number, colleagueCount: number) {
    const employee = await createUser({ role: 'employee' })
    for (let i = 0; i < schemeCount; i++) {
      const scheme = await createScheme({ minRaters: 2, questionnaireId: ids.questionnaire })
      const self = (await enrolEmployee(scheme, employee.id))!
      if (i === 0) await answer(self.id, scheme.questionnaireId, true)
      for (let c = 0; c < colleagueCount; c++)
        await colleague(
          scheme,
          employee.id,
          `Colleague ${c}`,
          (['pending', 'in_progress', 'submitted'] as const)[c % 3],
        )
    }
    return employee
  }

  // The programmes, the requests, and the lists waiting for this employee's approval (ADR 042).
  test('one scheme or three, no colleague or eight: the same four queries', async () => {
    const one = await employeeWith(1, 0)
    const three = await employeeWith(3, 0)
    const eight = await employeeWith(1, 8)
    const threeByEight = await employeeWith(3, 8)
    const counts = {
      one: await countQueries(() => getEmployeeHome(one.id)),
      three: await countQueries(() => getEmployeeHome(three.id)),
      eight: await countQueries(() => getEmployeeHome(eight.id)),
      threeByEight: await countQueries(() => getEmployeeHome(threeByEight.id)),
    }
    // Programmes, feedback requests, lists waiting for approval, and reports shared with them as a
    // manager (ADR 043).
    expect(counts).toEqual({ one: 4, three: 4, eight: 4, threeByEight: 4 })
    // The spy saw real work: the data is all there.
    const home = await getEmployeeHome(threeByEight.id)
    expect(home.schemes).toHaveLength(3)
    expect(home.schemes.every((s) => s.colleagues.length === 8 && s.invite.remaining === 0)).toBe(true)
  })
})

describe('the page', () => {
  test('shows each scheme with its status, colleagues and links, and never an answer', async () => {
    const response = await send(server, '/user', { cookie: erinCookie })
    expect(response.status).toBe(200)
    // Personal: never in a shared cache, asked for again before reuse, yet allowed into the
    // back/forward cache (ADR 009; e2e/back-forward-cache.spec.ts).
    expect(response.headers.get('cache-control')).toBe('private, no-cache')
    const html = await response.text()
    expect(titleOf(html)).toBe('My feedback · Panorama')
    const text = textOf(html)
    expect(text).toContain('My feedback')
    for (const name of ['Fresh start', 'Busy programme', 'Finished programme', 'Later programme'])
      expect(html).toContain(`>${name}</h2>`)
    expect(text).toContain('Casey Invited Manager')
    expect(text).toMatch(/Casey Invited Manager · \S+ Invited/)
    expect(text).toMatch(/Sam Started Peer · \S+ Started/)
    expect(text).toMatch(/Ada Answered Direct report · \S+ Answered/)
    expect(text).not.toContain('Wes Withdrawn')
    expect(text).toContain('You can invite 3 more colleagues (up to 6).')
    expect(html).toContain(`href="/user/response-${ids.doneResponse}"`)
    expect(html).toContain(`href="/assignment/${ids.busySelf}"`)
    expect(html).toContain(`href="/questionnaire/${ids.questionnaire}?assignment=${ids.freshSelf}"`)
    expect(html).toContain(`href="/user/colleague-invite?scheme=${ids.busy}"`)
    expect(html).not.toContain(`href="/user/colleague-invite?scheme=${ids.done}"`)
    expect(html).toContain(`src="/files/${logoFileId}"`)
    expect(html).toContain('alt="Harbour Consulting logo"')
    expect(text).toMatch(
      /Your report opens once you have submitted your self-assessment\. Your colleagues’ results appear when the programme closes on \d{1,2} [A-Z][a-z]+ \d{4}\. Colleagues’ results are shown only once at least 2 colleagues have answered, so that no one’s answers can be singled out: 1 more answer is needed\./,
    )
    expect(text).toContain('Enough colleagues have answered (3) for their results to be shown.')
    expect(text).not.toContain('your report sets their combined views beside yours')
    expect(html).not.toContain(SECRET_TEXT)
    expect(html).not.toContain('Oscar OfOlly')
    expect(html).not.toContain('Olly only programme')
  })

  test('the data request (client navigation) carries the same and no more', async () => {
    const response = await send(server, '/user.data', { cookie: erinCookie })
    expect(response.status).toBe(200)
    const body = await response.text()
    expect(body).toContain('Busy programme')
    expect(body).not.toContain(SECRET_TEXT)
    expect(body).not.toContain('Oscar OfOlly')
  })

  test('another employee sees only their own', async () => {
    const text = textOf(await (await send(server, '/user', { cookie: ollyCookie })).text())
    expect(text).toContain('Olly only programme')
    expect(text).toContain('Oscar OfOlly')
    expect(text).not.toContain('Casey Invited')
    expect(text).not.toContain('Finished programme')
  })

  test('an employee in no scheme gets a friendly empty state', async () => {
    const newcomer = await createUser({ role: 'employee' })
    const html = await (await send(server, '/user', { cookie: await sessionCookieFor(newcomer.id) })).text()
    const text = textOf(html)
    expect(text).toContain('Nothing to do here yet')
    expect(text).toContain('You are not taking part in a feedback programme at the moment.')
    expect(html).not.toContain('<article')
  })

  test('guards: anonymous to sign-in, colleague and admin to their homes, POST refused', async () => {
    const anonymous = await send(server, '/user')
    expect(location(anonymous)).toBe('/sign-in?redirectTo=%2Fuser')
    const someColleague = await createUser({ role: 'colleague' })
    const asColleague = await send(server, '/user', { cookie: await sessionCookieFor(someColleague.id) })
    expect(location(asColleague)).toBe('/user/thank-you')
    const admin = await createUser({ role: 'admin' })
    const asAdmin = await send(server, '/user', { cookie: await sessionCookieFor(admin.id) })
    expect(location(asAdmin)).toBe('/admin')
    const post = await send(server, '/user', { cookie: erinCookie, form: { anything: 'x' } })
    expect(post.status).toBe(405)
    expect(location(await send(server, '/user', { form: { anything: 'x' } }))).toBe(
      '/sign-in?redirectTo=%2Fuser',
    )
  })
})
