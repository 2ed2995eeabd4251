import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { assignments, auditLog, emailOutbox, responses } from '#db/schema/index'
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
import { cookiesFrom, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { openInvite, textOf } from '#tests/integration/auth/helpers'

/**
 * Answer management through the real HTTP stack: the filtered, keyset-paginated list, bad filter
 * values, one response read-only, reopen (and answering again), the CSV export and the guards.
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
  const admin = await createUser({ role: 'admin' })
  adminId = admin.id
  adminCookie = await sessionCookieFor(admin.id)
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
  test('read-only, with the answers and who answered', async () => {
    const page = await html(`${PAGE}/${world.raters[0]!.response.id}`)
    const text = textOf(page)
    expect(text).toContain('Colleague 0')
    expect(text).toContain('Sam Subject listens carefully to others.')
    expect(text).toContain('=HYPERLINK')
    expect(page).not.toMatch(/name="q-/)
  })

  test('an unknown or malformed id is a 404', async () => {
    expect((await get(`${PAGE}/00000000-0000-4000-8000-000000000000`)).status).toBe(404)
    expect((await get(`${PAGE}/not-an-id`)).status).toBe(404)
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
    const submitted = await send(server, `/assignment/${rater.assignment.id}`, {
      cookie,
      form: { intent: 'submit', section: '1', [`q-${world.question.id}`]: '5' },
    })
    expect(submitted.status).toBe(302)
    const [again] = await db().select().from(assignments).where(eq(assignments.id, rater.assignment.id))
    expect(again!.status).toBe('submitted')
    expect(textOf(await html(`${PAGE}/${rater.response.id}`))).toContain('5 — Always')
  })

  test('the employee’s self-assessment: reopened, answered again from their own session', async () => {
    const response = await reopen(world.selfResponse.id, 'Please review section one.')
    expect(response.status).toBe(302)
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.entityId, world.self.id))
    expect(mails.map((m) => m.recipient)).toEqual([world.subject.email])
    expect(mails[0]!.text).toContain(`/assignment/${world.self.id}`)
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

  test('UTF-8 with a BOM, the columns, neutralised cells, anonymous labels and no identities', async () => {
    const bytes = await exportCsv(`?scheme=${world.scheme.id}`)
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = rowsOf(bytes)
    expect(lines[0]).toBe('scheme,subject,relationship group,rater,competency,question,value,text')
    expect(lines).toHaveLength(1 + 5)
    const body = lines.slice(1).join('\n')
    expect(body).toContain(`"'=HYPERLINK(""x"")"`)
    expect(body).not.toMatch(/Colleague \d|@example\.com/)
    const labels = lines.slice(1).map((l) => l.split(',')[3])
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
    const submittedOnly = rowsOf(
      await exportCsv(`?scheme=${world.scheme.id}&relationship=peer&state=in_progress`),
    )
    expect(submittedOnly).toHaveLength(2)
    expect(labels).toContain(submittedOnly[1]!.split(',')[3])
  })

  test('identities only with the option, and that export is audited', async () => {
    const before = await db().select().from(auditLog).where(eq(auditLog.action, 'answers.export_identities'))
    expect(before).toHaveLength(0)
    const lines = rowsOf(await exportCsv(`?scheme=${world.scheme.id}&identities=1`))
    expect(lines[0]).toContain('respondent name,respondent e-mail')
    expect(lines.join('\n')).toContain(world.raters[0]!.user.email)
    const after = await db().select().from(auditLog).where(eq(auditLog.action, 'answers.export_identities'))
    expect(after).toHaveLength(1)
    expect(after[0]!.actorId).toBe(adminId)
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
