import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { assignments, auditLog, emailOutbox, responses } from '#db/schema/index'
import { getDb } from '#db/client'
import { createActionCode } from '#app/modules/action-code/action-code.server'
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
import { textOf } from '#tests/integration/auth/helpers'

/**
 * Reopen requests (issue 18 §5, ADR 039) through the real HTTP stack: a respondent who submitted asks
 * from the thank-you page ("I need to change my answers"); every refusal (not theirs, not submitted,
 * closed, a note too long, asked already, too many requests); the admins' list without who answered;
 * one-click reopen and decline, each clearing the request, audited; what the respondent sees after.
 */
const db = useTestDatabase()
const server = useTestServer()

const THANKS = '/user/thank-you'
const LIST = '/admin/answer-management/reopen-requests'

let adminId = ''
let adminCookie = ''
let world: Awaited<ReturnType<typeof makeWorld>>

type Rater = {
  user: { id: string; email: string; displayName: string | null }
  assignmentId: string
  responseId: string
  cookie: string
}

async function makeWorld() {
  const company = await createCompany({ name: 'Acme Requests' })
  const scheme = await createScheme({ companyId: company.id, name: 'Autumn 360' })
  const [question] = await questionsOf(scheme.questionnaireId)
  const subject = await createUser({ role: 'employee', companyId: company.id, displayName: 'Sam Subject' })
  const self = (await enrolEmployee(scheme, subject.id))!
  const selfResponse = await createResponse({
    assignmentId: self.id,
    submitted: true,
    answers: [{ questionId: question!.id, numericValue: 4 }],
  })

  async function rater(
    name: string,
    options: { submitted?: boolean; on?: typeof scheme; relationship?: 'peer' | 'manager' } = {},
  ): Promise<Rater> {
    const on = options.on ?? scheme
    const user = await createUser({
      role: 'colleague',
      displayName: name,
      email: `${name.toLowerCase().replaceAll(' ', '.')}-${Date.now()}@example.com`,
    })
    const a = await createRaterAssignment({
      scheme: on,
      subjectId: subject.id,
      respondentId: user.id,
      relationship: options.relationship ?? 'peer',
    })
    const [q] = await questionsOf(on.questionnaireId)
    const r = await createResponse({
      assignmentId: a.id,
      submitted: options.submitted ?? true,
      answers: [{ questionId: q!.id, numericValue: 3 }],
    })
    return { user, assignmentId: a.id, responseId: r.id, cookie: await sessionCookieFor(user.id) }
  }

  const asker = await rater('Paula Peer')
  const approved = await rater('Manny Manager', { relationship: 'manager' })
  const declined = await rater('Dora Decline')
  const unfinished = await rater('Ivy Inprogress', { submitted: false })
  const closedScheme = await createScheme({ companyId: company.id, name: 'Closed 360', status: 'closed' })
  const closedRater = await rater('Cleo Closed', { on: closedScheme })
  // A round ended early by the subject's report release (assignments.closed_at, ADR 022).
  const ended = await rater('Ernie Ended')
  await db().update(assignments).set({ closedAt: new Date() }).where(eq(assignments.id, ended.assignmentId))
  const stranger = await signedIn({ role: 'colleague', displayName: 'Stan Stranger' })
  return {
    company,
    scheme,
    question: question!,
    subject,
    self,
    selfResponse,
    asker,
    approved,
    declined,
    unfinished,
    closedRater,
    ended,
    stranger,
    subjectCookie: await sessionCookieFor(subject.id),
  }
}

beforeAll(async () => {
  const admin = await signedIn({ role: 'admin', displayName: 'Ada Admin' })
  adminId = admin.user.id
  adminCookie = admin.cookie
  world = await makeWorld()
})

const ask = (who: { cookie: string }, assignmentId: string, note?: string) =>
  send(server, `${THANKS}?assignment=${assignmentId}`, {
    cookie: who.cookie,
    form: { intent: 'request-reopen', assignmentId, ...(note === undefined ? {} : { note }) },
  })
const page = async (path: string, cookie: string) => {
  const response = await send(server, path, { cookie })
  expect(response.status, path).toBe(200)
  return response.text()
}
const responseRow = async (id: string) =>
  (await db().select().from(responses).where(eq(responses.id, id)))[0]!
const auditOf = (action: string, entityId: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))

/** Everything that could tie a colleague's response to them: names, addresses, user and assignment ids. */
const raterTraces = () =>
  [world.asker, world.approved, world.declined].flatMap((r) => [
    r.user.displayName!,
    r.user.email,
    r.user.id,
    r.assignmentId,
  ])

describe('the respondent asks', () => {
  test('the thank-you page offers it for submitted answers while the round is open, and only then', async () => {
    const offered = textOf(await page(`${THANKS}?assignment=${world.asker.assignmentId}`, world.asker.cookie))
    expect(offered).toContain('I need to change my answers')
    expect(offered).toContain('Ask to change my answers')
    for (const r of [world.unfinished, world.closedRater, world.ended]) {
      const text = textOf(await page(`${THANKS}?assignment=${r.assignmentId}`, r.cookie))
      expect(text, r.user.displayName!).not.toContain('Ask to change my answers')
    }
    // The employee's own self-assessment too.
    expect(textOf(await page(THANKS, world.subjectCookie))).toContain('Ask to change my answers')
  })

  test('somebody else’s assignment, or one that does not exist, is the not-found page', async () => {
    const notTheirs = await ask(world.stranger, world.asker.assignmentId)
    expect(notTheirs.status).toBe(404)
    const unknown = await ask(world.asker, '00000000-0000-4000-8000-000000000000')
    expect(unknown.status).toBe(404)
    // A subject cannot ask on behalf of a colleague who rated them.
    const subject = await ask({ cookie: world.subjectCookie }, world.asker.assignmentId)
    expect(subject.status).toBe(404)
    expect((await responseRow(world.asker.responseId)).reopenRequestedAt).toBeNull()
  })

  test('bad input gets a clear message, never a 500', async () => {
    const malformed = await ask(world.asker, 'not-an-id')
    expect(malformed.status).toBe(400)
    expect(textOf(await malformed.text())).toContain('This request could not be identified')
    const long = await ask(world.asker, world.asker.assignmentId, 'x'.repeat(501))
    expect(long.status).toBe(400)
    expect(textOf(await long.text())).toContain('Your note must be 500 characters or fewer.')
    const nul = await ask(world.asker, world.asker.assignmentId, 'a\u0000b')
    expect(nul.status).toBe(400)
    const noIntent = await send(server, THANKS, { cookie: world.asker.cookie, form: { note: 'x' } })
    expect(noIntent.status).toBe(400)
    expect((await responseRow(world.asker.responseId)).reopenRequestedAt).toBeNull()
  })

  test('refused for answers not submitted, a closed scheme and a round ended by a release', async () => {
    const notSubmitted = await ask(world.unfinished, world.unfinished.assignmentId)
    expect(notSubmitted.status).toBe(400)
    expect(textOf(await notSubmitted.text())).toContain('Only submitted answers can be reopened')
    for (const r of [world.closedRater, world.ended]) {
      const closed = await ask(r, r.assignmentId)
      expect(closed.status, r.user.displayName!).toBe(400)
      expect(textOf(await closed.text())).toContain('no longer open for answers')
      expect((await responseRow(r.responseId)).reopenRequestedAt).toBeNull()
    }
  })

  test('sent: stored with the trimmed note, audited, "sent" on every visit; asking again says it is with the team', async () => {
    const sent = await ask(
      world.asker,
      world.asker.assignmentId,
      '  I rated the wrong person in section 2.  ',
    )
    expect(sent.status).toBe(302)
    expect(location(sent)).toBe(`${THANKS}?assignment=${world.asker.assignmentId}`)
    const row = await responseRow(world.asker.responseId)
    expect(row.reopenRequestedAt).not.toBeNull()
    expect(row.reopenRequestNote).toBe('I rated the wrong person in section 2.')
    expect(row.submittedAt).not.toBeNull()
    const audit = await auditOf('response.reopen_request', world.asker.responseId)
    expect(audit).toHaveLength(1)
    expect(audit[0]!.actorId).toBe(world.asker.user.id)
    expect(audit[0]!.details).toMatchObject({
      relationship: 'peer',
      note: 'I rated the wrong person in section 2.',
    })

    const reloaded = textOf(
      await page(`${THANKS}?assignment=${world.asker.assignmentId}`, world.asker.cookie),
    )
    expect(reloaded).toContain('Your request has been sent.')
    expect(reloaded).not.toContain('Ask to change my answers')

    const again = await ask(world.asker, world.asker.assignmentId, 'Please!')
    expect(again.status).toBe(400)
    expect(textOf(await again.text())).toContain('your request is with the programme team')
    expect((await responseRow(world.asker.responseId)).reopenRequestNote).toBe(
      'I rated the wrong person in section 2.',
    )
  })

  test('rate limited: the sixth request within the hour is answered 429 with Retry-After', async () => {
    const busy = await signedIn({ role: 'colleague', displayName: 'Busy Bee' })
    const statuses = []
    for (let i = 0; i < 6; i++) {
      // Each post counts, whatever its answer (here: an assignment that is not theirs).
      statuses.push((await ask(busy, world.unfinished.assignmentId)).status)
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429])
    const limited = await ask(busy, world.unfinished.assignmentId)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(textOf(await limited.text())).toContain('Please wait')
  })

  test('the submitted answers page links to it; a used invite link does for its own respondent only', async () => {
    const answers = await page(`/assignment/${world.declined.assignmentId}`, world.declined.cookie)
    expect(answers).toContain(`/user/thank-you?assignment=${world.declined.assignmentId}#change-answers`)
    const closed = await page(`/assignment/${world.closedRater.assignmentId}`, world.closedRater.cookie)
    expect(textOf(closed)).not.toContain('I need to change my answers')

    const { code } = await getDb().transaction((tx) =>
      createActionCode(tx, {
        kind: 'colleague_invite',
        userId: world.declined.user.id,
        assignmentId: world.declined.assignmentId,
      }),
    )
    const link = `/verification?mode=invite&code=${code}`
    const mine = await send(server, link, { cookie: world.declined.cookie })
    expect(mine.status).toBe(410)
    const mineText = textOf(await mine.text())
    expect(mineText).toContain('Your feedback is in')
    expect(mineText).toContain('I need to change my answers')
    for (const cookie of [null, world.stranger.cookie]) {
      const other = await send(server, link, { cookie })
      expect(other.status).toBe(410)
      const body = await other.text()
      expect(textOf(body)).toContain('Your feedback is in')
      // The page's words (ADR 050) travel in its data block whether shown or not: the link is what
      // must be absent — its words from the page's text, its address (the assignment) from the HTML.
      expect(textOf(body)).not.toContain('I need to change my answers')
      expect(body).not.toContain(world.declined.assignmentId)
    }
  })
})

describe('the admins', () => {
  beforeAll(async () => {
    for (const r of [world.approved, world.declined]) {
      const sent = await ask(r, r.assignmentId, r === world.approved ? 'Wrong scale on Q1' : undefined)
      expect(sent.status).toBe(302)
    }
  })

  test('the list shows each waiting request, newest first, without who answered (page and data)', async () => {
    const html = await page(LIST, adminCookie)
    const text = textOf(html)
    expect(text).toContain('A manager’s feedback about Sam Subject')
    expect(text).toContain('“Wrong scale on Q1”')
    expect(text).toContain('No note.')
    const order = [world.declined, world.approved, world.asker].map((r) =>
      html.indexOf(`/admin/answer-management/${r.responseId}"`),
    )
    expect(order.every((i) => i > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    for (const body of [html, await (await send(server, `${LIST}.data`, { cookie: adminCookie })).text()])
      for (const trace of raterTraces()) expect(body).not.toContain(trace)
    // Days, not instants (ADR 024).
    const row = await responseRow(world.approved.responseId)
    expect(html).not.toContain(row.reopenRequestedAt!.toISOString())
    // Answer management links to it with the count; the response's own page shows the request.
    expect(textOf(await page('/admin/answer-management', adminCookie))).toContain(
      '3 reopen requests are waiting',
    )
    const one = textOf(await page(`/admin/answer-management/${world.approved.responseId}`, adminCookie))
    expect(one).toContain('The respondent asked to change these answers')
    expect(one).toContain('Wrong scale on Q1')
  })

  test('the dashboard tells of a colleague’s request without naming them', async () => {
    const html = await page('/admin', adminCookie)
    const text = textOf(html)
    expect(text).toContain('A colleague asked for their answers to be reopened')
    // …and counts the waiting requests, a way into their list.
    expect(text).toContain('Reopen requests 3')
    expect(html).toContain('href="/admin/answer-management/reopen-requests"')
    for (const r of [world.asker, world.approved, world.declined])
      expect(text).not.toContain(r.user.displayName!)
  })

  test('bad posts: malformed or unknown ids, a decline reason too long', async () => {
    const post = (form: Record<string, string>) => send(server, LIST, { cookie: adminCookie, form })
    expect((await post({ intent: 'approve-request', responseId: 'nope' })).status).toBe(400)
    expect(
      (await post({ intent: 'approve-request', responseId: '00000000-0000-4000-8000-000000000000' })).status,
    ).toBe(404)
    expect(
      (await post({ intent: 'decline-request', responseId: '00000000-0000-4000-8000-000000000000' })).status,
    ).toBe(404)
    const long = await post({
      intent: 'decline-request',
      responseId: world.declined.responseId,
      reason: 'x'.repeat(501),
    })
    expect(long.status).toBe(400)
    expect(textOf(await long.text())).toContain('The reason must be 500 characters or fewer.')
    // No request waiting on this response: the reopen is refused, nothing changes.
    const none = await post({ intent: 'approve-request', responseId: world.unfinished.responseId })
    expect(none.status).toBe(400)
    expect(textOf(await none.text())).toContain('already been answered')
    // Only admins.
    const asColleague = await send(server, LIST, {
      cookie: world.asker.cookie,
      form: { intent: 'approve-request', responseId: world.asker.responseId },
    })
    expect(asColleague.status).toBe(302)
    expect((await responseRow(world.asker.responseId)).reopenRequestedAt).not.toBeNull()
  })

  test('Reopen: one click reopens with the note as the reason, clears the request, e-mails the respondent, audited', async () => {
    const r = world.approved
    const reopened = await send(server, LIST, {
      cookie: adminCookie,
      form: { intent: 'approve-request', responseId: r.responseId },
    })
    expect(reopened.status).toBe(302)
    expect(location(reopened)).toBe(LIST)
    const landed = await send(server, LIST, { cookie: cookiesFrom(reopened, adminCookie) })
    const landedHtml = await landed.text()
    expect(textOf(landedHtml)).toContain('Answers reopened')
    for (const trace of raterTraces()) expect(landedHtml).not.toContain(trace)

    const row = await responseRow(r.responseId)
    expect(row.submittedAt).toBeNull()
    expect(row.reopenedAt).not.toBeNull()
    expect(row.reopenRequestedAt).toBeNull()
    expect(row.reopenRequestNote).toBeNull()
    expect(row.reopenReason).toBe('As you asked. Your note: Wrong scale on Q1')
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.entityId, r.assignmentId))
    expect(mails.map((m) => [m.templateKey, m.recipient])).toEqual([['response_reopened', r.user.email]])
    const audit = await auditOf('response.reopen', r.responseId)
    expect(audit).toHaveLength(1)
    expect(audit[0]!.actorId).toBe(adminId)
    expect(audit[0]!.details).toMatchObject({ requested: true })

    // The respondent's questionnaire is open again and says why.
    const answering = textOf(await page(`/assignment/${r.assignmentId}`, r.cookie))
    expect(answering).toContain(
      'Your administrator reopened your answers: “As you asked. Your note: Wrong scale on Q1”.',
    )
    // A second click (another tab, another admin) is refused: the request was answered.
    const again = await send(server, LIST, {
      cookie: adminCookie,
      form: { intent: 'approve-request', responseId: r.responseId },
    })
    expect(again.status).toBe(400)
    expect(textOf(await again.text())).toContain('already been answered')
  })

  test('Decline: clears the request, audited with the reason, which the respondent reads; they may ask again', async () => {
    const r = world.declined
    const declined = await send(server, LIST, {
      cookie: adminCookie,
      form: {
        intent: 'decline-request',
        responseId: r.responseId,
        reason: '  The round closes tomorrow; add it as a comment to Sam instead.  ',
      },
    })
    expect(declined.status).toBe(302)
    const row = await responseRow(r.responseId)
    expect(row.reopenRequestedAt).toBeNull()
    expect(row.submittedAt).not.toBeNull()
    const audit = await auditOf('response.reopen_decline', r.responseId)
    expect(audit).toHaveLength(1)
    expect(audit[0]!.actorId).toBe(adminId)
    expect(audit[0]!.details).toMatchObject({
      reason: 'The round closes tomorrow; add it as a comment to Sam instead.',
    })
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.entityId, r.assignmentId))).toEqual([])

    const seen = textOf(await page(`${THANKS}?assignment=${r.assignmentId}`, r.cookie))
    expect(seen).toContain('The programme team did not reopen your answers.')
    expect(seen).toContain('The round closes tomorrow; add it as a comment to Sam instead.')
    expect(seen).toContain('Ask to change my answers')
    // Declining again: nothing waits any more.
    const twice = await send(server, LIST, {
      cookie: adminCookie,
      form: { intent: 'decline-request', responseId: r.responseId },
    })
    expect(twice.status).toBe(400)
    // Asking again works, and shows as sent.
    expect((await ask(r, r.assignmentId)).status).toBe(302)
    expect(textOf(await page(`${THANKS}?assignment=${r.assignmentId}`, r.cookie))).toContain(
      'Your request has been sent.',
    )
  })

  test('a reopen from the response’s own page answers the waiting request too', async () => {
    const r = world.asker
    const reopened = await send(server, `/admin/answer-management/${r.responseId}`, {
      cookie: adminCookie,
      form: { intent: 'reopen', reason: 'Reopened as you asked.' },
    })
    expect(reopened.status).toBe(302)
    const row = await responseRow(r.responseId)
    expect(row.reopenRequestedAt).toBeNull()
    expect(row.reopenReason).toBe('Reopened as you asked.')
    expect(textOf(await page(LIST, adminCookie))).not.toContain('I rated the wrong person')
  })
})
