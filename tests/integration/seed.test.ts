import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import {
  actionCodes,
  answers,
  assignments,
  brands,
  companies,
  emailOutbox,
  nominees,
  questionnaires,
  questions,
  responses,
  schemeMembers,
  schemes,
  users,
} from '#db/schema/index'
import { loadReport } from '#app/modules/report/report.server'
import { listSharedWithYou, loadPlanContext } from '#app/modules/plan/plan.server'
import { loadCycleView } from '#app/modules/cycle/cycle.server'
import {
  DEMO_COMMENTS,
  DEMO_NOMINATION_SCHEME,
  DEMO_PREVIOUS_SCHEME,
  DEMO_SEND_BACK_COMMENT,
  DEMO_TIME_ZONE,
  seed,
  seedSummary,
  DEMO_MANAGER_EMAIL,
} from '#db/seed'
import { getEmployeeHome } from '#app/modules/home/home.server'
import { resetEnvCache } from '#app/config/env.server'
import { formatDateTime } from '#app/lib/dates'
import { FEEDBACK_REQUEST_CAP_DEFAULT } from '#app/config/constants'
import { useTestDatabase } from '#tests/support/database'

/**
 * The demo data set (`npm run seed`, issue 7 item 19): deadlines at the end of a day in a named zone,
 * realistic contact links on the demo brand, an introduction that reads right for self and colleague,
 * comments that belong to one question each, and printed links that follow APP_URL / PORT.
 */
const db = useTestDatabase()
const saved = { APP_URL: process.env.APP_URL, PORT: process.env.PORT }

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  resetEnvCache()
})

let result: Awaited<ReturnType<typeof seed>>

describe('the demo data', () => {
  test('runs, and a second run changes nothing', async () => {
    result = await seed()
    expect(result.made.length).toBeGreaterThan(5)
    const again = await seed()
    expect(again.made).toEqual([])
  })

  test('the programme’s deadline is 23:59 on a day in UK time, not the minute the seed ran', async () => {
    const [scheme] = await db().select().from(schemes).where(eq(schemes.name, 'Acme leadership programme'))
    expect(scheme!.timeZone).toBe(DEMO_TIME_ZONE)
    expect(formatDateTime(scheme!.closesAt, DEMO_TIME_ZONE)).toMatch(
      /^\d{1,2} [A-Z][a-z]+ \d{4} at 23:59 (BST|GMT)$/,
    )
  })

  test('Acme asks each person for at most the default number of open feedback requests (ADR 038)', async () => {
    const [acme] = await db().select().from(companies).where(eq(companies.name, 'Acme Ltd'))
    expect(acme!.feedbackRequestCap).toBe(FEEDBACK_REQUEST_CAP_DEFAULT)
  })

  test('the demo brand has real-looking contact links, no example.com placeholders', async () => {
    const [brand] = await db().select().from(brands).where(eq(brands.name, 'Northwind Consulting'))
    expect(brand!.callbackUrl).toMatch(/^https:\/\/www\.northwind-consulting\.co\.uk\//)
    expect(brand!.contactEmail).toMatch(/@northwind-consulting\.co\.uk$/)
    expect(brand!.profileUrl).toMatch(/^https:\/\/www\.linkedin\.com\/company\//)
    expect(JSON.stringify(brand)).not.toContain('example.com')
  })

  test('the introduction does not speak to colleagues only', async () => {
    const [q] = await db().select().from(questionnaires).where(eq(questionnaires.title, 'Leadership 360'))
    expect(q!.intro).not.toMatch(/what you have seen/i)
    expect(q!.intro).toMatch(/no right or wrong answers/)
  })

  test('no comment appears under two questions, and each answers its own question', async () => {
    const rows = await db()
      .select({ kind: questions.kind, text: answers.textValue })
      .from(answers)
      .innerJoin(questions, eq(questions.id, answers.questionId))
    const written = rows.filter((r) => r.text)
    expect(written.length).toBeGreaterThan(10)
    const kindsOf = new Map<string, Set<string>>()
    for (const r of written) kindsOf.set(r.text!, (kindsOf.get(r.text!) ?? new Set()).add(r.kind))
    for (const [text, kinds] of kindsOf) expect([text, [...kinds]]).toEqual([text, [expect.any(String)]])
    for (const r of written) expect(DEMO_COMMENTS[r.kind as 'text' | 'textarea'], r.text!).toContain(r.text)
  })
})

describe('the demo reports (ADR 022)', () => {
  const reportOf = async (email: string) => {
    const [row] = await db()
      .select({ id: responses.id })
      .from(responses)
      .innerJoin(assignments, eq(assignments.id, responses.assignmentId))
      .innerJoin(users, eq(users.id, assignments.subjectId))
      .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
      // The demo programme's report (Erin also has last year's, issue 19 §5).
      .where(
        and(
          eq(users.email, email),
          eq(assignments.relationship, 'self'),
          eq(schemes.name, 'Acme leadership programme'),
        ),
      )
    return loadReport(row!.id)
  }

  test('Erin’s report is released, with groups, blind spots and hidden strengths', async () => {
    const report = await reportOf('employee@panorama.test')
    expect(report?.status).toBe('ready')
    if (report?.status !== 'ready') return
    expect(report.groups.map((g) => g.label)).toEqual(['Peers', 'Other colleagues'])
    expect(report.insight.blindSpots.length).toBeGreaterThan(0)
    expect(report.insight.hiddenStrengths.length).toBeGreaterThan(0)
    expect(report.comments.length).toBeGreaterThan(0)
  })

  test('Erin has a development plan, shared with her manager Dana, who finds it under "Shared with you"', async () => {
    const report = await reportOf('employee@panorama.test')
    const [erin] = await db().select().from(users).where(eq(users.email, 'employee@panorama.test'))
    const [dana] = await db().select().from(users).where(eq(users.email, DEMO_MANAGER_EMAIL))
    expect(erin!.managerId).toBe(dana!.id)
    const plan = await loadPlanContext(report!.header.responseId, erin!.id)
    expect(plan?.areas.map((a) => [a.kind, a.stance])).toEqual([
      ['category', 'develop'],
      ['question', 'strength'],
    ])
    expect(plan?.areas.every((a) => a.actions && a.targetDate)).toBe(true)
    expect(plan?.share).toMatchObject({ managerId: dana!.id, includePlan: true, stillManager: true })
    const shared = await listSharedWithYou(dana!.id)
    expect(shared.map((s) => [s.employeeName, s.consented, s.includesPlan])).toEqual([
      ['Erin Employee', true, true],
    ])
  })

  test('Wren has enough answers and waits for the release; Sam is below the threshold', async () => {
    const wren = await reportOf('employee3@panorama.test')
    expect(wren?.status).toBe('awaiting-release')
    expect(wren!.header.colleaguesSubmitted).toBeGreaterThanOrEqual(wren!.header.minRaters)
    const sam = await reportOf('employee2@panorama.test')
    expect(sam?.status).toBe('awaiting-release')
    expect(sam!.header.colleaguesSubmitted).toBeLessThan(sam!.header.minRaters)
  })

  test('Erin’s pending colleagues were invited after the release: their links still work', async () => {
    const open = await db()
      .select({ id: assignments.id })
      .from(assignments)
      .innerJoin(users, eq(users.id, assignments.respondentId))
      .where(
        and(
          inArray(users.email, ['colleague@panorama.test', 'alex.answerer@panorama.test']),
          isNull(assignments.closedAt),
        ),
      )
    expect(open).toHaveLength(2)
  })
})

describe('the demo lists of raters (issue 18 §3, ADR 042)', () => {
  const listOf = async (email: string) => {
    const [scheme] = await db().select().from(schemes).where(eq(schemes.name, DEMO_NOMINATION_SCHEME))
    const [user] = await db().select().from(users).where(eq(users.email, email))
    const [member] = await db()
      .select()
      .from(schemeMembers)
      .where(and(eq(schemeMembers.schemeId, scheme!.id), eq(schemeMembers.employeeId, user!.id)))
    const people = await db()
      .select()
      .from(nominees)
      .where(and(eq(nominees.schemeId, scheme!.id), eq(nominees.employeeId, user!.id)))
    return { scheme: scheme!, user: user!, member: member!, people }
  }

  test('a scheme approved by managers, asking for a manager and three peers, taking lists now', async () => {
    const { scheme } = await listOf('employee2@panorama.test')
    expect(scheme).toMatchObject({
      nominationApproval: 'manager',
      nominationChooser: 'employee',
      minManager: 1,
      minPeer: 3,
      minDirectReport: 0,
      minOther: 0,
      status: 'open',
    })
    expect(scheme.opensAt.getTime()).toBeLessThan(Date.now())
    expect(scheme.nominationsCloseAt!.getTime()).toBeGreaterThan(Date.now())
    // After the leadership programme: that one stays first on its people's home and invite pages.
    const [leadership] = await db()
      .select()
      .from(schemes)
      .where(eq(schemes.name, 'Acme leadership programme'))
    expect(scheme.closesAt.getTime()).toBeGreaterThan(leadership!.closesAt.getTime())
  })

  test('Sam’s list waits for Erin since a day ago, and her home says so', async () => {
    const { member, people, user } = await listOf('employee2@panorama.test')
    const [erin] = await db().select().from(users).where(eq(users.email, 'employee@panorama.test'))
    expect(member).toMatchObject({ nominationStatus: 'submitted', nominationApproverId: erin!.id })
    const hoursAgo = (Date.now() - member.nominationSubmittedAt!.getTime()) / 3_600_000
    expect(hoursAgo).toBeGreaterThan(23)
    expect(hoursAgo).toBeLessThan(25)
    expect(people).toHaveLength(5)
    expect(people.filter((p) => p.relationship === 'manager').map((p) => p.email)).toEqual([erin!.email])
    expect(people.every((p) => p.assignmentId === null)).toBe(true)
    const home = await getEmployeeHome(erin!.id)
    expect(home.waiting).toEqual([
      expect.objectContaining({ employeeId: user.id, employeeName: 'Sam Second', people: 5 }),
    ])
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(
        and(eq(emailOutbox.recipient, erin!.email), sql`${emailOutbox.templateKey} = 'nomination_submitted'`),
      )
    expect(mail).toBeDefined()
  })

  test('Wren’s list was sent back with Erin’s comment; nobody on it is invited', async () => {
    const { member, people } = await listOf('employee3@panorama.test')
    expect(member).toMatchObject({ nominationStatus: 'sent_back', nominationComment: DEMO_SEND_BACK_COMMENT })
    expect(people.length).toBeGreaterThan(0)
    expect(people.every((p) => p.assignmentId === null)).toBe(true)
  })

  test('Noah’s list is approved: everyone on it has a rater assignment, an invite code and an e-mail', async () => {
    const { member, people, scheme, user } = await listOf('new.employee@panorama.test')
    expect(member.nominationStatus).toBe('approved')
    expect(people).toHaveLength(4)
    for (const p of people) {
      expect(p.assignmentId, p.email).not.toBeNull()
      const [assignment] = await db().select().from(assignments).where(eq(assignments.id, p.assignmentId!))
      expect(assignment).toMatchObject({
        schemeId: scheme.id,
        subjectId: user.id,
        relationship: p.relationship,
      })
      const codes = await db()
        .select()
        .from(actionCodes)
        .where(and(eq(actionCodes.assignmentId, p.assignmentId!), eq(actionCodes.kind, 'colleague_invite')))
      expect(codes, p.email).toHaveLength(1)
      const mails = await db()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.recipient, p.email), sql`${emailOutbox.templateKey} = 'colleague_invite'`))
      expect(mails, p.email).toHaveLength(1)
    }
  })
})

describe('what the seed prints', () => {
  test('links follow PORT when APP_URL is not set, like the server', async () => {
    delete process.env.APP_URL
    process.env.PORT = '4567'
    resetEnvCache()
    const lines = seedSummary(await seed()).join('\n')
    expect(lines).toContain('Portal: http://localhost:4567 (sign in at http://localhost:4567/sign-in)')
    expect(lines).toMatch(/^colleague invite: http:\/\/localhost:4567\/verification\?mode=invite&code=\S+$/m)
    expect(lines).toMatch(/^answering invite: http:\/\/localhost:4567\/verification\?mode=invite&code=\S+$/m)
    expect(lines).not.toContain(':3000')
  })

  test('and APP_URL when it is set', async () => {
    process.env.APP_URL = 'https://feedback.consultancy.test'
    resetEnvCache()
    const lines = seedSummary(await seed()).join('\n')
    expect(lines).toContain('Portal: https://feedback.consultancy.test')
    expect(lines).toMatch(/^colleague invite: https:\/\/feedback\.consultancy\.test\/verification\?/m)
  })
})

describe('the previous cycle (issue 19 §5)', () => {
  test('Erin’s report shows last year’s released figures beside this year’s, with changes both ways', async () => {
    await seed()
    const [erin] = await db().select().from(users).where(eq(users.email, 'employee@panorama.test'))
    const [self] = await db()
      .select({ id: responses.id })
      .from(responses)
      .innerJoin(assignments, eq(assignments.id, responses.assignmentId))
      .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
      .where(
        and(
          eq(assignments.subjectId, erin!.id),
          eq(assignments.relationship, 'self'),
          eq(schemes.name, 'Acme leadership programme'),
        ),
      )
    const report = await loadReport(self!.id)
    const view = await loadCycleView(report!)
    expect(view?.previous?.schemeName).toBe(DEMO_PREVIOUS_SCHEME)
    const verdicts = new Set(view!.comparison.questions.map((q) => q.change?.verdict))
    expect([...verdicts].sort()).toEqual(['higher', 'lower', 'same'])
    expect(view!.comparison.categories.length).toBeGreaterThan(0)
    expect(view!.norm).toBeNull()
  })
})
