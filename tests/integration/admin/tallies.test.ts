import { eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { queryRows } from '#db/client'
import { assignments, emailOutbox, users } from '#db/schema/index'
import {
  createBrand,
  createCompany,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
} from '#db/factories'
import { getDashboardCounts } from '#app/modules/dashboard/dashboard.server'
import { compactTallies, recountTallies, TALLY_NAMES } from '#app/modules/tally/tally.server'
import { outboxCounts } from '#app/modules/email/template-editing.server'
import { useTestDatabase } from '#tests/support/database'

/**
 * The dashboard's counts of employees, submissions and e-mails come from tallies the database keeps
 * (ADR 010). Whatever writes the tables — one row or many in a statement, updates that move a row in
 * or out of a count, deletes and their cascades, an upsert — the counts shown are the exact counts,
 * before and after the worker folds the tallies.
 */
const db = useTestDatabase()

type Counted = {
  employees: number
  active_employees: number
  submitted: number
  queued_emails: number
  failed_emails: number
}

/** The counts as a full scan gives them. */
async function exact(): Promise<Counted> {
  const [row] = await queryRows<Counted>(
    db(),
    sql`SELECT
      (SELECT count(*) FROM users WHERE role = 'employee' AND disabled_at IS NULL)::int AS employees,
      (SELECT count(*) FROM users
        WHERE role = 'employee' AND disabled_at IS NULL AND password_hash IS NOT NULL)::int AS active_employees,
      (SELECT count(*) FROM assignments WHERE status = 'submitted')::int AS submitted,
      (SELECT count(*) FROM email_outbox WHERE status IN ('queued', 'sending'))::int AS queued_emails,
      (SELECT count(*) FROM email_outbox WHERE status = 'failed')::int AS failed_emails`,
  )
  return row!
}

/** The outbox's count per state, by a full scan. */
async function exactOutbox() {
  const rows = await queryRows<{ status: string; n: number }>(
    db(),
    sql`SELECT status::text, count(*)::int AS n FROM email_outbox GROUP BY status`,
  )
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
  const counts = {
    queued: by.queued ?? 0,
    sending: by.sending ?? 0,
    sent: by.sent ?? 0,
    failed: by.failed ?? 0,
  }
  return { ...counts, all: counts.queued + counts.sending + counts.sent + counts.failed }
}

/** The counts the dashboard shows. */
async function shown(): Promise<Counted> {
  const { employees, active_employees, submitted, queued_emails, failed_emails } = await getDashboardCounts()
  return { employees, active_employees, submitted, queued_emails, failed_emails }
}

const tallyRows = async () =>
  Number((await queryRows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM tallies`))[0]!.n)

function mail(n: number, status: 'queued' | 'sending' | 'sent' | 'failed' = 'queued') {
  return Array.from({ length: n }, (_, i) => ({
    recipient: `someone-${i}@example.test`,
    templateKey: 'reminder' as const,
    subject: 'Reminder',
    html: '<p>Reminder</p>',
    text: 'Reminder',
    status,
  }))
}

describe('the dashboard counts', () => {
  test('follow every kind of write, exactly', async () => {
    const steps: Array<[string, () => Promise<unknown>]> = []
    const step = (name: string, run: () => Promise<unknown>) => steps.push([name, run])
    const brand = await createBrand()
    const company = await createCompany({ brandId: brand.id })
    const scheme = await createScheme({ companyId: company.id })
    const people: string[] = []
    let raterIds: string[] = []

    step('employees, colleagues and an admin, one by one', async () => {
      for (const role of ['employee', 'employee', 'colleague', 'admin'] as const)
        people.push((await createUser({ role, companyId: role === 'employee' ? company.id : null })).id)
    })
    step('200 employees in one statement (one tally row)', async () => {
      const before = await tallyRows()
      const rows = await db()
        .insert(users)
        .values(
          Array.from({ length: 200 }, (_, i) => ({
            email: `bulk-${i}@example.test`,
            role: 'employee' as const,
            companyId: company.id,
          })),
        )
        .returning({ id: users.id })
      people.push(...rows.map((r) => r.id))
      expect(await tallyRows()).toBe(before + 1)
    })
    step('disabling some, enabling one again, a role change', async () => {
      await db()
        .update(users)
        .set({ disabledAt: new Date() })
        .where(inArray(users.id, people.slice(4, 14)))
      await db().update(users).set({ disabledAt: null }).where(eq(users.id, people[4]!))
      await db().update(users).set({ role: 'admin', companyId: null }).where(eq(users.id, people[20]!))
    })
    step('activation: a password set, one by one and in bulk, and one taken away', async () => {
      const hash = (
        await db().select({ h: users.passwordHash }).from(users).where(eq(users.id, people[0]!))
      )[0]!.h
      await db().update(users).set({ passwordHash: hash }).where(eq(users.id, people[14]!))
      await db()
        .update(users)
        .set({ passwordHash: hash })
        .where(inArray(users.id, people.slice(15, 40)))
      await db().update(users).set({ passwordHash: null }).where(eq(users.id, people[16]!))
    })
    step('an upsert that updates (ON CONFLICT DO UPDATE) and one that inserts', async () => {
      const [existing] = await db().select({ email: users.email }).from(users).where(eq(users.id, people[5]!))
      for (const email of [existing!.email, 'upserted@example.test'])
        await db()
          .insert(users)
          .values({ email, role: 'employee', companyId: company.id })
          .onConflictDoUpdate({ target: users.email, set: { disabledAt: null } })
    })
    step('self-assessments and colleagues submitted, one reopened', async () => {
      for (const id of people.slice(30, 36)) {
        const self = await enrolEmployee(scheme, id)
        await createResponse({ assignmentId: self!.id, submitted: true })
        const rater = await createRaterAssignment({ scheme, subjectId: id, respondentId: people[2]! })
        await createResponse({ assignmentId: rater.id, submitted: true })
        raterIds.push(rater.id)
      }
      await db().update(assignments).set({ status: 'in_progress' }).where(eq(assignments.id, raterIds[0]!))
      raterIds = raterIds.slice(1)
    })
    step('an employee deleted: their assignments go with them (a cascade)', async () => {
      await db().delete(users).where(eq(users.id, people[31]!))
    })
    step('e-mails queued, claimed, sent, failed, retried, deleted', async () => {
      const queued = await db().insert(emailOutbox).values(mail(12)).returning({ id: emailOutbox.id })
      await db().insert(emailOutbox).values(mail(3, 'sent'))
      const ids = queued.map((r) => r.id)
      await db()
        .update(emailOutbox)
        .set({ status: 'sending' })
        .where(inArray(emailOutbox.id, ids.slice(0, 6)))
      await db()
        .update(emailOutbox)
        .set({ status: 'sent' })
        .where(inArray(emailOutbox.id, ids.slice(0, 3)))
      await db()
        .update(emailOutbox)
        .set({ status: 'failed' })
        .where(inArray(emailOutbox.id, ids.slice(3, 6)))
      await db().update(emailOutbox).set({ status: 'queued' }).where(eq(emailOutbox.id, ids[3]!))
      await db()
        .delete(emailOutbox)
        .where(inArray(emailOutbox.id, ids.slice(10)))
    })

    expect(await shown()).toEqual(await exact())
    for (const [name, run] of steps) {
      await run()
      expect({ name, counts: await shown() }).toEqual({ name, counts: await exact() })
    }
    const final = await exact()
    expect(final.employees).toBeGreaterThan(150)
    expect(final.active_employees).toBeGreaterThan(20)
    expect(final.active_employees).toBeLessThan(final.employees)
    expect(final.submitted).toBeGreaterThan(5)
    expect(final.queued_emails).toBeGreaterThan(0)
    expect(final.failed_emails).toBeGreaterThan(0)
    // The outbox tab's count of every state (sending and sent too) is exact as well.
    expect(await outboxCounts()).toEqual(await exactOutbox())
  })

  test('folding leaves one row per count and every count as it was; a transaction rolled back leaves none', async () => {
    await createUser({ role: 'employee' })
    expect(await tallyRows()).toBeGreaterThan(4)
    const before = await shown()
    expect(await compactTallies()).toBeGreaterThan(4)
    expect(await tallyRows()).toBeLessThanOrEqual(TALLY_NAMES.length)
    expect(await shown()).toEqual(before)
    expect(await shown()).toEqual(await exact())

    await db()
      .transaction(async (tx) => {
        await createUser({ role: 'employee' }, tx)
        throw new Error('changed my mind')
      })
      .catch(() => {})
    expect(await shown()).toEqual(before)
  })

  test('a recount mends counts written with the triggers off; a truncate counts zero', async () => {
    await db().transaction(async (tx) => {
      // As seed:scale writes: with triggers (and foreign-key checks) off.
      await tx.execute(sql`SET LOCAL session_replication_role = replica`)
      await tx.insert(users).values({ email: 'unseen@example.test', role: 'employee' })
      await tx.insert(emailOutbox).values(mail(2, 'failed'))
    })
    const exactNow = await exact()
    expect(await shown()).not.toEqual(exactNow)
    await recountTallies()
    expect(await shown()).toEqual(exactNow)

    expect(await outboxCounts()).toEqual(await exactOutbox())

    await db().execute(sql`TRUNCATE email_outbox`)
    expect(await shown()).toEqual({ ...exactNow, queued_emails: 0, failed_emails: 0 })
    expect(await outboxCounts()).toEqual({ queued: 0, sending: 0, sent: 0, failed: 0, all: 0 })
    expect(await shown()).toEqual(await exact())
  })
})
