import { eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { emailOutbox } from '#db/schema/index'
import { log } from '#app/lib/logger.server'
import { CODE_MASK } from '#app/modules/email/mask'
import {
  FAILED_BODY_RETENTION_HOURS,
  MAX_ATTEMPTS,
  createSmtpTransport,
  enqueueEmail,
  eraseStaleOutboxBodies,
  processOutboxOnce,
  retryOutboxMessage,
  type MailTransport,
} from '#app/modules/email/outbox.server'
import { useTestDatabase } from '#tests/support/database'
import { extractLinks, startSmtpCatcher, type SmtpCatcher } from '#tests/support/smtp-catcher'

/**
 * One-time links do not stay readable at rest (issue 7, item 8): a message that carries one is
 * marked when it is written, its body is blanked when it is sent, a message given up on keeps it
 * only for a bounded retry window, an expired link is never sent, and failure text never holds a
 * code.
 */
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

beforeEach(async () => {
  await db().delete(emailOutbox)
  catcher.messages.length = 0
  catcher.failNext(0)
})

afterEach(() => {
  vi.restoreAllMocks()
})

const CODE = 'Qm4_liveCode-0123456789abcdefXYZ'
const resetLink = `http://localhost:3000/verification?mode=resetPassword&code=${CODE}`

async function row(id: string) {
  const [r] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
  return r!
}

/** Seconds from the database's now to a timestamp column of the row. */
async function secondsFromNow(id: string, column: 'link_expires_at') {
  const [r] = await db()
    .select({ s: sql<string | number>`extract(epoch from (${sql.raw(column)} - now()))` })
    .from(emailOutbox)
    .where(eq(emailOutbox.id, id))
  return Number(r!.s)
}

describe('which messages carry a one-time link', () => {
  it('is decided when the message is written, by its template, for as long as the code can live', async () => {
    const reset = await enqueueEmail(db(), {
      to: 'a@example.com',
      template: 'reset_password',
      values: { link: resetLink },
    })
    const activation = await enqueueEmail(db(), {
      to: 'b@example.com',
      template: 'activate_account',
      values: { link: 'http://localhost:3000/verification?mode=activate&code=abcdefghijklmnop' },
    })
    const report = await enqueueEmail(db(), {
      to: 'c@example.com',
      template: 'response_ready',
      values: { link: 'http://localhost:3000/user/response-1' },
    })
    expect(await secondsFromNow(reset.id, 'link_expires_at')).toBeGreaterThan(3500)
    expect(await secondsFromNow(reset.id, 'link_expires_at')).toBeLessThanOrEqual(3600 + 5)
    expect(await secondsFromNow(activation.id, 'link_expires_at')).toBeGreaterThan(7 * 86400 - 100)
    expect((await row(report.id)).linkExpiresAt).toBeNull()
  })

  it('the caller may say when the link expires, or that the message carries none', async () => {
    const closesAt = new Date(Date.now() + 90 * 86400_000)
    const invite = await enqueueEmail(db(), {
      to: 'd@example.com',
      template: 'reminder',
      values: { link: 'http://localhost:3000/verification?mode=invite&code=abcdefghijklmnop' },
      linkExpiresAt: closesAt,
    })
    const self = await enqueueEmail(db(), {
      to: 'e@example.com',
      template: 'reminder',
      values: { link: 'http://localhost:3000/assignment/1' },
      linkExpiresAt: null,
    })
    expect((await row(invite.id)).linkExpiresAt?.getTime()).toBe(closesAt.getTime())
    expect((await row(self.id)).linkExpiresAt).toBeNull()
  })
})

describe('once sent', () => {
  it('the body of a message with a one-time link is blanked; subject, recipient, state and times stay', async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'reset@example.com',
      template: 'reset_password',
      values: { recipientName: 'Ann', link: resetLink },
    })
    expect((await row(id)).text).toContain(CODE)
    expect(await processOutboxOnce({ transport })).toMatchObject({ sent: 1 })

    // The recipient got the whole link…
    const message = await catcher.waitFor((m) => m.envelopeTo.includes('reset@example.com'))
    expect(extractLinks(message.text)).toEqual([resetLink])
    // …and the database keeps no trace of it.
    const sent = await row(id)
    expect(sent).toMatchObject({
      status: 'sent',
      recipient: 'reset@example.com',
      subject: 'Reset your password for the Panorama feedback portal',
      templateKey: 'reset_password',
      html: '',
      text: '',
      attempts: 1,
      lastError: null,
    })
    expect(sent.sentAt).toBeInstanceOf(Date)
    expect(sent.createdAt).toBeInstanceOf(Date)
    expect(sent.bodyErasedAt).toBeInstanceOf(Date)
    const [{ n }] = await db()
      .select({ n: sql<string | number>`count(*)` })
      .from(emailOutbox)
      .where(
        sql`${emailOutbox.html} LIKE ${'%' + CODE + '%'} OR ${emailOutbox.text} LIKE ${'%' + CODE + '%'}`,
      )
    expect(Number(n)).toBe(0)
  })

  it('a message without one keeps its body', async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'report@example.com',
      template: 'response_ready',
      values: { recipientName: 'Ann', link: 'http://localhost:3000/user/response-1' },
    })
    await processOutboxOnce({ transport })
    const sent = await row(id)
    expect(sent.status).toBe('sent')
    expect(sent.text).toContain('http://localhost:3000/user/response-1')
    expect(sent.html).toContain('http://localhost:3000/user/response-1')
    expect(sent.bodyErasedAt).toBeNull()
  })
})

describe('not delivered', () => {
  async function giveUp(id: string) {
    catcher.failNext(MAX_ATTEMPTS)
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await processOutboxOnce({ transport })
      await db()
        .update(emailOutbox)
        .set({ nextAttemptAt: sql`now()` })
        .where(sql`${emailOutbox.id} = ${id} AND ${emailOutbox.status} = 'queued'`)
    }
    expect((await row(id)).status).toBe('failed')
  }

  it(`a message given up on keeps its body for a retry for ${FAILED_BODY_RETENTION_HOURS} h, then it is erased`, async () => {
    const { id } = await enqueueEmail(db(), {
      to: 'bounce@example.com',
      template: 'activate_account',
      values: { link: `http://localhost:3000/verification?mode=activate&code=${CODE}` },
    })
    await giveUp(id)
    // Within the window: still there, and an admin's retry can send it.
    expect(await eraseStaleOutboxBodies()).toBe(0)
    expect((await row(id)).text).toContain(CODE)

    // Past the window (gave up long ago): erased, and a retry is refused (a fresh link is needed).
    await db()
      .update(emailOutbox)
      .set({ nextAttemptAt: sql`now() - make_interval(hours => ${FAILED_BODY_RETENTION_HOURS + 1})` })
      .where(eq(emailOutbox.id, id))
    expect(await eraseStaleOutboxBodies()).toBe(1)
    const erased = await row(id)
    expect(erased).toMatchObject({ status: 'failed', html: '', text: '', recipient: 'bounce@example.com' })
    expect(erased.bodyErasedAt).toBeInstanceOf(Date)
    expect(erased.lastError).toMatch(/451/)
    expect(await retryOutboxMessage(id)).toBe(false)
    expect(await processOutboxOnce({ transport })).toMatchObject({ claimed: 0 })
    expect(catcher.messages).toHaveLength(0)
  })

  it('a queued message whose link has expired is never sent, and its body is erased', async () => {
    // No SMTP for a while: the message waited in the queue longer than its link lives.
    const { id } = await enqueueEmail(db(), {
      to: 'late@example.com',
      template: 'reset_password',
      values: { link: resetLink },
    })
    const other = await enqueueEmail(db(), {
      to: 'fine@example.com',
      template: 'reset_password',
      values: { link: 'http://localhost:3000/verification?mode=resetPassword&code=another-live-code-123' },
    })
    await db()
      .update(emailOutbox)
      .set({ linkExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailOutbox.id, id))

    expect(await processOutboxOnce({ transport })).toMatchObject({ claimed: 1, sent: 1 })
    expect(catcher.messages.map((m) => m.envelopeTo[0])).toEqual(['fine@example.com'])
    expect((await row(id)).status).toBe('queued')

    expect(await eraseStaleOutboxBodies()).toBe(1)
    const erased = await row(id)
    expect(erased).toMatchObject({ status: 'failed', html: '', text: '' })
    expect(erased.lastError).toMatch(/expired before it could be delivered/)
    expect(await retryOutboxMessage(id)).toBe(false)
    expect((await row(other.id)).status).toBe('sent')
  })

  it('a failure that echoes the message keeps no code in last_error nor in the log', async () => {
    const warn = vi.spyOn(log, 'warn')
    const { id } = await enqueueEmail(db(), {
      to: 'echo@example.com',
      template: 'reset_password',
      values: { link: resetLink },
    })
    const echoing: MailTransport = {
      sendMail: async (message) => {
        throw new Error(`554 rejected: content "${message.text.slice(0, 400)}" looks like phishing`)
      },
    }
    expect(await processOutboxOnce({ transport: echoing })).toMatchObject({ retried: 1 })
    const failed = await row(id)
    expect(failed.lastError).toContain('554 rejected')
    expect(failed.lastError).toContain(`code=${CODE_MASK}`)
    expect(failed.lastError).not.toContain(CODE)
    const logged = JSON.stringify(warn.mock.calls)
    expect(logged).toContain('email delivery failed')
    expect(logged).not.toContain(CODE)
  })
})
