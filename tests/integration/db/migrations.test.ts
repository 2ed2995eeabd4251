import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { closeDatabase, getDb, openDatabase, queryRows, runMigrations } from '#db/client'
import { withDatabase } from '#tests/support/global-setup'

/**
 * Migrations wait for the migration lock and run their statements without the pool's
 * statement_timeout (issue 7, item 13): an instance starting behind another instance's long
 * migration waits instead of crashing, and a long migration statement is not cancelled. The pool's
 * timeout is made short here (it is 15 s in production) so the test need not wait 15 s.
 */
const target = inject('testDatabase')
const postgres = target.kind === 'postgres' ? target : undefined
const STATEMENT_TIMEOUT_MS = 300
const created: string[] = []
const folders: string[] = []

afterAll(async () => {
  await closeDatabase()
  if (!postgres) return
  const admin = new pg.Client({ connectionString: postgres.url })
  await admin.connect()
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await admin.end()
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true })
})

/** A new, empty database (no migrations applied) and its URL. */
async function emptyDatabase() {
  const name = `panorama_t_${process.pid}_mig_${crypto.randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgres!.url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  created.push(name)
  return withDatabase(postgres!.url, name)
}

describe.skipIf(!postgres)('runMigrations on Postgres', () => {
  it('waits for the migration lock longer than the statement timeout, then migrates', async () => {
    const url = await emptyDatabase()
    // Another instance, in the middle of a long migration, holds the lock.
    const other = new pg.Client({ connectionString: url })
    await other.connect()
    await other.query('SELECT pg_advisory_lock(7415926535)')

    // One connection in the pool, so the test sees the very connection the migrations used.
    process.env.DATABASE_POOL_SIZE = '1'
    try {
      await openDatabase({ url, statementTimeoutMs: STATEMENT_TIMEOUT_MS })
    } finally {
      delete process.env.DATABASE_POOL_SIZE
    }
    const holdMs = STATEMENT_TIMEOUT_MS * 6
    const started = Date.now()
    const migrating = runMigrations()
    const outcome = migrating.then(
      () => 'migrated',
      (error: Error) => `failed: ${error.message}`,
    )
    await new Promise((resolve) => setTimeout(resolve, holdMs))
    // Still waiting, not failed, well past the statement timeout.
    expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('waiting')
    await other.query('SELECT pg_advisory_unlock(7415926535)')
    await other.end()

    expect(await outcome).toBe('migrated')
    expect(Date.now() - started).toBeGreaterThanOrEqual(holdMs)
    const tables = await queryRows<{ n: number }>(
      getDb(),
      sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('users', 'email_outbox')`,
    )
    expect(Number(tables[0]!.n)).toBe(2)
    // The connection went back to the pool with its timeout restored.
    const [{ statement_timeout }] = await queryRows<{ statement_timeout: string }>(
      getDb(),
      sql`SHOW statement_timeout`,
    )
    expect(statement_timeout).toBe(`${STATEMENT_TIMEOUT_MS}ms`)
    await closeDatabase()
  })

  it('runs a migration statement that takes longer than the statement timeout', async () => {
    const url = await emptyDatabase()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-migrations-'))
    folders.push(dir)
    fs.mkdirSync(path.join(dir, 'meta'))
    fs.writeFileSync(
      path.join(dir, '0000_slow.sql'),
      `SELECT pg_sleep(${(STATEMENT_TIMEOUT_MS * 3) / 1000});--> statement-breakpoint\nCREATE TABLE slow_done (id int);`,
    )
    fs.writeFileSync(
      path.join(dir, 'meta', '_journal.json'),
      JSON.stringify({
        version: '7',
        dialect: 'postgresql',
        entries: [{ idx: 0, version: '7', when: 1, tag: '0000_slow', breakpoints: true }],
      }),
    )
    await openDatabase({ url, statementTimeoutMs: STATEMENT_TIMEOUT_MS })
    await expect(runMigrations(undefined, { migrationsFolder: dir })).resolves.toBeUndefined()
    const rows = await queryRows<{ n: number }>(
      getDb(),
      sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'slow_done'`,
    )
    expect(Number(rows[0]!.n)).toBe(1)
    // Ordinary queries are still bounded by the timeout.
    await expect(
      getDb().execute(sql`SELECT pg_sleep(${(STATEMENT_TIMEOUT_MS * 3) / 1000})`),
    ).rejects.toThrow()
    await closeDatabase()
  })
})
