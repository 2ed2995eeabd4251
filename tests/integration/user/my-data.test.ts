import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getDb } from '#db/client'
import { auditLog, files, sessions, users } from '#db/schema/index'
import { createRaterAssignment, createResponse, createUser, enrolEmployee } from '#db/factories'
import { recordAudit } from '#app/modules/audit/audit.server'
import { addFocusArea, setCoachShare, shareReport } from '#app/modules/plan/plan.server'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { answersFor, buildReport } from '#tests/integration/journey/report-scenario'
import { allText, json, unzip } from './my-data-zip'

/**
 * An employee downloads their own data (issue 21 §4 "Access", ADR 055): a ZIP of JSON files and a
 * README, for the signed-in employee only. The world: a released report with three raters who left
 * comments (and one invited who never answered, one revoked), the employee's plan shared with the
 * coach, and the employee rating someone else. The ZIP must hold their data as their pages show it,
 * and nothing of others': no one's individual answers, no rater's identity, no secret.
 *
 * PDFs are switched off here (no Chromium at this path), so the README says they are left out;
 * my-data-pdf.test.ts prints them once.
 */
process.env.CHROMIUM_PATH = '/nonexistent/chromium-for-my-data-test'

useTestDatabase()
const server = useTestServer()

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$my-data-test-password-hash'
const OWN_SELF_NOTE = 'My own note about myself'
const GIVEN_ANSWER = 'What the employee said about Olivia, never exported'
const OTHER_RATER_ANSWER = 'What another rater said about Olivia'

const w = {
  employeeId: '',
  employeeEmail: '',
  cookie: '',
  token: '',
  rid: '',
  raterEmails: [] as string[],
  raterNames: [] as string[],
  otherId: '',
  otherEmail: '',
  otherName: '',
  otherRaterEmail: '',
  otherCookie: '',
  managerEmail: '',
}

beforeAll(async () => {
  const built = await buildReport({
    minRaters: 3,
    raters: [
      { answers: (qs) => answersFor(qs, { value: 2, comment: 'Comment one from a rater' }) },
      { answers: (qs) => answersFor(qs, { value: 3, comment: 'Comment two from a rater' }) },
      { answers: (qs) => answersFor(qs, { value: 5, comment: 'Comment three from a rater' }) },
      { noResponse: true, name: 'Ivy Invited' },
      { revoked: true, name: 'Rex Revoked', submitted: true },
    ],
    selfAnswers: (qs) => answersFor(qs, { value: 4, comment: OWN_SELF_NOTE }),
  })
  const employee = built.employee
  const manager = await createUser({
    role: 'employee',
    password: null,
    displayName: 'Morgan Manager',
    companyId: built.scheme.companyId,
  })
  w.managerEmail = manager.email
  const [photo] = await getDb()
    .insert(files)
    .values({
      mime: 'image/png',
      size: PNG.length,
      sha256: crypto.createHash('sha256').update(PNG).digest('hex'),
      bytes: PNG,
    })
    .returning()
  await getDb()
    .update(users)
    .set({
      passwordHash: PASSWORD_HASH,
      companyId: built.scheme.companyId,
      managerId: manager.id,
      photoFileId: photo!.id,
    })
    .where(eq(users.id, employee.id))
  w.employeeId = employee.id
  w.employeeEmail = employee.email
  w.rid = built.rid
  w.raterEmails = built.raters.slice(0, 3).map((r) => r.user.email)
  w.raterNames = built.raters.slice(0, 3).map((r) => r.name)

  // A plan made from the report, shared with the coach.
  const actor = { id: employee.id, ip: '203.0.113.7' }
  const added = await addFocusArea(actor, built.rid, { focus: 'category:Communication', stance: 'develop' })
  expect(added.ok).toBe(true)
  expect((await setCoachShare(actor, built.rid, true)).ok).toBe(true)
  // …and the report with the plan shared with the manager.
  expect((await shareReport(actor, built.rid, { includePlan: true })).ok).toBe(true)

  // The employee rates someone else (Olivia), and so does another colleague.
  const other = await createUser({ role: 'employee', password: null, displayName: 'Olivia Other' })
  await enrolEmployee(built.scheme, other.id)
  const given = await createRaterAssignment({
    scheme: built.scheme,
    subjectId: other.id,
    respondentId: employee.id,
    respondentName: employee.displayName,
  })
  await createResponse({
    assignmentId: given.id,
    answers: answersFor(built.qs, { value: 1, comment: GIVEN_ANSWER }),
    submitted: true,
  })
  const otherRater = await createUser({ role: 'colleague', password: null })
  const otherAssignment = await createRaterAssignment({
    scheme: built.scheme,
    subjectId: other.id,
    respondentId: otherRater.id,
  })
  await createResponse({
    assignmentId: otherAssignment.id,
    answers: answersFor(built.qs, { value: 2, comment: OTHER_RATER_ANSWER }),
    submitted: true,
  })
  w.otherId = other.id
  w.otherEmail = other.email
  w.otherName = other.displayName
  w.otherRaterEmail = otherRater.email

  // An administrator changed the employee's account; the employee approved someone else's list
  // (details naming another person's rater, which are not the employee's to export).
  const admin = await createUser({ role: 'admin', password: null })
  await recordAudit(
    getDb(),
    { id: admin.id, ip: '198.51.100.9' },
    { action: 'employee.update', entity: 'user', entityId: employee.id, details: { by: admin.email } },
  )
  await recordAudit(getDb(), actor, {
    action: 'nomination.approve',
    entity: 'scheme_member',
    entityId: other.id,
    details: { employeeId: other.id, emails: [otherRater.email] },
  })

  w.cookie = await sessionCookieFor(employee.id)
  w.token = decodeURIComponent(w.cookie.slice('__session='.length))
  w.otherCookie = await sessionCookieFor(other.id)
})

async function download(cookie: string, path = '/user/edit-profile/my-data.zip') {
  const response = await send(server, path, { cookie })
  return { response, body: Buffer.from(await response.arrayBuffer()) }
}

describe('the employee’s own data', () => {
  let entries: Map<string, Buffer>
  let response: Response

  beforeAll(async () => {
    const got = await download(w.cookie)
    response = got.response
    expect(response.status).toBe(200)
    entries = await unzip(got.body)
  })

  test('is a ZIP download named for the day, never cached, and recorded', async () => {
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const day = new Date().toISOString().slice(0, 10)
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="panorama-my-data-${day}.zip"`,
    )
    expect([...entries.keys()].sort()).toEqual([
      'README.txt',
      'account.json',
      'audit.json',
      'given-feedback.json',
      'invitations.json',
      'photo.png',
      'plans.json',
      'reports.json',
      'self-assessments.json',
    ])
    expect(entries.get('photo.png')).toEqual(PNG)
    const audits = await getDb().select().from(auditLog).where(eq(auditLog.action, 'user.data_exported'))
    expect(audits.filter((a) => a.actorId === w.employeeId)).toHaveLength(1)
    expect(audits.find((a) => a.actorId === w.employeeId)).toMatchObject({
      entity: 'user',
      entityId: w.employeeId,
      details: { reports: 1, pdfs: 0 },
    })
  })

  test('README.txt explains each file, why given answers are not in it, and that PDFs are left out', () => {
    const readme = entries.get('README.txt')!.toString('utf8')
    for (const name of [
      'account.json',
      'self-assessments.json',
      'reports.json',
      'plans.json',
      'invitations.json',
      'given-feedback.json',
      'audit.json',
    ])
      expect(readme).toContain(name)
    expect(readme).toContain(
      'what you said about\n                      a colleague is part of their anonymous report',
    )
    expect(readme).toContain('this server cannot print PDFs')
    expect(readme).toContain("An\nadministrator's own account has no such download")
  })

  test('account.json: the account, and no secret', () => {
    const account = json<Record<string, unknown>>(entries, 'account.json')
    expect(account).toMatchObject({ email: w.employeeEmail, role: 'employee', language: null })
    expect(typeof account.name).toBe('string')
    expect(account.company).toEqual(expect.any(String))
    expect(account.manager).toBe('Morgan Manager')
    expect(account.photo).toBe('photo.png')
    expect(account.createdAt).toEqual(expect.any(String))
    expect(account.lastSignInAt).toEqual(expect.any(String))
    expect(Object.keys(account).some((k) => /password|hash|secret|token|session/i.test(k))).toBe(false)
  })

  test('self-assessments.json: every question as they read it, with their answer', () => {
    const selves = json<
      {
        scheme: string
        questionnaire: string
        submittedAt: string | null
        answers: { question: string; kind: string; answer: unknown }[]
      }[]
    >(entries, 'self-assessments.json')
    expect(selves).toHaveLength(1)
    const [self] = selves
    expect(self!.submittedAt).toEqual(expect.any(String))
    expect(self!.questionnaire).toEqual(expect.any(String))
    expect(self!.answers.map((a) => a.question)).toEqual([
      'I do communication thing 1.',
      'I do communication thing 2.',
      'I do collaboration thing 3.',
      'When we disagree, I usually…',
      'My strengths are…',
      'I do leadership thing 6.',
      'What could I do differently?',
    ])
    expect(self!.answers[0]!.answer).toBe(4)
    expect(self!.answers[3]!.answer).toEqual(['Look for common ground'])
    expect(self!.answers[6]!.answer).toBe(OWN_SELF_NOTE)
  })

  test('reports.json: the released report as the page shows it: aggregates and unnamed comments', () => {
    const reports = json<
      {
        status: string
        header: Record<string, unknown>
        questions: { text: string; colleagues: { average: number | null; answered: number } }[]
        comments: { question: string; comments: string[] }[]
      }[]
    >(entries, 'reports.json')
    expect(reports).toHaveLength(1)
    const [report] = reports
    expect(report!.status).toBe('ready')
    expect(report!.header).toMatchObject({ responseId: w.rid, colleaguesSubmitted: 3 })
    expect(report!.header.brand).toBeUndefined()
    // (2 + 3 + 5) / 3
    expect(report!.questions[0]!.colleagues.average).toBeCloseTo(3.33, 2)
    expect(report!.questions[0]!.colleagues.answered).toBe(3)
    expect(report!.comments.flatMap((c) => c.comments).sort()).toEqual([
      'Comment one from a rater',
      'Comment three from a rater',
      'Comment two from a rater',
    ])
  })

  test('plans.json: the plan and whom it is shared with (the manager by name, never their address)', () => {
    const plans = json<{
      plans: { reportId: string; sharedWithCoachAt: string | null; focusAreas: { category: string }[] }[]
      reportShares: unknown[]
    }>(entries, 'plans.json')
    expect(plans.plans).toHaveLength(1)
    expect(plans.plans[0]).toMatchObject({ reportId: w.rid, sharedWithCoachAt: expect.any(String) })
    expect(plans.plans[0]!.focusAreas).toMatchObject([{ category: 'Communication', stance: 'develop' }])
    expect(plans.reportShares).toEqual([
      {
        schemeName: expect.any(String),
        reportId: w.rid,
        managerName: 'Morgan Manager',
        includesPlan: true,
        grantedAt: expect.any(String),
        revokedAt: null,
      },
    ])
  })

  test('invitations.json: whom they invited and the status their page shows, nothing answered', () => {
    const invitations = json<Record<string, unknown>[]>(entries, 'invitations.json')
    expect(invitations).toHaveLength(5)
    expect(invitations.map((i) => i.status).sort()).toEqual([
      'answered',
      'answered',
      'answered',
      'invited',
      'revoked',
    ])
    expect(invitations.find((i) => i.name === 'Ivy Invited')).toMatchObject({ status: 'invited' })
    for (const email of w.raterEmails) expect(invitations.some((i) => i.email === email)).toBe(true)
    for (const invitation of invitations)
      expect(Object.keys(invitation).sort()).toEqual([
        'email',
        'invitedAt',
        'name',
        'relationship',
        'scheme',
        'status',
      ])
  })

  test('given-feedback.json: that they gave feedback about Olivia, not what they said', () => {
    const given = json<Record<string, unknown>[]>(entries, 'given-feedback.json')
    expect(given).toHaveLength(1)
    expect(given[0]).toMatchObject({
      scheme: expect.any(String),
      about: w.otherName,
      youAreTheir: 'peer',
      status: 'given',
      submittedAt: expect.any(String),
    })
    expect(Object.keys(given[0]!).sort()).toEqual([
      'about',
      'invitedAt',
      'scheme',
      'status',
      'submittedAt',
      'youAreTheir',
    ])
  })

  test('audit.json: their own actions with their address; others’ changes by role; others’ data left out', () => {
    const audit = json<Record<string, unknown>[]>(entries, 'audit.json')
    expect(audit.find((e) => e.action === 'plan.share-coach')).toMatchObject({
      by: 'you',
      ip: '203.0.113.7',
      details: expect.any(Object),
    })
    const byAdmin = audit.find((e) => e.action === 'employee.update')
    expect(byAdmin).toEqual({ action: 'employee.update', at: expect.any(String), by: 'an administrator' })
    const approval = audit.find((e) => e.action === 'nomination.approve')
    expect(approval).toEqual({
      action: 'nomination.approve',
      at: expect.any(String),
      by: 'you',
      ip: '203.0.113.7',
    })
  })

  test('nothing of anyone else: no rater identity, no one’s answers, no secret', async () => {
    const text = allText(entries)
    for (const email of w.raterEmails) {
      // A rater's address is in the export only where the employee typed it: their invitation.
      const invitations = entries.get('invitations.json')!.toString('utf8')
      expect(text.split(email).length - 1).toBe(invitations.split(email).length - 1)
    }
    for (const name of w.raterNames) expect(entries.get('reports.json')!.toString('utf8')).not.toContain(name)
    expect(text).not.toContain(w.otherRaterEmail)
    expect(text).not.toContain(w.otherEmail)
    expect(text).not.toContain(w.managerEmail)
    expect(text).not.toContain(GIVEN_ANSWER)
    expect(text).not.toContain(OTHER_RATER_ANSWER)
    expect(text).not.toContain('198.51.100.9')
    expect(text).not.toContain(PASSWORD_HASH)
    expect(text).not.toContain('argon2')
    const [sessionId, secret] = w.token.split('.')
    expect(text).not.toContain(sessionId!)
    expect(text).not.toContain(secret!)
    const stored = await getDb().select().from(sessions).where(eq(sessions.userId, w.employeeId))
    for (const s of stored) expect(text).not.toContain(s.secretHash)
  })
})

test('the route exports only the one signed in, whatever the URL says', async () => {
  const { response, body } = await download(
    w.otherCookie,
    `/user/edit-profile/my-data.zip?user=${w.employeeId}&uid=${w.employeeId}`,
  )
  expect(response.status).toBe(200)
  const entries = await unzip(body)
  expect(json<{ email: string }>(entries, 'account.json').email).toBe(w.otherEmail)
  const text = allText(entries)
  expect(text).not.toContain(OWN_SELF_NOTE)
  expect(text).not.toContain(w.rid)
  expect(json(entries, 'reports.json')).toEqual([])
  // Olivia's own report is not released: the employee's answers about her are nowhere in hers.
  expect(text).not.toContain(GIVEN_ANSWER)
  expect(text).not.toContain(OTHER_RATER_ANSWER)
})

test('signed out, the download sends to the sign-in page; admins and colleagues go home', async () => {
  const path = '/user/edit-profile/my-data.zip'
  const anonymous = await send(server, path)
  expect(anonymous.status).toBe(302)
  expect(location(anonymous)).toBe(`/sign-in?${new URLSearchParams({ redirectTo: path })}`)
  const admin = await createUser({ role: 'admin', password: null })
  const asAdmin = await send(server, path, { cookie: await sessionCookieFor(admin.id) })
  expect(asAdmin.status).toBe(302)
  expect(location(asAdmin)).toBe('/admin')
})

test('five downloads an hour, then a page saying when to try again (429)', async () => {
  const employee = await createUser({ role: 'employee', password: null })
  const cookie = await sessionCookieFor(employee.id)
  for (let i = 0; i < 5; i++) {
    const { response } = await download(cookie)
    expect(response.status).toBe(200)
  }
  const refused = await send(server, '/user/edit-profile/my-data.zip', { cookie })
  expect(refused.status).toBe(429)
  expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(refused.headers.get('cache-control')).toBe('no-store')
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  const page = await refused.text()
  expect(page).toContain('Too many downloads')
  expect(page).toMatch(/try again in \d+ minutes?/)
  expect(page).toContain('href="/user/edit-profile"')
  const recorded = await getDb().select().from(auditLog).where(eq(auditLog.actorId, employee.id))
  expect(recorded.filter((a) => a.action === 'user.data_exported')).toHaveLength(5)
})

test('the profile page offers the download and says what is in it', async () => {
  const page = await send(server, '/user/edit-profile', { cookie: w.cookie })
  const html = await page.text()
  expect(html).toContain('Download my data')
  expect(html).toContain('href="/user/edit-profile/my-data.zip"')
  expect(html).toContain('Not included: what your colleagues answered one by one')
})
