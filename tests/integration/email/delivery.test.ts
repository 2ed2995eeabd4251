import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { brands, emailOutbox } from '#db/schema/index'
import { parseEnv } from '#app/config/env.server'
import type { Scheduler } from '#app/lib/polling-worker.server'
import {
  MAX_ATTEMPTS,
  backoffSeconds,
  createSmtpTransport,
  enqueueEmail,
  processOutboxOnce,
  retryOutboxMessage,
  startOutboxWorker,
  type MailTransport,
} from '#app/modules/email/outbox.server'
import { useTestDatabase } from '#tests/support/database'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'

const db = useTestDatabase()
let catcher: SmtpCatcher
let transport: MailTransport

beforeAll(async () => {
  catcher = await startSmtpCatcher()
  transport = createSmtpTransport(catcher.url)
})

afterAll(async () => {
  transport?.close?.()
  await catcher?.close()
})

// Every test starts from an empty outbox and an empty catcher, so counts mean what they say.
beforeEach(async () => {
  await db().delete(emailOutbox)
  catcher.messages.length = 0
  catcher.failNext(0)
  catcher.setDelay(0)
})

async function row(id: string) {
  const [r] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
  return r
}

async function byRecipient(recipient: string) {
  const [r] = await db().select().from(emailOutbox).where(eq(emailOutbox.recipient, recipient))
  return r
}

/** Makes a queued message due now, as if its backoff had passed. */
async function makeDue(id: string) {
  await db()
    .update(emailOutbox)
    .set({ nextAttemptAt: sql`now()` })
    .where(eq(emailOutbox.id, id))
}

/** Seconds between a row's next attempt and the database's clock. */
async function secondsUntilNextAttempt(id: string) {
  const [r] = await db()
    .select({ s: sql<string | number>`extract(epoch from (${emailOutbox.nextAttemptAt} - now()))` })
    .from(emailOutbox)
    .where(eq(emailOutbox.id, id))
  return Number(r.s)
}

describe('delivery over SMTP', () => {
  it('sends subject, text and html with the link built from the values', async () => {
    const link = 'http://localhost:3000/verification?mode=invite&code=Zx9_long-code'
    const { id } = await enqueueEmail(db(), {
      to: 'Sam@Example.com',
      template: 'colleague_invite',
      values: { colleagueName: 'Sam', employeeName: 'Zoë Ødegaard', dueDate: '30 June 2026', link },
    })
    expect(await processOutboxOnce({ transport })).toEqual({ sent: 1, failed: 0, retried: 0, claimed: 1 })

    const message = await catcher.waitFor((m) => m.envelopeTo.includes('sam@example.com'))
    expect(message.subject).toBe('Zoë Ødegaard would value your feedback')
    expect(message.from).toBe('Panorama <no-reply@panorama.local>')
    expect(extractLinks(message.text)).toEqual([link])
    expect(message.text).toContain('Hello Sam,')
    expect(message.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`)
    expect(extractLinks(message.html).map((l) => l.replace(/&amp;/g, '&'))).toContain(link)

    const sent = await row(id)
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lockedUntil: null, lastError: null })
    expect(sent.sentAt).toBeInstanceOf(Date)
  })

  it('sends from the brand’s sender name at the MAIL_FROM address', async () => {
    const [brand] = await db()
      .insert(brands)
      .values({ name: 'Acme', senderName: 'Acme "Talent" Team' })
      .returning()
    await enqueueEmail(db(), {
      to: 'ann@example.com',
      template: 'verify_email',
      brandId: brand.id,
      values: { recipientName: 'Ann', link: 'http://localhost:3000/v?c=1' },
    })
    await processOutboxOnce({ transport, mailFrom: 'Feedback <feedback@acme.test>' })
    const message = await catcher.waitFor((m) => m.envelopeTo.includes('ann@example.com'))
    expect(message.from).toBe('"Acme \\"Talent\\" Team" <feedback@acme.test>')
    expect(message.envelopeFrom).toBe('feedback@acme.test')
  })

  it('retries with backoff after the server refuses, recording the error, then delivers', async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'retry@example.com',
      template: 'reset_password',
      values: { link: 'http://x/r1' },
    })
    catcher.failNext(2)

    expect(await processOutboxOnce({ transport })).toMatchObject({ sent: 0, retried: 1 })
    let r = await row(id)
    expect(r).toMatchObject({ status: 'queued', attempts: 1, lockedUntil: null })
    expect(r.lastError).toMatch(/451/)
    expect(await secondsUntilNextAttempt(id)).toBeGreaterThan(25)
    expect(await secondsUntilNextAttempt(id)).toBeLessThanOrEqual(30)
    // Not due yet: nothing is claimed.
    expect(await processOutboxOnce({ transport })).toMatchObject({ claimed: 0 })

    await makeDue(id)
    expect(await processOutboxOnce({ transport })).toMatchObject({ retried: 1 })
    r = await row(id)
    expect(r.attempts).toBe(2)
    expect(await secondsUntilNextAttempt(id)).toBeGreaterThan(55)
    expect(await secondsUntilNextAttempt(id)).toBeLessThanOrEqual(60)

    await makeDue(id)
    expect(await processOutboxOnce({ transport })).toMatchObject({ sent: 1 })
    r = await row(id)
    expect(r).toMatchObject({ status: 'sent', attempts: 3, lastError: null })
    expect(catcher.messages.filter((m) => m.envelopeTo.includes('retry@example.com'))).toHaveLength(1)
  })

  it('backs off 30 s, doubling, up to an hour', () => {
    expect([1, 2, 3, 4, 7, 8, 12].map(backoffSeconds)).toEqual([30, 60, 120, 240, 1920, 3600, 3600])
  })

  it('gives up after the maximum attempts, and an admin retry queues it afresh', async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'bounce@example.com',
      template: 'verify_email',
      values: { link: 'http://x/b' },
    })
    catcher.failNext(MAX_ATTEMPTS)
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await processOutboxOnce({ transport })
      expect(result).toMatchObject(attempt < MAX_ATTEMPTS ? { retried: 1 } : { failed: 1 })
      await makeDue(id)
    }
    let r = await row(id)
    expect(r).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, sentAt: null })
    expect(r.lastError).toMatch(/451/)
    // A failed message is not picked up again by itself.
    expect(await processOutboxOnce({ transport })).toMatchObject({ claimed: 0 })

    expect(await retryOutboxMessage(id)).toBe(true)
    r = await row(id)
    // The attempts so far are kept; the last error stays readable until the next attempt.
    expect(r).toMatchObject({ status: 'queued', attempts: MAX_ATTEMPTS })
    expect(await retryOutboxMessage(id)).toBe(false)
    expect(await processOutboxOnce({ transport })).toMatchObject({ sent: 1 })
    expect((await row(id)).status).toBe('sent')
  })

  it('keeps SMTP credentials out of last_error', async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'x@example.com',
      template: 'verify_email',
      values: { link: 'http://x' },
    })
    const failing: MailTransport = {
      sendMail: async () => {
        throw new Error('connect ECONNREFUSED for smtp://mailer:hunter2@10.0.0.1:25')
      },
    }
    await processOutboxOnce({ transport: failing })
    const r = await row(id)
    expect(r.lastError).toContain('ECONNREFUSED')
    expect(r.lastError).not.toContain('hunter2')
  })
})

describe('exactly once', () => {
  it('two workers racing deliver every message once', async () => {
    const count = 30
    const ids: string[] = []
    for (let i = 0; i < count; i++) {
      const { id } = await enqueueEmail(db(), {
        to: `race${i}@example.com`,
        template: 'reset_password',
        values: { link: `http://localhost:3000/reset?n=${i}` },
      })
      ids.push(id)
    }
    const second = createSmtpTransport(catcher.url)
    const loop = async (workerId: string, t: MailTransport) => {
      let sent = 0
      for (;;) {
        const result = await processOutboxOnce({ transport: t, workerId, limit: 4 })
        sent += result.sent
        if (result.claimed === 0) return sent
      }
    }
    const [a, b] = await Promise.all([loop('worker-a', transport), loop('worker-b', second)])
    second.close?.()

    expect(a + b).toBe(count)
    // Both really took part: the race was run, not one worker after the other.
    expect(a).toBeGreaterThan(0)
    expect(b).toBeGreaterThan(0)
    expect(catcher.messages).toHaveLength(count)
    const perRecipient = new Map<string, number>()
    for (const m of catcher.messages)
      for (const to of m.envelopeTo) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1)
    expect(perRecipient.size).toBe(count)
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true)
    const rows = await db().select().from(emailOutbox).where(inArray(emailOutbox.id, ids))
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1 && r.sentAt)).toBe(true)
  })

  it('six claimers hammering the queue never take one row twice', async () => {
    const count = 120
    await db()
      .insert(emailOutbox)
      .values(
        Array.from({ length: count }, (_, i) => ({
          recipient: `bulk${i}@example.com`,
          templateKey: 'reminder' as const,
          subject: 's',
          html: '<p>h</p>',
          text: 't',
        })),
      )
    const delivered: string[] = []
    const fake: MailTransport = {
      sendMail: async (message) => {
        delivered.push(message.to)
        // Yield so the claimers interleave between claim, send and mark.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
      },
    }
    const loop = async (workerId: string) => {
      let sent = 0
      for (;;) {
        const result = await processOutboxOnce({ transport: fake, workerId, limit: 3 })
        sent += result.sent
        if (result.claimed === 0) return sent
      }
    }
    const sent = await Promise.all(['w1', 'w2', 'w3', 'w4', 'w5', 'w6'].map(loop))
    expect(sent.reduce((x, y) => x + y, 0)).toBe(count)
    expect(delivered).toHaveLength(count)
    expect(new Set(delivered).size).toBe(count)
    const [{ n }] = await db()
      .select({ n: sql<string | number>`count(*)` })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, 'sent'), eq(emailOutbox.attempts, 1)))
    expect(Number(n)).toBe(count)
  })

  it('never sends a row that is already sent, even with an old lease or due date', async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'once@example.com',
      template: 'verify_email',
      values: { link: 'http://x/o' },
    })
    await processOutboxOnce({ transport })
    expect(catcher.messages).toHaveLength(1)
    await db()
      .update(emailOutbox)
      .set({ nextAttemptAt: sql`now() - interval '1 day'`, lockedUntil: sql`now() - interval '1 day'` })
      .where(eq(emailOutbox.id, id))
    expect(await processOutboxOnce({ transport })).toMatchObject({ claimed: 0 })
    expect(catcher.messages).toHaveLength(1)
    const r = await row(id)
    expect(r).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('takes over a message whose worker lease ran out, but not one still leased', async () => {
    const stale = await enqueueEmail(db(), {
      to: 'stale@example.com',
      template: 'verify_email',
      values: { link: 'http://x/s' },
    })
    const leased = await enqueueEmail(db(), {
      to: 'leased@example.com',
      template: 'verify_email',
      values: { link: 'http://x/l' },
    })
    await db()
      .update(emailOutbox)
      .set({ status: 'sending', attempts: 1, lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(emailOutbox.id, stale.id))
    await db()
      .update(emailOutbox)
      .set({ status: 'sending', attempts: 1, lockedUntil: sql`now() + interval '5 minutes'` })
      .where(eq(emailOutbox.id, leased.id))

    expect(await processOutboxOnce({ transport })).toMatchObject({ claimed: 1, sent: 1 })
    expect(catcher.messages.map((m) => m.envelopeTo[0])).toEqual(['stale@example.com'])
    expect(await row(stale.id)).toMatchObject({ status: 'sent', attempts: 2 })
    expect(await row(leased.id)).toMatchObject({ status: 'sending', attempts: 1 })
  })
})

describe('startOutboxWorker', () => {
  it('delivers in the background and stop() waits for it', async () => {
    await enqueueEmail(db(), {
      to: 'bg@example.com',
      template: 'verify_email',
      values: { link: 'http://x/bg' },
    })
    // Real timers, counted: the worker acts only in the rounds it schedules.
    const planned = new Set<() => void>()
    const timers: Scheduler = (run, ms) => {
      const timer = setTimeout(() => {
        planned.delete(cancel)
        run()
      }, ms)
      const cancel = () => {
        clearTimeout(timer)
        planned.delete(cancel)
      }
      planned.add(cancel)
      return cancel
    }
    const worker = startOutboxWorker(parseEnv({ ...process.env, SMTP_URL: catcher.url }), { timers })
    try {
      const message = await catcher.waitFor((m) => m.envelopeTo.includes('bg@example.com'), 10_000)
      expect(message.subject).toBe('Please confirm your e-mail address')
      // Between rounds the next one is planned.
      await expect.poll(() => planned.size).toBe(1)
    } finally {
      await expect(worker.stop()).resolves.toBeUndefined()
    }
    // Stopped: no round is planned any more (rather than waiting a while to see), so a message
    // queued now stays queued.
    expect(planned.size).toBe(0)
    const { id } = await enqueueEmail(db(), {
      to: 'after@example.com',
      template: 'verify_email',
      values: { link: 'http://x/a' },
    })
    expect((await row(id)).status).toBe('queued')
  })

  it('stop() during a batch resolves only when the batch is done', async () => {
    await enqueueEmail(db(), {
      to: 'slow@example.com',
      template: 'verify_email',
      values: { link: 'http://x/slow' },
    })
    catcher.setDelay(600)
    const worker = startOutboxWorker(parseEnv({ ...process.env, SMTP_URL: catcher.url }))
    try {
      // The first batch starts at once; wait until its message is being sent, then stop.
      await expect
        .poll(async () => (await byRecipient('slow@example.com')).status, { interval: 10 })
        .toBe('sending')
      const started = Date.now()
      await worker.stop()
      expect(Date.now() - started).toBeGreaterThan(200)
    } finally {
      catcher.setDelay(0)
    }
    expect((await byRecipient('slow@example.com')).status).toBe('sent')
    expect(catcher.messages.filter((m) => m.envelopeTo.includes('slow@example.com'))).toHaveLength(1)
  })
})
