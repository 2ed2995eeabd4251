import { eq, sql } from 'drizzle-orm'
import { describe, expect, inject, test } from 'vitest'
import { auditLog, users } from '#db/schema/index'
import { closeDatabase, getDb, openDatabase, queryRows } from '#db/client'
import { parseEnv } from '#app/config/env.server'
import { ensureFirstAdmin } from '#app/modules/auth/bootstrap.server'
import { useTestDatabase } from '#tests/support/database'

/**
 * Instances that start together each run ensureFirstAdmin (issue 7, item 12): with
 * ADMIN_EMAIL/ADMIN_PASSWORD they used to check, then insert, with no lock, and a loser crashed
 * start-up on the unique e-mail. Here many calls race on one database, over as many connections
 * as the pool gives (on Postgres each call's transaction holds its own connection).
 */
const db = useTestDatabase()
const STARTS = 12
const ROUNDS = 4

const env = parseEnv({ ...process.env, ADMIN_EMAIL: 'Ops@Example.test', ADMIN_PASSWORD: 'ops password 123' })

async function adminCount() {
  const [row] = await queryRows<{ n: number }>(
    db(),
    sql`SELECT count(*)::int AS n FROM users WHERE role = 'admin'`,
  )
  return Number(row!.n)
}

describe('ADMIN_EMAIL / ADMIN_PASSWORD with instances starting together', () => {
  test(`${STARTS} concurrent starts, ${ROUNDS} times: none fails, exactly one admin, created once`, async () => {
    if (inject('testDatabase').kind === 'postgres') {
      // Enough connections for every start at once, as separate instances would have.
      await closeDatabase()
      process.env.DATABASE_POOL_SIZE = String(STARTS + 2)
      try {
        await openDatabase({ url: process.env.DATABASE_URL })
      } finally {
        delete process.env.DATABASE_POOL_SIZE
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      // A fresh deployment: no admin (and no account for that address yet).
      await getDb().delete(auditLog)
      await getDb().delete(users)
      const results = await Promise.allSettled(Array.from({ length: STARTS }, () => ensureFirstAdmin(env)))
      const failures = results.flatMap((r) =>
        r.status === 'rejected' ? [String(r.reason?.cause ?? r.reason)] : [],
      )
      expect(failures, `round ${round}`).toEqual([])
      const values = results.map((r) => (r as PromiseFulfilledResult<{ createdAdmin?: string }>).value)
      // One start created the admin; the others found it.
      expect(
        values.filter((v) => v.createdAdmin === 'ops@example.test'),
        `round ${round}`,
      ).toHaveLength(1)
      expect(values.filter((v) => Object.keys(v).length === 0)).toHaveLength(STARTS - 1)
      expect(await adminCount()).toBe(1)
      const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'admin.created_from_env'))
      expect(audits).toHaveLength(1)
    }
  }, 120_000)

  test('an existing account with that address is promoted once, even under a race', async () => {
    await getDb().delete(auditLog)
    await getDb().delete(users)
    await getDb().insert(users).values({ email: 'ops@example.test', displayName: 'Ops', role: 'employee' })
    const results = await Promise.allSettled(Array.from({ length: STARTS }, () => ensureFirstAdmin(env)))
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    const [row] = await db().select().from(users).where(eq(users.email, 'ops@example.test'))
    expect(row).toMatchObject({ role: 'admin', displayName: 'Ops' })
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/)
    expect(await adminCount()).toBe(1)
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'admin.created_from_env'))
    expect(audits).toHaveLength(1)
  }, 60_000)
})
