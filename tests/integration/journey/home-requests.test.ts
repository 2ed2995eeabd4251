import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, inject, test, vi } from 'vitest'
import { getHandle } from '#db/client'
import { assignments, type QuestionOptions } from '#db/schema/index'
import {
  createBrand,
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { endOfDay } from '#app/lib/dates'
import { getEmployeeHome } from '#app/modules/home/home.server'
import { inviteColleague } from '#app/modules/invite/invite.server'
import { closeRealtime } from '#app/modules/realtime/listener.server'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'

/**
 * "Feedback requested from you" on /user (issue 7, item 15): an employee whom other employees asked
 * for feedback sees each request — whose, which programme, the deadline, how far they got, the way in
 * — in one ownership-scoped query, learns nothing about the other people asked, and the page's live
 * stream tells them when someone asks.
 */
const db = useTestDatabase()
const server = useTestServer()
const onPostgres = inject('testDatabase').kind === 'postgres'

afterEach(() => {
  vi.restoreAllMocks()
})

afterAll(async () => {
  await closeRealtime()
})

const DAY = 24 * 60 * 60 * 1000
const NOW = new Date()
const SECRET = 'SECRET-another-raters-answer'
const SCALE: QuestionOptions = { min: 1, max: 5, labels: ['1', '2', '3', '4', '5'], allowNa: false }

let erin = { id: '', email: '' }
let erinCookie = ''
let zed = { id: '' }
const ids = {} as Record<string, string>

async function answer(assignmentId: string, questionnaireId: string, submitted: boolean, text = 'fine') {
  const [scale, written] = await questionsOf(questionnaireId)
  return createResponse({
    assignmentId,
    submitted,
    answers: [
      { questionId: scale!.id, numericValue: 3 },
      { questionId: written!.id, textValue: text },
    ],
  })
}

beforeAll(async () => {
  erin = await createUser({ role: 'employee', displayName: 'Erin Asked' })
  erinCookie = await sessionCookieFor(erin.id)
  zed = await createUser({ role: 'colleague', displayName: 'Zed Otherrater' })
  const q = await createQuestionnaire({
    questions: [
      {
        section: 'A',
        kind: 'scale',
        text: 'I plan.',
        raterText: '{{name}} plans.',
        category: 'Planning',
        options: SCALE,
      },
      {
        section: 'A',
        kind: 'text',
        text: 'Keep?',
        raterText: 'Keep?',
        category: 'Planning',
        required: false,
      },
    ],
  })
  ids.questionnaire = q.id
  const harbour = await createCompany({
    name: 'Harbour Co',
    brandId: (await createBrand({ name: 'Harbour Consulting', primaryColor: '#123456' })).id,
  })
  const summit = await createCompany({
    name: 'Summit Co',
    brandId: (await createBrand({ name: 'Summit Partners', primaryColor: '#7c2d12' })).id,
  })
  const subject = async (name: string) => createUser({ role: 'employee', displayName: name })

  // Open, not started, UK deadline at the end of a day; Zed was asked too (he must stay invisible).
  const ann = await subject('Ann Asker')
  const open = await createScheme({
    name: 'Harbour programme',
    companyId: harbour.id,
    questionnaireId: q.id,
    timeZone: 'Europe/London',
    closesAt: endOfDay(new Date(NOW.getTime() + 10 * DAY), 'Europe/London'),
  })
  await enrolEmployee(open, ann.id)
  ids.pending = (await createRaterAssignment({ scheme: open, subjectId: ann.id, respondentId: erin.id })).id
  const zeds = await createRaterAssignment({ scheme: open, subjectId: ann.id, respondentId: zed.id })
  await answer(zeds.id, q.id, true, SECRET)

  // Another brand's programme, started.
  const ben = await subject('Ben Begun')
  const second = await createScheme({
    name: 'Summit programme',
    companyId: summit.id,
    questionnaireId: q.id,
    closesAt: new Date(NOW.getTime() + 20 * DAY),
  })
  await enrolEmployee(second, ben.id)
  ids.started = (await createRaterAssignment({ scheme: second, subjectId: ben.id, respondentId: erin.id })).id
  await answer(ids.started, q.id, false)

  // Answered, in a programme that has closed since.
  const cat = await subject('Cat Closed')
  const closed = await createScheme({
    name: 'Closed programme',
    companyId: harbour.id,
    questionnaireId: q.id,
    status: 'closed',
    opensAt: new Date(NOW.getTime() - 40 * DAY),
    closesAt: new Date(NOW.getTime() - 2 * DAY),
  })
  await enrolEmployee(closed, cat.id)
  ids.submitted = (
    await createRaterAssignment({ scheme: closed, subjectId: cat.id, respondentId: erin.id })
  ).id
  await answer(ids.submitted, q.id, true)

  // Withdrawn, and in a draft: neither is a request any more (or yet).
  const dan = await subject('Dan Withdrawn')
  await enrolEmployee(open, dan.id)
  const withdrawn = await createRaterAssignment({ scheme: open, subjectId: dan.id, respondentId: erin.id })
  await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, withdrawn.id))
  const eve = await subject('Eve Draft')
  const draft = await createScheme({
    name: 'Draft programme',
    companyId: harbour.id,
    questionnaireId: q.id,
    status: 'draft',
  })
  await enrolEmployee(draft, eve.id)
  await createRaterAssignment({ scheme: draft, subjectId: eve.id, respondentId: erin.id })
})

describe('the loader data', () => {
  test('lists each request: to answer first, by deadline; then answered; with the programme’s brand', async () => {
    const { requests } = await getEmployeeHome(erin.id, NOW)
    expect(
      requests.map((r) => [r.subjectName, r.schemeName, r.brand?.name, r.statusLabel, r.action?.label]),
    ).toEqual([
      ['Ann Asker', 'Harbour programme', 'Harbour Consulting', 'Not started', 'Give your feedback'],
      ['Ben Begun', 'Summit programme', 'Summit Partners', 'In progress', 'Continue your feedback'],
      ['Cat Closed', 'Closed programme', 'Harbour Consulting', 'Submitted', 'View your answers'],
    ])
    const [pending, started, submitted] = requests
    expect(pending!.action!.href).toBe(`/questionnaire/${ids.questionnaire}?assignment=${ids.pending}`)
    expect(started!.action!.href).toBe(`/assignment/${ids.started}`)
    expect(submitted!.action!.href).toBe(`/assignment/${ids.submitted}`)
    // The deadline in the programme's own zone: the end of a day in London.
    expect(pending!.deadline).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4} at 23:59 (BST|GMT)$/)
  })

  test('reveals nothing about the other people asked, nor anyone’s answers', async () => {
    const data = JSON.stringify(await getEmployeeHome(erin.id, NOW))
    expect(data).not.toContain('Zed')
    expect(data).not.toContain(zed.id)
    expect(data).not.toContain(SECRET)
    expect(data).not.toContain('Dan Withdrawn')
    expect(data).not.toContain('Eve Draft')
    // Zed's own home shows Ann's request to him, and nothing of Erin.
    const zeds = await getEmployeeHome(zed.id, NOW)
    expect(zeds.requests.map((r) => r.subjectName)).toEqual(['Ann Asker'])
    expect(JSON.stringify(zeds)).not.toContain('Erin')
  })

  test('one query for the requests, however many there are', async () => {
    const countQueries = async (fn: () => Promise<unknown>) => {
      const handle = getHandle()
      const spy = onPostgres ? vi.spyOn(handle.pool!, 'query') : vi.spyOn(handle.pglite!, 'query')
      await fn()
      const count = spy.mock.calls.length
      spy.mockRestore()
      return count
    }
    const nobody = await createUser({ role: 'employee' })
    const none = await countQueries(() => getEmployeeHome(nobody.id))
    const three = await countQueries(() => getEmployeeHome(erin.id))
    // Four in all: the programmes (with their colleagues), the requests (ADR 036), the lists of
    // raters waiting for this employee's approval as a manager (ADR 042, a partial index), and the
    // reports shared with them as a manager (ADR 043).
    expect({ none, three }).toEqual({ none: 4, three: 4 })
  })
})

describe('the page', () => {
  test('shows the requests with their links, without an empty-state message', async () => {
    const response = await send(server, '/user', { cookie: erinCookie })
    expect(response.status).toBe(200)
    const html = await response.text()
    const text = textOf(html)
    expect(text).toContain('Feedback requested from you')
    expect(text).toContain('Feedback for Ann Asker')
    expect(text).toContain('Harbour programme · with Harbour Consulting')
    expect(text).toContain('Feedback for Ben Begun')
    expect(html).toContain(`href="/questionnaire/${ids.questionnaire}?assignment=${ids.pending}"`)
    expect(html).toContain(`href="/assignment/${ids.started}"`)
    expect(text).not.toContain('Nothing to do here yet')
    expect(html).not.toContain('Zed')
    expect(html).not.toContain(SECRET)
  })
})

describe('live updates', () => {
  test('being asked for feedback reaches the stream of the person asked, and no one else’s', async () => {
    const inviter = await createUser({ role: 'employee', displayName: 'Ivy Inviter' })
    const [harbour] = await db().select().from(assignments).where(eq(assignments.id, ids.pending))
    const scheme = {
      id: harbour!.schemeId,
      questionnaireId: ids.questionnaire,
      closesAt: new Date(NOW.getTime() + 10 * DAY),
    }
    await enrolEmployee(scheme, inviter.id)

    const open = async (cookie: string) => {
      const controller = new AbortController()
      const response = await fetch(server.url + '/api/events', {
        headers: { Cookie: cookie, Accept: 'text/event-stream' },
        signal: controller.signal,
      })
      expect(response.status).toBe(200)
      const reader = response.body!.getReader()
      const decoder = new TextDecoder()
      let text = ''
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read()
            if (done) break
            text += decoder.decode(value, { stream: true })
          }
        } catch {
          // aborted
        }
      })()
      return { read: () => text, close: () => controller.abort() }
    }
    const erinStream = await open(erinCookie)
    const zedStream = await open(await sessionCookieFor((await createUser({ role: 'employee' })).id))
    try {
      await new Promise((r) => setTimeout(r, 200))
      const outcome = await inviteColleague(
        { id: inviter.id, role: 'employee' },
        {
          employeeId: inviter.id,
          schemeId: scheme.id,
          name: 'Erin Asked',
          email: erin.email,
          relationship: 'peer',
        },
      )
      expect(outcome.ok).toBe(true)
      const deadline = Date.now() + 5_000
      while (!erinStream.read().includes('event: assignment.updated') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25))
      expect(erinStream.read()).toMatch(
        /event: assignment\.updated\ndata: \{"assignmentId":"[0-9a-f-]{36}","status":"pending"\}/,
      )
      expect(zedStream.read()).not.toContain('assignment.updated')
      // The page the event makes the browser re-read now lists the new request.
      expect((await getEmployeeHome(erin.id)).requests.map((r) => r.subjectName)).toContain('Ivy Inviter')
    } finally {
      erinStream.close()
      zedStream.close()
    }
  })
})
