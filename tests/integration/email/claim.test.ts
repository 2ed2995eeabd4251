import { spawn } from 'node:child_process'
import path from 'node:path'
import { inArray, sql } from 'drizzle-orm'
import { describe, expect, inject, it } from 'vitest'
import { emailOutbox } from '#db/schema/index'
import {
  LEASE_RENEW_MS,
  LEASE_SECONDS,
  claimBatch,
  processOutboxOnce,
  type MailTransport,
} from '#app/modules/email/outbox.server'
import { useTestDatabase } from '#tests/support/database'

/**
 * Claims and leases of the outbox worker (issue 7, item 11). The claim must respect its batch size under concurrency (issue 7, item 11): a subquery with LIMIT
 * … FOR UPDATE SKIP LOCKED inside `id IN (…)` may be re-run per outer row and lease far more rows
 * than asked for, so one instance could take the whole backlog.
 */
const db = useTestDatabase()
const ROOT = path.resolve(import.meta.dirname, '../../..')

const BACKLOG = 3_000
const BATCH = 10
const CLAIMERS = 8

describe('claimBatch', () => {
  it(`never leases more than the batch: ${CLAIMERS} concurrent claimers on a backlog of ${BACKLOG}`, async () => {
    await db().delete(emailOutbox)
    for (let start = 0; start < BACKLOG; start += 1_000) {
      await db()
        .insert(emailOutbox)
        .values(
          Array.from({ length: Math.min(1_000, BACKLOG - start) }, (_, i) => ({
            recipient: `backlog${start + i}@example.com`,
            templateKey: 'reminder' as const,
            subject: 's',
            html: '<p>h</p>',
            text: 't',
          })),
        )
    }
    // Planner statistics as a running system would have them (autovacuum may be off here).
    await db().execute(sql`ANALYZE email_outbox`)
    const sizes: number[] = []
    const seen = new Map<string, string>()
    const duplicates: string[] = []
    const claimer = async (workerId: string) => {
      for (;;) {
        const rows = await claimBatch(workerId, BATCH)
        if (!rows.length) return
        sizes.push(rows.length)
        for (const row of rows) {
          if (seen.has(row.id)) duplicates.push(row.id)
          seen.set(row.id, workerId)
        }
      }
    }
    await Promise.all(Array.from({ length: CLAIMERS }, (_, i) => claimer(`claimer-${i}`)))

    const histogram = Object.fromEntries(
      [...new Set(sizes)].sort((a, b) => a - b).map((n) => [n, sizes.filter((s) => s === n).length]),
    )
    console.info('claim sizes (size: count)', JSON.stringify(histogram), 'max', Math.max(...sizes))
    expect(duplicates).toEqual([])
    expect(seen.size).toBe(BACKLOG)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BATCH)
    // Every claimer really took part (the race was run).
    expect(new Set(seen.values()).size).toBe(CLAIMERS)
  }, 120_000)
})

/** Rows as the test needs them: who holds each and how it ended. */
async function rowsOf(recipients: string[]) {
  return db()
    .select({
      recipient: emailOutbox.recipient,
      status: emailOutbox.status,
      lockedBy: emailOutbox.lockedBy,
      attempts: emailOutbox.attempts,
    })
    .from(emailOutbox)
    .where(inArray(emailOutbox.recipient, recipients))
}

async function enqueueMany(prefix: string, count: number) {
  const recipients = Array.from({ length: count }, (_, i) => `${prefix}${i}@example.com`)
  await db()
    .insert(emailOutbox)
    .values(
      recipients.map((recipient) => ({
        recipient,
        templateKey: 'response_ready' as const,
        subject: 's',
        html: '<p>h</p>',
        text: 't',
      })),
    )
  return recipients
}

/** A transport that records what it was given, once per call. */
function recorder() {
  const delivered: string[] = []
  const transport: MailTransport = {
    sendMail: async (message) => {
      delivered.push(message.to)
    },
  }
  return { delivered, transport }
}

describe('the lease', () => {
  it('is short, and renewed while the worker sends: a slow batch keeps its rows past the lease', async () => {
    expect(LEASE_SECONDS).toBeLessThanOrEqual(20)
    await db().delete(emailOutbox)
    const recipients = await enqueueMany('slow', 3)
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slowDelivered: string[] = []
    const slow: MailTransport = {
      sendMail: async (message) => {
        await gate
        slowDelivered.push(message.to)
      },
    }
    const slowBatch = processOutboxOnce({ transport: slow, workerId: 'slow-worker' })
    await expect
      .poll(async () => (await rowsOf(recipients)).filter((r) => r.lockedBy === 'slow-worker').length)
      .toBe(3)

    // Another worker keeps polling for longer than a lease: it must find nothing to take.
    const other = recorder()
    const until = Date.now() + (LEASE_SECONDS + 3) * 1000
    let polls = 0
    while (Date.now() < until) {
      expect(await processOutboxOnce({ transport: other.transport, workerId: 'other-worker' })).toMatchObject(
        {
          claimed: 0,
        },
      )
      polls++
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(polls).toBeGreaterThan(10)
    expect(
      (await rowsOf(recipients)).every((r) => r.status === 'sending' && r.lockedBy === 'slow-worker'),
    ).toBe(true)

    release()
    expect(await slowBatch).toMatchObject({ claimed: 3, sent: 3 })
    expect(slowDelivered.sort()).toEqual([...recipients].sort())
    expect(other.delivered).toEqual([])
    expect((await rowsOf(recipients)).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true)
  }, 60_000)

  it.skipIf(inject('testDatabase').kind === 'pglite')(
    'after a worker process dies mid-batch, another worker sends its rows within the lease, once each',
    async () => {
      await db().delete(emailOutbox)
      const recipients = await enqueueMany('crash', 6)
      // One process (no wrapper that would outlive a SIGKILL): node itself, loading TypeScript via tsx.
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'tests/integration/email/crashing-worker.ts'],
        {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL, WORKER_ID: 'doomed', LIMIT: '10' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let output = ''
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const exited = new Promise((resolve) => child.once('exit', resolve))
      try {
        await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain('sending')
        // Alive long enough to renew its lease at least once, holding every row.
        await new Promise((resolve) => setTimeout(resolve, LEASE_RENEW_MS + 1_000))
        expect((await rowsOf(recipients)).map((r) => r.status)).toEqual(recipients.map(() => 'sending'))
      } finally {
        child.kill('SIGKILL')
      }
      await exited
      const killedAt = Date.now()

      const rescuer = recorder()
      while (rescuer.delivered.length < recipients.length && Date.now() - killedAt < 60_000) {
        await processOutboxOnce({ transport: rescuer.transport, workerId: 'rescuer' })
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      const recoveredInMs = Date.now() - killedAt
      console.info(
        `crash recovery: ${rescuer.delivered.length} of ${recipients.length} rows sent ${(recoveredInMs / 1000).toFixed(1)} s after the kill`,
      )
      expect(rescuer.delivered.sort()).toEqual([...recipients].sort())
      expect(recoveredInMs).toBeLessThan((LEASE_SECONDS + 5) * 1000)
      expect(recoveredInMs).toBeLessThan(30_000)
      const rows = await rowsOf(recipients)
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 2 && r.lockedBy === null)).toBe(true)
    },
    150_000,
  )
})
