import { and, eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  answers,
  assignments,
  auditLog,
  emailOutbox,
  reportReleases,
  responses,
  schemes,
} from '#db/schema/index'
import { createResponse, createUser } from '#db/factories'
import { loadReport } from '#app/modules/report/report.server'
import { releaseOnClose, releaseParticipant, releaseScheme } from '#app/modules/report/release.server'
import { closeDueSchemes } from '#app/modules/scheme/clock.server'
import { closeScheme } from '#app/modules/scheme/scheme.server'
import { checkInvite } from '#app/modules/invite/accept.server'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { answersFor, buildReport, releaseNow, type RaterSpec } from './report-scenario'

/**
 * Release, not live (issue 11 part 1, ADR 022). The differential scenario: the report's data before
 * and after one more colleague submits, before and after the release; then what a release fixes
 * (copies, closed assignments, one e-mail, one audit entry) and the two other ways to release (on
 * close by the clock, and by "close now"), racing included.
 */
const db = useTestDatabase()
const server = useTestServer()

const page = (rid: string) => `/user/response-${rid}`
const dataOf = (rid: string) => `/user/response-${rid}.data`

let admin = { id: '' }
beforeAll(async () => {
  admin = { id: (await createUser({ role: 'admin', password: null })).id }
})

async function get(path: string, cookie: string | null) {
  const response = await send(server, path, { cookie })
  return { status: response.status, body: await response.text() }
}

const colleagues = (n: number, value: number, prefix: string): RaterSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    answers: (qs) =>
      answersFor(qs, { value, comment: `${prefix}-${i}-${Math.random().toString(36).slice(2)}` }),
  }))

/** Keys only a report with colleague figures has. */
const COLLEAGUE_KEYS = [
  'groups',
  'insight',
  'colleagues',
  'optionCounts',
  'distribution',
  'comments',
  'average',
]

function expectNoColleagueData(raw: string, secrets: string[]) {
  // The page's words (the i18n data block, ADR 050: the `report` catalogue, the same for every
  // report) are not its data: they are left out of what is searched.
  const body = raw.replace(/<script id="i18n-boot"[\s\S]*?<\/script>/, '').replaceAll('\\', '')
  expect(body).toContain('"status"')
  for (const key of COLLEAGUE_KEYS) expect(body).not.toContain(`"${key}"`)
  for (const secret of secrets) expect(body).not.toContain(secret)
  expect(body).not.toContain('All colleagues')
}

function expectColleagueData(raw: string) {
  const body = raw.replaceAll('\\', '')
  for (const key of COLLEAGUE_KEYS) expect(body).toContain(`"${key}"`)
}

async function commentsOf(responseIds: (string | null)[]) {
  const ids = responseIds.filter((id): id is string => Boolean(id))
  const rows = await db()
    .select({ text: answers.textValue })
    .from(answers)
    .where(inArray(answers.responseId, ids))
  return rows.map((r) => r.text).filter((t): t is string => Boolean(t) && !t!.startsWith('My own'))
}

/** A `.data` body without the session's rolling token and its expiry (they change on every request). */
const withoutSession = (body: string) => body.replace(/"eyJ[^"]*"/g, '"token"').replace(/,\d{13},/g, ',0,')

/** The report without the live progress count (which may move before a release). */
const withoutProgress = (report: unknown) =>
  JSON.stringify(report, (key, value: unknown) => (key === 'colleaguesSubmitted' ? undefined : value))

const readyMails = (subjectId: string) =>
  db()
    .select({ to: emailOutbox.recipient, entityId: emailOutbox.entityId, subject: emailOutbox.subject })
    .from(emailOutbox)
    .innerJoin(reportReleases, eq(reportReleases.id, emailOutbox.entityId))
    .where(and(eq(emailOutbox.templateKey, 'response_ready'), eq(reportReleases.subjectId, subjectId)))

const releasesOf = (schemeId: string, subjectId?: string) =>
  db()
    .select()
    .from(reportReleases)
    .where(
      and(
        eq(reportReleases.schemeId, schemeId),
        subjectId ? eq(reportReleases.subjectId, subjectId) : undefined,
      ),
    )

const releaseAudits = (ids: string[]) =>
  db()
    .select({ actorId: auditLog.actorId, entityId: auditLog.entityId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'report.release'), inArray(auditLog.entityId, ids)))

async function submitLate(assignmentId: string, qs: Parameters<typeof answersFor>[0], comment: string) {
  const response = await createResponse({
    assignmentId,
    answers: answersFor(qs, { value: 1, comment }),
    submitted: true,
  })
  await db()
    .update(assignments)
    .set({ status: 'submitted', submittedAt: new Date() })
    .where(eq(assignments.id, assignmentId))
  return response.id
}

describe('before the release', () => {
  test('no colleague figure with ≥ min_raters in, and one more colleague changes nothing colleague-related', async () => {
    const s = await buildReport({
      minRaters: 3,
      release: false,
      raters: [...colleagues(3, 2, 'early'), { noResponse: true }],
    })
    const cookie = await sessionCookieFor(s.employee.id)
    const secrets = await commentsOf(s.raters.map((r) => r.responseId))
    expect(secrets).toHaveLength(3)

    const before = await loadReport(s.rid)
    expect(before?.status).toBe('awaiting-release')
    expect(before?.header).toMatchObject({ colleaguesSubmitted: 3, invited: 4, releasedAt: null })
    expectNoColleagueData(JSON.stringify(before), secrets)

    const html = await get(page(s.rid), cookie)
    expect(html.status).toBe(200)
    expectNoColleagueData(html.body, secrets)
    const text = textOf(html.body)
    expect(text).toContain('Your colleagues’ results appear when the programme closes on')
    expect(text).toContain('3 of 4 invited colleagues answered')
    expect(text).toContain('My own note')
    const data = await get(dataOf(s.rid), cookie)
    expect(data.status).toBe(200)
    expect(data.body).toContain('awaiting-release')
    expectNoColleagueData(data.body, secrets)

    // One more colleague submits: only the progress count moves.
    const late = await submitLate(s.raters[3]!.assignment.id, s.qs, 'fourth-comment-zzz')
    const after = await loadReport(s.rid)
    expect(after?.header.colleaguesSubmitted).toBe(4)
    expect(withoutProgress(after)).toBe(withoutProgress(before))
    const data2 = await get(dataOf(s.rid), cookie)
    expectNoColleagueData(data2.body, [...secrets, 'fourth-comment-zzz'])
    expect(late).toBeTruthy()
  })

  test('a by-admin scheme says the administrator releases them', async () => {
    const s = await buildReport({ minRaters: 1, release: false, raters: colleagues(2, 3, 'byadmin') })
    await db().update(schemes).set({ reportRelease: 'by_admin' }).where(eq(schemes.id, s.scheme.id))
    const html = await get(page(s.rid), await sessionCookieFor(s.employee.id))
    expect(textOf(html.body)).toContain(
      'Your colleagues’ results appear when your administrator releases them, usually at your debrief.',
    )
  })
})

describe('release by an administrator', () => {
  test('figures appear from the snapshot; late answers and edits change nothing; re-release takes the latest', async () => {
    const s = await buildReport({
      minRaters: 3,
      release: false,
      raters: [...colleagues(3, 2, 'snap'), { submitted: false }, { noResponse: true }],
    })
    const cookie = await sessionCookieFor(s.employee.id)
    const released = await releaseParticipant(admin, s.scheme.id, s.employee.id)
    expect(released.ok).toBe(true)
    if (!released.ok) return
    expect(released.value).toMatchObject({ raters: 3, closedAssignments: 2 })

    const report = await loadReport(s.rid)
    expect(report?.status).toBe('ready')
    if (report?.status !== 'ready') return
    expect(report.header.releasedAt).not.toBeNull()
    expect(report.questions[0]!.colleagues.average).toBe(2)
    const data = await get(dataOf(s.rid), cookie)
    expectColleagueData(data.body)
    const html = await get(page(s.rid), cookie)
    expect(textOf(html.body)).toContain('All colleagues')

    // The unfinished colleagues' rounds ended: their answer page and their link say so.
    const open = await db()
      .select({ id: assignments.id, closedAt: assignments.closedAt })
      .from(assignments)
      .where(inArray(assignments.id, [s.raters[3]!.assignment.id, s.raters[4]!.assignment.id]))
    expect(open.every((a) => a.closedAt !== null)).toBe(true)
    const colleague = await sessionCookieFor(s.raters[3]!.user.id)
    const answerPage = await get(`/assignment/${s.raters[3]!.assignment.id}`, colleague)
    expect(textOf(answerPage.body)).toContain('This feedback round closed on')
    const save = await send(server, `/assignment/${s.raters[3]!.assignment.id}`, {
      cookie: colleague,
      method: 'POST',
      form: { intent: 'submit', section: '0' },
    })
    expect(save.status).toBe(409)

    // The released report is byte-identical after the live answers change under it.
    const fixed = JSON.stringify(await loadReport(s.rid))
    const fixedData = (await get(dataOf(s.rid), cookie)).body
    const submittedIds = s.raters.slice(0, 3).map((r) => r.responseId!)
    await db()
      .update(answers)
      .set({ numericValue: 5, textValue: 'edited-after-release' })
      .where(inArray(answers.responseId, submittedIds))
    await db()
      .update(responses)
      .set({ submittedAt: new Date() })
      .where(eq(responses.id, s.raters[3]!.responseId!))
    await db()
      .update(assignments)
      .set({ status: 'submitted' })
      .where(eq(assignments.id, s.raters[3]!.assignment.id))
    expect(JSON.stringify(await loadReport(s.rid))).toBe(fixed)
    expect(withoutSession((await get(dataOf(s.rid), cookie)).body)).toBe(withoutSession(fixedData))
    expect(fixedData).not.toContain('edited-after-release')

    // E-mail and audit: once for this release, to the employee only.
    const releases = await releasesOf(s.scheme.id, s.employee.id)
    expect(releases).toHaveLength(1)
    expect(releases[0]).toMatchObject({ mode: 'admin', releasedBy: admin.id })
    const mails = await readyMails(s.employee.id)
    expect(mails).toEqual([{ to: s.employee.email, entityId: releases[0]!.id, subject: expect.any(String) }])
    expect(await releaseAudits([releases[0]!.id])).toEqual([
      {
        actorId: admin.id,
        entityId: releases[0]!.id,
        details: expect.objectContaining({
          by: 'admin',
          raters: 3,
          closedAssignments: 2,
          subjectId: s.employee.id,
        }),
      },
    ])

    // Release again: the latest snapshot is read (the edits and the fourth colleague now count).
    await new Promise((resolve) => setTimeout(resolve, 5))
    await releaseNow(s.scheme.id, s.employee.id)
    const again = await loadReport(s.rid)
    expect(again?.status).toBe('ready')
    if (again?.status !== 'ready') return
    expect(again.header.colleaguesSubmitted).toBe(4)
    expect(again.questions[0]!.colleagues.average).toBe(4.5)
    expect(JSON.stringify(again)).toContain('edited-after-release')
    expect(await readyMails(s.employee.id)).toHaveLength(2)
  })

  test('below the threshold a release shows counts, and the gate counts the snapshot', async () => {
    const s = await buildReport({ minRaters: 3, raters: colleagues(2, 4, 'few') })
    const report = await loadReport(s.rid)
    expect(report).toMatchObject({ status: 'gathering', needed: 1 })
    expectNoColleagueData(JSON.stringify(report), await commentsOf(s.raters.map((r) => r.responseId)))
  })

  test('release all: every participant with a self-assessment in, one statement, one e-mail each', async () => {
    const s = await buildReport({ minRaters: 1, release: false, raters: colleagues(1, 3, 'all') })
    const outcome = await releaseScheme(admin, s.scheme.id)
    expect(outcome).toMatchObject({ ok: true, value: { released: 1 } })
    expect(await releasesOf(s.scheme.id)).toHaveLength(1)
    expect(await readyMails(s.employee.id)).toHaveLength(1)
  })

  test('nothing to release: a clear refusal', async () => {
    const s = await buildReport({ minRaters: 1, release: false, selfSubmitted: false })
    expect(await releaseParticipant(admin, s.scheme.id, s.employee.id)).toMatchObject({ ok: false })
    expect(await releaseScheme(admin, s.scheme.id)).toMatchObject({ ok: false })
  })
})

describe('release on close', () => {
  test('the clock closes the scheme and releases, once, even with two workers racing', async () => {
    const s = await buildReport({ minRaters: 2, release: false, raters: colleagues(2, 3, 'clock') })
    const closesAt = new Date(Date.now() + 60 * 60 * 1000)
    await db().update(schemes).set({ closesAt }).where(eq(schemes.id, s.scheme.id))
    expect(await releaseOnClose(new Date())).toEqual([])
    expect((await loadReport(s.rid))?.status).toBe('awaiting-release')

    const now = new Date(closesAt.getTime() + 1000)
    await closeDueSchemes(now)
    const [a, b] = await Promise.all([releaseOnClose(now), releaseOnClose(now)])
    expect([...a, ...b].filter((r) => r.subjectId === s.employee.id)).toHaveLength(1)
    expect(await releaseOnClose(now)).toEqual([])
    const releases = await releasesOf(s.scheme.id)
    expect(releases).toMatchObject([{ mode: 'clock', releasedBy: null }])
    expect((await loadReport(s.rid))?.status).toBe('ready')
    expect(await readyMails(s.employee.id)).toHaveLength(1)
    expect(await releaseAudits([releases[0]!.id])).toMatchObject([
      { actorId: null, details: { by: 'clock' } },
    ])
  })

  test('"close now" releases an on-close scheme in the same transaction; a by-admin scheme waits', async () => {
    const s = await buildReport({ minRaters: 1, release: false, raters: colleagues(1, 3, 'closenow') })
    expect(await closeScheme(admin, s.scheme.id)).toMatchObject({ ok: true })
    expect(await releasesOf(s.scheme.id)).toMatchObject([{ mode: 'clock' }])
    expect((await loadReport(s.rid))?.status).toBe('ready')

    const t = await buildReport({ minRaters: 1, release: false, raters: colleagues(1, 3, 'waits') })
    await db().update(schemes).set({ reportRelease: 'by_admin' }).where(eq(schemes.id, t.scheme.id))
    expect(await closeScheme(admin, t.scheme.id)).toMatchObject({ ok: true })
    await releaseOnClose(new Date())
    expect(await releasesOf(t.scheme.id)).toEqual([])
    expect((await loadReport(t.rid))?.status).toBe('awaiting-release')
  })
})

describe('invitation links', () => {
  test('a released subject’s colleague link stops working; before the release it worked', async () => {
    const s = await buildReport({
      minRaters: 1,
      release: false,
      raters: [...colleagues(1, 3, 'link'), { noResponse: true }],
    })
    const pending = s.raters[1]!
    const { code } = await createActionCode(db(), {
      kind: 'colleague_invite',
      userId: pending.user.id,
      assignmentId: pending.assignment.id,
      expiresAt: s.scheme.closesAt,
    })
    expect(await checkInvite(code)).toMatchObject({ ok: true })
    await releaseNow(s.scheme.id, s.employee.id)
    expect(await checkInvite(code)).toMatchObject({ ok: false, submitted: false })
  })
})
