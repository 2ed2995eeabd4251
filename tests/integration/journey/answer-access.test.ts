import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { assignments, schemes } from '#db/schema/index'
import { createRaterAssignment, createUser, enrolEmployee } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { alertTexts, textOf } from '#tests/integration/auth/helpers'
import {
  answersOf,
  assignmentRow,
  createWorld,
  decodeData,
  field,
  form,
  responseOf,
  sectionAnswers,
  snapshot,
  type World,
} from './answer-helpers'

/**
 * Who may answer what, and when: another person's assignment is a 404 for GET and POST alike
 * (never a hint that it exists) with nothing written; admins may look but not answer; a closed or
 * not yet open scheme refuses every write with a clear message.
 */
const db = useTestDatabase()
const server = useTestServer()

const DAY = 24 * 60 * 60 * 1000
/** The page's own text, without the gaps that tags leave before punctuation. */
const main = (html: string) => textOf(/<main[\s\S]*<\/main>/.exec(html)![0]).replace(/\s+([.,:;!?])/g, '$1')
const post = (id: string, cookie: string, pairs: Array<[string, string]>) =>
  send(server, `/assignment/${id}?section=${pairs.find(([k]) => k === 'section')?.[1] ?? 1}`, {
    cookie,
    form: form(pairs),
  })

/** Every kind of write a page can send, each of which must be refused the same way. */
const WRITES = (w: World): Array<Array<[string, string]>> => [
  [['intent', 'save'], ['section', '1'], ...sectionAnswers(w, 1)],
  [['intent', 'next'], ['section', '1'], ...sectionAnswers(w, 1)],
  [['intent', 'finish-later'], ['section', '2'], ...sectionAnswers(w, 2)],
  [['intent', 'autosave'], ['section', '1'], ...sectionAnswers(w, 1)],
  [['intent', 'submit'], ['section', '3'], ...sectionAnswers(w, 3)],
]

async function expect404(id: string, cookie: string, w: World) {
  const get = await send(server, `/assignment/${id}`, { cookie })
  expect(get.status).toBe(404)
  expect(await get.text()).toContain('Page Not Found')
  for (const pairs of WRITES(w)) {
    const response = await post(id, cookie, pairs)
    expect(response.status, pairs[0]![1]).toBe(404)
    const data = await send(server, `/assignment/${id}.data`, { cookie, form: form(pairs) })
    expect(data.status).toBe(404)
  }
}

describe('ownership: not yours is not found', () => {
  test('an employee opening another employee’s self-assessment', async () => {
    const w = await createWorld()
    const other = await createUser({ role: 'employee' })
    await enrolEmployee(w.scheme, other.id)
    const before = await snapshot(w.self.id)
    await expect404(w.self.id, await sessionCookieFor(other.id), w)
    expect(await snapshot(w.self.id)).toBe(before)
  })

  test('an employee opening the rater assignment about them (it is their colleague’s to answer)', async () => {
    const w = await createWorld()
    const before = await snapshot(w.rater.id)
    await expect404(w.rater.id, w.employeeCookie, w)
    expect(await snapshot(w.rater.id)).toBe(before)
  })

  test('a colleague opening the self-assessment of the person they give feedback to', async () => {
    const w = await createWorld()
    const before = await snapshot(w.self.id)
    await expect404(w.self.id, w.colleagueCookie, w)
    expect(await snapshot(w.self.id)).toBe(before)
  })

  test('a colleague opening another colleague’s assignment on the same employee', async () => {
    const w = await createWorld()
    const second = await createUser({ role: 'colleague' })
    const theirs = await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: second.id,
    })
    const before = await snapshot(theirs.id)
    await expect404(theirs.id, w.colleagueCookie, w)
    expect(await snapshot(theirs.id)).toBe(before)
  })

  test('a revoked invitation is gone for its colleague', async () => {
    const w = await createWorld()
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, w.rater.id))
    const before = await snapshot(w.rater.id)
    await expect404(w.rater.id, w.colleagueCookie, w)
    expect(await snapshot(w.rater.id)).toBe(before)
  })

  test('unknown and malformed ids', async () => {
    const w = await createWorld()
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', `${w.self.id}x`]) {
      expect((await send(server, `/assignment/${id}`, { cookie: w.employeeCookie })).status).toBe(404)
      expect(
        (
          await post(id, w.employeeCookie, [
            ['intent', 'save'],
            ['section', '1'],
          ])
        ).status,
      ).toBe(404)
    }
  })

  test('signed out: GET and POST go to sign-in, nothing is written', async () => {
    const w = await createWorld()
    const before = await snapshot(w.self.id)
    const get = await send(server, `/assignment/${w.self.id}`)
    expect(get.status).toBe(302)
    expect(get.headers.get('Location')).toContain('/sign-in?redirectTo=')
    const write = await post(w.self.id, '', [['intent', 'save'], ['section', '1'], ...sectionAnswers(w, 1)])
    expect(write.status).toBe(302)
    expect(await snapshot(w.self.id)).toBe(before)
  })
})

describe('admins look but never answer', () => {
  test('GET shows a read-only view of the saved answers; every POST is refused and writes nothing', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [['intent', 'save'], ['section', '1'], ...sectionAnswers(w, 1)])
    const adminCookie = await sessionCookieFor((await createUser({ role: 'admin' })).id)
    const get = await send(server, `/assignment/${w.self.id}`, { cookie: adminCookie })
    expect(get.status).toBe(200)
    const html = await get.text()
    expect(main(html)).toContain('Administrators can view answers but cannot answer on someone’s behalf.')
    expect(main(html)).toContain('I listen before I answer. 4 – Often')
    expect(main(html)).toContain('What could I do differently? No answer')
    expect(html).not.toContain('name="intent"')

    // The rater assignment reads in the rater wording.
    const rater = await (await send(server, `/assignment/${w.rater.id}`, { cookie: adminCookie })).text()
    expect(main(rater)).toContain('Erin Example listens before answering.')

    const before = await snapshot(w.self.id)
    for (const pairs of WRITES(w)) {
      const response = await post(w.self.id, adminCookie, pairs)
      expect(response.status, pairs[0]![1]).toBe(403)
      expect(alertTexts(await response.text()).join(' ')).toContain(
        'Administrators can view answers but cannot answer on someone’s behalf.',
      )
    }
    const data = await send(server, `/assignment/${w.self.id}.data`, {
      cookie: adminCookie,
      form: form(WRITES(w)[3]!),
    })
    expect(data.status).toBe(403)
    expect(await decodeData(data)).toMatchObject({ data: { kind: 'refused', reason: 'admin' } })
    expect(await snapshot(w.self.id)).toBe(before)
  })
})

describe('deadlines', () => {
  async function expectRefused(w: World, message: string) {
    const before = await snapshot(w.self.id)
    for (const pairs of WRITES(w)) {
      const response = await post(w.self.id, w.employeeCookie, pairs)
      expect(response.status, pairs[0]![1]).toBe(409)
      expect(alertTexts(await response.text()).join(' ')).toContain(message)
    }
    expect(await snapshot(w.self.id)).toBe(before)
  }

  test('after closes_at: a clear message, no form, and every write refused', async () => {
    const w = await createWorld()
    await post(w.self.id, w.employeeCookie, [['intent', 'save'], ['section', '1'], ...sectionAnswers(w, 1)])
    const closesAt = new Date(Date.now() - 60_000)
    await db()
      .update(schemes)
      .set({ opensAt: new Date(Date.now() - 30 * DAY), closesAt })
      .where(eq(schemes.id, w.scheme.id))
    const html = await (await send(server, `/assignment/${w.self.id}`, { cookie: w.employeeCookie })).text()
    expect(main(html)).toContain('This feedback round closed on')
    expect(main(html)).toContain('Answers can no longer be added, changed or submitted.')
    expect(html).not.toContain('name="intent"')
    // What was saved before is still shown.
    expect(main(html)).toContain('I listen before I answer. 4 – Often')
    await expectRefused(w, 'This feedback round closed on')
    expect((await assignmentRow(w.self.id)).status).toBe('in_progress')
  })

  test('a scheme closed by status before its date refuses too; nothing is created for a fresh assignment', async () => {
    const w = await createWorld()
    await db().update(schemes).set({ status: 'closed' }).where(eq(schemes.id, w.scheme.id))
    await expectRefused(w, 'This feedback round closed on')
    expect(await responseOf(w.self.id)).toBeUndefined()
    expect((await answersOf(w.self.id)).size).toBe(0)
    expect((await assignmentRow(w.self.id)).status).toBe('pending')
  })

  test('a scheme that has not opened yet (draft, or opening later) refuses writes', async () => {
    const w = await createWorld({
      scheme: { opensAt: new Date(Date.now() + 2 * DAY), closesAt: new Date(Date.now() + 30 * DAY) },
    })
    const html = await (await send(server, `/assignment/${w.self.id}`, { cookie: w.employeeCookie })).text()
    expect(main(html)).toContain('This feedback round has not opened yet')
    await expectRefused(w, 'This feedback round has not opened yet')
    await db()
      .update(schemes)
      .set({ status: 'draft', opensAt: new Date(Date.now() - DAY) })
      .where(eq(schemes.id, w.scheme.id))
    await expectRefused(w, 'This feedback round has not opened yet')
  })

  test('a submitted assignment replayed after the close still lands on the thank-you page, unchanged', async () => {
    const w = await createWorld()
    for (const s of [1, 2, 3] as const)
      await post(w.self.id, w.employeeCookie, [
        ['intent', 'save'],
        ['section', String(s)],
        ...sectionAnswers(w, s),
      ])
    const submit: Array<[string, string]> = [['intent', 'submit'], ['section', '3'], ...sectionAnswers(w, 3)]
    expect((await post(w.self.id, w.employeeCookie, submit)).status).toBe(302)
    await db().update(schemes).set({ status: 'closed' }).where(eq(schemes.id, w.scheme.id))
    const before = await snapshot(w.self.id)
    const replay = await post(w.self.id, w.employeeCookie, submit)
    expect(replay.status).toBe(302)
    expect(replay.headers.get('Location')).toBe(`/user/thank-you?assignment=${w.self.id}`)
    expect(await snapshot(w.self.id)).toBe(before)
    // Saving answers is refused as "submitted" (the more useful reason).
    const save = await post(w.self.id, w.employeeCookie, [
      ['intent', 'save'],
      ['section', '1'],
      [field(w.q[0]!.id), '1'],
    ])
    expect(save.status).toBe(409)
  })
})
