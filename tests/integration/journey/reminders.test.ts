import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import { afterEach, describe, expect, inject, test, vi } from 'vitest'
import { actionCodes, assignments, emailOutbox, emailTemplates, schemes, users } from '#db/schema/index'
import {
  createBrand,
  createCompany,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { getEnv } from '#app/config/env.server'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { sendDueReminders } from '#app/modules/scheme/reminders.server'
import { startReminderWorker } from '#app/server/workers'
import { formatDate } from '#app/lib/dates'
import { useTestDatabase } from '#tests/support/database'
import { location, useTestServer } from '#tests/support/app'
import { openInvite } from '#tests/integration/auth/helpers'

/**
 * Reminders (issue 3, item 8): on the scheme's cadence to whoever has not submitted, at most once per
 * period per assignment even with workers racing, never before the scheme opens or after it closes;
 * the e-mails are in the outbox and counted on the assignment; a colleague's reminder carries a
 * fresh sign-in link, and the invitation's own link keeps working (valid until they submit or the
 * scheme closes).
 */
const db = useTestDatabase()
const server = useTestServer()
const onPostgres = inject('testDatabase').kind === 'postgres'

afterEach(() => {
  vi.restoreAllMocks()
})

const DAY = 24 * 60 * 60 * 1000
const MINUTE = 60 * 1000

type SchemeOptions = Partial<typeof schemes.$inferInsert>

/** An employee in a fresh scheme (its own brand) with one invited colleague and an invite link. */
async function world(options: SchemeOptions = {}) {
  const t0 = new Date()
  const brand = await createBrand({ senderName: 'Harbour People Team' })
  const company = await createCompany({ brandId: brand.id })
  const scheme = await createScheme({
    companyId: company.id,
    reminderCadenceDays: 7,
    opensAt: new Date(t0.getTime() - DAY),
    closesAt: new Date(t0.getTime() + 30 * DAY),
    ...options,
  })
  const employee = await createUser({ role: 'employee', displayName: 'Erin Employee' })
  const self = (await enrolEmployee(scheme, employee.id))!
  const colleagueUser = await createUser({ role: 'colleague', displayName: '' })
  const rater = await createRaterAssignment({
    scheme,
    subjectId: employee.id,
    respondentId: colleagueUser.id,
    respondentName: 'Casey Colleague',
  })
  const { code } = await createActionCode(db(), {
    kind: 'colleague_invite',
    userId: colleagueUser.id,
    assignmentId: rater.id,
    expiresAt: scheme.closesAt,
  })
  return { t0, brand, scheme, employee, self, colleagueUser, rater, inviteCode: code }
}

const at = (t0: Date, ms: number) => new Date(t0.getTime() + ms)

async function outboxFor(assignmentIds: string[]) {
  return db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.entity, 'assignment'), inArray(emailOutbox.entityId, assignmentIds)))
    .orderBy(asc(emailOutbox.createdAt))
}

async function assignment(id: string) {
  return (await db().select().from(assignments).where(eq(assignments.id, id)))[0]!
}

const only = (ids: string[], mine: string[]) => ids.filter((id) => mine.includes(id))

describe('cadence', () => {
  test('none before a period has passed, one after it, not two in one period, another in the next', async () => {
    const w = await world()
    const mine = [w.self.id, w.rater.id]

    expect(only((await sendDueReminders(at(w.t0, 6 * DAY))).assignmentIds, mine)).toEqual([])
    expect(await outboxFor(mine)).toEqual([])

    const first = at(w.t0, 7 * DAY + MINUTE)
    expect(only((await sendDueReminders(first)).assignmentIds, mine).sort()).toEqual([...mine].sort())
    const rater = await assignment(w.rater.id)
    expect(rater.remindersSent).toBe(1)
    expect(rater.lastReminderAt?.getTime()).toBe(first.getTime())
    expect((await assignment(w.self.id)).remindersSent).toBe(1)

    expect(only((await sendDueReminders(at(w.t0, 10 * DAY))).assignmentIds, mine)).toEqual([])
    expect(only((await sendDueReminders(at(w.t0, 14 * DAY))).assignmentIds, mine)).toEqual([])

    expect(only((await sendDueReminders(at(w.t0, 14 * DAY + 2 * MINUTE))).assignmentIds, mine).length).toBe(2)
    expect((await assignment(w.rater.id)).remindersSent).toBe(2)
    expect((await assignment(w.self.id)).remindersSent).toBe(2)

    const mails = await outboxFor(mine)
    expect(mails).toHaveLength(4)
    expect(mails.every((m) => m.templateKey === 'reminder' && m.status === 'queued')).toBe(true)
    // Counted on the assignment and visible in the outbox alike.
    expect(mails.filter((m) => m.entityId === w.rater.id)).toHaveLength(2)
  })

  test('the clock starts when the scheme opens, not at enrolment', async () => {
    const t0 = new Date()
    const w = await world({ opensAt: at(t0, 5 * DAY), closesAt: at(t0, 40 * DAY) })
    const mine = [w.self.id, w.rater.id]
    // Not open yet: nothing, however old the invitation.
    expect(only((await sendDueReminders(at(t0, 4 * DAY))).assignmentIds, mine)).toEqual([])
    // Open for 3 days only: still nothing.
    expect(only((await sendDueReminders(at(t0, 8 * DAY))).assignmentIds, mine)).toEqual([])
    expect(only((await sendDueReminders(at(t0, 12 * DAY + MINUTE))).assignmentIds, mine).length).toBe(2)
  })

  test('the reminder is the brand’s, to the respondent, with the scheme, the due date and a working link', async () => {
    const w = await world()
    await db().insert(emailTemplates).values({
      key: 'reminder',
      brandId: w.brand.id,
      subject: 'Still time for {{schemeName}}',
      body: 'Dear {{recipientName}}, your view on {{employeeName}} is due {{dueDate}}.\n\n{{link}}',
    })
    await sendDueReminders(at(w.t0, 8 * DAY))
    const [toColleague] = await outboxFor([w.rater.id])
    expect(toColleague).toMatchObject({
      recipient: w.colleagueUser.email,
      senderName: 'Harbour People Team',
      subject: `Still time for ${w.scheme.name}`,
    })
    expect(toColleague!.text).toContain(
      `Dear Casey Colleague, your view on Erin Employee is due ${formatDate(w.scheme.closesAt)}.`,
    )
    const [toEmployee] = await outboxFor([w.self.id])
    expect(toEmployee!.recipient).toBe(w.employee.email)
    expect(toEmployee!.text).toContain('Dear Erin Employee')
    // The employee signs in with their password; the link opens their assignment.
    expect(toEmployee!.text).toContain(`${getEnv().APP_URL}/assignment/${w.self.id}`)
  })

  test('the default template names the scheme and the deadline', async () => {
    const w = await world()
    await sendDueReminders(at(w.t0, 8 * DAY))
    const [mail] = await outboxFor([w.rater.id])
    expect(mail!.subject).toBe('A friendly reminder: your feedback questionnaire is still open')
    expect(mail!.text).toContain('Hello Casey Colleague,')
    expect(mail!.text).toContain(
      `A feedback questionnaire in ${w.scheme.name} is still waiting for you. It is open until ${formatDate(w.scheme.closesAt)}.`,
    )
  })
})

describe('who is not reminded', () => {
  test('nobody once the scheme has closed, by date or by status', async () => {
    const t0 = new Date()
    const w = await world({ closesAt: at(t0, 10 * DAY) })
    const mine = [w.self.id, w.rater.id]
    expect(only((await sendDueReminders(at(t0, 7 * DAY + MINUTE))).assignmentIds, mine).length).toBe(2)
    // A full period later the scheme has closed.
    expect(only((await sendDueReminders(at(t0, 14 * DAY + 2 * MINUTE))).assignmentIds, mine)).toEqual([])
    expect(only((await sendDueReminders(at(t0, 10 * DAY))).assignmentIds, mine)).toEqual([])

    const closed = await world({ status: 'closed' })
    expect(
      only((await sendDueReminders(at(t0, 8 * DAY))).assignmentIds, [closed.self.id, closed.rater.id]),
    ).toEqual([])
    expect(await outboxFor([closed.self.id, closed.rater.id])).toEqual([])
  })

  test('nobody in a draft scheme or one without a cadence', async () => {
    const t0 = new Date()
    const draft = await world({ status: 'draft' })
    const noCadence = await world({ reminderCadenceDays: 0 })
    const mine = [draft.self.id, draft.rater.id, noCadence.self.id, noCadence.rater.id]
    expect(only((await sendDueReminders(at(t0, 20 * DAY))).assignmentIds, mine)).toEqual([])
  })

  test('not those who submitted, nor withdrawn invitations; those still answering are', async () => {
    const w = await world()
    await createResponse({ assignmentId: w.self.id, submitted: true })
    const revokedColleague = await createUser({ role: 'colleague' })
    const revoked = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: revokedColleague.id,
    })
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, revoked.id))
    const startedColleague = await createUser({ role: 'colleague' })
    const started = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: startedColleague.id,
    })
    await createResponse({ assignmentId: started.id, submitted: false })
    const mine = [w.self.id, w.rater.id, revoked.id, started.id]
    const reminded = only((await sendDueReminders(at(w.t0, 8 * DAY))).assignmentIds, mine)
    expect(reminded.sort()).toEqual([w.rater.id, started.id].sort())
    expect((await assignment(w.self.id)).remindersSent).toBe(0)
    expect((await assignment(revoked.id)).remindersSent).toBe(0)
  })

  test('not a disabled respondent, nor an employee who never activated their account', async () => {
    const w = await world()
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, w.colleagueUser.id))
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, w.employee.id))
    expect(only((await sendDueReminders(at(w.t0, 8 * DAY))).assignmentIds, [w.self.id, w.rater.id])).toEqual(
      [],
    )
  })
})

describe('the colleague’s link', () => {
  test('the reminder’s link signs the colleague in to the questionnaire; the invitation’s link still works', async () => {
    const w = await world()
    const oldLink = new URL(actionLink('colleague_invite', w.inviteCode))
    // Before the reminder the invitation's link works.
    const before = await openInvite(server, oldLink.pathname + oldLink.search)
    expect(before.status).toBe(302)

    await sendDueReminders(at(w.t0, 8 * DAY))
    const [mail] = await outboxFor([w.rater.id])
    const match = /http:\/\/localhost:3000(\/verification\?mode=invite&code=[\w-]+)/.exec(mail!.text)
    expect(match).not.toBeNull()
    const fresh = await openInvite(server, match![1]!)
    expect(fresh.status).toBe(302)
    expect(location(fresh)).toBe(`/questionnaire/${w.scheme.questionnaireId}`)

    const earlier = await openInvite(server, oldLink.pathname + oldLink.search)
    expect(earlier.status).toBe(302)
    expect(location(earlier)).toBe(`/questionnaire/${w.scheme.questionnaireId}`)

    const codes = await db().select().from(actionCodes).where(eq(actionCodes.assignmentId, w.rater.id))
    expect(codes).toHaveLength(2)
    expect(codes.filter((c) => c.usedAt === null)).toHaveLength(2)
    // The reminder's new link lives until the scheme closes.
    expect(codes.map((c) => c.expiresAt.getTime())).toContain(w.scheme.closesAt.getTime())
  })
})

describe('racing workers', () => {
  test(`two concurrent rounds remind each assignment once${onPostgres ? '' : ' (PGlite serialises them)'}`, async () => {
    const w = await world()
    const extra = await Promise.all(
      Array.from({ length: 24 }, async () => {
        const u = await createUser({ role: 'colleague' })
        return createRaterAssignment({ scheme: w.scheme, subjectId: w.employee.id, respondentId: u.id })
      }),
    )
    const mine = [w.self.id, w.rater.id, ...extra.map((a) => a.id)]
    const when = at(w.t0, 8 * DAY)
    const results = await Promise.all([
      sendDueReminders(when),
      sendDueReminders(when),
      sendDueReminders(when),
    ])
    const reminded = results.flatMap((r) => only(r.assignmentIds, mine))
    expect(reminded).toHaveLength(mine.length)
    expect(new Set(reminded).size).toBe(mine.length)
    const mails = await outboxFor(mine)
    expect(mails).toHaveLength(mine.length)
    expect(new Set(mails.map((m) => m.entityId)).size).toBe(mine.length)
    const rows = await db().select().from(assignments).where(inArray(assignments.id, mine))
    expect(rows.every((r) => r.remindersSent === 1)).toBe(true)
    // Each colleague got exactly one new link (the self-assessment needs none); the invitation's own
    // link (only w.rater had one) stays live beside it.
    const live = await db()
      .select({ assignmentId: actionCodes.assignmentId })
      .from(actionCodes)
      .where(
        and(
          inArray(actionCodes.assignmentId, mine),
          eq(actionCodes.kind, 'colleague_invite'),
          isNull(actionCodes.usedAt),
        ),
      )
    const colleagues = mine.filter((id) => id !== w.self.id)
    expect([...new Set(live.map((c) => c.assignmentId))].sort()).toEqual([...colleagues].sort())
    expect(live).toHaveLength(colleagues.length + 1)
  })
})

describe('the worker', () => {
  test('sends what is due on its first round, does not overlap, and stops cleanly', async () => {
    const w = await world({ reminderCadenceDays: 1 })
    // Invited two days ago (real time): due now.
    await db()
      .update(assignments)
      .set({ invitedAt: new Date(Date.now() - 2 * DAY) })
      .where(eq(assignments.id, w.rater.id))
    await db()
      .update(schemes)
      .set({ opensAt: new Date(Date.now() - 3 * DAY) })
      .where(eq(schemes.id, w.scheme.id))
    const worker = startReminderWorker(getEnv(), { firstDelayMs: 0, intervalMs: 60_000 })
    const deadline = Date.now() + 10_000
    while ((await outboxFor([w.rater.id])).length === 0) {
      if (Date.now() > deadline) throw new Error('the worker sent nothing')
      await new Promise((r) => setTimeout(r, 50))
    }
    await worker.stop()
    expect((await assignment(w.rater.id)).remindersSent).toBe(1)
  })
})

describe('a backlog larger than a batch', () => {
  test('the longest waiting go first, across schemes; a scheme’s unremindable oldest hold nobody back', async () => {
    const t0 = new Date()
    const brand = await createBrand()
    const company = await createCompany({ brandId: brand.id })
    const schemeRows = await Promise.all(
      [0, 1, 2].map(() =>
        createScheme({
          companyId: company.id,
          reminderCadenceDays: 7,
          opensAt: new Date(t0.getTime() - 400 * DAY),
          closesAt: new Date(t0.getTime() + 30 * DAY),
        }),
      ),
    )
    const subjects = await Promise.all(schemeRows.map(() => createUser({ role: 'employee' })))
    // 60 colleagues waiting, spread over the three schemes, each invited a different day (the
    // earlier the index, the longer they have waited); more than one batch (50).
    const waiting: Array<{ id: string; invitedAt: Date }> = []
    for (let i = 0; i < 60; i++) {
      const k = i % 3
      const colleague = await createUser({ role: 'colleague' })
      const row = await createRaterAssignment({
        scheme: schemeRows[k]!,
        subjectId: subjects[k]!.id,
        respondentId: colleague.id,
      })
      const invitedAt = new Date(t0.getTime() - (300 - i) * DAY)
      await db().update(assignments).set({ invitedAt }).where(eq(assignments.id, row.id))
      waiting.push({ id: row.id, invitedAt })
    }
    // In the first scheme, 55 colleagues who waited even longer but cannot be reminded (disabled):
    // they come first in that scheme's order, and must not take the places of those behind them.
    const disabled: string[] = []
    for (let i = 0; i < 55; i++) {
      const colleague = await createUser({ role: 'colleague', disabledAt: t0 })
      const row = await createRaterAssignment({
        scheme: schemeRows[0]!,
        subjectId: subjects[0]!.id,
        respondentId: colleague.id,
      })
      await db()
        .update(assignments)
        .set({ invitedAt: new Date(t0.getTime() - (390 - i) * DAY) })
        .where(eq(assignments.id, row.id))
      disabled.push(row.id)
    }

    const result = await sendDueReminders(t0)
    const mine = waiting.map((w) => w.id)
    const reminded = only(result.assignmentIds, mine)
    expect(new Set(reminded)).toEqual(new Set(mine))
    expect(only(result.assignmentIds, disabled)).toEqual([])
    // Batches go in clock order across schemes: the first batch's worth are the 50 longest waiting.
    const longestWaiting = [...waiting].sort((a, b) => +a.invitedAt - +b.invitedAt).slice(0, 50)
    expect(new Set(reminded.slice(0, 50))).toEqual(new Set(longestWaiting.map((w) => w.id)))
  })
})
