import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  auditLog,
  companies,
  developmentPlans,
  emailOutbox,
  planFocusAreas,
  reportShares,
  schemes,
  users,
} from '#db/schema/index'
import {
  createQuestionnaire,
  createRaterAssignment,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { updateScheme } from '#app/modules/scheme/scheme.server'
import { SCHEME_MESSAGES } from '#app/modules/scheme/schemas'
import { addFocusArea, localDate, sendPlanCheckIns, shareReport } from '#app/modules/plan/plan.server'
import { ACTIONS_MAX, PLAN_MESSAGES } from '#app/modules/plan/schemas'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { schemeInputFromRow } from '#tests/support/scheme-input'
import { textOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'
import { answersFor, buildReport, QUESTIONS, type RaterSpec } from './report-scenario'

/**
 * Development plans and report sharing (issue 19 §1–2, ADR 043), through the built server: the plan
 * made from a released report (its limits and messages, never a 500), the autosave, sharing with the
 * manager (consent, revocable, audited, lost with the manager role), the scheme's "the manager sees
 * the report at release", the coach, and the check-in reminders claimed once.
 */
const db = useTestDatabase()
const server = useTestServer()

const COMMENT = 'A colleague comment that only the employee may read'
const SELF_NOTE = 'My own free-text note'

const raters = (n: number): RaterSpec[] =>
  Array.from({ length: n }, () => ({ answers: (qs) => answersFor(qs, { value: 3, comment: COMMENT }) }))

/** A released report (three colleagues, threshold three) whose employee has a manager. */
async function world(options: { release?: boolean; managerSeesReport?: boolean } = {}) {
  const s = await buildReport({
    minRaters: 3,
    raters: raters(3),
    release: options.release ?? true,
    selfAnswers: (qs) => answersFor(qs, { value: 4, comment: SELF_NOTE }),
  })
  if (options.managerSeesReport)
    await db().update(schemes).set({ managerSeesReport: true }).where(eq(schemes.id, s.scheme.id))
  const manager = await createUser({ role: 'employee', password: null, displayName: 'Mara Manager' })
  await db().update(users).set({ managerId: manager.id }).where(eq(users.id, s.employee.id))
  const other = await createUser({ role: 'employee', password: null })
  return {
    ...s,
    manager,
    cookie: await sessionCookieFor(s.employee.id),
    managerCookie: await sessionCookieFor(manager.id),
    otherCookie: await sessionCookieFor(other.id),
    plan: `/user/development-plan/${s.rid}`,
    shared: `/user/shared/${s.rid}`,
    scale: s.qs.filter((q) => q.kind === 'scale'),
  }
}
type World = Awaited<ReturnType<typeof world>>

const post = (w: World, form: Record<string, string>, cookie = w.cookie, path = w.plan) =>
  send(server, path, { cookie, form })

async function areasOf(w: World) {
  return db()
    .select({ id: planFocusAreas.id, kind: planFocusAreas.kind, category: planFocusAreas.category })
    .from(planFocusAreas)
    .innerJoin(developmentPlans, eq(developmentPlans.id, planFocusAreas.planId))
    .where(eq(developmentPlans.employeeId, w.employee.id))
    .orderBy(planFocusAreas.position)
}

/** The plan's fields as the page's form posts them. */
function planForm(areas: { id: string }[], each: (i: number) => Record<string, string> = () => ({})) {
  return Object.fromEntries(
    areas.flatMap((a, i) =>
      Object.entries({ id: a.id, stance: 'develop', actions: '', support: '', ...each(i) }).map(([k, v]) => [
        `areas[${i}].${k}`,
        v,
      ]),
    ),
  )
}

const text = async (r: Response) => (await r.text()).replaceAll('&#x27;', "'").replaceAll('&quot;', '"')

describe('the plan page', () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })

  test('the employee opens it from their released report; the report offers "Add to my plan"', async () => {
    const report = await send(server, `/user/response-${w.rid}`, { cookie: w.cookie })
    expect(report.status).toBe(200)
    const html = await text(report)
    expect(html).toContain('Add “Communication” to my plan')
    expect(html).toContain('Start your plan')
    const page = await send(server, w.plan, { cookie: w.cookie })
    expect(page.status).toBe(200)
    const body = await text(page)
    expect(body).toContain('Your development plan')
    expect(body).toContain('Competency or question from your report')
    // The chooser lists competencies and scale questions only (not the free-text question).
    expect(body).toContain(`value="question:${w.scale[0]!.id}"`)
    expect(body).not.toContain('What could I do differently?</option>')
  })

  test('another employee, a bad id and an unknown id are the same 404', async () => {
    expect((await send(server, w.plan, { cookie: w.otherCookie })).status).toBe(404)
    expect((await post(w, { intent: 'add', focus: 'category:Communication' }, w.otherCookie)).status).toBe(
      404,
    )
    expect((await send(server, '/user/development-plan/not-a-uuid', { cookie: w.cookie })).status).toBe(404)
    expect(
      (
        await send(server, '/user/development-plan/00000000-0000-4000-8000-000000000000', {
          cookie: w.cookie,
        })
      ).status,
    ).toBe(404)
  })

  test('adds focus areas from the report; a fourth, a repeat or anything not in it is refused clearly', async () => {
    const added = await post(w, { intent: 'add', focus: 'category:Communication', stance: 'strength' })
    expect(added.status).toBe(302)
    expect(added.headers.get('Location')).toBe(w.plan)
    const again = await post(w, { intent: 'add', focus: 'category:Communication' })
    expect(again.status).toBe(400)
    expect(await text(again)).toContain(PLAN_MESSAGES.alreadyChosen)

    // Not in this questionnaire: a question of another one, a category it does not have, junk.
    const elsewhere = await createQuestionnaire({ questions: QUESTIONS })
    const foreign = (await questionsOf(elsewhere.id)).find((q) => q.kind === 'scale')!
    for (const focus of [
      `question:${foreign.id}`,
      'category:Astrology',
      'question:12',
      `question:${w.qs.at(-1)!.id}`,
    ]) {
      const refused = await post(w, { intent: 'add', focus })
      expect(refused.status, focus).toBe(400)
      expect(await text(refused), focus).toContain(PLAN_MESSAGES.notInReport)
    }
    const junk = await post(w, { intent: 'add', focus: 'whatever' })
    expect(junk.status).toBe(400)
    expect(await text(junk)).toContain(PLAN_MESSAGES.chooseFocus)
    const badStance = await post(w, { intent: 'add', focus: 'category:Leadership', stance: 'maybe' })
    expect(badStance.status).toBe(400)

    expect((await post(w, { intent: 'add', focus: `question:${w.scale[0]!.id}` })).status).toBe(302)
    expect((await post(w, { intent: 'add', focus: 'category:Leadership' })).status).toBe(302)
    const fourth = await post(w, { intent: 'add', focus: 'category:Collaboration' })
    expect(fourth.status).toBe(400)
    expect(await text(fourth)).toContain(PLAN_MESSAGES.tooMany)
    expect((await areasOf(w)).map((a) => a.category)).toEqual([
      'Communication',
      'Communication',
      'Leadership',
    ])
  })

  test('autosaves the actions, support and dates; bad input is a 400 with the field’s message', async () => {
    const areas = await areasOf(w)
    const today = localDate(new Date(), w.scheme.timeZone)
    const inMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const saved = await post(w, {
      intent: 'autosave',
      ...planForm(areas, (i) => ({
        actions: `Action ${i}`,
        support: `Support ${i}`,
        targetDate: i ? inMonth : today,
      })),
    })
    expect(saved.status).toBe(200)
    const rows = await db().select().from(planFocusAreas).where(eq(planFocusAreas.id, areas[0]!.id))
    expect(rows[0]).toMatchObject({ actions: 'Action 0', support: 'Support 0', targetDate: today })

    const cases: [Record<string, string>, string][] = [
      [planForm(areas, () => ({ actions: 'x'.repeat(ACTIONS_MAX + 1) })), PLAN_MESSAGES.actionsTooLong],
      [planForm(areas, () => ({ targetDate: '2001-01-01' })), PLAN_MESSAGES.datePast],
      [planForm(areas, () => ({ targetDate: '2099-01-01' })), PLAN_MESSAGES.dateFar],
      [planForm(areas, () => ({ targetDate: '2026-02-31' })), PLAN_MESSAGES.date],
      [planForm(areas, () => ({ stance: 'later' })), PLAN_MESSAGES.stance],
    ]
    for (const [form, message] of cases) {
      const refused = await post(w, { intent: 'save', ...form })
      expect(refused.status, message).toBe(400)
      expect(await text(refused), message).toContain(message)
    }
    // An area that is not this plan's: the page is out of date.
    const stale = await post(w, {
      intent: 'save',
      ...planForm([{ id: '00000000-0000-4000-8000-000000000000' }]),
    })
    expect(stale.status).toBe(400)
    expect(await text(stale)).toContain(PLAN_MESSAGES.stale)
    // More than three: refused by the schema.
    const many = await post(w, { intent: 'save', ...planForm([...areas, areas[0]!]) })
    expect(many.status).toBe(400)
    // The plain submit (no JavaScript) saves and comes back.
    const plain = await post(w, { intent: 'save', ...planForm(areas, (i) => ({ actions: `Plain ${i}` })) })
    expect(plain.status).toBe(302)
    const after = await db().select().from(planFocusAreas).where(eq(planFocusAreas.id, areas[0]!.id))
    // A date left empty clears it; a saved date that has passed stays allowed.
    expect(after[0]).toMatchObject({ actions: 'Plain 0', targetDate: null })
  })

  test('removes a focus area; the others move up', async () => {
    const [first, ...rest] = await areasOf(w)
    expect((await post(w, { intent: 'remove', id: first!.id })).status).toBe(302)
    expect((await areasOf(w)).map((a) => a.id)).toEqual(rest.map((a) => a.id))
    expect((await post(w, { intent: 'remove', id: first!.id })).status).toBe(400)
  })
})

describe('before the report is released with colleagues’ views', () => {
  test('the plan page says why, and adding is refused with the reason', async () => {
    const w = await world({ release: false })
    const page = await send(server, w.plan, { cookie: w.cookie })
    expect(page.status).toBe(200)
    expect(await text(page)).toContain('Your plan opens once your report has been released')
    const refused = await post(w, { intent: 'add', focus: 'category:Communication' })
    expect(refused.status).toBe(400)
    expect(await text(refused)).toContain(PLAN_MESSAGES.notReleased)
    expect((await post(w, { intent: 'share', includePlan: 'on' })).status).toBe(400)
    expect((await send(server, w.shared, { cookie: w.managerCookie })).status).toBe(404)
  })
})

describe('sharing with the manager', () => {
  test('by consent, audited, e-mailed; read-only figures without comments; revoked: gone at once', async () => {
    const w = await world()
    await post(w, { intent: 'add', focus: 'category:Leadership' })
    const [area] = await areasOf(w)
    await post(w, { intent: 'save', ...planForm([area!], () => ({ actions: 'Run the weekly stand-up' })) })

    // Not shared: the manager has nothing.
    expect((await send(server, w.shared, { cookie: w.managerCookie })).status).toBe(404)
    // The visible text: the page's messages (its i18n data block) hold the section's words regardless.
    expect(textOf(await text(await send(server, '/user', { cookie: w.managerCookie })))).not.toContain(
      'Shared with you',
    )

    const shared = await post(w, { intent: 'share', includePlan: 'on' })
    expect(shared.status).toBe(302)
    const grants = await db().select().from(reportShares).where(eq(reportShares.employeeId, w.employee.id))
    expect(grants).toMatchObject([{ managerId: w.manager.id, includePlan: true, revokedAt: null }])
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.recipient, w.manager.email), eq(emailOutbox.templateKey, 'report_shared')))
    expect(mail!.text).toContain(w.shared)
    expect(mail!.text).toContain('Their development plan is shared with it.')

    const home = await text(await send(server, '/user', { cookie: w.managerCookie }))
    expect(home).toContain('Shared with you')
    expect(home).toContain(`href="${w.shared}"`)
    const view = await send(server, w.shared, { cookie: w.managerCookie })
    expect(view.status).toBe(200)
    const html = await text(view)
    expect(html).toContain(w.employee.displayName)
    expect(html).toContain('By category')
    expect(html).toContain('Run the weekly stand-up')
    // Never the colleagues' words nor the free-text answers — not in the HTML, not in its data.
    expect(html).not.toContain(COMMENT)
    expect(html).not.toContain(SELF_NOTE)
    const data = await send(server, `${w.shared}.data`, { cookie: w.managerCookie })
    expect(data.status).toBe(200)
    const payload = await data.text()
    expect(payload).not.toContain(COMMENT)
    expect(payload).not.toContain(SELF_NOTE)
    // Read-only.
    expect((await send(server, w.shared, { cookie: w.managerCookie, form: { intent: 'x' } })).status).toBe(
      405,
    )
    // Another employee: nothing, the same 404.
    expect((await send(server, w.shared, { cookie: w.otherCookie })).status).toBe(404)

    // Without the plan: the report only.
    expect((await post(w, { intent: 'share' })).status).toBe(302)
    expect(await text(await send(server, w.shared, { cookie: w.managerCookie }))).not.toContain(
      'Run the weekly stand-up',
    )

    expect((await post(w, { intent: 'revoke' })).status).toBe(302)
    expect((await send(server, w.shared, { cookie: w.managerCookie })).status).toBe(404)
    expect(await text(await send(server, '/user', { cookie: w.managerCookie }))).not.toContain(w.shared)
    expect((await post(w, { intent: 'revoke' })).status).toBe(400)

    const audit = await db()
      .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.entityId, w.rid))
      .orderBy(auditLog.at)
    expect(audit.map((a) => a.action)).toEqual([
      'report.share',
      'report.unshare',
      'report.share',
      'report.unshare',
    ])
    expect(audit.every((a) => a.actorId === w.employee.id)).toBe(true)
    expect(audit.map((a) => (a.details as { reason?: string }).reason)).toEqual([
      undefined,
      'replaced',
      undefined,
      'revoked',
    ])
  })

  test('a manager who no longer is loses access; the new one has none without a new consent', async () => {
    const w = await world()
    expect((await post(w, { intent: 'share', includePlan: 'on' })).status).toBe(302)
    expect((await send(server, w.shared, { cookie: w.managerCookie })).status).toBe(200)
    const next = await createUser({ role: 'employee', password: null })
    await db().update(users).set({ managerId: next.id }).where(eq(users.id, w.employee.id))
    expect((await send(server, w.shared, { cookie: w.managerCookie })).status).toBe(404)
    expect((await send(server, w.shared, { cookie: await sessionCookieFor(next.id) })).status).toBe(404)
    expect(await text(await send(server, w.plan, { cookie: w.cookie }))).toContain(
      'They are no longer your manager',
    )
  })

  test('no manager recorded: sharing is refused with the reason', async () => {
    const w = await world()
    await db().update(users).set({ managerId: null }).where(eq(users.id, w.employee.id))
    const refused = await post(w, { intent: 'share', includePlan: 'on' })
    expect(refused.status).toBe(400)
    expect(await text(refused)).toContain(PLAN_MESSAGES.noManager)
  })

  test('the scheme’s "manager sees the report at release": readable without consent, told before inviting', async () => {
    const w = await world({ managerSeesReport: true })
    const view = await send(server, w.shared, { cookie: w.managerCookie })
    expect(view.status).toBe(200)
    expect(await text(view)).toContain('managers read their team’s released reports')
    expect(await text(await send(server, '/user', { cookie: w.managerCookie }))).toContain(w.shared)
    // The employee is told on their home and where they invite.
    const told = 'your manager also reads your report once it is released'
    expect(await text(await send(server, '/user', { cookie: w.cookie }))).toContain(told)
    expect(await text(await send(server, '/user/colleague-invite', { cookie: w.cookie }))).toContain(told)
    // Not released yet: nothing to read.
    const before = await world({ release: false, managerSeesReport: true })
    expect((await send(server, before.shared, { cookie: before.managerCookie })).status).toBe(404)
  })
})

describe('the coach (administrators)', () => {
  test('see whether there is a plan, and its text only once shared with the coach', async () => {
    const w = await world()
    await post(w, { intent: 'add', focus: 'category:Leadership' })
    const [area] = await areasOf(w)
    await post(w, { intent: 'save', ...planForm([area!], () => ({ actions: 'Coach-only words' })) })
    const admin = await createUser({ role: 'admin', password: null })
    const adminCookie = await sessionCookieFor(admin.id)
    const before = await text(await send(server, `/user/response-${w.rid}`, { cookie: adminCookie }))
    expect(before).toContain('Development plan: 1 focus area, not shared with the coach.')
    expect(before).not.toContain('Coach-only words')
    const scheme = await text(
      await send(server, `/admin/scheme-management/${w.scheme.id}`, { cookie: adminCookie }),
    )
    expect(scheme).toContain('Plan: 1 focus area')
    expect(scheme).not.toContain('Coach-only words')

    expect((await post(w, { intent: 'coach', share: 'on' })).status).toBe(302)
    expect(await text(await send(server, `/user/response-${w.rid}`, { cookie: adminCookie }))).toContain(
      'Coach-only words',
    )
    expect((await post(w, { intent: 'coach', share: 'off' })).status).toBe(302)
    expect(await text(await send(server, `/user/response-${w.rid}`, { cookie: adminCookie }))).not.toContain(
      'Coach-only words',
    )
    // An admin has no plan page of their own.
    expect((await send(server, w.plan, { cookie: adminCookie })).status).toBe(302)
  })
})

describe('check-in reminders', () => {
  test('go out on the chosen date, once, in the brand, with a link to the plan; a new date gets its own', async () => {
    const w = await world()
    const actor = { id: w.employee.id }
    expect((await addFocusArea(actor, w.rid, { focus: 'category:Communication' })).ok).toBe(true)
    expect((await addFocusArea(actor, w.rid, { focus: 'category:Leadership', stance: 'strength' })).ok).toBe(
      true,
    )
    const areas = await areasOf(w)
    const day = '2030-03-10'
    await db()
      .update(planFocusAreas)
      .set({ targetDate: day })
      .where(eq(planFocusAreas.planId, (await planId(w))!))
    const mails = () =>
      db()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.recipient, w.employee.email), eq(emailOutbox.templateKey, 'plan_check_in')))

    // The day before: nothing.
    await sendPlanCheckIns(new Date('2030-03-09T12:00:00Z'))
    expect(await mails()).toHaveLength(0)
    // On the day, two workers at once: one e-mail for both areas.
    const sent = await Promise.all([
      sendPlanCheckIns(new Date('2030-03-10T09:00:00Z')),
      sendPlanCheckIns(new Date('2030-03-10T09:00:00Z')),
    ])
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1)
    await sendPlanCheckIns(new Date('2030-03-11T09:00:00Z'))
    const [mail, ...more] = await mails()
    expect(more).toHaveLength(0)
    expect(mail!.text).toContain(w.plan)
    expect(mail!.text).toContain('• Communication: area to develop\n• Leadership: strength to use')
    expect(mail!.text).toContain('Communication: area to develop')
    expect(mail!.text).toContain('Leadership: strength to use')
    const [company] = await db()
      .select({ brandId: companies.brandId })
      .from(companies)
      .where(eq(companies.id, w.scheme.companyId))
    expect(mail!.brandId).toBe(company!.brandId)

    // A new date for one area: its own reminder on that day.
    await db()
      .update(planFocusAreas)
      .set({ targetDate: '2030-04-01' })
      .where(eq(planFocusAreas.id, areas[1]!.id))
    expect(await sendPlanCheckIns(new Date('2030-04-01T09:00:00Z'))).toBe(1)
    expect(await sendPlanCheckIns(new Date('2030-04-02T09:00:00Z'))).toBe(0)
    expect(await mails()).toHaveLength(2)
    const pending = await db()
      .select()
      .from(planFocusAreas)
      .where(and(eq(planFocusAreas.planId, (await planId(w))!), isNull(planFocusAreas.checkInSentFor)))
    expect(pending).toHaveLength(0)
  })
})

async function planId(w: World) {
  const [row] = await db()
    .select({ id: developmentPlans.id })
    .from(developmentPlans)
    .where(eq(developmentPlans.employeeId, w.employee.id))
  return row?.id
}

describe('the scheme setting "the manager sees the report at release"', () => {
  const inputOf = (scheme: typeof schemes.$inferSelect, managerSeesReport: boolean) =>
    schemeInputFromRow(scheme, { managerSeesReport })

  test('changes (audited) before anyone is invited; refused beside the field once someone is', async () => {
    const admin = await createUser({ role: 'admin', password: null })
    const scheme = await createScheme()
    const employee = await createUser({ role: 'employee', password: null })
    await enrolEmployee(scheme, employee.id)
    const [fresh] = await db().select().from(schemes).where(eq(schemes.id, scheme.id))
    expect(await updateScheme({ id: admin.id }, scheme.id, inputOf(fresh!, true))).toEqual({
      ok: true,
      value: { changed: ['managerSeesReport'] },
    })
    const colleague = await createUser({ role: 'colleague', password: null })
    await createRaterAssignment({ scheme, subjectId: employee.id, respondentId: colleague.id })
    // Employees were told their manager reads the report: switching it off now is refused too.
    const refused = await updateScheme({ id: admin.id }, scheme.id, inputOf(fresh!, false))
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { managerSeesReport: [SCHEME_MESSAGES.managerSeesReportTooLate] },
    })
    // Saving other fields with the setting unchanged still works.
    expect((await updateScheme({ id: admin.id }, scheme.id, inputOf(fresh!, true))).ok).toBe(true)
  })
})

describe('the domain functions', () => {
  test('share needs the employee’s own report: another employee’s is not found', async () => {
    const w = await world()
    const other = await createUser({ role: 'employee', password: null })
    const outcome = await shareReport({ id: other.id }, w.rid, { includePlan: true })
    expect(outcome).toMatchObject({ ok: false, notFound: true })
  })
})

describe('the e-mails’ own words in the reader’s language (ADR 053)', () => {
  const preview = usePreviewLanguages(server)
  test('a German manager’s share e-mail and a German employee’s check-in hold no English values', async () => {
    preview('de')
    const w = await world()
    for (const id of [w.manager.id, w.employee.id])
      await db().update(users).set({ language: 'de' }).where(eq(users.id, id))
    const actor = { id: w.employee.id }
    expect((await addFocusArea(actor, w.rid, { focus: 'category:Communication' })).ok).toBe(true)
    expect((await addFocusArea(actor, w.rid, { focus: 'category:Leadership', stance: 'strength' })).ok).toBe(
      true,
    )
    expect((await shareReport(actor, w.rid, { includePlan: true })).ok).toBe(true)
    const [shared] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.recipient, w.manager.email), eq(emailOutbox.templateKey, 'report_shared')))
    expect(shared!.language).toBe('de')
    expect(shared!.text).toContain('Auch den Entwicklungsplan können Sie lesen.')
    expect(shared!.text).not.toContain('Their development plan')

    await db()
      .update(planFocusAreas)
      .set({ targetDate: '2030-04-10' })
      .where(eq(planFocusAreas.planId, (await planId(w))!))
    await sendPlanCheckIns(new Date('2030-04-10T09:00:00Z'))
    const [checkIn] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.recipient, w.employee.email), eq(emailOutbox.templateKey, 'plan_check_in')))
    expect(checkIn!.language).toBe('de')
    expect(checkIn!.text).toContain(
      '• Communication: Bereich, den Sie entwickeln\n• Leadership: Stärke, die Sie nutzen',
    )
    expect(checkIn!.text).not.toMatch(/area to develop|strength to use/)
  })
})
