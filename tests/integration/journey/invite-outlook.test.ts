import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { assignments, schemes, users } from '#db/schema/index'
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

async function invited(
  relationships: string[],
  minRaters = 3,
  showManager = false,
  minimums: Partial<Record<'minManager' | 'minPeer' | 'minDirectReport' | 'minOther', number>> = {},
  before?: (w: Awaited<ReturnType<typeof enrolledEmployee>>) => Promise<void>,
) {
  const w = await enrolledEmployee()
  await db()
    .update(schemes)
    .set({ minRaters, showManagerBelowThreshold: showManager, ...minimums })
    .where(eq(schemes.id, w.scheme.id))
  await before?.(w)
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

describe('the scheme’s minimums per group, and the manager on record', () => {
  test('nobody invited yet: what the scheme asks for; direct reports only for someone who has them', async () => {
    const { text } = await invited([], 3, false, { minManager: 1, minPeer: 3, minDirectReport: 3 })
    expect(text).toContain('Nobody is invited yet. The scheme asks for at least:')
    expect(text).toContain('Manager (0) None invited yet. The scheme asks for at least 1: invite 1 more.')
    expect(text).toContain('Peers (0) None invited yet. The scheme asks for at least 3: invite 3 more.')
    expect(text).not.toContain('Direct reports (0)')

    const managed = await invited([], 3, false, { minDirectReport: 2 }, async (w) => {
      await createUser({
        role: 'employee',
        companyId: w.company.id,
        managerId: w.employee.id,
        password: null,
      })
    })
    expect(managed.text).toContain(
      'Direct reports (0) None invited yet. The scheme asks for at least 2: invite 2 more.',
    )
  })

  test('a group below its minimum says how many more; one at it says nothing more', async () => {
    const { text } = await invited(['peer', 'peer', 'peer', 'manager'], 3, false, {
      minManager: 1,
      minPeer: 4,
    })
    expect(text).toContain('The scheme asks for at least 4: invite 1 more.')
    expect(text).not.toMatch(/Manager \(1\)[^.]*\. The scheme asks/)
  })

  test('the manager on record is suggested, and fills in the form on request, until they are invited', async () => {
    let managerEmail = ''
    const { w, text } = await invited([], 3, false, {}, async (w) => {
      const manager = await createUser({
        role: 'employee',
        companyId: w.company.id,
        displayName: 'Mona Manager',
        password: null,
      })
      managerEmail = manager.email
      await db().update(users).set({ managerId: manager.id }).where(eq(users.id, w.employee.id))
    })
    expect(text).toContain(
      'Your manager on record, Mona Manager , is not invited yet. Fill in the form for them',
    )
    const cookie = await sessionCookieFor(w.employee.id)
    // The form stays empty until asked: someone inviting peers does not clear it each time.
    expect(await (await send(server, PAGE, { cookie })).text()).not.toContain(`value="${managerEmail}"`)
    const filled = await (await send(server, `${PAGE}?fill=manager`, { cookie })).text()
    expect(filled).toContain(`value="${managerEmail}"`)
    expect(textOf(filled)).toContain('The form is filled in for them.')
    // Invited: no longer suggested.
    await createRaterAssignment({
      scheme: w.scheme,
      subjectId: w.employee.id,
      respondentId: (await db().select().from(users).where(eq(users.email, managerEmail)))[0]!.id,
      relationship: 'manager',
    })
    const after = textOf(
      await (await send(server, PAGE, { cookie: await sessionCookieFor(w.employee.id) })).text(),
    )
    expect(after).not.toContain('manager on record')
  })
})

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
