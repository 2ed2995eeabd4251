import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { assignments } from '#db/schema/index'
import { createRaterAssignment, createResponse, createUser } from '#db/factories'
import { getEmployeeHome } from '#app/modules/home/home.server'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { answersFor, buildReport, releaseNow } from './report-scenario'

/**
 * The phase of an assignment is one rule (issue 16 §2, scheme/state.ts): the scheme's phase, and a
 * round ended early by a release (assignments.closed_at, ADR 022). An employee asked for feedback
 * whose round ended at a release must not be offered "Give your feedback" on /user while
 * /assignment/:id refuses: the home page and the answering page say the same thing.
 */
const db = useTestDatabase()
const server = useTestServer()

let erin = { id: '' }
let erinCookie = ''
const ids = {} as Record<string, string>

beforeAll(async () => {
  // An open scheme, a report with enough colleagues in; Erin (an employee) was asked twice, once not
  // started and once started, and neither answer was in when the administrator released the report.
  const s = await buildReport({ minRaters: 2, release: false, raters: [{}, {}] })
  erin = await createUser({ role: 'employee', displayName: 'Erin Late', password: null })
  erinCookie = await sessionCookieFor(erin.id)
  const pending = await createRaterAssignment({
    scheme: s.scheme,
    subjectId: s.employee.id,
    respondentId: erin.id,
  })
  ids.pending = pending.id
  const other = await createUser({ role: 'employee', password: null })
  const started = await createRaterAssignment({
    scheme: s.scheme,
    subjectId: other.id,
    respondentId: erin.id,
  })
  ids.started = started.id
  await createResponse({ assignmentId: started.id, answers: answersFor(s.qs), submitted: false })
  // Only the first round ends with the release (the second is about someone else's report).
  await releaseNow(s.scheme.id, s.employee.id)
  const [row] = await db()
    .select({ closedAt: assignments.closedAt })
    .from(assignments)
    .where(eq(assignments.id, pending.id))
  expect(row!.closedAt).not.toBeNull()
})

describe('a round ended by a release', () => {
  test('the home page shows it closed, with no way to answer', async () => {
    const { requests } = await getEmployeeHome(erin.id)
    const ended = requests.find((r) => r.id === ids.pending)!
    expect({ phase: ended.phase, statusLabel: ended.statusLabel, action: ended.action }).toEqual({
      phase: 'closed',
      statusLabel: 'Closed',
      action: null,
    })
    // The other round, about someone whose report was not released, is still open; it comes first.
    const still = requests.find((r) => r.id === ids.started)!
    expect({ phase: still.phase, action: still.action?.label }).toEqual({
      phase: 'open',
      action: 'Continue your feedback',
    })
    expect(requests.map((r) => r.id)).toEqual([ids.started, ids.pending])
  })

  test('/user and /assignment/:id tell one story', async () => {
    const home = await send(server, '/user', { cookie: erinCookie })
    expect(home.status).toBe(200)
    const html = await home.text()
    expect(html).not.toContain(`assignment=${ids.pending}`)
    expect(html).not.toContain(`href="/assignment/${ids.pending}"`)
    const page = await send(server, `/assignment/${ids.pending}`, { cookie: erinCookie })
    expect(page.status).toBe(200)
    expect(textOf(await page.text())).toContain('This feedback round closed on')
  })
})
