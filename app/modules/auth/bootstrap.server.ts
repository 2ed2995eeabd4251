import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { users } from '#db/schema/index'
import type { Env } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { createActionCode } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { normalizeEmail, SETUP_LOCK } from './auth.server'
import { hashPassword } from './password.server'

/**
 * A fresh deployment must be administrable. With ADMIN_EMAIL/ADMIN_PASSWORD the first admin is
 * created from them; otherwise a one-time setup link is printed at each start until somebody uses
 * one.
 */
export async function ensureFirstAdmin(env: Env): Promise<{ setupLink?: string; createdAdmin?: string }> {
  const db = getDb()
  const [admins] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM users WHERE role = 'admin'`,
  )
  if (Number(admins?.n) > 0) return {}
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const email = normalizeEmail(env.ADMIN_EMAIL)
    const passwordHash = await hashPassword(env.ADMIN_PASSWORD)
    const createdId = await db.transaction(async (tx) => {
      // Instances starting together take turns on the setup link's lock (createFirstAdmin), and
      // only the first to get it still finds no admin: the others leave it be instead of crashing.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`)
      const [again] = await queryRows<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM users WHERE role = 'admin'`,
      )
      if (Number(again?.n) > 0) return null
      // One statement whether or not the address already has an account (an employee, say); the
      // conflict target also covers an account created meanwhile by anything outside this lock.
      const [row] = await tx
        .insert(users)
        .values({
          email,
          displayName: 'Administrator',
          passwordHash,
          role: 'admin',
          emailVerifiedAt: new Date(),
        })
        .onConflictDoUpdate({
          target: users.email,
          set: { role: 'admin', passwordHash, disabledAt: null, emailVerifiedAt: new Date() },
        })
        .returning({ id: users.id })
      await recordAudit(tx, {
        actorId: null,
        action: 'admin.created_from_env',
        entity: 'user',
        entityId: row!.id,
      })
      return row!.id
    })
    if (!createdId) return {}
    log.info('first admin created from ADMIN_EMAIL', { email })
    return { createdAdmin: email }
  }
  // Older links stay valid (each for 24 h): instances starting together each print one, and any of
  // them may be the one the operator opens. Creating the admin voids them all.
  const { code } = await createActionCode(db, { kind: 'setup_admin' })
  const setupLink = actionLink('setup_admin', code)
  // Printed for the operator on purpose: it is the only way into a new deployment.
  process.stdout.write(
    `\n  No admin account exists yet. Open this one-time link to create the first admin:\n\n    ${setupLink}\n\n`,
  )
  log.info('setup link issued', { link: setupLink })
  return { setupLink }
}
