import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { actionCodes, assignments, files } from '#db/schema/index'
import {
  createQuestionnaire,
  createRaterAssignment,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { openInvite, textOf, titleOf } from '#tests/integration/auth/helpers'
import { createWorld, form, sectionAnswers, type World } from './answer-helpers'

/**
 * The pages around answering: the questionnaire's introduction (its numbers, whose feedback, the
 * deadline, the way in; a 404 for anyone without an assignment on it) and the thank-you page for
 * each role, including the colleague's invite link that stops working once they submit.
 */
const db = useTestDatabase()
const server = useTestServer()

/** The page's own text, without the gaps that tags leave before punctuation. */
const main = (html: string) => textOf(/<main[\s\S]*<\/main>/.exec(html)![0]).replace(/\s+([.,:;!?])/g, '$1')
const intro = (id: string, cookie: string | null) => send(server, `/questionnaire/${id}`, { cookie })
const post = (id: string, cookie: string, pairs: Array<[string, string]>) =>
  send(server, `/assignment/${id}?section=${pairs.find(([k]) => k === 'section')?.[1] ?? 1}`, {
    cookie,
    form: form(pairs),
  })

async function submitAll(w: World, id: string, cookie: string) {
  for (const s of [1, 2] as const)
    await post(id, cookie, [['intent', 'save'], ['section', String(s)], ...sectionAnswers(w, s)])
  const response = await post(id, cookie, [['intent', 'submit'], ['section', '3'], ...sectionAnswers(w, 3)])
  expect(response.status).toBe(302)
  return response
}

describe('/questionnaire/:id', () => {
  test('the employee: title, intro, counts, time, “about yourself”, deadline and a start button', async () => {
    const w = await createWorld()
    const response = await intro(w.questionnaire.id, w.employeeCookie)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(titleOf(html)).toBe('Kinds 360 · Introduction · Panorama')
    const text = main(html)
    expect(text).toContain('Kinds 360')
    expect(text).toContain('Three short sections about how we work.')
    expect(text).toContain('7 questions in 3 sections')
    // 5 scale/choice questions × 30 s + 2 written answers × 2 min = 6.5 min → about 7.
    expect(text).toContain('About 7 minutes')
    expect(text).toContain('Your self-assessment: the questions are about yourself.')
    const deadline = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
      w.scheme.closesAt,
    )
    expect(text).toContain(deadline)
    expect(html).toContain(`dateTime="${w.scheme.closesAt.toISOString()}"`)
    expect(text).toContain('Status: Not started')
    expect(html).toMatch(new RegExp(`href="/assignment/${w.self.id}"[^>]*>Start</a>`))
  })

  test('a colleague sees whose feedback it is; the button follows the assignment’s state', async () => {
    const w = await createWorld()
    const first = main(await (await intro(w.questionnaire.id, w.colleagueCookie)).text())
    expect(first).toContain('Your feedback for Erin Example: the questions are about them.')
    expect(first).toContain('from the link in your invitation e-mail')

    await post(w.rater.id, w.colleagueCookie, [['intent', 'next'], ['section', '1'], ...sectionAnswers(w, 1)])
    const started = await (await intro(w.questionnaire.id, w.colleagueCookie)).text()
    expect(main(started)).toContain('In progress (you stopped at section 2)')
    expect(started).toContain(`href="/assignment/${w.rater.id}?section=2"`)
    expect(main(started)).toContain('Continue where you stopped')

    await submitAll(w, w.rater.id, w.colleagueCookie)
    const done = await (await intro(w.questionnaire.id, w.colleagueCookie)).text()
    expect(main(done)).toContain('Status: Submitted')
    expect(main(done)).toContain('View your answers')
  })

  test('someone with several assignments on it gets a list, each with its subject and status', async () => {
    const w = await createWorld()
    const second = await createUser({ role: 'employee', displayName: 'Sam Second' })
    await enrolEmployee(w.scheme, second.id)
    const another = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: second.id,
      respondentId: w.colleague.id,
    })
    const html = await (await intro(w.questionnaire.id, w.colleagueCookie)).text()
    const text = main(html)
    expect(text).toContain('You have 2 questionnaires to answer')
    expect(text).toContain('Feedback for Erin Example')
    expect(text).toContain('Feedback for Sam Second')
    expect(text).toContain('Start feedback for Sam Second')
    expect(html).toContain(`href="/assignment/${w.rater.id}"`)
    expect(html).toContain(`href="/assignment/${another.id}"`)

    // A link from a list (?assignment=<id>) puts that one first; someone else's id is ignored.
    const focused = main(
      await (await intro(`${w.questionnaire.id}?assignment=${another.id}`, w.colleagueCookie)).text(),
    )
    expect(focused).toContain('Your feedback for Sam Second: the questions are about them.')
    expect(focused).toContain('Your other assignments on this questionnaire')
    expect(focused).toContain('Start feedback for Erin Example')
    const foreign = main(
      await (await intro(`${w.questionnaire.id}?assignment=${w.self.id}`, w.colleagueCookie)).text(),
    )
    expect(foreign).toContain('You have 2 questionnaires to answer')
  })

  test('anyone without an assignment on it gets a 404 (GET and POST); admins may open any', async () => {
    const w = await createWorld()
    const stranger = await sessionCookieFor((await createUser({ role: 'employee' })).id)
    const otherColleague = await sessionCookieFor((await createUser({ role: 'colleague' })).id)
    for (const cookie of [stranger, otherColleague]) {
      expect((await intro(w.questionnaire.id, cookie)).status).toBe(404)
      expect((await send(server, `/questionnaire/${w.questionnaire.id}`, { cookie, form: {} })).status).toBe(
        404,
      )
    }
    // A revoked invitation no longer opens it.
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, w.rater.id))
    expect((await intro(w.questionnaire.id, w.colleagueCookie)).status).toBe(404)
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope'])
      expect((await intro(id, w.employeeCookie)).status).toBe(404)

    const admin = await sessionCookieFor((await createUser({ role: 'admin' })).id)
    const other = await createQuestionnaire({ title: 'Nobody’s questionnaire' })
    const page = await intro(other.id, admin)
    expect(page.status).toBe(200)
    expect(main(await page.text())).toContain('You are viewing this questionnaire as an administrator.')
    expect((await intro('00000000-0000-4000-8000-000000000000', admin)).status).toBe(404)
    // Nothing is posted to this page.
    expect(
      (await send(server, `/questionnaire/${w.questionnaire.id}`, { cookie: w.employeeCookie, form: {} }))
        .status,
    ).toBe(405)
  })

  test('an empty questionnaire reads sensibly', async () => {
    const questionnaire = await createQuestionnaire({ title: 'Empty', questions: [] })
    const scheme = await createScheme({ questionnaireId: questionnaire.id })
    const employee = await createUser({ role: 'employee' })
    const self = (await enrolEmployee(scheme, employee.id))!
    const cookie = await sessionCookieFor(employee.id)
    expect(main(await (await intro(questionnaire.id, cookie)).text())).toContain('0 questions in 0 sections')
    const page = await send(server, `/assignment/${self.id}`, { cookie })
    expect(page.status).toBe(200)
    expect(main(await page.text())).toContain('This questionnaire has no questions yet.')
    expect(
      (
        await post(self.id, cookie, [
          ['intent', 'submit'],
          ['section', '1'],
        ])
      ).status,
    ).toBe(400)
  })
})

describe('/user/thank-you', () => {
  test('an employee: invite colleagues (how many more), the threshold for the report, the report link', async () => {
    const w = await createWorld({ scheme: { minRaters: 3, maxColleagues: 5 } })
    const response = await submitAll(w, w.self.id, w.employeeCookie)
    const page = await send(server, location(response)!, { cookie: w.employeeCookie })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(titleOf(html)).toBe('Thank you · Panorama')
    const text = main(html)
    expect(text).toContain('Your self-assessment has been submitted.')
    expect(text).toContain('you have invited 1 of 5, so you can invite 4 more.')
    expect(html).toContain('href="/user/colleague-invite"')
    expect(text).toContain('at least 3 colleagues have answered')
    expect(text).toContain('So far 0 have answered: 3 more needed.')
    const [r] = await db()
      .select({ id: assignments.id })
      .from(assignments)
      .where(eq(assignments.id, w.self.id))
    expect(r).toBeTruthy()
    expect(html).toMatch(/href="\/user\/response-[0-9a-f-]{36}"/)
    // No contact block for employees: the footer has the portal's links.
    expect(text).not.toContain('Questions? Contact')
  })

  test('an employee at the limit is told they cannot invite more; without an assignment the page still works', async () => {
    const w = await createWorld({ scheme: { maxColleagues: 1 } })
    const text = main(await (await send(server, '/user/thank-you', { cookie: w.employeeCookie })).text())
    expect(text).toContain('you have invited 1 of 1 and cannot invite more in this programme.')
    const loner = await sessionCookieFor((await createUser({ role: 'employee' })).id)
    const page = await send(server, '/user/thank-you', { cookie: loner })
    expect(page.status).toBe(200)
    expect(main(await page.text())).toContain('Thank you')
  })

  test('a colleague: nothing more needed, the brand’s name, logo and contact links (overrides, else defaults)', async () => {
    const [logo] = await db()
      .insert(files)
      .values({ bytes: Buffer.from('x'), mime: 'image/png', size: 1, sha256: 'a'.repeat(64) })
      .returning()
    const w = await createWorld({
      brand: { name: 'Harbour Partners', callbackUrl: 'https://harbour.example/call', logoFileId: logo!.id },
    })
    const response = await submitAll(w, w.rater.id, w.colleagueCookie)
    expect(location(response)).toBe(`/user/thank-you?assignment=${w.rater.id}`)
    const html = await (await send(server, location(response)!, { cookie: w.colleagueCookie })).text()
    const text = main(html)
    expect(text).toContain('Your feedback for Erin Example has been submitted.')
    expect(text).toContain('Nothing more is needed from you.')
    expect(text).toContain('Questions? Contact Harbour Partners')
    // The brand's logo and name are in the page's header now (white label, issue 7 item 22).
    const header = /<header[\s\S]*?<\/header>/.exec(html)![0]
    expect(header).toContain(`src="/files/${logo!.id}"`)
    expect(header).toContain('Harbour Partners')
    // The brand's callback page; the e-mail and profile fall back to the deployment's config.
    const main_ = /<main[\s\S]*<\/main>/.exec(html)![0]
    expect(main_).toContain('href="https://harbour.example/call"')
    expect(main_).toMatch(/href="mailto:[^"]+@[^"]+"/)
    expect(main_).toMatch(/href="https?:\/\/[^"]+"[^>]*>Professional profile/)
    expect(text).not.toContain('Invite colleagues')
  })

  test('a colleague with another open invitation sees it listed', async () => {
    const w = await createWorld()
    const second = await createUser({ role: 'employee', displayName: 'Sam Second' })
    await enrolEmployee(w.scheme, second.id)
    const another = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: second.id,
      respondentId: w.colleague.id,
    })
    await submitAll(w, w.rater.id, w.colleagueCookie)
    const html = await (
      await send(server, `/user/thank-you?assignment=${w.rater.id}`, { cookie: w.colleagueCookie })
    ).text()
    expect(main(html)).toContain('One more questionnaire is waiting for you')
    expect(main(html)).toContain('Feedback for Sam Second')
    expect(html).toContain(`href="/assignment/${another.id}"`)
  })

  test('someone else’s assignment id in the link is ignored (the page is about the visitor’s own)', async () => {
    const w = await createWorld({ subjectName: 'Erin Example' })
    const other = await createWorld({ subjectName: 'Olga Other' })
    const html = await (
      await send(server, `/user/thank-you?assignment=${other.rater.id}`, { cookie: w.colleagueCookie })
    ).text()
    expect(html).not.toContain('Olga Other')
    const bad = await send(server, '/user/thank-you?assignment=%27;drop', { cookie: w.colleagueCookie })
    expect(bad.status).toBe(200)
  })

  test('guards: admins and visitors go elsewhere; a POST naming no request is refused', async () => {
    const w = await createWorld()
    const admin = await sessionCookieFor((await createUser({ role: 'admin' })).id)
    expect(location(await send(server, '/user/thank-you', { cookie: admin }))).toBe('/admin')
    expect(location(await send(server, '/user/thank-you'))).toBe('/sign-in?redirectTo=%2Fuser%2Fthank-you')
    // The page's one form is "I need to change my answers" (ADR 039): a post without its intent is 400.
    expect((await send(server, '/user/thank-you', { cookie: w.colleagueCookie, form: {} })).status).toBe(400)
  })
})

describe('the colleague’s invite link', () => {
  test('works until they submit; then it is marked used and answers 410', async () => {
    const w = await createWorld()
    const link = `/verification?mode=invite&code=${w.inviteCode}`
    const open = await openInvite(server, link)
    expect(open.status).toBe(302)
    expect(location(open)).toBe(`/questionnaire/${w.questionnaire.id}`)

    await submitAll(w, w.rater.id, w.colleagueCookie)
    const [code] = await db().select().from(actionCodes).where(eq(actionCodes.assignmentId, w.rater.id))
    expect(code!.usedAt).toBeInstanceOf(Date)
    const gone = await send(server, link)
    expect(gone.status).toBe(410)
    // Not an error: the link did its job (issue 7, item 16).
    expect(textOf(await gone.text())).toContain(
      'Your feedback is in. Thank you! Nothing more is needed from you',
    )
  })

  test('an employee’s own submit leaves other codes alone; an unsubmitted colleague’s link keeps working', async () => {
    const w = await createWorld()
    await submitAll(w, w.self.id, w.employeeCookie)
    const [code] = await db().select().from(actionCodes).where(eq(actionCodes.assignmentId, w.rater.id))
    expect(code!.usedAt).toBeNull()
    expect((await openInvite(server, `/verification?mode=invite&code=${w.inviteCode}`)).status).toBe(302)
  })
})
