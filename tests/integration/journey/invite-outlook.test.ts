import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { assignments, schemes } from '#db/schema/index'
import { createRaterAssignment, createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { enrolledEmployee } from './invite-helpers'

/**
 * The invite page's group outlook (issue 18 §3): before anyone answers, how the report will group
 * the colleagues invited so far, by the report's own rule (the exhaustive agreement test is in
 * tests/unit/report/report-groups.property.test.ts). Revoked invitations do not count; answers are
 * never read for it.
 */
const db = useTestDatabase()
const server = useTestServer()
const PAGE = '/user/colleague-invite'

async function invited(relationships: string[], minRaters = 3, showManager = false) {
  const w = await enrolledEmployee()
  await db()
    .update(schemes)
    .set({ minRaters, showManagerBelowThreshold: showManager })
    .where(eq(schemes.id, w.scheme.id))
  for (const relationship of relationships) {
    const colleague = await createUser({ role: 'colleague' })
    await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: colleague.id,
      relationship: relationship as 'peer',
    })
  }
  const response = await send(server, PAGE, { cookie: await sessionCookieFor(w.employee.id) })
  expect(response.status).toBe(200)
  return { w, text: textOf(await response.text()) }
}

describe('the group outlook', () => {
  test('nobody invited: no outlook', async () => {
    const { text } = await invited([])
    expect(text).not.toContain('How the report will group them')
  })

  test('below the threshold: says how many must answer first', async () => {
    const { text } = await invited(['peer', 'peer'])
    expect(text).toContain('How the report will group them')
    expect(text).toContain(
      'Colleagues’ answers show in the report once at least 3 of them have answered; 2 are invited so far.',
    )
    expect(text).toContain('Peers (2) Not shown until at least 3 colleagues have answered.')
  })

  test('a group too small to stand alone is said to join “Other colleagues”, with how many more would let it stand alone', async () => {
    const { text } = await invited([
      'peer',
      'peer',
      'peer',
      'direct_report',
      'direct_report',
      'direct_report',
      'manager',
    ])
    expect(text).toContain('Peers (3) Shown as a group of their own.')
    // One manager alone would be traceable, and so would one manager as "Other colleagues": the
    // smallest group standing alone (the later of two the same size) joins them.
    expect(text).toContain('Manager (1) Combined into “Other colleagues”, so nobody can be picked out.')
    expect(text).toContain(
      'Direct reports (3) Combined into “Other colleagues”, so nobody can be picked out. Invite 1 more to show them on their own.',
    )
  })

  test('with the manager option, a single manager stands alone and the page says why', async () => {
    const { text } = await invited(['manager', 'peer', 'peer', 'peer'], 3, true)
    expect(text).toContain(
      'Manager (1) Shown on their own: the scheme tells managers so when they are invited.',
    )
  })

  test('revoked invitations do not count', async () => {
    const { w, text: before } = await invited(['peer', 'peer', 'peer'])
    expect(before).toContain('the report shows all 3 colleagues together')
    await db().update(assignments).set({ status: 'revoked' }).where(eq(assignments.subjectId, w.employee.id))
    const response = await send(server, PAGE, { cookie: await sessionCookieFor(w.employee.id) })
    const after = textOf(await response.text())
    // Only the self-assessment was left out of it; the three revoked peers count no more.
    expect(after).not.toContain('How the report will group them')
  })
})
