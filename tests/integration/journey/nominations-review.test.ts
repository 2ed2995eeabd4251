import pg from 'pg'
import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getHandle } from '#db/client'
import { assignments, nominees, schemes, users } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { sendApproverReminders } from '#app/modules/nomination/nomination.server'
import { footprint, liveRaters } from './invite-helpers'
import {
  listOf,
  listRequests,
  listScheme,
  mailTo,
  memberOf,
  NOMINATIONS_PAGE as PAGE,
} from './nomination-helpers'

/**
 * A review of nomination with approval (ADR 042) as an attacker, a careful reviewer and a new
 * user: who may reach a list, the state machine's edges, bad input, concurrency and lock order,
 * what each viewer reads. Through the real routes, like nominations.test.ts.
 */
const db = useTestDatabase()
const server = useTestServer()
const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

const { post, add, page } = listRequests(server)

async function submitted(options: Parameters<typeof listScheme>[0] = {}) {
  const s = await listScheme(options)
  const pat = s.address('pat')
  const dee = s.address('dee')
  expect((await add(s, 'Pat Peer', pat)).status).toBe(302)
  expect((await add(s, 'Dee Report', dee, 'direct_report')).status).toBe(302)
  expect((await post(s, { intent: 'submit' })).status).toBe(302)
  return { ...s, pat, dee }
}

async function adminCookie() {
  return sessionCookieFor((await createUser({ role: 'admin' })).id)
}

describe('who may reach a list', () => {
  test('the employee posting "approve" on their own list uses up nobody’s invitation limits', async () => {
    const s = await submitted()
    // Each of these is refused (only the approver approves); before, each counted an invitation
    // against every address on the list, so five of them left the manager unable to approve.
    for (let i = 0; i < 6; i++) {
      const refused = await post(s, { intent: 'approve' })
      expect(refused.status).toBe(400)
      expect(textOf(await refused.text())).toContain('Only the approver of this list')
    }
    const approved = await post(s, { intent: 'approve' }, 'manager')
    expect(approved.status).toBe(302)
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(2)
  })

  test('a colleague, an outsider, another company’s admin-less employee: the same 404 as a list that is not there', async () => {
    const s = await submitted()
    const colleague = await sessionCookieFor((await createUser({ role: 'colleague' })).id)
    const outsider = await sessionCookieFor((await createUser({ role: 'employee' })).id)
    const sameCompany = await sessionCookieFor(
      (await createUser({ role: 'employee', companyId: s.company.id })).id,
    )
    for (const cookie of [outsider, sameCompany]) {
      expect((await page(s, cookie)).status).toBe(404)
      for (const intent of ['approve', 'send-back', 'withdraw', 'submit', 'add', 'paste', 'remove'])
        expect((await post(s, { intent, comment: 'x', text: 'a@example.test' }, cookie)).status).toBe(404)
    }
    // No such employee, and no such scheme for the manager: the same answer.
    const ghost = `${PAGE}?scheme=${s.scheme.id}&employee=00000000-0000-4000-8000-000000000000`
    expect((await send(server, ghost, { cookie: s.managerCookie })).status).toBe(404)
    const other = `${PAGE}?scheme=00000000-0000-4000-8000-000000000000&employee=${s.employee.id}`
    expect([200, 404]).toContain((await send(server, other, { cookie: s.managerCookie })).status)
    // A colleague (an outside rater) reaches nothing here: sent away, nothing changed.
    for (const response of [
      await send(server, s.href('other'), { cookie: colleague }),
      await post(s, { intent: 'approve' }, colleague),
      await post(s, { intent: 'add', name: 'X', email: s.address('x'), relationship: 'peer' }, colleague),
    ]) {
      expect([302, 303, 403, 404]).toContain(response.status)
      if (response.status === 302) expect(location(response)).not.toContain(PAGE)
    }
    expect((await memberOf(s)).nominationStatus).toBe('submitted')
    expect(await listOf(s)).toHaveLength(2)
  })

  test('a former manager can no longer act; the new one was not sent the list and does not see it', async () => {
    const s = await submitted()
    const next = await createUser({ role: 'employee', companyId: s.company.id, displayName: 'Nico New' })
    const nextCookie = await sessionCookieFor(next.id)
    await db().update(users).set({ managerId: next.id }).where(eq(users.id, s.employee.id))
    // The former manager: not found, and no longer waited for on their home page or by e-mail.
    expect((await page(s, 'manager')).status).toBe(404)
    expect((await post(s, { intent: 'approve' }, 'manager')).status).toBe(404)
    const home = textOf(await (await send(server, '/user', { cookie: s.managerCookie })).text())
    expect(home).not.toContain('Nominations waiting for you')
    await db().update(schemes).set({ reminderCadenceDays: 1 }).where(eq(schemes.id, s.scheme.id))
    await sendApproverReminders(new Date(Date.now() + 2 * 86_400_000))
    expect(await mailTo(s.manager!.email, 'nomination_reminder')).toHaveLength(0)
    // The new manager: the list was not sent to them, so they neither read it nor act on it.
    const view = await page(s, nextCookie)
    expect(view.status).toBe(200)
    expect(view.text).toContain('There is no list here for you to review.')
    expect(view.text).not.toContain('Pat Peer')
    expect((await post(s, { intent: 'approve' }, nextCookie)).status).toBe(400)
    // It waits for the administrators, who may approve any list.
    expect((await post(s, { intent: 'approve' }, await adminCookie())).status).toBe(302)
  })

  test('a manager does not read a report’s list that the administrators approved', async () => {
    const s = await submitted({ withManager: false })
    expect((await post(s, { intent: 'approve' }, await adminCookie())).status).toBe(302)
    const later = await createUser({ role: 'employee', companyId: s.company.id })
    await db().update(users).set({ managerId: later.id }).where(eq(users.id, s.employee.id))
    const view = await page(s, await sessionCookieFor(later.id))
    expect(view.text).toContain('There is no list here for you to review.')
    expect(view.text).not.toContain('Pat Peer')
  })

  test('the manager reads who was invited, not who has answered; the page data carries no invited address', async () => {
    const s = await submitted()
    expect((await post(s, { intent: 'approve' }, 'manager')).status).toBe(302)
    await db()
      .update(assignments)
      .set({ status: 'submitted', submittedAt: new Date() })
      .where(
        and(
          eq(assignments.schemeId, s.scheme.id),
          eq(assignments.subjectId, s.employee.id),
          eq(assignments.respondentName, 'Pat Peer'),
        ),
      )
    expect((await page(s)).text).toContain('Answered')
    const asManager = await page(s, 'manager')
    expect(asManager.text).toContain('Already invited (2)')
    expect(asManager.text).not.toContain('Answered')
    // The single-fetch data of the page: nothing the HTML does not show.
    const dataUrl = `${PAGE}.data?scheme=${s.scheme.id}&employee=${s.employee.id}`
    const data = await send(server, dataUrl, { cookie: s.managerCookie })
    expect(data.status).toBe(200)
    const body = await data.text()
    expect(body).toContain('Pat Peer')
    expect(body).not.toContain(s.pat)
    expect(body).not.toContain(s.dee)
    expect(body).not.toContain('submitted_at')
    const own = await (await send(server, `${PAGE}.data?scheme=${s.scheme.id}`, { cookie: s.cookie })).text()
    expect(own).not.toContain(s.pat)
  })
})

describe('the manager when administrators approve, and an admin’s direct invitation', () => {
  test('approval by administrators: the manager neither reads nor acts on the list', async () => {
    const s = await submitted({ approval: 'admin' })
    expect((await memberOf(s)).nominationApproverId).toBeNull()
    const view = await page(s, 'manager')
    expect(view.text).toContain('There is no list here for you to review.')
    expect(view.text).not.toContain('Pat Peer')
    const forms: Record<string, string>[] = [
      { intent: 'approve' },
      { intent: 'send-back', comment: 'No.' },
      { intent: 'add', name: 'Max', email: s.address('max'), relationship: 'manager' },
    ]
    for (const form of forms) {
      const refused = await post(s, form, 'manager')
      expect(refused.status).toBe(400)
    }
    expect(await mailTo(s.manager!.email, 'nomination_submitted')).toHaveLength(0)
    expect((await memberOf(s)).nominationStatus).toBe('submitted')
    expect(await listOf(s)).toHaveLength(2)
  })

  test('an administrator cannot invite directly around a list waiting for approval', async () => {
    const s = await submitted()
    const admin = await createUser({ role: 'admin' })
    const { inviteColleague } = await import('#app/modules/invite/invite.server')
    const [direct, approved] = await Promise.all([
      inviteColleague(
        { id: admin.id, role: 'admin' },
        { employeeId: s.employee.id, schemeId: s.scheme.id, name: 'Pat', email: s.pat, relationship: 'peer' },
      ),
      post(s, { intent: 'approve' }, 'manager'),
    ])
    expect(direct).toMatchObject({
      ok: false,
      formErrors: [expect.stringContaining('approved before anyone')],
    })
    expect(approved.status).toBe(302)
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(2)
    expect(await mailTo(s.pat, 'colleague_invite')).toHaveLength(1)
  })
})

describe('the state machine', () => {
  test('approving a list the approver emptied is refused: nobody is invited and nobody told it was approved', async () => {
    const s = await submitted()
    for (const n of await listOf(s))
      expect((await post(s, { intent: 'remove', nomineeId: n.id }, 'manager')).status).toBe(302)
    const refused = await post(s, { intent: 'approve' }, 'manager')
    expect(refused.status).toBe(400)
    expect(textOf(await refused.text())).toContain('Nobody on the list is waiting to be invited')
    expect((await memberOf(s)).nominationStatus).toBe('submitted')
    expect(await mailTo(s.employee.email, 'nomination_approved')).toHaveLength(0)
    // Sending it back is still possible.
    expect((await post(s, { intent: 'send-back', comment: 'Add people, please.' }, 'manager')).status).toBe(
      302,
    )
  })

  test('a list left submitted in a scheme that no longer approves lists cannot be approved', async () => {
    const s = await submitted({ approval: 'admin' })
    const admin = await adminCookie()
    for (const n of await listOf(s))
      expect((await post(s, { intent: 'remove', nomineeId: n.id }, admin)).status).toBe(302)
    // No list entry and no rater: the settings may change (ADR 042).
    await db().update(schemes).set({ nominationApproval: 'none' }).where(eq(schemes.id, s.scheme.id))
    await db()
      .insert(nominees)
      .values({
        schemeId: s.scheme.id,
        employeeId: s.employee.id,
        email: s.address('late'),
        name: 'Late Entry',
        relationship: 'peer',
        addedBy: s.employee.id,
      })
    // (The page itself lists only schemes that approve lists: the answer is the refusal's status.)
    const refused = await post(s, { intent: 'approve' }, admin)
    expect(refused.status).toBe(400)
    expect((await memberOf(s)).nominationStatus).toBe('submitted')
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(0)
  })

  test('each step out of turn is a clear 400: empty, twice, after approval, after closing, after the deadline', async () => {
    const s = await listScheme()
    const empty = await post(s, { intent: 'submit' })
    expect(empty.status).toBe(400)
    expect(textOf(await empty.text())).toContain('Add at least one colleague')
    expect((await post(s, { intent: 'approve' }, 'manager')).status).toBe(400)
    expect((await post(s, { intent: 'withdraw' })).status).toBe(400)
    expect((await add(s, 'Pat', s.address('pat'))).status).toBe(302)
    expect((await post(s, { intent: 'submit' })).status).toBe(302)
    const twice = await post(s, { intent: 'submit' })
    expect(twice.status).toBe(400)
    expect(textOf(await twice.text())).toContain('waiting for approval')
    expect((await post(s, { intent: 'send-back', comment: 'More peers.' }, 'manager')).status).toBe(302)
    const backTwice = await post(s, { intent: 'send-back', comment: 'Again.' }, 'manager')
    expect(backTwice.status).toBe(400)
    // The refusal is on the page although the send-back form no longer is; and the manager reads
    // where the list stands in their own terms.
    const backText = textOf(await backTwice.text())
    expect(backText).toContain('has not been sent for approval')
    expect(backText).toContain('You sent the list back. Erin Employee can change it and send it again.')
    expect(backText).not.toContain('Only the approver of this list')
    expect((await post(s, { intent: 'submit' })).status).toBe(302)
    expect((await post(s, { intent: 'approve' }, 'manager')).status).toBe(302)
    const withdrawn = await post(s, { intent: 'withdraw' })
    expect(withdrawn.status).toBe(400)
    // An invited person stays: withdrawn on the invitations page, not taken off here.
    const [pat] = await listOf(s)
    const removeInvited = await post(s, { intent: 'remove', nomineeId: pat!.id })
    expect(removeInvited.status).toBe(400)
    expect(textOf(await removeInvited.text())).toContain('has already been invited')
    // Adding after approval makes the list a draft again; only the new person is invited next time.
    expect((await add(s, 'Quinn', s.address('quinn'))).status).toBe(302)
    expect((await memberOf(s)).nominationStatus).toBe('draft')
    expect((await page(s)).text).toContain('Already invited (1)')
    expect((await post(s, { intent: 'submit' })).status).toBe(302)
    expect((await post(s, { intent: 'approve' }, 'manager')).status).toBe(302)
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(2)
    expect(await mailTo(s.address('pat'), 'colleague_invite')).toHaveLength(1)

    // The scheme closes: nobody approves any more.
    const late = await submitted()
    await db()
      .update(schemes)
      .set({ closesAt: new Date(Date.now() - 1000), opensAt: new Date(Date.now() - 86_400_000) })
      .where(eq(schemes.id, late.scheme.id))
    const closed = await post(late, { intent: 'approve' }, 'manager')
    expect(closed.status).toBe(400)
    expect(await liveRaters(late.scheme.id, late.employee.id)).toHaveLength(0)
  })

  test('after the nomination deadline: the employee cannot change a sent-back list; the approver and admins still act', async () => {
    const s = await submitted()
    expect((await post(s, { intent: 'send-back', comment: 'One more peer.' }, 'manager')).status).toBe(302)
    await db()
      .update(schemes)
      .set({ nominationsCloseAt: new Date(Date.now() - 1000) })
      .where(eq(schemes.id, s.scheme.id))
    const steps: Record<string, string>[] = [
      { intent: 'add', name: 'Late', email: s.address('late'), relationship: 'peer' },
      { intent: 'submit' },
      { intent: 'paste', relationship: 'peer', text: s.address('late2') },
    ]
    for (const form of steps) {
      const refused = await post(s, form)
      expect(refused.status).toBe(400)
      expect(textOf(await refused.text())).toContain('The nomination deadline')
    }
    const admin = await adminCookie()
    expect((await add(s, 'Late', s.address('late'), 'peer', admin)).status).toBe(302)
    expect((await post(s, { intent: 'submit' }, admin)).status).toBe(302)
    expect((await add(s, 'Later', s.address('later'), 'peer', 'manager')).status).toBe(302)
    expect((await post(s, { intent: 'approve' }, 'manager')).status).toBe(302)
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(4)
  })
})

describe('bad input is a clear 400, never a 500', () => {
  test('every intent with missing or malformed fields, and unknown intents', async () => {
    const s = await submitted()
    const forms: Record<string, string>[] = [
      {},
      { intent: 'frobnicate' },
      { intent: 'add' },
      { intent: 'add', name: 'X', relationship: 'peer' },
      { intent: 'add', name: 'X', email: 'x@example.test' },
      { intent: 'add', name: 'X', personId: 'not-a-uuid', relationship: 'peer' },
      { intent: 'add', name: 'X'.repeat(5000), email: 'x@example.test', relationship: 'peer' },
      { intent: 'add', name: 'Bell\u0007', email: 'x@example.test', relationship: 'peer' },
      { intent: 'add', name: 'Nul\u0000', email: 'x@example.test', relationship: 'peer' },
      { intent: 'paste' },
      { intent: 'paste', relationship: 'peer', text: '' },
      { intent: 'paste', relationship: 'friend', text: 'a@example.test' },
      { intent: 'paste', relationship: 'peer', text: 'a@example.test\u0000' },
      { intent: 'paste', relationship: 'peer', text: `${'a'.repeat(60)}@example.test\n`.repeat(100) },
      { intent: 'paste', relationship: 'peer', text: 'Bell\u0007 <bell@example.test>' },
      { intent: 'remove' },
      { intent: 'remove', nomineeId: 'nope' },
      { intent: 'send-back' },
      { intent: 'send-back', comment: 'x'.repeat(1001) },
      { intent: 'send-back', comment: 'Nul \u0000 here' },
      { intent: 'send-back', comment: 'Bell \u0007 here' },
    ]
    for (const form of forms) {
      const response = await post(s, form, 'manager')
      expect({ form, status: response.status }).toEqual({ form, status: 400 })
    }
    for (const form of forms) {
      const response = await post(s, form)
      expect({ form, status: response.status }).toEqual({ form, status: 400 })
    }
    // A scheme id that is not one: not found, like a list that is not there.
    expect((await post(s, { intent: 'approve', schemeId: 'x' }, 'manager')).status).toBe(404)
    expect((await post(s, { intent: 'approve', schemeId: 'x'.repeat(500) }, 'manager')).status).toBe(400)
    expect((await memberOf(s)).nominationStatus).toBe('submitted')
    expect((await listOf(s)).map((n) => n.name).sort()).toEqual(['Dee Report', 'Pat Peer'])
  })

  test('a paste of 41 lines is refused whole; 40 is read line by line', async () => {
    const s = await listScheme({ maxColleagues: 8 })
    const lines = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => s.address(`${prefix}${i}`)).join('\n')
    const over = await post(s, { intent: 'paste', relationship: 'peer', text: lines(41, 'o') })
    expect(over.status).toBe(400)
    expect(textOf(await over.text())).toContain('Paste at most 40 addresses at a time.')
    expect(await listOf(s)).toHaveLength(0)
    const forty = await post(s, { intent: 'paste', relationship: 'peer', text: lines(40, 'f') })
    // The scheme's maximum ends it at 8: the other 32 lines come back, each with its reason.
    expect(forty.status).toBe(200)
    // The paste form is gone (the list is full), but the refused lines are still on the page.
    const fortyText = textOf(await forty.text())
    expect(fortyText).toContain(`${s.address('f39')}: The list already has 8 colleagues`)
    expect(await listOf(s)).toHaveLength(8)
  })

  test('a directory pick of an admin, an outside colleague, a disabled or another company’s employee is refused', async () => {
    const s = await listScheme()
    const admin = await createUser({ role: 'admin', companyId: s.company.id })
    const colleague = await createUser({ role: 'colleague', companyId: s.company.id })
    const disabled = await createUser({ role: 'employee', companyId: s.company.id, disabledAt: new Date() })
    const elsewhere = await createUser({ role: 'employee' })
    for (const person of [admin, colleague, disabled, elsewhere]) {
      const refused = await post(s, {
        intent: 'add',
        personId: person.id,
        name: 'Someone',
        relationship: 'peer',
      })
      expect(refused.status).toBe(400)
      const text = textOf(await refused.text())
      expect(text).toContain('That colleague cannot be added from the directory.')
      expect(text).not.toContain(person.email)
    }
    expect(await listOf(s)).toHaveLength(0)
  })

  test('a nominee of another employee’s list cannot be removed through one’s own', async () => {
    const mine = await listScheme()
    const theirs = await listScheme({ companyId: mine.company.id })
    expect((await add(theirs, 'Pat', theirs.address('pat'))).status).toBe(302)
    const [their] = await listOf(theirs)
    const response = await send(server, mine.href(), {
      cookie: mine.cookie,
      form: { intent: 'remove', schemeId: theirs.scheme.id, nomineeId: their!.id },
    })
    expect(response.status).toBe(400)
    expect(await listOf(theirs)).toHaveLength(1)
  })
})

describe('concurrency and lock order', () => {
  async function sharedPair() {
    const company = await createCompany({})
    const a = await listScheme({ companyId: company.id })
    const b = await listScheme({ companyId: company.id })
    const tag = a.scheme.id.slice(0, 8)
    const p = await createUser({ role: 'employee', companyId: company.id, email: `p.${tag}@example.test` })
    const q = await createUser({ role: 'employee', companyId: company.id, email: `q.${tag}@example.test` })
    return { a, b, p, q, tag }
  }

  async function deadlocks() {
    if (getHandle().kind !== 'postgres') return 0
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    try {
      // Each backend reports its counters when idle (within a second): read until they settle.
      let last = -1
      for (let i = 0; i < 6; i++) {
        const { rows } = await client.query<{ n: string }>(
          'SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()',
        )
        const n = Number(rows[0]!.n)
        if (n === last) return n
        last = n
        await new Promise((resolve) => setTimeout(resolve, 700))
      }
      return last
    } finally {
      await client.end()
    }
  }

  test.skipIf(!onPostgres)(
    'adding someone takes no lock on the person: a paste does not wait on another transaction’s cap check',
    async () => {
      const { a, p } = await sharedPair()
      const holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
      await holder.connect()
      try {
        await holder.query('BEGIN')
        await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`feedback-requests:${p.id}`])
        const started = Date.now()
        const pasted = post(a, { intent: 'paste', relationship: 'peer', text: p.email })
        const outcome = await Promise.race([
          pasted.then((r) => r.status),
          new Promise((resolve) => setTimeout(() => resolve('waiting'), 3000)),
        ])
        await holder.query('COMMIT')
        await pasted
        expect(outcome).toBe(302)
        expect(Date.now() - started).toBeLessThan(3000)
      } finally {
        await holder.end()
      }
    },
  )

  test('two lists sharing two people in opposite order: pasted and approved at once, no deadlock, each invited once per list', async () => {
    const { a, b, p, q, tag } = await sharedPair()
    const before = await deadlocks()
    // Existing accounts (P, Q) and new addresses (N1, N2), each pair in opposite orders.
    const n1 = `n1.${tag}@example.test`
    const n2 = `n2.${tag}@example.test`
    const pasted = await Promise.all([
      post(a, { intent: 'paste', relationship: 'peer', text: [p.email, q.email, n1, n2].join('\n') }),
      post(b, { intent: 'paste', relationship: 'peer', text: [n2, n1, q.email, p.email].join('\n') }),
    ])
    expect(pasted.map((r) => r.status)).toEqual([302, 302])
    expect((await post(a, { intent: 'submit' })).status).toBe(302)
    expect((await post(b, { intent: 'submit' })).status).toBe(302)
    for (let round = 0; round < 3; round++) {
      const [x, y] = await Promise.all([
        post(a, { intent: round === 0 ? 'approve' : 'withdraw' }, 'manager'),
        post(b, { intent: round === 0 ? 'approve' : 'withdraw' }, 'manager'),
      ])
      if (round === 0) expect([x.status, y.status]).toEqual([302, 302])
    }
    expect(await liveRaters(a.scheme.id, a.employee.id)).toHaveLength(4)
    expect(await liveRaters(b.scheme.id, b.employee.id)).toHaveLength(4)
    for (const email of [p.email, q.email, n1, n2])
      expect(await mailTo(email, 'colleague_invite')).toHaveLength(2)
    expect(await deadlocks()).toBe(before)
  })

  test('approvals at once of lists sharing new people in opposite orders never deadlock', async () => {
    const company = await createCompany({})
    const lists = await Promise.all(
      Array.from({ length: 4 }, () => listScheme({ companyId: company.id, maxColleagues: 8 })),
    )
    const tag = lists[0]!.scheme.id.slice(0, 8)
    const people = Array.from({ length: 6 }, (_, i) => `new${i}.${tag}@example.test`)
    for (const [i, s] of lists.entries()) {
      const order = i % 2 ? [...people].reverse() : people
      expect((await post(s, { intent: 'paste', relationship: 'peer', text: order.join('\n') })).status).toBe(
        302,
      )
      expect((await post(s, { intent: 'submit' })).status).toBe(302)
    }
    const before = await deadlocks()
    const results = await Promise.all(lists.map((s) => post(s, { intent: 'approve' }, 'manager')))
    expect(results.map((r) => r.status)).toEqual([302, 302, 302, 302])
    for (const s of lists) expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(6)
    expect(await deadlocks()).toBe(before)
  })

  test('two pastes at once near the maximum: the list stops at the maximum, every other line told why', async () => {
    const s = await listScheme({ maxColleagues: 8 })
    expect((await add(s, 'First', s.address('first'))).status).toBe(302)
    const lines = (prefix: string) =>
      Array.from({ length: 5 }, (_, i) => s.address(`${prefix}${i}`)).join('\n')
    const results = await Promise.all([
      post(s, { intent: 'paste', relationship: 'peer', text: lines('a') }),
      post(s, { intent: 'paste', relationship: 'peer', text: lines('b') }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 302])
    expect(await listOf(s)).toHaveLength(8)
    const partial = results.find((r) => r.status === 200)!
    expect(textOf(await partial.text())).toContain('The list already has 8 colleagues')
  })

  test('approval and a fatigue cap of one for the same person, from two lists at once: one request', async () => {
    const { a, b, p } = await sharedPair()
    await db().execute(sql`UPDATE companies SET feedback_request_cap = 1 WHERE id = ${a.company.id}`)
    for (const s of [a, b]) {
      expect((await post(s, { intent: 'paste', relationship: 'peer', text: p.email })).status).toBe(302)
      expect((await post(s, { intent: 'submit' })).status).toBe(302)
    }
    const before = await footprint()
    const results = await Promise.all([a, b].map((s) => post(s, { intent: 'approve' }, 'manager')))
    expect(results.map((r) => r.status).sort()).toEqual([302, 400])
    const refused = results.find((r) => r.status === 400)!
    expect(textOf(await refused.text())).toContain('has been asked for a lot of feedback recently')
    expect((await footprint()).assignments).toBe(before.assignments + 1)
  })
})

describe('what each reader is told', () => {
  test('the e-mails: the manager’s carries no list and links to the review; the brand is the employee’s company’s', async () => {
    const s = await listScheme()
    // The employee belongs to a company of their own brand, not the scheme's.
    const own = await createCompany({})
    await db().update(users).set({ companyId: own.id }).where(eq(users.id, s.employee.id))
    const pat = s.address('pat')
    expect((await add(s, 'Pat Peer', pat)).status).toBe(302)
    expect((await post(s, { intent: 'submit' })).status).toBe(302)
    const [toManager] = await mailTo(s.manager!.email, 'nomination_submitted')
    expect(toManager).toBeDefined()
    expect(toManager!.text).not.toContain(pat)
    expect(toManager!.text).not.toContain('Pat Peer')
    expect(toManager!.text).toContain(`${PAGE}?scheme=${s.scheme.id}&employee=${s.employee.id}`)
    expect(toManager!.brandId).toBe(own.brandId)
    expect((await post(s, { intent: 'send-back', comment: 'Add a peer.' }, 'manager')).status).toBe(302)
    const [back] = await mailTo(s.employee.email, 'nomination_sent_back')
    expect(back!.text).toContain(`${PAGE}?scheme=${s.scheme.id}`)
    expect(back!.text).not.toContain(`employee=${s.employee.id}`)
    expect(back!.brandId).toBe(own.brandId)
  })

  test('the outlook and status read right for each viewer', async () => {
    const s = await submitted({ maxColleagues: 4 })
    const own = await page(s)
    expect(own.text).toContain('Sent for approval on')
    expect(own.text).toContain('waiting for Mona Manager')
    const manager = await page(s, 'manager')
    expect(manager.text).toContain('Waiting for your approval since')
    // An administrator reads that it was sent to the manager, not that it waits for them.
    const asAdmin = await page(s, await adminCookie())
    expect(asAdmin.text).toContain('Sent to Mona Manager for approval on')
    expect(asAdmin.text).not.toContain('Waiting for your approval')
    expect((await post(s, { intent: 'approve' }, 'manager')).status).toBe(302)
    expect((await add(s, 'Quinn', s.address('quinn'))).status).toBe(302)
    const after = await page(s)
    expect(after.text).toContain(
      'Approved earlier; the people added since then are invited once the list is sent to Mona Manager and approved again.',
    )
    expect(after.text).not.toContain('Not sent yet')
    // Two invited and one on the list: one place left of four.
    expect(after.text).toContain('1 more place on the list.')
    expect(location(await add(s, 'Rae', s.address('rae')))).toBe(s.href())
    const full = await page(s)
    expect(full.text).not.toContain('more place')
  })
})
