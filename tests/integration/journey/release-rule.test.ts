import { and, eq, inArray } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  answers,
  assignments,
  emailOutbox,
  reportReleaseResponses,
  reportReleases,
  responses,
  schemes,
} from '#db/schema/index'
import { createRaterAssignment, createResponse, createUser, enrolEmployee } from '#db/factories'
import { reopenResponse } from '#app/modules/response/response.server'
import { changeBetween } from '#app/modules/report/release-rule'
import {
  previewRelease,
  releaseOnClose,
  releaseParticipant,
  releaseScheme,
} from '#app/modules/report/release.server'
import { loadReport } from '#app/modules/report/report.server'
import { getEmployeeHome } from '#app/modules/home/home.server'
import { closeDueSchemes } from '#app/modules/scheme/clock.server'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { usePreviewLanguages } from '#tests/support/languages'
import { answersFor, buildReport, releaseNow, type RaterSpec } from './report-scenario'

/**
 * The moment of truth (issue 15 A3, A4, B1–B4; ADR 025): the rule between two releases, two
 * administrators releasing at once, releasing below the threshold, reopened answers after a
 * release, and home and report telling one story — through the modules and the real HTTP stack.
 */
const db = useTestDatabase()
const server = useTestServer()

let admin = { id: '' }
let adminCookie = ''
beforeAll(async () => {
  admin = await createUser({ role: 'admin', password: null })
  adminCookie = await sessionCookieFor(admin.id)
})

const raters = (n: number, value = 3, relationship: RaterSpec['relationship'] = 'peer'): RaterSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    relationship,
    answers: (qs) => answersFor(qs, { value, comment: `comment-${value}-${i}` }),
  }))

type Built = Awaited<ReturnType<typeof buildReport>>

/** A colleague who answers now (a submitted response, as the answering flow leaves it). */
async function arrive(s: Built, value: number, relationship: RaterSpec['relationship'] = 'peer') {
  const user = await createUser({ role: 'colleague', password: null, displayName: `Late ${value}` })
  const assignment = await createRaterAssignment({
    scheme: s.scheme,
    subjectId: s.employee.id,
    respondentId: user.id,
    relationship,
  })
  const response = await createResponse({
    assignmentId: assignment.id,
    answers: answersFor(s.qs, { value, comment: `late-comment-${value}-${user.id.slice(0, 6)}` }),
    submitted: true,
  })
  return { user, assignment, responseId: response.id }
}

/** Another participant of the same scheme: self-assessment submitted, `n` colleagues answered. */
async function addSubject(s: Built, n: number) {
  const employee = await createUser({ role: 'employee', password: null })
  const self = (await enrolEmployee(s.scheme, employee.id))!
  await createResponse({ assignmentId: self.id, answers: answersFor(s.qs, { value: 4 }), submitted: true })
  for (let i = 0; i < n; i++) {
    const user = await createUser({ role: 'colleague', password: null })
    const assignment = await createRaterAssignment({
      scheme: s.scheme,
      subjectId: employee.id,
      respondentId: user.id,
    })
    await createResponse({ assignmentId: assignment.id, answers: answersFor(s.qs), submitted: true })
  }
  return employee
}

/** A reopened response submitted again, its scale answers changed to `value` (or left as they were). */
async function resubmit(responseId: string, assignmentId: string, value?: number) {
  if (value !== undefined)
    await db()
      .update(answers)
      .set({ numericValue: value })
      .where(and(eq(answers.responseId, responseId), inArray(answers.numericValue, [1, 2, 3, 4, 5])))
  await db().update(responses).set({ submittedAt: new Date() }).where(eq(responses.id, responseId))
  await db()
    .update(assignments)
    .set({ status: 'submitted', submittedAt: new Date() })
    .where(eq(assignments.id, assignmentId))
}

const releasesOf = (schemeId: string, subjectId: string) =>
  db()
    .select()
    .from(reportReleases)
    .where(and(eq(reportReleases.schemeId, schemeId), eq(reportReleases.subjectId, subjectId)))
    .orderBy(reportReleases.releasedAt, reportReleases.id)

const readyMails = (subjectEmail: string) =>
  db()
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.templateKey, 'response_ready'), eq(emailOutbox.recipient, subjectEmail)))

const schemePath = (id: string) => `/admin/scheme-management/${id}`
const html = async (response: Response) => textOf((await response.text()).replaceAll('<!-- -->', ''))
async function adminPage(path: string) {
  const response = await send(server, path, { cookie: adminCookie })
  expect(response.status).toBe(200)
  return html(response)
}
/** Posts an admin form; on a redirect, the page it leads to (with its toast). */
async function adminPost(path: string, form: Record<string, string>) {
  const response = await send(server, path, { form, cookie: adminCookie })
  if (response.status !== 302) return { status: response.status, text: await html(response) }
  const next = await send(server, location(response)!, { cookie: cookiesFrom(response, adminCookie) })
  return { status: 302, text: await html(next) }
}

describe('the rule between two releases (A3)', () => {
  test('Casey answers after Erin’s release: releasing again is refused with the numbers, on the page and from the action', async () => {
    const s = await buildReport({ minRaters: 3, raters: raters(4, 4) })
    // The released report without the live count of invitations (Casey's adds one).
    const fixed = async () =>
      JSON.stringify(await loadReport(s.rid), (key, value: unknown) =>
        key === 'invited' ? undefined : value,
      )
    const before = await fixed()
    const casey = await arrive(s, 1)

    // The scheme page says a response came in since the release, and that three are needed.
    const page = await adminPage(schemePath(s.scheme.id))
    expect(page).toContain('1 response changed since the release (3 needed to release again)')
    const confirm = await adminPage(`${schemePath(s.scheme.id)}?release=${s.employee.id}`)
    expect(confirm).toContain(
      '1 response has changed since the last release (1 new); 3 are needed before the report can change',
    )
    expect(confirm).not.toContain('Yes, release it again')

    // A hand-made post is refused the same way, and nothing is released or e-mailed.
    const posted = await adminPost(schemePath(s.scheme.id), {
      intent: 'release',
      employeeId: s.employee.id,
      kind: 'full',
    })
    expect(posted.status).toBe(400)
    expect(posted.text).toContain('1 response has changed since the last release')
    expect(await releasesOf(s.scheme.id, s.employee.id)).toHaveLength(1)
    expect(await fixed()).toBe(before)
    expect(await fixed()).not.toContain(`late-comment-1-${casey.user.id.slice(0, 6)}`)

    // Two more: three new responses, the threshold. Now the report may change, and it says so.
    await arrive(s, 1)
    await arrive(s, 1)
    const ready = await adminPage(`${schemePath(s.scheme.id)}?release=${s.employee.id}`)
    expect(ready).toContain('3 responses added')
    const released = await adminPost(schemePath(s.scheme.id), {
      intent: 'release',
      employeeId: s.employee.id,
      kind: 'full',
    })
    expect(released.status).toBe(302)
    expect(released.text).toContain('The report now shows 7 colleagues’ answers, combined')
    const releases = await releasesOf(s.scheme.id, s.employee.id)
    expect(releases).toHaveLength(2)
    expect(releases.every((r) => r.colleaguesShown)).toBe(true)
    const copies = await db()
      .select()
      .from(reportReleaseResponses)
      .where(
        inArray(
          reportReleaseResponses.releaseId,
          releases.map((r) => r.id),
        ),
      )
    const byRelease = (id: string) =>
      copies
        .filter((c) => c.releaseId === id)
        .map((c) => ({ source: c.sourceResponseId!, hash: c.contentHash!, relationship: 'peer' as const }))
    expect(changeBetween(byRelease(releases[0]!.id), byRelease(releases[1]!.id))).toMatchObject({
      added: 3,
      total: 3,
    })
  })

  test('release all: first releases only; re-releases only when asked, and only those changed enough', async () => {
    const a = await buildReport({ minRaters: 3, raters: raters(3) })
    const scheme = a.scheme
    // In the same scheme: b has enough answers and was never released; c is below the threshold.
    const b = await addSubject(a, 3)
    const c = await addSubject(a, 1)
    await arrive(a, 5)
    const plan = await adminPage(`${schemePath(scheme.id)}?confirm=release-all`)
    expect(plan).toContain('1 report is released for the first time with colleagues’ results')
    expect(plan).toContain('1 report is below the 3 answers needed and stays unreleased')
    expect(plan).toContain('1 released report has not changed enough to be released again')
    const first = await adminPost(schemePath(scheme.id), { intent: 'release-all' })
    expect(first.status).toBe(302)
    expect(first.text).toContain('1 report of')
    expect(first.text).toContain('1 report is below the threshold and was left as it was.')
    expect(await releasesOf(scheme.id, a.employee.id)).toHaveLength(1)
    expect(await releasesOf(scheme.id, b.id)).toHaveLength(1)
    expect(await releasesOf(scheme.id, c.id)).toHaveLength(0)

    // Two more for a: it may be released again, but only when asked.
    await arrive(a, 5)
    await arrive(a, 5)
    const next = await adminPage(`${schemePath(scheme.id)}?confirm=release-all`)
    expect(next).toContain(
      '1 released report has changed enough to be released again, which this does not do',
    )
    expect(next).toContain('Include the 1 report to release again…')
    expect(await releaseScheme(admin, scheme.id)).toMatchObject({ ok: false })
    expect(await releasesOf(scheme.id, a.employee.id)).toHaveLength(1)
    const again = await adminPage(`${schemePath(scheme.id)}?confirm=release-again-all`)
    expect(again).toContain('1 report released before is released again')
    const done = await adminPost(schemePath(scheme.id), { intent: 'release-all', again: 'yes' })
    expect(done.status).toBe(302)
    expect(await releasesOf(scheme.id, a.employee.id)).toHaveLength(2)
    expect(await releasesOf(scheme.id, b.id)).toHaveLength(1)
    expect(await releasesOf(scheme.id, c.id)).toHaveLength(0)
  })
})

describe('two administrators at once (A4)', () => {
  test('concurrent releases make one release and one e-mail; the same snapshot again is no release', async () => {
    const s = await buildReport({ minRaters: 3, release: false, raters: raters(3) })
    const outcomes = await Promise.all([
      releaseParticipant(admin, s.scheme.id, s.employee.id),
      releaseParticipant(admin, s.scheme.id, s.employee.id),
      releaseScheme(admin, s.scheme.id),
    ])
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1)
    for (const refused of outcomes.filter((o) => !o.ok))
      expect(JSON.stringify(refused)).toMatch(
        /Nothing has changed since the last release|No report can be released now/,
      )
    expect(await releasesOf(s.scheme.id, s.employee.id)).toHaveLength(1)
    expect(await readyMails(s.employee.email)).toHaveLength(1)

    // Later, nothing changed: no release, no e-mail, and the page says why.
    expect(await releaseParticipant(admin, s.scheme.id, s.employee.id)).toMatchObject({
      ok: false,
      formErrors: ['Nothing has changed since the last release: the report already shows these answers.'],
    })
    expect(await readyMails(s.employee.email)).toHaveLength(1)
  })
})

describe('below the threshold (B2, B3)', () => {
  test('the admin chooses: wait, or the self-assessment alone — which sends nothing and leaves invitations open', async () => {
    const s = await buildReport({
      minRaters: 3,
      release: false,
      raters: [...raters(1), { noResponse: true }, { noResponse: true }],
    })
    const employeeCookie = await sessionCookieFor(s.employee.id)

    // Before any release the report says how many more are needed, like the home page.
    const before = await html(await send(server, `/user/response-${s.rid}`, { cookie: employeeCookie }))
    const needed =
      'Colleagues’ results are shown only once at least 3 colleagues have answered, so that no one’s answers can be singled out: 2 more answers are needed.'
    expect(before).toContain(needed)
    const home = await html(await send(server, '/user', { cookie: employeeCookie }))
    expect(home).toContain(needed)
    expect(home).not.toContain('Enough colleagues have answered')

    // The confirmation states the numbers and offers both ways.
    const confirm = await adminPage(`${schemePath(s.scheme.id)}?release=${s.employee.id}`)
    expect(confirm).toContain('self-assessment alone?')
    expect(confirm).toContain('Only 1 colleague answer of the 3 needed is in')
    expect(confirm).toContain('wait for 2 more')
    expect(confirm).toContain('Release the self-assessment alone')

    // A full release cannot be forced below the threshold.
    const forced = await adminPost(schemePath(s.scheme.id), {
      intent: 'release',
      employeeId: s.employee.id,
      kind: 'full',
    })
    expect(forced.status).toBe(400)
    expect(forced.text).toContain('Only 1 answer of the 3 needed is in')
    expect(await releasesOf(s.scheme.id, s.employee.id)).toHaveLength(0)

    const alone = await adminPost(schemePath(s.scheme.id), {
      intent: 'release',
      employeeId: s.employee.id,
      kind: 'self-only',
    })
    expect(alone.status).toBe(302)
    expect(alone.text).toContain('Self-assessment released')
    expect(alone.text).toContain('Their invitations stay open; no e-mail was sent.')
    expect(alone.text).not.toContain('The report now shows')
    const [release] = await releasesOf(s.scheme.id, s.employee.id)
    expect(release).toMatchObject({ colleaguesShown: false })
    expect(await readyMails(s.employee.email)).toHaveLength(0)
    const open = await db()
      .select({ closedAt: assignments.closedAt })
      .from(assignments)
      .where(inArray(assignments.id, [s.raters[1]!.assignment.id, s.raters[2]!.assignment.id]))
    expect(open.map((a) => a.closedAt)).toEqual([null, null])
    const after = await html(await send(server, `/user/response-${s.rid}`, { cookie: employeeCookie }))
    expect(after).toContain('without colleagues’ results: 1 of the 3 answers needed was in')
    expect(after).toContain('2 more answers are needed')

    // The invitations filled: the first release with colleagues' results (nothing to compare with).
    await createResponse({
      assignmentId: s.raters[1]!.assignment.id,
      answers: answersFor(s.qs),
      submitted: true,
    })
    await createResponse({
      assignmentId: s.raters[2]!.assignment.id,
      answers: answersFor(s.qs),
      submitted: true,
    })
    expect(await previewRelease(s.scheme.id, s.employee.id)).toMatchObject({ kind: 'release', first: true })
    await releaseNow(s.scheme.id, s.employee.id)
    expect((await loadReport(s.rid))?.status).toBe('ready')
    expect(await readyMails(s.employee.email)).toHaveLength(1)
  })

  test('the clock releases a report below the threshold as the self-assessment alone, without an e-mail', async () => {
    const s = await buildReport({ minRaters: 3, release: false, raters: raters(2) })
    const closesAt = new Date(Date.now() + 60 * 60 * 1000)
    await db().update(schemes).set({ closesAt }).where(eq(schemes.id, s.scheme.id))
    const now = new Date(closesAt.getTime() + 1000)
    await closeDueSchemes(now)
    const released = await releaseOnClose(now)
    expect(released.filter((r) => r.subjectId === s.employee.id)).toMatchObject([
      { colleaguesShown: false, emailed: false },
    ])
    expect(await readyMails(s.employee.email)).toHaveLength(0)
    const report = await loadReport(s.rid)
    expect(report?.status).toBe('gathering')
    expect(await releaseOnClose(now)).toEqual([])
  })
})

describe('reopened answers after a release (B4)', () => {
  test('the employee still sees the colleague as answered; the scheme page counts the change', async () => {
    const s = await buildReport({ minRaters: 3, raters: raters(4, 4) })
    const target = s.raters[1]!
    expect(await reopenResponse(admin, target.responseId, 'A slip in question 2')).toMatchObject({ ok: true })

    const home = await getEmployeeHome(s.employee.id)
    const card = home.schemes.find((x) => x.id === s.scheme.id)!
    expect(card.colleagues.map((c) => c.status)).toEqual(['answered', 'answered', 'answered', 'answered'])
    const employeeCookie = await sessionCookieFor(s.employee.id)
    const invite = await html(
      await send(server, `/user/colleague-invite?scheme=${s.scheme.id}`, { cookie: employeeCookie }),
    )
    expect(invite).not.toContain('Started')
    // A revoke posted by hand for the reopened one is refused: it was answered.
    const revoke = await send(server, `/user/colleague-invite?scheme=${s.scheme.id}`, {
      cookie: employeeCookie,
      form: { intent: 'revoke', assignmentId: target.assignment.id },
    })
    expect(revoke.status).toBe(400)
    expect(
      (await db().select().from(assignments).where(eq(assignments.id, target.assignment.id)))[0]!.status,
    ).toBe('in_progress')

    // Reopened and not submitted again: a withdrawn response, counted on the scheme page.
    expect(await adminPage(schemePath(s.scheme.id))).toContain('1 response changed since the release')
    await resubmit(target.responseId!, target.assignment.id, 1)
    expect(await adminPage(schemePath(s.scheme.id))).toContain(
      '1 response changed since the release (3 needed to release again)',
    )
    // Submitted again unchanged: nothing changed.
    const other = s.raters[2]!
    await reopenResponse(admin, other.responseId, 'Check your answers')
    await resubmit(other.responseId!, other.assignment.id)
    expect(await adminPage(schemePath(s.scheme.id))).toContain('1 response changed since the release')
  })
})

describe('home and report tell one story (B1)', () => {
  test('a by-admin scheme with enough answers: both say it waits for the administrator', async () => {
    const s = await buildReport({ minRaters: 3, release: false, raters: raters(4) })
    await db().update(schemes).set({ reportRelease: 'by_admin' }).where(eq(schemes.id, s.scheme.id))
    const cookie = await sessionCookieFor(s.employee.id)
    const line =
      'Your colleagues’ results appear when your administrator releases them, usually at your debrief.'
    const home = await html(await send(server, '/user', { cookie }))
    const report = await html(await send(server, `/user/response-${s.rid}`, { cookie }))
    for (const page of [home, report]) {
      expect(page).toContain(line)
      expect(page).toContain('Enough colleagues have answered (4) for their results to be shown.')
    }
    expect(home).not.toContain('your report sets their combined views beside yours')

    await releaseNow(s.scheme.id, s.employee.id)
    const released = await html(await send(server, '/user', { cookie }))
    expect(released).toMatch(
      /Released on \d{1,2} [A-Z][a-z]+ \d{4}: your report sets 4 colleagues’ combined views beside yours\./,
    )
    expect(released).toContain('Read your report')
  })
})

// ---------------------------------------------------------------------------------------------
// The property, through the database: the releases stored for a report after any sequence.

type Step =
  | { kind: 'arrive'; value: number }
  | { kind: 'reopen'; pick: number }
  | { kind: 'resubmit'; pick: number; value: number | null }
  | { kind: 'release' }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('arrive' as const), value: fc.integer({ min: 1, max: 5 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const), pick: fc.nat(7) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('resubmit' as const),
      pick: fc.nat(7),
      value: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('release' as const) }) },
)

describe('property: the stored releases of a report never differ by a few responses', () => {
  test('over sequences of arrivals, reopens, edits and releases against the database', async () => {
    let releasesSeen = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 3 }),
        fc.array(stepArb, { minLength: 6, maxLength: 14 }),
        async (minRaters, steps) => {
          const s = await buildReport({ minRaters, release: false, raters: [] })
          const people: { responseId: string; assignmentId: string; submitted: boolean }[] = []
          for (const step of steps) {
            if (step.kind === 'arrive' && people.length < 8) {
              const a = await arrive(s, step.value)
              people.push({ responseId: a.responseId, assignmentId: a.assignment.id, submitted: true })
            } else if (step.kind === 'reopen') {
              const open = people.filter((p) => p.submitted)
              const p = open[step.pick % Math.max(1, open.length)]
              if (p && (await reopenResponse(admin, p.responseId, 'Reopened by the property test')).ok)
                p.submitted = false
            } else if (step.kind === 'resubmit') {
              const reopened = people.filter((p) => !p.submitted)
              const p = reopened[step.pick % Math.max(1, reopened.length)]
              if (p) {
                await resubmit(p.responseId, p.assignmentId, step.value ?? undefined)
                p.submitted = true
              }
            } else if (step.kind === 'release') {
              const verdict = await previewRelease(s.scheme.id, s.employee.id)
              const outcome = await releaseParticipant(admin, s.scheme.id, s.employee.id, {
                kind: verdict?.kind === 'self-only' ? 'self-only' : 'full',
              })
              expect(outcome.ok).toBe(verdict?.kind === 'release' || verdict?.kind === 'self-only')
            }
          }
          const releases = await releasesOf(s.scheme.id, s.employee.id)
          releasesSeen += releases.length
          const copies = releases.length
            ? await db()
                .select()
                .from(reportReleaseResponses)
                .where(
                  inArray(
                    reportReleaseResponses.releaseId,
                    releases.map((r) => r.id),
                  ),
                )
            : []
          const snapshot = (id: string) =>
            copies
              .filter((c) => c.releaseId === id)
              .map((c) => ({
                source: c.sourceResponseId!,
                hash: c.contentHash!,
                relationship: c.relationship as 'peer',
              }))
          const shown = releases.filter((r) => r.colleaguesShown)
          for (let i = 0; i < shown.length; i++)
            for (let j = i + 1; j < shown.length; j++) {
              const total = changeBetween(snapshot(shown[i]!.id), snapshot(shown[j]!.id)).total
              expect(total === 0 || total >= minRaters).toBe(true)
            }
          // What the page reads is the latest release, never live answers.
          const report = await loadReport(s.rid)
          const latest = releases.at(-1)
          if (latest?.colleaguesShown)
            expect(report?.header.colleaguesSubmitted).toBe(snapshot(latest.id).length)
          else expect(report?.status).not.toBe('ready')
        },
      ),
      { numRuns: 8, seed: 15 },
    )
    expect(releasesSeen).toBeGreaterThan(8)
  })
})

describe('a German reader (ADR 050, 052)', () => {
  const preview = usePreviewLanguages(server)
  const german = { 'Accept-Language': 'de' }
  const germanPage = async (path: string) => {
    const response = await send(server, path, { cookie: adminCookie, headers: german })
    expect(response.status).toBe(200)
    return html(response)
  }
  const germanPost = async (path: string, form: Record<string, string>) => {
    const response = await send(server, path, { form, cookie: adminCookie, headers: german })
    return { status: response.status, text: await html(response) }
  }

  test('the release panel’s reason and the refusals are German, with German plurals', async () => {
    preview('de')
    const s = await buildReport({ minRaters: 3, raters: raters(4, 4) })
    await arrive(s, 1)

    // The panel says why, from the same reason the refusal has.
    const reason =
      'Seit der letzten Freigabe hat sich 1 Antwort geändert (1 neu); nötig sind 3, bevor sich der Bericht ändern kann'
    const confirm = await germanPage(`${schemePath(s.scheme.id)}?release=${s.employee.id}`)
    expect(confirm).toContain(reason)
    expect(confirm).not.toContain('has changed since the last release')

    // The action refuses in German too (written by the action from the same messages).
    const posted = await germanPost(schemePath(s.scheme.id), {
      intent: 'release',
      employeeId: s.employee.id,
      kind: 'full',
    })
    expect(posted.status).toBe(400)
    expect(posted.text).toContain(reason)
    expect(posted.text).not.toContain('has changed since the last release')

    // Release all: nothing to release, and the reason in German (the page's validation table).
    const all = await germanPost(schemePath(s.scheme.id), { intent: 'release-all' })
    expect(all.status).toBe(400)
    expect(all.text).toContain(
      'Derzeit lässt sich kein Bericht freigeben: 1 bereits freigegeben und unverändert oder zu wenig geändert.',
    )
    expect(all.text).not.toContain('No report can be released now')
    expect(await releasesOf(s.scheme.id, s.employee.id)).toHaveLength(1)
  })

  test('below the threshold: the forced full release is refused in German, one answer or two', async () => {
    preview('de')
    const s = await buildReport({
      minRaters: 3,
      release: false,
      raters: [...raters(1), { noResponse: true }, { noResponse: true }],
    })
    const forced = await germanPost(schemePath(s.scheme.id), {
      intent: 'release',
      employeeId: s.employee.id,
      kind: 'full',
    })
    expect(forced.status).toBe(400)
    expect(forced.text).toContain(
      'Erst 1 Antwort von 3 nötigen liegt vor, der Bericht kann also noch keine Ergebnisse der Kollegen zeigen. Warten Sie auf 2 weitere oder geben Sie nur die Selbsteinschätzung frei.',
    )
    await arrive(s, 2)
    const again = await germanPost(schemePath(s.scheme.id), {
      intent: 'release',
      employeeId: s.employee.id,
      kind: 'full',
    })
    expect(again.status).toBe(400)
    expect(again.text).toContain('Erst 2 Antworten von 3 nötigen liegen vor')
    expect(again.text).not.toContain('Only 2 answers')
    expect(await releasesOf(s.scheme.id, s.employee.id)).toHaveLength(0)

    // For a browser asking for a language not shipped (French), the same request is answered in English.
    const english = await send(server, schemePath(s.scheme.id), {
      form: { intent: 'release', employeeId: s.employee.id, kind: 'full' },
      cookie: adminCookie,
      headers: { 'Accept-Language': 'fr' },
    }).then(async (response) => ({ status: response.status, text: await html(response) }))
    expect(english.text).toContain('Only 2 answers of the 3 needed are in')
  })
})
