import { parse as parseCsv } from 'csv-parse/sync'
import { and, desc, eq } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { assignments, auditLog, emailOutbox, responses } from '#db/schema/index'
import { resetEnvCache } from '#app/config/env.server'
import { checkIdentityGrant, IDENTITY_GRANT_TTL_MS } from '#app/modules/response/export.server'
import {
  createCompany,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { cookiesFrom, location, send, sessionCookieFor, signedIn, useTestServer } from '#tests/support/app'
import { openInvite, textOf } from '#tests/integration/auth/helpers'

/**
 * Answer management through the real HTTP stack: the filtered, keyset-paginated list, bad filter
 * values, one response read-only, reopen (and answering again), the CSV export and the guards; who
 * answered hidden everywhere by default, revealed only for an audited reason, never under strict
 * confidentiality (ADR 024).
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/admin/answer-management'
let adminId = ''
let adminCookie = ''
let employeeCookie = ''
let colleagueCookie = ''
let world: Awaited<ReturnType<typeof makeWorld>>

async function makeWorld() {
  const company = await createCompany({ name: 'Acme Answers' })
  const scheme = await createScheme({ companyId: company.id, name: 'Spring 360' })
  const [question] = await questionsOf(scheme.questionnaireId)
  const subject = await createUser({ role: 'employee', companyId: company.id, displayName: 'Sam Subject' })
  const self = (await enrolEmployee(scheme, subject.id))!
  const selfResponse = await createResponse({
    assignmentId: self.id,
    submitted: true,
    answers: [{ questionId: question!.id, numericValue: 4 }],
  })
  const raters = []
  for (let i = 0; i < 4; i++) {
    const rater = await createUser({
      role: 'colleague',
      displayName: `Colleague ${i}`,
      email: `rater${i}-${Date.now()}@example.com`,
    })
    const a = await createRaterAssignment({
      scheme,
      subjectId: subject.id,
      respondentId: rater.id,
      relationship: 'peer',
    })
    const r = await createResponse({
      assignmentId: a.id,
      submitted: i < 3,
      answers: [
        {
          questionId: question!.id,
          numericValue: 2 + (i % 3),
          textValue: i === 0 ? '=HYPERLINK("x")' : null,
        },
      ],
    })
    raters.push({ user: rater, assignment: a, response: r })
  }
  // A closed scheme with one submitted response.
  const closed = await createScheme({ companyId: company.id, name: 'Closed 360', status: 'closed' })
  const other = await createUser({ role: 'employee', companyId: company.id, displayName: 'Olive Other' })
  const otherSelf = (await enrolEmployee(closed, other.id))!
  const [closedQ] = await questionsOf(closed.questionnaireId)
  const closedResponse = await createResponse({
    assignmentId: otherSelf.id,
    submitted: true,
    answers: [{ questionId: closedQ!.id, numericValue: 5 }],
  })
  return { company, scheme, question: question!, subject, self, selfResponse, raters, closed, closedResponse }
}

beforeAll(async () => {
  const admin = await signedIn({ role: 'admin', displayName: 'Ada Admin' })
  adminId = admin.user.id
  adminCookie = admin.cookie
  world = await makeWorld()
  employeeCookie = await sessionCookieFor(world.subject.id)
  colleagueCookie = await sessionCookieFor(world.raters[0]!.user.id)
})

const get = (path: string, cookie: string | null = adminCookie) => send(server, path, { cookie })
const html = async (path: string) => {
  const response = await get(path)
  expect(response.status).toBe(200)
  return response.text()
}
/** Strict confidentiality on for the rest of a test (the server and this process read the env). */
function strictConfidentiality(on: boolean) {
  if (on) process.env.STRICT_CONFIDENTIALITY = 'true'
  else delete process.env.STRICT_CONFIDENTIALITY
  server.build!.resetEnvCache()
  resetEnvCache()
}
afterEach(() => strictConfidentiality(false))

/** Everything that could tie a colleague's response to them: names, addresses, user and assignment ids. */
const ratersTraces = () =>
  world.raters.flatMap((r) => [r.user.displayName!, r.user.email, r.user.id, r.assignment.id])
const expectNoRaterTraces = (body: string, where: string) => {
  for (const trace of ratersTraces()) expect(body, `${where} holds ${trace}`).not.toContain(trace)
}

const listed = (page: string) =>
  [...page.matchAll(/href="\/admin\/answer-management\/([0-9a-f-]{36})"/g)].map((m) => m[1]!)
const nextLink = (page: string) =>
  /<a[^>]*rel="next"[^>]*href="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&') ?? null

describe('the list', () => {
  test('shows every response, the respondent as a relationship only', async () => {
    const page = await html(PAGE)
    expect(listed(page)).toHaveLength(6)
    expect(page).toContain('Sam Subject')
    expect(page).not.toContain('Colleague 0')
    expect(textOf(page)).toContain('Peer')
  })

  test('filters by scheme, relationship, state, subject and company', async () => {
    expect(listed(await html(`${PAGE}?scheme=${world.scheme.id}`))).toHaveLength(5)
    expect(listed(await html(`${PAGE}?relationship=self`))).toHaveLength(2)
    expect(listed(await html(`${PAGE}?state=in_progress`))).toEqual([world.raters[3]!.response.id])
    expect(listed(await html(`${PAGE}?q=olive`))).toEqual([world.closedResponse.id])
    expect(
      listed(await html(`${PAGE}?company=${world.company.id}&relationship=peer&state=submitted`)),
    ).toHaveLength(3)
    expect(listed(await html(`${PAGE}?questionnaire=${world.closed.questionnaireId}`))).toEqual([
      world.closedResponse.id,
    ])
  })

  test('neither the page nor its data carries a respondent’s name, e-mail, user or assignment id', async () => {
    for (const path of [PAGE, `${PAGE}?scheme=${world.scheme.id}`, `${PAGE}?relationship=peer`]) {
      expectNoRaterTraces(await html(path), path)
      const data = await get(path.replace(PAGE, `${PAGE}.data`))
      expect(data.status).toBe(200)
      expectNoRaterTraces(await data.text(), `${path} (.data)`)
    }
    // Days, not instants: the start of a response is not in the rows (ADR 024).
    const data = await (await get(`${PAGE}.data?scheme=${world.scheme.id}`)).text()
    const [row] = await db().select().from(responses).where(eq(responses.id, world.raters[0]!.response.id))
    expect(data).not.toContain(row!.startedAt.toISOString())
    expect(data).not.toContain(row!.submittedAt!.toISOString())
  })

  test('bad filter values get a clear message, not a 500', async () => {
    for (const bad of [
      'scheme=nope',
      'state=archived',
      'relationship=boss',
      'sort=sideways',
      'company=%00',
      'after=garbage',
    ]) {
      const response = await get(`${PAGE}?${bad}`)
      expect(response.status, bad).toBe(200)
      const text = textOf(await response.text())
      expect(text, bad).toMatch(/was not understood, so it is not applied|page link is out of date/)
    }
  })

  test('keyset pages walk every response once', async () => {
    // 30 more in-progress responses so there are two pages.
    const extra = await createScheme({ companyId: world.company.id, name: 'Paged 360' })
    for (let i = 0; i < 30; i++) {
      const e = await createUser({ role: 'employee', companyId: world.company.id })
      const a = (await enrolEmployee(extra, e.id))!
      await createResponse({ assignmentId: a.id })
    }
    const first = await html(`${PAGE}?scheme=${extra.id}`)
    const seen = listed(first)
    expect(seen).toHaveLength(25)
    const second = await html(nextLink(first)!)
    seen.push(...listed(second))
    expect(new Set(seen).size).toBe(30)
    expect(nextLink(second)).toBeNull()
  })
})

describe('one response', () => {
  test('read-only, with the answers; who answered is in neither the page nor its data', async () => {
    const rater = world.raters[0]!
    const page = await html(`${PAGE}/${rater.response.id}`)
    const text = textOf(page)
    expect(text).toContain('Sam Subject listens carefully to others.')
    expect(text).toContain('=HYPERLINK')
    expect(text).toContain('Not shown: a colleague’s answers are read without their name.')
    expect(page).not.toMatch(/name="q-/)
    expectNoRaterTraces(page, 'the page')
    const data = await get(`${PAGE}/${rater.response.id}.data`)
    expect(data.status).toBe(200)
    const body = await data.text()
    expectNoRaterTraces(body, 'the .data')
    expect(body).toContain('Sam Subject listens carefully to others.')
    // Dates to the day: no instant that another page could match (the dashboard, the outbox).
    const [row] = await db().select().from(responses).where(eq(responses.id, rater.response.id))
    for (const instant of [row!.startedAt, row!.submittedAt!, row!.updatedAt])
      expect(page + body).not.toContain(instant.toISOString())
    expect(text).toMatch(/Submitted\s*\d{1,2} \w+ \d{4}/)
  })

  test('a self-assessment names the person it is about, with nothing to reveal', async () => {
    const page = await html(`${PAGE}/${world.selfResponse.id}`)
    expect(textOf(page)).toContain('Sam Subject (their self-assessment)')
    expect(textOf(page)).not.toContain('Reveal who answered')
  })

  test('an unknown or malformed id is a 404', async () => {
    expect((await get(`${PAGE}/00000000-0000-4000-8000-000000000000`)).status).toBe(404)
    expect((await get(`${PAGE}/not-an-id`)).status).toBe(404)
  })
})

describe('who answered (ADR 024)', () => {
  const reveal = (responseId: string, reason: string) =>
    send(server, `${PAGE}/${responseId}`, { cookie: adminCookie, form: { intent: 'reveal', reason } })
  const revealAudits = () => db().select().from(auditLog).where(eq(auditLog.action, 'response.reveal'))

  test('revealing needs a reason of some length; without one nothing is shown or recorded', async () => {
    const rater = world.raters[2]!
    for (const [reason, message] of [
      ['   ', 'Say why you need to know who answered'],
      ['curious', 'at least 10 characters'],
      ['x'.repeat(501), '500 characters or fewer'],
    ] as const) {
      const response = await reveal(rater.response.id, reason)
      expect(response.status).toBe(400)
      const body = await response.text()
      expect(textOf(body)).toContain(message)
      expectNoRaterTraces(body, 'a refused reveal')
    }
    expect(await revealAudits()).toHaveLength(0)
  })

  test('with a reason: audited, shown in that reply only, and on the dashboard’s activity', async () => {
    const rater = world.raters[2]!
    const response = await reveal(rater.response.id, 'Complaint about a comment, case HR-42')
    expect(response.status).toBe(200)
    const text = textOf(await response.text())
    expect(text).toContain(`${rater.user.displayName} (${rater.user.email})`)
    const audits = await revealAudits()
    expect(audits).toHaveLength(1)
    expect(audits[0]).toMatchObject({ actorId: adminId, entity: 'response', entityId: rater.response.id })
    expect(audits[0]!.details).toMatchObject({
      reason: 'Complaint about a comment, case HR-42',
      schemeName: 'Spring 360',
    })
    // The log records what was looked at and why, not whom it showed.
    expect(JSON.stringify(audits[0]!.details)).not.toContain(rater.user.id)

    // Not a setting: the page, read again, does not show it.
    expectNoRaterTraces(await html(`${PAGE}/${rater.response.id}`), 'the page after a reveal')
    const dashboard = textOf(await html('/admin'))
    expect(dashboard).toContain(
      'Ada Admin revealed who answered a response in Spring 360: “Complaint about a comment, case HR-42”',
    )
  })

  test('a self-assessment has nobody to reveal: refused, nothing recorded', async () => {
    const before = (await revealAudits()).length
    const response = await reveal(world.selfResponse.id, 'Checking who answered this one')
    expect(response.status).toBe(400)
    expect(textOf(await response.text())).toContain('there is nobody to reveal')
    expect(await revealAudits()).toHaveLength(before)
  })

  test('the dashboard tells a colleague’s submission without their name', async () => {
    const rater = world.raters[2]!
    await db()
      .insert(auditLog)
      .values({
        actorId: rater.user.id,
        action: 'assignment.submit',
        entity: 'assignment',
        entityId: rater.assignment.id,
        details: { responseId: rater.response.id, relationship: 'peer', answers: 1 },
      })
    const page = await html('/admin')
    expect(textOf(page)).toContain('A colleague submitted feedback')
    expectNoRaterTraces(page, 'the dashboard')
    expectNoRaterTraces(await (await get('/admin.data')).text(), 'the dashboard’s .data')
  })

  test('strict confidentiality: no reveal form, a forged reveal or export with names is refused', async () => {
    const rater = world.raters[2]!
    // A grant made before the setting changed must not work after it either.
    const granted = await send(server, PAGE, {
      cookie: adminCookie,
      form: { intent: 'export-identities', reason: 'Made before strict mode', scheme: world.scheme.id },
    })
    expect(granted.status).toBe(302)
    const before = (await revealAudits()).length
    strictConfidentiality(true)

    const page = await html(`${PAGE}/${rater.response.id}`)
    expect(textOf(page)).toContain('Strict confidentiality is on for this installation')
    expect(textOf(page)).not.toContain('Reveal who answered')
    const forged = await reveal(rater.response.id, 'Complaint about a comment, case HR-43')
    expect(forged.status).toBe(400)
    const body = await forged.text()
    expect(textOf(body)).toContain('Strict confidentiality is on for this installation')
    expectNoRaterTraces(body, 'a forged reveal')
    expect(await revealAudits()).toHaveLength(before)

    const list = await html(PAGE)
    expect(textOf(list)).not.toContain('Download CSV with names')
    expect(textOf(list)).toContain('The export never holds names.')
    const exportAudits = () =>
      db().select().from(auditLog).where(eq(auditLog.action, 'answers.export_identities'))
    const exportsBefore = (await exportAudits()).length
    const forgedExport = await send(server, PAGE, {
      cookie: adminCookie,
      form: {
        intent: 'export-identities',
        reason: 'Subject access request from HR',
        scheme: world.scheme.id,
      },
    })
    expect(forgedExport.status).toBe(400)
    expect(textOf(await forgedExport.text())).toContain('Strict confidentiality is on')
    expect(await exportAudits()).toHaveLength(exportsBefore)
    const oldGrant = await get(location(granted)!)
    expect(oldGrant.status).toBe(400)
    expect(await oldGrant.text()).toContain('Strict confidentiality is on')
  })
})

describe('reopen', () => {
  const reopen = (responseId: string, reason: string) =>
    send(server, `${PAGE}/${responseId}`, { cookie: adminCookie, form: { intent: 'reopen', reason } })

  test('needs a reason', async () => {
    const response = await reopen(world.raters[1]!.response.id, '   ')
    expect(response.status).toBe(400)
    expect(textOf(await response.text())).toContain('Say why the answers are reopened')
    const long = await reopen(world.raters[1]!.response.id, 'x'.repeat(1001))
    expect(long.status).toBe(400)
  })

  test('refused for a response not submitted, and when the scheme is closed', async () => {
    const notSubmitted = await reopen(world.raters[3]!.response.id, 'Please check')
    expect(notSubmitted.status).toBe(400)
    expect(textOf(await notSubmitted.text())).toContain('Only submitted answers can be reopened')
    const closed = await reopen(world.closedResponse.id, 'Please check')
    expect(closed.status).toBe(400)
    expect(textOf(await closed.text())).toContain('only while their scheme is open')
    const [row] = await db().select().from(responses).where(eq(responses.id, world.closedResponse.id))
    expect(row!.submittedAt).not.toBeNull()
  })

  test('a colleague: back in progress, told by e-mail with a fresh link, audited; answers and submits again', async () => {
    const rater = world.raters[1]!
    const response = await reopen(rater.response.id, 'Your comment was cut short; please look again.')
    expect(response.status).toBe(302)
    // The server found the address itself: the page the admin lands on (and its toast) names nobody.
    const landing = await get(location(response)!, cookiesFrom(response, adminCookie))
    const landed = await landing.text()
    expect(textOf(landed)).toContain('The respondent was told by e-mail')
    expectNoRaterTraces(landed, 'the page after a reopen')
    const [stored] = await db().select().from(responses).where(eq(responses.id, rater.response.id))
    expect(stored!.reopenReason).toBe('Your comment was cut short; please look again.')
    const [r] = await db().select().from(responses).where(eq(responses.id, rater.response.id))
    expect(r!.submittedAt).toBeNull()
    expect(r!.reopenedAt).not.toBeNull()
    const [a] = await db().select().from(assignments).where(eq(assignments.id, rater.assignment.id))
    expect(a!.status).toBe('in_progress')
    expect(textOf(await html(`${PAGE}/${rater.response.id}`))).toContain('Reopened')

    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.templateKey, 'response_reopened'))
    expect(mails.map((m) => m.recipient)).toEqual([rater.user.email])
    expect(mails[0]!.text).toContain('Your comment was cut short')
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'response.reopen'), eq(auditLog.entityId, rater.response.id)))
    expect(audit).toHaveLength(1)
    expect(audit[0]!.actorId).toBe(adminId)
    expect((audit[0]!.details as { reason: string }).reason).toContain('cut short')

    // The fresh link signs the colleague in; they answer and submit again.
    const link = /(\/verification\?mode=invite&code=[\w-]+)/.exec(mails[0]!.text)![1]!
    const opened = await openInvite(server, link)
    expect(opened.status).toBe(302)
    const cookie = cookiesFrom(opened)
    // The reopened questionnaire and its introduction say why.
    const notice =
      'Your administrator reopened your answers: “Your comment was cut short; please look again.”. Change what you need and submit again.'
    const answering = await send(server, `/assignment/${rater.assignment.id}`, { cookie })
    expect(answering.status).toBe(200)
    expect(textOf(await answering.text())).toContain(notice)
    const intro = await send(
      server,
      `/questionnaire/${world.scheme.questionnaireId}?assignment=${rater.assignment.id}`,
      { cookie },
    )
    expect(intro.status).toBe(200)
    expect(textOf(await intro.text())).toContain(notice)
    const submitted = await send(server, `/assignment/${rater.assignment.id}`, {
      cookie,
      form: { intent: 'submit', section: '1', [`q-${world.question.id}`]: '5' },
    })
    expect(submitted.status).toBe(302)
    const [again] = await db().select().from(assignments).where(eq(assignments.id, rater.assignment.id))
    expect(again!.status).toBe('submitted')
    // Submitted again: the reason belonged to that round, and goes.
    const [cleared] = await db().select().from(responses).where(eq(responses.id, rater.response.id))
    expect(cleared!.reopenReason).toBeNull()
    expect(textOf(await html(`${PAGE}/${rater.response.id}`))).toContain('5 — Always')
  })

  test('the employee’s self-assessment: reopened, answered again from their own session', async () => {
    const response = await reopen(world.selfResponse.id, 'Please review section one.')
    expect(response.status).toBe(302)
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.entityId, world.self.id))
    expect(mails.map((m) => m.recipient)).toEqual([world.subject.email])
    expect(mails[0]!.text).toContain(`/assignment/${world.self.id}`)
    const answering = await send(server, `/assignment/${world.self.id}`, { cookie: employeeCookie })
    expect(textOf(await answering.text())).toContain(
      'Your administrator reopened your answers: “Please review section one.”.',
    )
    const submitted = await send(server, `/assignment/${world.self.id}`, {
      cookie: employeeCookie,
      form: { intent: 'submit', section: '1', [`q-${world.question.id}`]: '3' },
    })
    expect(submitted.status).toBe(302)
    const [r] = await db().select().from(responses).where(eq(responses.id, world.selfResponse.id))
    expect(r!.submittedAt).not.toBeNull()
  })
})

describe('the export', () => {
  const exportCsv = async (query = '') => {
    const response = await get(`${PAGE}/export.csv${query}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/csv')
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="answers-.*\.csv"/)
    return new Uint8Array(await response.arrayBuffer())
  }
  const rowsOf = (bytes: Uint8Array) =>
    new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).trim().split('\r\n')

  const recordsOf = (bytes: Uint8Array) =>
    parseCsv(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1), {
      columns: true,
    }) as Record<string, string>[]

  test('UTF-8 with a BOM, the columns, neutralised cells, anonymous labels and no identities', async () => {
    const bytes = await exportCsv(`?scheme=${world.scheme.id}`)
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = rowsOf(bytes)
    expect(lines[0]).toBe(
      'scheme,subject,subject id,subject e-mail,relationship group,rater,submitted on,question key,section,competency,question,kind,scale min,scale max,value,value label,text',
    )
    expect(lines).toHaveLength(1 + 5)
    const body = lines.slice(1).join('\n')
    expect(body).toContain(`"'=HYPERLINK(""x"")"`)
    expect(body).not.toMatch(/Colleague \d|rater\d-\d+@example\.com/)
    expectNoRaterTraces(body, 'the export')
    const labels = recordsOf(bytes).map((r) => r.rater)
    expect(labels.filter((l) => l === 'Self')).toHaveLength(1)
    expect(labels.filter((l) => l?.startsWith('Peer ')).sort()).toEqual([
      'Peer 1',
      'Peer 2',
      'Peer 3',
      'Peer 4',
    ])
    // Stable: a filter does not renumber anyone.
    const again = rowsOf(await exportCsv(`?scheme=${world.scheme.id}`)).join('\n')
    expect(again).toBe(lines.join('\n'))
    const submittedOnly = recordsOf(
      await exportCsv(`?scheme=${world.scheme.id}&relationship=peer&state=in_progress`),
    )
    expect(submittedOnly).toHaveLength(1)
    expect(labels).toContain(submittedOnly[0]!.rater)
  })

  test('one key and one wording per question, its section, kind and scale, the day, the subject’s id and e-mail', async () => {
    const records = recordsOf(await exportCsv(`?scheme=${world.scheme.id}`))
    const self = records.find((r) => r.rater === 'Self')!
    const peer = records.find((r) => r.text === `'=HYPERLINK("x")`)!
    for (const r of [self, peer]) {
      expect(r['question key']).toBe(world.question.id)
      expect(r.question).toBe('I listen carefully to others.')
      expect(r.section).toBe('Working together')
      expect(r.competency).toBe('Communication')
      expect(r.kind).toBe('scale')
      expect([r['scale min'], r['scale max']]).toEqual(['1', '5'])
      expect(r.subject).toBe('Sam Subject')
      expect(r['subject id']).toBe(world.subject.id)
      expect(r['subject e-mail']).toBe(world.subject.email)
      expect(r['submitted on']).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
    expect([self.value, self['value label']]).toEqual(['3', 'Sometimes'])
    expect([peer.value, peer['value label']]).toEqual(['2', 'Rarely'])
    const inProgress = records.find((r) => r.rater.startsWith('Peer') && r['submitted on'] === '')
    expect(inProgress).toBeDefined()
    // Every row of one question has the same key and wording, whoever answered it.
    expect(new Set(records.map((r) => `${r['question key']}|${r.question}`)).size).toBe(1)
  })

  test('the old identities switch gives no names: a 400 that says to export again with a reason', async () => {
    const response = await get(`${PAGE}/export.csv?scheme=${world.scheme.id}&identities=1`)
    expect(response.status).toBe(400)
    const text = await response.text()
    expect(text).toContain('Export again from answer management, with your reason.')
    expectNoRaterTraces(text, 'the refusal')
  })

  test('names only for a reason: audited, then a download link for this admin and these filters only', async () => {
    const exportWithNames = (reason: string, filters: Record<string, string> = { scheme: world.scheme.id }) =>
      send(server, PAGE, {
        cookie: adminCookie,
        form: { intent: 'export-identities', reason, ...filters },
      })
    const audits = () =>
      db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'answers.export_identities'), eq(auditLog.actorId, adminId)))
        .orderBy(desc(auditLog.at))
    const before = (await audits()).length
    for (const reason of ['', 'short']) {
      const refused = await exportWithNames(reason)
      expect(refused.status).toBe(400)
      expect(textOf(await refused.text())).toMatch(
        /Say why you need to know who answered|at least 10 characters/,
      )
    }
    const badFilter = await exportWithNames('Subject access request from HR', { state: 'nope' })
    expect(badFilter.status).toBe(400)
    expect(await audits()).toHaveLength(before)

    const granted = await exportWithNames('Subject access request from HR')
    expect(granted.status).toBe(302)
    const href = location(granted)!
    expect(href).toMatch(
      /^\/admin\/answer-management\/export\.csv\?scheme=[0-9a-f-]{36}&identities=\d+\.[\w-]{43}$/,
    )
    const [audit, ...older] = await audits()
    expect(older).toHaveLength(before)
    expect(audit!.details).toMatchObject({
      reason: 'Subject access request from HR',
      filter: { scheme: world.scheme.id },
    })

    const download = await get(href)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toContain('-with-identities.csv')
    const lines = rowsOf(new Uint8Array(await download.arrayBuffer()))
    expect(lines[0]).toMatch(/,respondent name,respondent e-mail$/)
    expect(lines.join('\n')).toContain(world.raters[0]!.user.email)

    // Another admin, other filters, a forged or expired grant: no names.
    const other = await sessionCookieFor((await createUser({ role: 'admin' })).id)
    expect((await get(href, other)).status).toBe(400)
    expect((await get(href.replace(/scheme=[^&]+/, `scheme=${world.closed.id}`))).status).toBe(400)
    expect((await get(href.replace(/\.[\w-]{43}$/, `.${'A'.repeat(43)}`))).status).toBe(400)
    const grant = new URL(href, 'http://x').searchParams.get('identities')!
    const filter = {
      q: '',
      scheme: world.scheme.id,
      company: '',
      questionnaire: '',
      relationship: '',
      state: '',
    } as const
    expect(checkIdentityGrant(adminId, filter, grant)).toBe(true)
    expect(checkIdentityGrant(adminId, filter, grant, Date.now() + IDENTITY_GRANT_TTL_MS + 1)).toBe(false)
  })

  test('bad filter values are a 400 with a message', async () => {
    const response = await get(`${PAGE}/export.csv?state=nope`)
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('not understood')
  })
})

describe('guards', () => {
  test('employee, colleague and anonymous get no data', async () => {
    const paths = [
      PAGE,
      `${PAGE}/${world.selfResponse.id}`,
      `${PAGE}/export.csv`,
      `${PAGE}/export.csv?identities=1`,
    ]
    for (const cookie of [employeeCookie, colleagueCookie, null]) {
      for (const path of paths) {
        const response = await get(path, cookie)
        expect([302, 303, 403, 404], path).toContain(response.status)
        const body = await response.text()
        expect(body).not.toContain('Sam Subject')
        expect(body).not.toContain('respondent')
      }
    }
    const post = await send(server, `${PAGE}/${world.raters[2]!.response.id}`, {
      cookie: employeeCookie,
      form: { intent: 'reopen', reason: 'x' },
    })
    expect([302, 303, 403, 404]).toContain(post.status)
    const [r] = await db().select().from(responses).where(eq(responses.id, world.raters[2]!.response.id))
    expect(r!.submittedAt).not.toBeNull()
  })
})
