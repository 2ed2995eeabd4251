import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { auditLog, schemes } from '#db/schema/index'
import { createUser } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { inviteColleague } from '#app/modules/invite/invite.server'
import { sendApproverReminders } from '#app/modules/nomination/nomination.server'
import { footprint, liveRaters } from './invite-helpers'
import { listOf, listRequests, listScheme, mailTo, memberOf } from './nomination-helpers'

/**
 * Nomination with approval (issue 18 §3, ADR 042), through the real routes: the employee builds a
 * list, sends it to their manager, who sends it back or approves it; invitations (assignment,
 * code, outbox e-mail) exist only after approval, written by the approval's own transaction.
 */
const db = useTestDatabase()
const server = useTestServer()

const { post, add, page } = listRequests(server)

describe('building the list', () => {
  test('adding people writes nominees only: no account, invitation, code or e-mail for them', async () => {
    const s = await listScheme()
    const before = await footprint()
    const response = await add(s, 'Pat Peer', 'Pat.Peer@Example.test')
    expect(response.status).toBe(302)
    expect(location(response)).toBe(s.href())
    const list = await listOf(s)
    expect(list).toMatchObject([{ name: 'Pat Peer', email: 'pat.peer@example.test', relationship: 'peer' }])
    const after = await footprint()
    expect(after.assignments).toBe(before.assignments)
    expect(after.outbox).toBe(before.outbox)
    expect(after.codes).toBe(before.codes)
    expect(after.users).toBe(before.users)
    expect(after.audit).toBe(before.audit + 1)
    expect((await memberOf(s)).nominationStatus).toBe('draft')
    const { text } = await page(s)
    expect(text).toContain('On the list (1)')
    expect(text).toContain('Pat Peer')
    expect(text).toContain('Not sent yet. When the list is ready, send it to Mona Manager for approval.')
  })

  test('the invitation rules hold, with the same words: self, twice, an admin, the maximum, bad input', async () => {
    const s = await listScheme({ maxColleagues: 2 })
    const admin = await createUser({ role: 'admin' })
    const self = await add(s, 'Me', s.employee.email)
    expect(self.status).toBe(400)
    expect(textOf(await self.text())).toContain('That is your own e-mail address.')
    const unavailable = await add(s, 'Boss', admin.email)
    expect(unavailable.status).toBe(400)
    expect(textOf(await unavailable.text())).toContain('This address cannot be invited to give feedback.')
    expect((await add(s, 'Pat', 'pat@example.test')).status).toBe(302)
    const twice = await add(s, 'Pat again', 'PAT@example.test')
    expect(twice.status).toBe(400)
    expect(textOf(await twice.text())).toContain('pat@example.test has already been invited')
    expect((await add(s, 'Quinn', 'quinn@example.test')).status).toBe(302)
    const third = await add(s, 'Rae', 'rae@example.test')
    expect(third.status).toBe(400)
    expect(textOf(await third.text())).toContain(
      'The list already has 2 colleagues, the most this scheme allows.',
    )
    const bad = await post(s, { intent: 'add', name: '', email: 'not-an-address', relationship: 'boss' })
    expect(bad.status).toBe(400)
    const badText = textOf(await bad.text())
    expect(badText).toContain('Enter your colleague’s name.')
    expect(badText).toContain('Choose how you work with this colleague')
    expect(await listOf(s)).toHaveLength(2)
  })

  test('a pasted list is checked line by line: good lines are added, the others come back with reasons', async () => {
    const s = await listScheme()
    const response = await post(s, {
      intent: 'paste',
      relationship: 'peer',
      text: `Ana Silva <ana.silva@example.test>\nnot an address\n${s.employee.email}\nbo.jones@example.test; "Cy Lee" <cy@example.test>`,
    })
    expect(response.status).toBe(200)
    const text = textOf(await response.text())
    expect(text).toContain('3 added. These lines were not, and are left in the box to correct:')
    expect(text).toContain('not an address : Enter an e-mail address like name@example.com.')
    expect(text).toContain('That is your own e-mail address.')
    expect((await listOf(s)).map((n) => [n.name, n.email]).sort()).toEqual([
      ['Ana Silva', 'ana.silva@example.test'],
      ['Bo Jones', 'bo.jones@example.test'],
      ['Cy Lee', 'cy@example.test'],
    ])
    const empty = await post(s, { intent: 'paste', relationship: 'peer', text: ' \n ; ' })
    expect(empty.status).toBe(400)
    expect(textOf(await empty.text())).toContain('No e-mail address was found in what you pasted.')
  })

  test('a scheme that approves lists takes no direct invitation; one whose admins choose takes none from the employee', async () => {
    const s = await listScheme()
    const refused = await inviteColleague(
      { id: s.employee.id, role: 'employee' },
      {
        employeeId: s.employee.id,
        schemeId: s.scheme.id,
        name: 'Pat',
        email: 'pat@example.test',
        relationship: 'peer',
      },
    )
    expect(refused).toMatchObject({
      ok: false,
      formErrors: [expect.stringContaining('approved before anyone is invited')],
    })
    const adminChooses = await listScheme({ chooser: 'admin' })
    const denied = await add(adminChooses, 'Pat', 'pat@example.test')
    expect(denied.status).toBe(400)
    expect(textOf(await denied.text())).toContain('the administrators choose who gives you feedback')
    const admin = await createUser({ role: 'admin' })
    const byAdmin = await add(
      adminChooses,
      'Pat',
      'pat@example.test',
      'peer',
      await sessionCookieFor(admin.id),
    )
    expect(byAdmin.status).toBe(302)
  })

  test('after the nomination deadline the employee can no longer change the list; an admin still can', async () => {
    const s = await listScheme({ nominationsCloseAt: new Date(Date.now() - 60_000) })
    const late = await add(s, 'Pat', 'pat@example.test')
    expect(late.status).toBe(400)
    expect(textOf(await late.text())).toContain('The nomination deadline')
    const admin = await createUser({ role: 'admin' })
    expect((await add(s, 'Pat', 'pat@example.test', 'peer', await sessionCookieFor(admin.id))).status).toBe(
      302,
    )
  })

  test('the manager on record is suggested and added by id, the address looked up by the server', async () => {
    const s = await listScheme()
    expect((await page(s)).text).toContain('Your manager on record, Mona Manager, is not on the list.')
    const added = await post(s, {
      intent: 'add',
      personId: s.manager!.id,
      name: 'Mona Manager',
      relationship: 'manager',
    })
    expect(added.status).toBe(302)
    expect(await listOf(s)).toMatchObject([{ email: s.manager!.email, relationship: 'manager' }])
    expect((await page(s)).text).not.toContain('manager on record')
    // Only a colleague of the same company, enabled and not the employee themself, is found by id.
    const stranger = await createUser({ role: 'employee' })
    for (const personId of [stranger.id, s.employee.id]) {
      const refused = await post(s, { intent: 'add', personId, name: 'Someone', relationship: 'peer' })
      expect(refused.status).toBe(400)
      expect(textOf(await refused.text())).toContain('That colleague cannot be added from the directory.')
    }
  })

  test('concurrent adds never pass the maximum', async () => {
    const s = await listScheme({ maxColleagues: 3 })
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => add(s, `Person ${i}`, `person${i}@example.test`)),
    )
    expect(results.filter((r) => r.status === 302)).toHaveLength(3)
    expect(results.every((r) => r.status === 302 || r.status === 400)).toBe(true)
    expect(await listOf(s)).toHaveLength(3)
  })
})

describe('approval', () => {
  async function submitted(options: Parameters<typeof listScheme>[0] = {}) {
    const s = await listScheme(options)
    // Addresses of this test's own: the database is shared by the file's tests.
    const tag = s.scheme.id.slice(0, 8)
    const pat = `pat.peer.${tag}@example.test`
    expect((await add(s, 'Pat Peer', pat)).status).toBe(302)
    expect((await add(s, 'Dee Report', `dee.${tag}@example.test`, 'direct_report')).status).toBe(302)
    const response = await post(s, { intent: 'submit' })
    expect(response.status).toBe(302)
    return { ...s, pat }
  }

  test('sending the list e-mails the manager a link; it waits on their home page, and only theirs', async () => {
    const s = await submitted()
    const member = await memberOf(s)
    expect(member.nominationStatus).toBe('submitted')
    expect(member.nominationApproverId).toBe(s.manager!.id)
    const [mail] = await mailTo(s.manager!.email, 'nomination_submitted')
    expect(mail?.text).toContain(`/user/nominations?scheme=${s.scheme.id}&employee=${s.employee.id}`)
    expect(mail?.subject).toContain('Erin Employee asks you to approve their feedback list')
    // Nobody on the list has heard anything.
    expect(await mailTo(s.pat, 'colleague_invite')).toHaveLength(0)

    const home = textOf(await (await send(server, '/user', { cookie: s.managerCookie })).text())
    expect(home).toContain('Nominations waiting for you')
    expect(home).toContain('Erin Employee')
    const outsider = await createUser({ role: 'employee', companyId: s.company.id })
    const outsiderCookie = await sessionCookieFor(outsider.id)
    expect(textOf(await (await send(server, '/user', { cookie: outsiderCookie })).text())).not.toContain(
      'Nominations waiting for you',
    )
    // Another employee, even of the same company, cannot open or act on the list.
    expect((await page(s, outsiderCookie)).status).toBe(404)
    expect((await post(s, { intent: 'approve' }, outsiderCookie)).status).toBe(404)

    // While it waits, the employee cannot change it (they may take it back).
    const blocked = await add(s, 'Late', 'late@example.test')
    expect(blocked.status).toBe(400)
    expect(textOf(await blocked.text())).toContain('waiting for approval')
    // …and the employee cannot approve their own list.
    expect((await post(s, { intent: 'approve' })).status).toBe(400)
  })

  test('the manager sends it back with a comment; the employee changes it and sends it again', async () => {
    const s = await submitted()
    const noComment = await post(s, { intent: 'send-back', comment: '  ' }, 'manager')
    expect(noComment.status).toBe(400)
    expect(textOf(await noComment.text())).toContain('Say what should change')
    const back = await post(s, { intent: 'send-back', comment: 'Please add a peer from Sales.' }, 'manager')
    expect(back.status).toBe(302)
    expect((await memberOf(s)).nominationStatus).toBe('sent_back')
    const [mail] = await mailTo(s.employee.email, 'nomination_sent_back')
    expect(mail?.text).toContain('Please add a peer from Sales.')
    expect(mail?.text).toContain('Mona Manager')
    const { text } = await page(s)
    expect(text).toContain('Sent back by Mona Manager.')
    expect(text).toContain('Please add a peer from Sales.')
    expect((await add(s, 'Sal Sales', 'sal@example.test')).status).toBe(302)
    expect((await post(s, { intent: 'submit' })).status).toBe(302)
    expect((await memberOf(s)).nominationStatus).toBe('submitted')
    expect((await memberOf(s)).nominationComment).toBeNull()
    const audit = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(
        sql`${auditLog.details}->>'employeeId' = ${s.employee.id} AND ${auditLog.action} LIKE 'nomination.%'`,
      )
    expect(audit.map((a) => a.action).sort()).toEqual(
      [
        'nomination.add',
        'nomination.add',
        'nomination.add',
        'nomination.send_back',
        'nomination.submit',
        'nomination.submit',
      ].sort(),
    )
  })

  test('approval invites everyone on the list in its own transaction, and tells the employee', async () => {
    const s = await submitted()
    // The approver may change the list first: what they add is marked so.
    const max = `max.${s.scheme.id.slice(0, 8)}@example.test`
    expect((await add(s, 'Max Manager', max, 'manager', 'manager')).status).toBe(302)
    const approved = await post(s, { intent: 'approve' }, 'manager')
    expect(approved.status).toBe(302)
    const raters = await liveRaters(s.scheme.id, s.employee.id)
    expect(raters.map((r) => r.relationship).sort()).toEqual(['direct_report', 'manager', 'peer'])
    const list = await listOf(s)
    expect(list.every((n) => n.assignmentId)).toBe(true)
    expect(list.find((n) => n.email === max)?.addedByApprover).toBe(true)
    expect(await mailTo(s.pat, 'colleague_invite')).toHaveLength(1)
    expect(await mailTo(s.employee.email, 'nomination_approved')).toHaveLength(1)
    expect((await memberOf(s)).nominationStatus).toBe('approved')
    // Approving twice does nothing more.
    const again = await post(s, { intent: 'approve' }, 'manager')
    expect(again.status).toBe(400)
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(3)
    const { text } = await page(s)
    expect(text).toContain('Approved: everyone on the list has been invited.')
    expect(text).toContain('Already invited (3)')
  })

  test('a list that can no longer be invited as it is is refused whole, naming whom, with nothing sent', async () => {
    const s = await submitted()
    // Since Pat was put on the list, their address has become an administrator's.
    await createUser({ role: 'admin', email: s.pat })
    const before = await footprint()
    const refused = await post(s, { intent: 'approve' }, 'manager')
    expect(refused.status).toBe(400)
    const text = textOf(await refused.text())
    expect(text).toContain('The list cannot be approved as it is.')
    expect(text).toContain(`Pat Peer (${s.pat}): This address cannot be invited to give feedback.`)
    const after = await footprint()
    expect(after.assignments).toBe(before.assignments)
    expect(after.outbox).toBe(before.outbox)
    expect((await memberOf(s)).nominationStatus).toBe('submitted')
  })

  test('two approvals at once invite each person once', async () => {
    const s = await submitted()
    const admin = await createUser({ role: 'admin' })
    const adminCookie = await sessionCookieFor(admin.id)
    const [a, b] = await Promise.all([
      post(s, { intent: 'approve' }, 'manager'),
      post(s, { intent: 'approve' }, adminCookie),
    ])
    expect([a.status, b.status].sort()).toEqual([302, 400])
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(2)
  })

  test('without a manager on record the list goes to the administrators, who approve it on the page', async () => {
    const s = await submitted({ withManager: false })
    expect((await memberOf(s)).nominationApproverId).toBeNull()
    const admin = await createUser({ role: 'admin' })
    const adminCookie = await sessionCookieFor(admin.id)
    const view = await page(s, adminCookie)
    expect(view.text).toContain('Waiting for your approval')
    expect((await post(s, { intent: 'approve' }, adminCookie)).status).toBe(302)
    expect(await liveRaters(s.scheme.id, s.employee.id)).toHaveLength(2)
  })

  test('the employee may take a waiting list back; the manager cannot act on it then', async () => {
    const s = await submitted()
    expect((await post(s, { intent: 'withdraw' })).status).toBe(302)
    expect((await memberOf(s)).nominationStatus).toBe('draft')
    const late = await post(s, { intent: 'approve' }, 'manager')
    expect(late.status).toBe(400)
    const lateText = textOf(await late.text())
    expect(lateText).toContain('This list has not been sent for approval')
    // The list is the employee's again: the manager's page no longer shows it.
    expect(lateText).toContain('There is no list here for you to review.')
  })

  test('managers who have not acted are reminded at the scheme’s cadence, at most three times', async () => {
    const s = await submitted()
    await db().update(schemes).set({ reminderCadenceDays: 2 }).where(eq(schemes.id, s.scheme.id))
    const day = 86_400_000
    const start = Date.now()
    const count = async () => (await mailTo(s.manager!.email, 'nomination_reminder')).length
    await sendApproverReminders(new Date(start + day))
    expect(await count()).toBe(0)
    await sendApproverReminders(new Date(start + 2 * day + 1000))
    expect(await count()).toBe(1)
    await sendApproverReminders(new Date(start + 2 * day + 2000))
    expect(await count()).toBe(1)
    await sendApproverReminders(new Date(start + 4 * day + 3000))
    await sendApproverReminders(new Date(start + 6 * day + 4000))
    await sendApproverReminders(new Date(start + 8 * day + 5000))
    expect(await count()).toBe(3)
  })
})
