import crypto from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { describe, expect, inject, test } from 'vitest'
import { auditLog, schemes } from '#db/schema/index'
import { createScheme } from '#db/factories'
import { closeDueSchemes, startSchemeClock } from '#app/modules/scheme/clock.server'
import { schemePhase } from '#app/modules/scheme/state'
import { useTestDatabase } from '#tests/support/database'
import { useServerProcesses } from '#tests/support/server-process'
import { freePort } from '#tests/integration/auth/helpers'

/**
 * The scheme clock closes schemes at their closing time. The Formbricks tracker has an auto-close
 * that silently never fired: here the clock is one we control, and the test watches it fire, fire
 * only once, and fire once even with two workers (two app instances) racing.
 */
const db = useTestDatabase()

const HOUR = 60 * 60 * 1000
const at = (base: Date, ms: number) => new Date(base.getTime() + ms)

const rowOf = async (id: string) => (await db().select().from(schemes).where(eq(schemes.id, id)))[0]!
const clockAudits = (ids: string[]) =>
  db()
    .select({ entityId: auditLog.entityId, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'scheme.close'), inArray(auditLog.entityId, ids)))

describe('closeDueSchemes', () => {
  test('closes an open scheme at its closing time, not a moment before, and only once', async () => {
    // A clock of our own, far from the database's: the statement must read it, not now().
    const closesAt = new Date('2031-03-01T17:00:00Z')
    const scheme = await createScheme({ opensAt: at(closesAt, -30 * 24 * HOUR), closesAt, status: 'open' })
    const draft = await createScheme({ opensAt: at(closesAt, -2 * HOUR), closesAt, status: 'draft' })

    expect((await closeDueSchemes(at(closesAt, -1000))).map((s) => s.id)).not.toContain(scheme.id)
    expect((await rowOf(scheme.id)).status).toBe('open')

    const closed = await closeDueSchemes(closesAt)
    expect(closed.map((s) => s.id)).toContain(scheme.id)
    const row = await rowOf(scheme.id)
    expect(row.status).toBe('closed')
    expect(row.closedAt?.getTime()).toBe(closesAt.getTime())
    expect(schemePhase(row, at(closesAt, -HOUR))).toBe('closed')
    // A draft is still being set up: the clock leaves it alone.
    expect((await rowOf(draft.id)).status).toBe('draft')

    expect((await closeDueSchemes(at(closesAt, HOUR))).map((s) => s.id)).not.toContain(scheme.id)
    expect(await clockAudits([scheme.id])).toEqual([
      {
        entityId: scheme.id,
        actorId: null,
        details: { by: 'clock', closedAt: expect.stringMatching(/^2031-03-01T17:00:00/) },
      },
    ])
  })

  test('two workers at once close each due scheme exactly once between them', async () => {
    const closesAt = new Date('2032-05-01T09:00:00Z')
    const due = await Promise.all(
      Array.from({ length: 40 }, () =>
        createScheme({ opensAt: at(closesAt, -HOUR), closesAt, status: 'open' }),
      ),
    )
    const ids = due.map((s) => s.id)
    const [a, b] = await Promise.all([closeDueSchemes(at(closesAt, 1)), closeDueSchemes(at(closesAt, 1))])
    const mine = (list: Awaited<ReturnType<typeof closeDueSchemes>>) =>
      list.map((s) => s.id).filter((id) => ids.includes(id))
    const first = mine(a)
    const second = mine(b)
    expect(first.filter((id) => second.includes(id))).toEqual([])
    expect(new Set([...first, ...second])).toEqual(new Set(ids))
    expect(await clockAudits(ids)).toHaveLength(ids.length)
    const rows = await db().select({ status: schemes.status }).from(schemes).where(inArray(schemes.id, ids))
    expect(rows.every((r) => r.status === 'closed')).toBe(true)
  })
})

describe('the clock worker', () => {
  test('fires on its own timer, reading the clock it is given', async () => {
    const closesAt = new Date('2033-07-01T12:00:00Z')
    const scheme = await createScheme({ opensAt: at(closesAt, -HOUR), closesAt, status: 'open' })
    let now = at(closesAt, -HOUR)
    let reads = 0
    const clock = startSchemeClock({ intervalMs: 20, firstDelayMs: 0, now: () => (reads++, now) })
    try {
      // The clock is read once a round, before the round's work: a third reading comes after two
      // whole rounds that saw the time before the close (a condition, not a guess of how long they take).
      await expect.poll(() => reads, { interval: 5 }).toBeGreaterThanOrEqual(3)
      expect((await rowOf(scheme.id)).status).toBe('open')
      now = at(closesAt, 5_000)
      const deadline = Date.now() + 5_000
      while ((await rowOf(scheme.id)).status !== 'closed' && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect((await rowOf(scheme.id)).status).toBe('closed')
    } finally {
      await clock.stop()
    }
    expect(await clockAudits([scheme.id])).toHaveLength(1)
  })
})

describe('the running server', () => {
  const { start } = useServerProcesses()
  // The server must share the test's database, which only Postgres allows (PGlite is one process
  // per folder); the timer itself is covered above on both.
  test.skipIf(inject('testDatabase').kind !== 'postgres')(
    'starts the clock: an overdue scheme is closed soon after start-up (npm start, WORKER on)',
    async () => {
      const scheme = await createScheme({
        opensAt: new Date(Date.now() - 2 * HOUR),
        closesAt: new Date(Date.now() - 1000),
        status: 'open',
      })
      const port = await freePort()
      const { child, output } = start({
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: process.env.DATABASE_URL!,
        WORKER: 'true',
        SESSION_SECRET: crypto.randomBytes(36).toString('base64'),
        LOG_LEVEL: 'info',
      })
      try {
        const deadline = Date.now() + 90_000
        while (
          (await rowOf(scheme.id)).status !== 'closed' &&
          Date.now() < deadline &&
          child.exitCode === null
        )
          await new Promise((resolve) => setTimeout(resolve, 250))
        expect((await rowOf(scheme.id)).status, output.stderr).toBe('closed')
        expect(output.stdout + output.stderr).toContain('scheme clock started')
      } finally {
        child.kill('SIGTERM')
      }
    },
    120_000,
  )
})
