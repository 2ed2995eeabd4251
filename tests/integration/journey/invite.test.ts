import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { assignments, companies, rateLimits, schemes, sessions, users } from '#db/schema/index'
import { FEEDBACK_REQUEST_CAP_MAX } from '#app/config/constants'
import {
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { createSmtpTransport, processOutboxOnce, type MailTransport } from '#app/modules/email/outbox.server'
import { inviteColleague, inviteMessages, RESEND_LIMITS } from '#app/modules/invite/invite.server'
import { formatDate } from '#app/lib/dates'
import { INVITE_MESSAGES } from '#app/modules/invite/schemas'
import { TURNSTILE_FIELD } from '#app/modules/auth/turnstile.server'
import { useTestDatabase } from '#tests/support/database'
import { client, location, send, sessionCookieFor, signedIn, useTestServer } from '#tests/support/app'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'
import {
  alertTexts,
  fieldErrors,
  openInvite,
  sessionTokenFrom,
  textOf,
  titleOf,
} from '#tests/integration/auth/helpers'
import {
  auditFor,
  codesFor,
  enrolledEmployee,
  eventually,
  footprint,
  invitePathIn,
  listenForEvents,
  liveRaters,
  outboxFor,
  ratersOf,
} from './invite-helpers'

/**
 * /user/colleague-invite through the real HTTP stack (the production build): the page, inviting,
 * resending, revoking, every refusal, the e-mail and its link, ownership (IDOR), an admin acting for
 * an employee, and Turnstile. The concurrency limit has its own file (invite-race.test.ts).
 */
const db = useTestDatabase()
const server = useTestServer()

const PAGE = '/user/colleague-invite'

let admin = { id: '' }
let adminCookie = ''

beforeAll(async () => {
  ;({ user: admin, cookie: adminCookie } = await signedIn({ role: 'admin', displayName: 'Alex Admin' }))
})

beforeEach(async () => {
  // Resend limits are Postgres rows: each test starts with none used.
  await db().delete(rateLimits)
})

type World = Awaited<ReturnType<typeof enrolledEmployee>> & { cookie: string }

async function world(options: Parameters<typeof enrolledEmployee>[0] = {}): Promise<World> {
  const w = await enrolledEmployee(options)
  // Pat Peer is invited by most tests' employees and stays invited: this file is not about the
  // rater fatigue cap (request-cap.test.ts is), so each world's company allows the most it may.
  await db()
    .update(companies)
    .set({ feedbackRequestCap: FEEDBACK_REQUEST_CAP_MAX })
    .where(eq(companies.id, w.company.id))
  return { ...w, cookie: await sessionCookieFor(w.employee.id) }
}

const inviteForm = (schemeId: string, overrides: Record<string, string> = {}) => ({
  intent: 'invite',
  schemeId,
  name: 'Pat Peer',
  email: 'pat.peer@example.test',
  relationship: 'peer',
  ...overrides,
})

/** Requests as the person the test names (each passes its cookie); `follow` carries the toast cookie. */
const { post, follow } = client(server, () => adminCookie)

/** Invites through the page and expects success; returns the new assignment. */
async function invite(w: World, overrides: Record<string, string> = {}) {
  const response = await post(PAGE, inviteForm(w.scheme.id, overrides), w.cookie)
  expect(
    response.status,
    await response
      .clone()
      .text()
      .then((t) => alertTexts(t).join(' ')),
  ).toBe(302)
  const email = (overrides.email ?? 'pat.peer@example.test').toLowerCase()
  const [respondent] = await db().select().from(users).where(eq(users.email, email))
  const [row] = (await ratersOf(w.employee.id)).filter(
    (a) => a.respondentId === respondent!.id && a.status !== 'revoked',
  )
  return { response, assignment: row!, respondent: respondent! }
}

function hasToastCookie(response: Response) {
  return response.headers.getSetCookie().some((c) => c.startsWith('__toast=') && !/max-age=0/i.test(c))
}

async function page(w: { cookie: string }, search = '') {
  const response = await send(server, PAGE + search, { cookie: w.cookie })
  return { status: response.status, html: await response.text() }
}

describe('the page', () => {
  test('shows the scheme, how many more may be invited, the form, and each colleague’s status (never answers)', async () => {
    const w = await world()
    const questions = await questionsOf(w.scheme.questionnaireId)
    const invited = await createUser({ role: 'colleague', displayName: 'Ivy Invited' })
    const started = await createUser({ role: 'colleague' })
    const answered = await createUser({ role: 'colleague' })
    const revoked = await createUser({ role: 'colleague' })
    await createRaterAssignment({ scheme: w.scheme, subjectId: w.employee.id, respondentId: invited.id })
    const s = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: started.id,
      respondentName: 'Sam Started',
      relationship: 'manager',
    })
    await createResponse({ assignmentId: s.id })
    const a = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: answered.id,
      respondentName: 'Ann Answered',
      relationship: 'direct_report',
    })
    await createResponse({
      assignmentId: a.id,
      submitted: true,
      answers: [{ questionId: questions[0]!.id, numericValue: 4, textValue: 'SECRET-ANSWER-TEXT' }],
    })
    const r = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: revoked.id,
      respondentName: 'Rex Revoked',
      relationship: 'other',
    })
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, r.id))

    const { status, html } = await page(w)
    expect(status).toBe(200)
    expect(titleOf(html)).toBe('Invite colleagues · Panorama')
    const text = textOf(html)
    expect(text).toContain(w.scheme.name)
    expect(text).toContain(formatDate(w.scheme.closesAt))
    // Eight allowed; three live (the revoked one gave its place back).
    expect(text).toContain('You can invite 5 more colleagues.')
    expect(text).toMatch(/Ivy Invited \S+@example\.test Peer Invited/)
    expect(text).toContain('Sam Started')
    expect(text).toMatch(/Sam Started \S+ Manager Started/)
    expect(text).toMatch(/Ann Answered \S+ Direct report Answered/)
    expect(text).toMatch(/Rex Revoked \S+ Other Revoked/)
    expect(html).not.toContain('SECRET-ANSWER-TEXT')
    // Resend and revoke only for the unanswered, live invitations.
    expect(html.match(/name="intent" value="resend"/g)).toHaveLength(2)
    expect(html.match(/revoke=/g)).toHaveLength(2)
    // The form, with its labelled fields and the relationship choices.
    expect(html).toContain('name="intent" value="invite"')
    expect(html).toContain(`name="schemeId" value="${w.scheme.id}"`)
    for (const label of ['Manager', 'Peer', 'Direct report', 'Other'])
      expect(html).toContain(`>${label}</option>`)
    expect(html).toMatch(/<label[^>]*for="invite-name"/)
    expect(html).toMatch(/<label[^>]*for="invite-email"/)
    expect(html).toMatch(/<label[^>]*for="invite-relationship"/)
  })

  test('several schemes: a picker, ?scheme= chooses one; a scheme that is not theirs or a bad id is a 404', async () => {
    const w = await world()
    const second = await createScheme({ companyId: w.company.id, name: 'Second programme' })
    await enrolEmployee(second, w.employee.id)
    const foreign = await createScheme()

    const first = await page(w)
    expect(first.status).toBe(200)
    expect(first.html).toContain(`?scheme=${second.id}`)
    expect(first.html).toContain(`?scheme=${w.scheme.id}`)

    const chosen = await page(w, `?scheme=${second.id}`)
    expect(chosen.status).toBe(200)
    expect(chosen.html).toContain(`name="schemeId" value="${second.id}"`)
    expect(chosen.html).toMatch(/<a[^>]*aria-current="page"[^>]*>[^<]*<span[^>]*>Second programme</)

    expect((await page(w, `?scheme=${foreign.id}`)).status).toBe(404)
    expect((await page(w, '?scheme=not-a-uuid')).status).toBe(404)
  })

  test('an employee enrolled nowhere is told so, with no form', async () => {
    const employee = await createUser({ role: 'employee' })
    const { status, html } = await page({ cookie: await sessionCookieFor(employee.id) })
    expect(status).toBe(200)
    expect(textOf(html)).toContain('You are not enrolled in a feedback scheme yet')
    expect(html).not.toContain('value="invite"')
  })

  test('an employee naming another employee in ?employee= gets a 404', async () => {
    const w = await world()
    const other = await world()
    expect((await page(w, `?employee=${other.employee.id}`)).status).toBe(404)
    expect((await page(w, `?employee=${w.employee.id}`)).status).toBe(200)
  })

  test('a closed scheme: no form, no resend or revoke, and it says why', async () => {
    const w = await world({ status: 'closed' })
    const colleague = await createUser({ role: 'colleague' })
    await createRaterAssignment({ scheme: w.scheme, subjectId: w.employee.id, respondentId: colleague.id })
    const { html } = await page(w)
    expect(textOf(html)).toContain('This scheme has closed, so no more colleagues can be invited.')
    expect(html).not.toContain('value="invite"')
    expect(html).not.toContain('value="resend"')
  })

  test('at the limit: no form, and how to make room', async () => {
    const w = await world({ maxColleagues: 1 })
    const colleague = await createUser({ role: 'colleague' })
    await createRaterAssignment({ scheme: w.scheme, subjectId: w.employee.id, respondentId: colleague.id })
    const { html } = await page(w)
    expect(textOf(html)).toContain('You cannot invite any more colleagues to this scheme.')
    expect(textOf(html)).toContain('revoke an invitation that has not been answered yet')
    expect(html).not.toContain('value="invite"')
  })

  test('?revoke= asks for confirmation with a form that works without JavaScript; another’s invitation shows none', async () => {
    const w = await world()
    const { assignment } = await invite(w)
    const other = await world()
    const theirs = await invite(other, { email: 'theirs@example.test' })

    const { html } = await page(w, `?revoke=${assignment.id}`)
    expect(textOf(html)).toContain('Revoke the invitation to Pat Peer?')
    expect(html).toMatch(/<form[^>]*method="post"/)
    expect(html).toContain('value="revoke"')
    expect(html).toContain(`name="assignmentId" value="${assignment.id}"`)

    const foreign = await page(w, `?revoke=${theirs.assignment.id}`)
    expect(foreign.status).toBe(200)
    expect(textOf(foreign.html)).not.toContain('Revoke the invitation to')
    expect(foreign.html).not.toContain(`name="assignmentId" value="${theirs.assignment.id}"`)
    expect(foreign.html).not.toContain('theirs@example.test')
  })

  test('visitors: anonymous → sign-in, a colleague → their home', async () => {
    const anonymous = await send(server, PAGE)
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe(`/sign-in?${new URLSearchParams({ redirectTo: PAGE })}`)
    const colleague = await createUser({ role: 'colleague' })
    const response = await send(server, PAGE, { cookie: await sessionCookieFor(colleague.id) })
    expect(response.status).toBe(302)
    expect(location(response)).toBe('/user/thank-you')
    const posted = await send(server, PAGE, {
      cookie: await sessionCookieFor(colleague.id),
      form: inviteForm('00000000-0000-0000-0000-000000000000'),
    })
    expect(posted.status).toBe(302)
    expect(location(posted)).toBe('/user/thank-you')
  })
})

describe('inviting', () => {
  test('creates the colleague, the rater assignment, the code, the e-mail, the audit row and the event', async () => {
    const w = await world()
    const listener = await listenForEvents()
    try {
      const response = await post(
        PAGE,
        inviteForm(w.scheme.id, {
          name: '  Pat Peer  ',
          email: '  Pat.Peer@Example.TEST ',
          relationship: 'manager',
        }),
        w.cookie,
      )
      expect(response.status).toBe(302)
      expect(location(response)).toBe(`${PAGE}?scheme=${w.scheme.id}`)
      expect(hasToastCookie(response)).toBe(true)

      const [colleague] = await db().select().from(users).where(eq(users.email, 'pat.peer@example.test'))
      expect(colleague).toMatchObject({ role: 'colleague', displayName: 'Pat Peer', passwordHash: null })
      const [assignment] = await liveRaters(w.scheme.id, w.employee.id)
      expect(assignment).toMatchObject({
        respondentId: colleague!.id,
        questionnaireId: w.scheme.questionnaireId,
        relationship: 'manager',
        respondentName: 'Pat Peer',
        status: 'pending',
      })
      expect(assignment!.invitedAt).toBeInstanceOf(Date)
      expect(assignment!.dueAt!.getTime()).toBe(w.scheme.closesAt.getTime())

      const [code] = await codesFor(assignment!.id)
      expect(code).toMatchObject({ kind: 'colleague_invite', userId: colleague!.id, usedAt: null })
      expect(code!.expiresAt.getTime()).toBe(w.scheme.closesAt.getTime())

      const [mail] = await outboxFor(assignment!.id)
      expect(mail).toMatchObject({
        recipient: 'pat.peer@example.test',
        templateKey: 'colleague_invite',
        status: 'queued',
      })
      expect(mail!.subject).toBe(`${w.employee.displayName} would value your feedback`)
      expect(mail!.text).toContain('Hello Pat Peer')
      expect(mail!.text).toContain(formatDate(w.scheme.closesAt))
      expect(invitePathIn(mail!.text)).toMatch(/^\/verification\?mode=invite&code=[\w-]+$/)

      expect(await auditFor(assignment!.id)).toEqual([
        {
          action: 'invite.create',
          actorId: w.employee.id,
          details: expect.objectContaining({
            employeeId: w.employee.id,
            schemeId: w.scheme.id,
            onBehalf: false,
          }),
        },
      ])
      const events = await eventually(
        () => listener.events.filter((e) => e.assignmentId === assignment!.id),
        (list) => list.length > 0,
      )
      expect(events).toEqual([
        {
          type: 'assignment.updated',
          subjectId: w.employee.id,
          // The colleague's own /user page listens too (issue 7 item 15).
          respondentId: colleague!.id,
          assignmentId: assignment!.id,
          status: 'pending',
        },
      ])

      const html = await follow(response, w.cookie)
      const text = textOf(html)
      expect(text).toContain('Invitation sent to Pat Peer')
      expect(text).toContain('You can invite 7 more colleagues.')
      expect(text).toMatch(/Pat Peer pat\.peer@example\.test Manager Invited/)
    } finally {
      await listener.stop()
    }
  })

  test.each([
    ['an empty name', { name: '' }, 'name', INVITE_MESSAGES.nameRequired],
    ['a blank name', { name: '   ' }, 'name', INVITE_MESSAGES.nameRequired],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name', INVITE_MESSAGES.nameTooLong],
    ['a name with a line break', { name: 'Pat\nPeer' }, 'name', INVITE_MESSAGES.nameLineBreak],
    ['an empty e-mail', { email: '' }, 'email', INVITE_MESSAGES.emailRequired],
    ['an invalid e-mail', { email: 'pat.peer' }, 'email', INVITE_MESSAGES.emailInvalid],
    ['an e-mail with two @', { email: 'pat@@example.test' }, 'email', INVITE_MESSAGES.emailInvalid],
    [
      'an over-long e-mail',
      { email: `${'a'.repeat(250)}@example.test` },
      'email',
      INVITE_MESSAGES.emailTooLong,
    ],
    ['no relationship', { relationship: '' }, 'relationship', INVITE_MESSAGES.relationship],
    ['an unknown relationship', { relationship: 'boss' }, 'relationship', INVITE_MESSAGES.relationship],
    ['“self” as the relationship', { relationship: 'self' }, 'relationship', INVITE_MESSAGES.relationship],
  ])('refuses %s beside the field and writes nothing', async (_label, overrides, field, message) => {
    const w = await world()
    const before = await footprint()
    const response = await post(PAGE, inviteForm(w.scheme.id, overrides), w.cookie)
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(fieldErrors(html, field)).toEqual([message])
    expect(await footprint()).toEqual(before)
  })

  test('refuses the employee’s own e-mail (in any case)', async () => {
    const w = await world()
    const before = await footprint()
    const response = await post(
      PAGE,
      inviteForm(w.scheme.id, { email: w.employee.email.toUpperCase() }),
      w.cookie,
    )
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'email')).toEqual([inviteMessages.self(false, '')])
    expect(await footprint()).toEqual(before)
  })

  test('refuses the same e-mail twice for the same scheme (in any case), but not for another employee', async () => {
    const w = await world()
    await invite(w)
    const before = await footprint()
    const response = await post(
      PAGE,
      inviteForm(w.scheme.id, { email: 'PAT.PEER@example.test', name: 'Pat again' }),
      w.cookie,
    )
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'email')).toEqual([
      inviteMessages.duplicate('pat.peer@example.test'),
    ])
    expect(await footprint()).toEqual(before)
    // The same person may give feedback to another employee: one account, two assignments.
    const other = await world()
    const second = await invite(other)
    expect((await db().select().from(users).where(eq(users.email, 'pat.peer@example.test'))).length).toBe(1)
    expect(second.assignment.subjectId).toBe(other.employee.id)
  })

  test('refuses a closed scheme, by status or by date, and one not yet open', async () => {
    for (const [options, message] of [
      [{ status: 'closed' as const }, inviteMessages.closed],
      [{ closesAt: new Date(Date.now() - 60_000) }, inviteMessages.closed],
      [{ status: 'draft' as const }, inviteMessages.notOpen],
    ] as const) {
      const w = await world(options)
      const before = await footprint()
      const response = await post(PAGE, inviteForm(w.scheme.id), w.cookie)
      expect(response.status).toBe(400)
      expect(alertTexts(await response.text())).toEqual([message])
      expect(await footprint()).toEqual(before)
    }
  })

  test('refuses a launched scheme before it opens, as answering does (the one open rule)', async () => {
    const w = await world({ opensAt: new Date(Date.now() + 3 * 86_400_000) })
    const before = await footprint()
    const response = await post(PAGE, inviteForm(w.scheme.id), w.cookie)
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toEqual([inviteMessages.notOpen])
    expect(await footprint()).toEqual(before)
  })

  test('refuses a scheme the employee is not enrolled in, and a missing or malformed scheme id', async () => {
    const w = await world()
    const foreign = await createScheme()
    const before = await footprint()
    for (const [schemeId, message] of [
      [foreign.id, inviteMessages.notEnrolled(false, '')],
      ['', INVITE_MESSAGES.schemeMissing],
      ['not-a-uuid', INVITE_MESSAGES.schemeMissing],
    ] as const) {
      const response = await post(PAGE, inviteForm(schemeId), w.cookie)
      expect(response.status, schemeId).toBe(400)
      expect(alertTexts(await response.text())).toEqual([message])
    }
    expect(await footprint()).toEqual(before)
  })

  test('refuses over the limit (the scheme’s max_colleagues), and a revoked invitation frees its place', async () => {
    const w = await world({ maxColleagues: 2 })
    const first = await invite(w, { email: 'one@example.test' })
    await invite(w, { email: 'two@example.test' })
    const before = await footprint()
    const response = await post(PAGE, inviteForm(w.scheme.id, { email: 'three@example.test' }), w.cookie)
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toEqual([inviteMessages.limit(2, false, '')])
    expect(await footprint()).toEqual(before)

    const revoked = await post(PAGE, { intent: 'revoke', assignmentId: first.assignment.id }, w.cookie)
    expect(revoked.status).toBe(302)
    await invite(w, { email: 'three@example.test' })
    expect(await liveRaters(w.scheme.id, w.employee.id)).toHaveLength(2)
  })

  test('refuses a disabled account’s address', async () => {
    const w = await world()
    const disabled = await createUser({ role: 'colleague', disabledAt: new Date() })
    const before = await footprint()
    const response = await post(PAGE, inviteForm(w.scheme.id, { email: disabled.email }), w.cookie)
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'email')).toEqual([inviteMessages.unavailable])
    expect(await footprint()).toEqual(before)
  })

  test('an administrator’s and a disabled account’s address get the same neutral refusal, naming neither', async () => {
    const w = await world()
    const staff = await createUser({ role: 'admin' })
    const disabledEmployee = await createUser({ role: 'employee', disabledAt: new Date() })
    const disabledColleague = await createUser({ role: 'colleague', disabledAt: new Date() })
    const answers = []
    for (const email of [staff.email, disabledEmployee.email, disabledColleague.email]) {
      const response = await post(PAGE, inviteForm(w.scheme.id, { email, name: 'Someone' }), w.cookie)
      const html = await response.text()
      answers.push({ status: response.status, errors: fieldErrors(html, 'email'), alerts: alertTexts(html) })
    }
    expect(answers[0]).toEqual({ status: 400, errors: [inviteMessages.unavailable], alerts: [] })
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
    expect(inviteMessages.unavailable).not.toMatch(/admin|consultan|staff|disabled|account/i)
  })

  test('an existing employee invited as a colleague keeps their account and role; an admin cannot be invited', async () => {
    const w = await world()
    const peer = await createUser({ role: 'employee', companyId: w.company.id, displayName: 'Erin Other' })
    const [before] = await db().select().from(users).where(eq(users.id, peer.id))
    const { assignment, respondent } = await invite(w, { email: peer.email, name: 'Erin' })
    expect(respondent.id).toBe(peer.id)
    expect(respondent.role).toBe('employee')
    expect(respondent.passwordHash).toBe(before!.passwordHash)
    expect(respondent.displayName).toBe('Erin Other')
    expect(assignment.respondentName).toBe('Erin')

    // An admin's invite link would open the back office without a password: refused.
    const staff = await createUser({ role: 'admin' })
    const response = await post(
      PAGE,
      inviteForm(w.scheme.id, { email: staff.email, name: 'Staff' }),
      w.cookie,
    )
    expect(response.status).toBe(400)
    expect(fieldErrors(await response.text(), 'email')).toEqual([inviteMessages.unavailable])
  })

  test('a body that is not a form, or an unknown intent, is a 400 with a message', async () => {
    const w = await world()
    const json = await send(server, PAGE, { cookie: w.cookie, json: { intent: 'invite' } })
    expect(json.status).toBe(400)
    expect(alertTexts(await json.text())).toEqual([INVITE_MESSAGES.unreadable])
    const unknown = await post(PAGE, { intent: 'delete-everything' }, w.cookie)
    expect(unknown.status).toBe(400)
  })
})

describe('the invitation e-mail and its link', () => {
  let catcher: SmtpCatcher
  let transport: MailTransport
  beforeAll(async () => {
    catcher = await startSmtpCatcher()
    transport = createSmtpTransport(catcher.url)
  })
  afterAll(async () => {
    transport?.close?.()
    await catcher?.close()
  })

  test('is delivered with the brand’s sender, the names and date; its link opens a colleague session on the questionnaire', async () => {
    const w = await world()
    const { assignment, respondent } = await invite(w, {
      email: 'mail.reader@example.test',
      name: 'Mel Reader',
    })
    // Deliver everything queued (earlier tests' messages too) to the SMTP catcher.
    while ((await processOutboxOnce({ transport })).claimed > 0);
    const message = await catcher.waitFor((m) => m.envelopeTo.includes('mail.reader@example.test'))
    expect(message.subject).toBe(`${w.employee.displayName} would value your feedback`)
    expect(message.text).toContain('Hello Mel Reader')
    expect(message.text).toContain(`Please respond by ${formatDate(w.scheme.closesAt)}`)
    const links = extractLinks(message.text).filter((l) => l.includes('/verification'))
    expect(links).toHaveLength(1)
    expect(links[0]).toMatch(/^http:\/\/localhost:3000\/verification\?mode=invite&code=[\w-]+$/)
    expect(message.html).toContain('Give your feedback')

    const url = new URL(links[0]!)
    const opened = await openInvite(server, url.pathname + url.search)
    expect(opened.status).toBe(302)
    expect(location(opened)).toBe(`/questionnaire/${w.scheme.questionnaireId}`)
    const token = sessionTokenFrom(opened)!
    const [session] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.id, token.split('.')[0]!))
    expect(session!.userId).toBe(respondent.id)
    const home = await send(server, '/sign-in', { cookie: `__session=${encodeURIComponent(token)}` })
    expect(location(home)).toBe(`/assignment/${assignment.id}`)
  })
})

describe('resending', () => {
  test('voids the old link, issues a new one by e-mail, and audits it', async () => {
    const w = await world()
    const { assignment } = await invite(w)
    const [firstMail] = await outboxFor(assignment.id)
    const oldLink = invitePathIn(firstMail!.text)

    const response = await post(PAGE, { intent: 'resend', assignmentId: assignment.id }, w.cookie)
    expect(response.status).toBe(302)
    expect(hasToastCookie(response)).toBe(true)
    expect(textOf(await follow(response, w.cookie))).toContain('Invitation sent again to Pat Peer')

    const mails = await outboxFor(assignment.id)
    expect(mails).toHaveLength(2)
    const newLink = invitePathIn(mails[1]!.text)
    expect(newLink).not.toBe(oldLink)
    const codes = await codesFor(assignment.id)
    expect(codes).toHaveLength(2)
    expect(codes[0]!.usedAt).toBeInstanceOf(Date)
    expect(codes[1]!.usedAt).toBeNull()

    expect((await send(server, oldLink)).status).toBe(410)
    const opened = await openInvite(server, newLink)
    expect(opened.status).toBe(302)
    expect(location(opened)).toBe(`/questionnaire/${w.scheme.questionnaireId}`)
    expect((await auditFor(assignment.id)).map((a) => a.action)).toEqual(['invite.create', 'invite.resend'])
  })

  test('is rate-limited: once per 10 minutes per invitation (429, Retry-After, nothing sent)', async () => {
    const w = await world()
    const { assignment } = await invite(w)
    expect((await post(PAGE, { intent: 'resend', assignmentId: assignment.id }, w.cookie)).status).toBe(302)
    const before = await footprint()
    const again = await post(PAGE, { intent: 'resend', assignmentId: assignment.id }, w.cookie)
    expect(again.status).toBe(429)
    expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(500)
    expect(Number(again.headers.get('Retry-After'))).toBeLessThanOrEqual(
      RESEND_LIMITS.assignment.windowMs / 1000,
    )
    expect(alertTexts(await again.text()).join(' ')).toContain('was sent again only a few minutes ago')
    expect(await footprint()).toEqual(before)
    // Another invitation of the same employee is not held back by it.
    const other = await invite(w, { email: 'other@example.test' })
    expect((await post(PAGE, { intent: 'resend', assignmentId: other.assignment.id }, w.cookie)).status).toBe(
      302,
    )
  })

  test('is rate-limited per employee: 20 an hour', async () => {
    const w = await world()
    const { assignment } = await invite(w)
    await db()
      .insert(rateLimits)
      .values({
        key: `invite-resend:employee:${w.employee.id}`,
        windowStart: new Date(),
        count: RESEND_LIMITS.employee.limit,
      })
    const before = await footprint()
    const response = await post(PAGE, { intent: 'resend', assignmentId: assignment.id }, w.cookie)
    expect(response.status).toBe(429)
    expect(alertTexts(await response.text()).join(' ')).toContain(
      'Many invitations have been sent again in the last hour',
    )
    expect(await footprint()).toEqual(before)
  })

  test('is refused once answered or revoked, and after the scheme closes', async () => {
    const w = await world()
    const answered = await invite(w, { email: 'answered@example.test', name: 'Ann' })
    await createResponse({ assignmentId: answered.assignment.id, submitted: true })
    const revoked = await invite(w, { email: 'revoked@example.test', name: 'Rex' })
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, revoked.assignment.id))
    const open = await invite(w, { email: 'open@example.test', name: 'Ola' })

    const before = await footprint()
    const a = await post(PAGE, { intent: 'resend', assignmentId: answered.assignment.id }, w.cookie)
    expect(a.status).toBe(400)
    expect(alertTexts(await a.text())).toEqual([inviteMessages.answered('Ann')])
    const r = await post(PAGE, { intent: 'resend', assignmentId: revoked.assignment.id }, w.cookie)
    expect(r.status).toBe(400)
    expect(alertTexts(await r.text())).toEqual([inviteMessages.revoked('Rex')])

    await db().update(schemes).set({ status: 'closed' }).where(eq(schemes.id, w.scheme.id))
    const c = await post(PAGE, { intent: 'resend', assignmentId: open.assignment.id }, w.cookie)
    expect(c.status).toBe(400)
    expect(alertTexts(await c.text())).toEqual([inviteMessages.closed])
    expect(await footprint()).toEqual(before)
  })

  test('a malformed assignment id is a 400; the employee’s own self-assessment is a 404', async () => {
    const w = await world()
    const bad = await post(PAGE, { intent: 'resend', assignmentId: 'nope' }, w.cookie)
    expect(bad.status).toBe(400)
    const [self] = await db()
      .select()
      .from(assignments)
      .where(sql`${assignments.subjectId} = ${w.employee.id} AND ${assignments.relationship} = 'self'`)
    const response = await post(PAGE, { intent: 'resend', assignmentId: self!.id }, w.cookie)
    expect(response.status).toBe(404)
  })
})

describe('revoking', () => {
  test('revokes an unanswered invitation: status, codes, link 410, place freed, audit, event', async () => {
    const w = await world()
    const { assignment } = await invite(w)
    const link = invitePathIn((await outboxFor(assignment.id))[0]!.text)
    expect((await openInvite(server, link)).status).toBe(302)
    const listener = await listenForEvents()
    try {
      const response = await post(PAGE, { intent: 'revoke', assignmentId: assignment.id }, w.cookie)
      expect(response.status).toBe(302)
      const html = await follow(response, w.cookie)
      expect(textOf(html)).toContain('Invitation to Pat Peer revoked')
      expect(textOf(html)).toContain('You can invite 8 more colleagues.')
      expect(textOf(html)).toMatch(/Pat Peer \S+ Peer Revoked/)

      const [row] = await db().select().from(assignments).where(eq(assignments.id, assignment.id))
      expect(row!.status).toBe('revoked')
      expect((await codesFor(assignment.id)).every((c) => c.usedAt)).toBe(true)
      expect((await send(server, link)).status).toBe(410)
      expect((await auditFor(assignment.id)).map((a) => [a.action, a.actorId])).toEqual([
        ['invite.create', w.employee.id],
        ['invite.revoke', w.employee.id],
      ])
      const events = await eventually(
        () => listener.events.filter((e) => e.assignmentId === assignment.id),
        (list) => list.length > 0,
      )
      expect(events).toEqual([
        {
          type: 'assignment.updated',
          subjectId: w.employee.id,
          respondentId: assignment.respondentId,
          assignmentId: assignment.id,
          status: 'revoked',
        },
      ])
    } finally {
      await listener.stop()
    }
    // The same person can be invited again: a new live assignment beside the revoked one.
    const again = await invite(w)
    expect(again.assignment.id).not.toBe(assignment.id)
  })

  test('a started (not submitted) invitation can be revoked; an answered one cannot', async () => {
    const w = await world()
    const started = await invite(w, { email: 'started@example.test', name: 'Stan' })
    await createResponse({ assignmentId: started.assignment.id })
    expect(
      (await post(PAGE, { intent: 'revoke', assignmentId: started.assignment.id }, w.cookie)).status,
    ).toBe(302)

    const answered = await invite(w, { email: 'answered@example.test', name: 'Ann' })
    await createResponse({ assignmentId: answered.assignment.id, submitted: true })
    const before = await footprint()
    const response = await post(PAGE, { intent: 'revoke', assignmentId: answered.assignment.id }, w.cookie)
    expect(response.status).toBe(400)
    expect(alertTexts(await response.text())).toEqual([inviteMessages.answered('Ann')])
    const [row] = await db().select().from(assignments).where(eq(assignments.id, answered.assignment.id))
    expect(row!.status).toBe('submitted')
    expect(await footprint()).toEqual(before)
  })
})

describe('ownership (IDOR)', () => {
  test('employee A resending or revoking employee B’s invitation gets a 404 and nothing is written', async () => {
    const a = await world()
    const b = await world()
    const { assignment } = await invite(b)
    const before = await footprint()
    for (const intent of ['resend', 'revoke']) {
      const response = await post(PAGE, { intent, assignmentId: assignment.id }, a.cookie)
      expect(response.status, intent).toBe(404)
    }
    expect(await footprint()).toEqual(before)
    // Not even a resend counter (B's own invitation counted only B's invite limits).
    expect(
      await db()
        .select()
        .from(rateLimits)
        .where(sql`${rateLimits.key} LIKE 'invite-resend:%'`),
    ).toHaveLength(0)
    const [row] = await db().select().from(assignments).where(eq(assignments.id, assignment.id))
    expect(row!.status).toBe('pending')
    // An unknown id reads the same as someone else's.
    const unknown = await post(PAGE, { intent: 'revoke', assignmentId: crypto.randomUUID() }, a.cookie)
    expect(unknown.status).toBe(404)
  })

  test('an employee cannot invite into another employee’s scheme membership (inviteColleague with another employeeId)', async () => {
    const a = await world()
    const b = await world()
    const before = await footprint()
    const outcome = await inviteColleague(
      { id: a.employee.id, role: 'employee' },
      {
        employeeId: b.employee.id,
        schemeId: b.scheme.id,
        name: 'X',
        email: 'x@example.test',
        relationship: 'peer',
      },
    )
    expect(outcome).toEqual({ ok: false, notFound: true })
    expect(await footprint()).toEqual(before)
    const colleague = await createUser({ role: 'colleague' })
    expect(
      await inviteColleague(
        { id: colleague.id, role: 'colleague' },
        {
          employeeId: colleague.id,
          schemeId: b.scheme.id,
          name: 'X',
          email: 'x@example.test',
          relationship: 'peer',
        },
      ),
    ).toEqual({ ok: false, notFound: true })
  })
})

describe('an admin on an employee’s behalf', () => {
  test('without ?employee= the page explains how to pick one; an unknown or non-employee uid is a 404', async () => {
    const response = await send(server, PAGE, { cookie: adminCookie })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(textOf(html)).toContain('Choose an employee first')
    expect(html).toContain('href="/admin/employee-management"')
    expect(
      (await send(server, `${PAGE}?employee=${crypto.randomUUID()}`, { cookie: adminCookie })).status,
    ).toBe(404)
    expect((await send(server, `${PAGE}?employee=nope`, { cookie: adminCookie })).status).toBe(404)
    const colleague = await createUser({ role: 'colleague' })
    expect((await send(server, `${PAGE}?employee=${colleague.id}`, { cookie: adminCookie })).status).toBe(404)
    const posted = await post(PAGE, inviteForm(crypto.randomUUID()), adminCookie)
    expect(posted.status).toBe(400)
    expect(alertTexts(await posted.text()).join(' ')).toContain('Choose the employee')
  })

  test('invites, resends and revokes for the employee; the audit names the admin', async () => {
    const w = await world()
    const path = `${PAGE}?employee=${w.employee.id}`
    const pageResponse = await send(server, path, { cookie: adminCookie })
    expect(pageResponse.status).toBe(200)
    const html = await pageResponse.text()
    expect(textOf(html)).toContain(`Inviting on behalf of ${w.employee.displayName}`)
    expect(titleOf(html)).toBe(`Invite colleagues for ${w.employee.displayName} · Panorama`)
    expect(textOf(html)).toContain(`${w.employee.displayName} can invite 8 more colleagues.`)

    // The employee's own address is still "themself".
    const self = await post(path, inviteForm(w.scheme.id, { email: w.employee.email }), adminCookie)
    expect(self.status).toBe(400)
    expect(fieldErrors(await self.text(), 'email')).toEqual([
      inviteMessages.self(true, w.employee.displayName),
    ])

    const response = await post(path, inviteForm(w.scheme.id), adminCookie)
    expect(response.status).toBe(302)
    expect(location(response)).toBe(`${PAGE}?scheme=${w.scheme.id}&employee=${w.employee.id}`)
    const [assignment] = await liveRaters(w.scheme.id, w.employee.id)
    expect(assignment!.subjectId).toBe(w.employee.id)
    expect(await auditFor(assignment!.id)).toEqual([
      {
        action: 'invite.create',
        actorId: admin.id,
        details: expect.objectContaining({ employeeId: w.employee.id, onBehalf: true }),
      },
    ])

    expect((await post(path, { intent: 'resend', assignmentId: assignment!.id }, adminCookie)).status).toBe(
      302,
    )
    // Acting for another employee does not reach this one's invitations.
    const other = await world()
    const wrong = await post(
      `${PAGE}?employee=${other.employee.id}`,
      { intent: 'revoke', assignmentId: assignment!.id },
      adminCookie,
    )
    expect(wrong.status).toBe(404)
    expect((await post(path, { intent: 'revoke', assignmentId: assignment!.id }, adminCookie)).status).toBe(
      302,
    )
    expect((await auditFor(assignment!.id)).map((a) => [a.action, a.actorId])).toEqual([
      ['invite.create', admin.id],
      ['invite.resend', admin.id],
      ['invite.revoke', admin.id],
    ])
  })
})

describe('Turnstile, when configured', () => {
  // Cloudflare's verifier is outside this machine (and must not be called from tests): a local fake
  // answers like it. The keys are Cloudflare's documented test keys.
  const SITE_KEY = '1x00000000000000000000AA'
  const SECRET_KEY = '1x0000000000000000000000000000000AA'
  const fake = { server: undefined as http.Server | undefined, calls: 0, accept: true }

  beforeAll(async () => {
    fake.server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      req.on('end', () => {
        fake.calls++
        const params = new URLSearchParams(body)
        const success =
          fake.accept && params.get('secret') === SECRET_KEY && params.get('response') === 'good-token'
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ success }))
      })
    })
    await new Promise<void>((resolve) => fake.server!.listen(0, '127.0.0.1', resolve))
    process.env.TURNSTILE_SITE_KEY = SITE_KEY
    process.env.TURNSTILE_SECRET_KEY = SECRET_KEY
    process.env.TURNSTILE_VERIFY_URL = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/siteverify`
    server.build!.resetEnvCache()
  })
  afterAll(async () => {
    delete process.env.TURNSTILE_SITE_KEY
    delete process.env.TURNSTILE_SECRET_KEY
    delete process.env.TURNSTILE_VERIFY_URL
    server.build!.resetEnvCache()
    fake.server?.closeAllConnections()
    await new Promise((resolve) => fake.server?.close(resolve))
  })

  test('the form carries the widget; without a token, or with a refused one, nothing is sent', async () => {
    const w = await world()
    const { html } = await page(w)
    expect(html).toContain(SITE_KEY)

    const before = await footprint()
    const missing = await post(PAGE, inviteForm(w.scheme.id), w.cookie)
    expect(missing.status).toBe(400)
    expect(alertTexts(await missing.text())).toEqual([INVITE_MESSAGES.captcha])
    expect(fake.calls).toBe(0)

    fake.accept = false
    const refused = await post(PAGE, inviteForm(w.scheme.id, { [TURNSTILE_FIELD]: 'good-token' }), w.cookie)
    expect(refused.status).toBe(400)
    expect(alertTexts(await refused.text())).toEqual([INVITE_MESSAGES.captcha])
    expect(await footprint()).toEqual(before)

    fake.accept = true
    const accepted = await post(PAGE, inviteForm(w.scheme.id, { [TURNSTILE_FIELD]: 'good-token' }), w.cookie)
    expect(accepted.status).toBe(302)
    expect(await liveRaters(w.scheme.id, w.employee.id)).toHaveLength(1)
  })

  test('fails closed when the verifier cannot be reached', async () => {
    const w = await world()
    const original = process.env.TURNSTILE_VERIFY_URL
    process.env.TURNSTILE_VERIFY_URL = 'http://127.0.0.1:9/siteverify'
    server.build!.resetEnvCache()
    try {
      const response = await post(
        PAGE,
        inviteForm(w.scheme.id, { [TURNSTILE_FIELD]: 'good-token' }),
        w.cookie,
      )
      expect(response.status).toBe(400)
      expect(await liveRaters(w.scheme.id, w.employee.id)).toHaveLength(0)
    } finally {
      process.env.TURNSTILE_VERIFY_URL = original
      server.build!.resetEnvCache()
    }
  })
})
