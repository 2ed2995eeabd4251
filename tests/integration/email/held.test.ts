import { eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { emailOutbox } from '#db/schema/index'
import { createBrand } from '#db/factories'
import { getDb } from '#db/client'
import {
  enqueueEmail,
  enqueueEmails,
  processOutboxOnce,
  type MailTransport,
} from '#app/modules/email/outbox.server'
import { useTestDatabase } from '#tests/support/database'

/**
 * Messages held until a time (a programme's e-mails wait for its opening): the worker leaves them
 * alone until then, and sends them once they are due. And the batch writer renders exactly what the
 * one-message writer renders.
 */
const db = useTestDatabase()

function catcher() {
  const sent: string[] = []
  const transport: MailTransport = {
    async sendMail(message) {
      sent.push(message.to)
    },
  }
  return { sent, transport }
}

const values = {
  recipientName: 'Ann Lee',
  employeeName: 'Ann Lee',
  schemeName: 'Spring 360',
  dueDate: '30 June 2026',
}

describe('held messages', () => {
  it('are not sent before their time, and are sent once it has come', async () => {
    await db().delete(emailOutbox)
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000)
    const { id } = await enqueueEmail(db(), {
      to: 'held@example.com',
      template: 'programme_open',
      values: { ...values, link: 'http://localhost/user' },
      nextAttemptAt: inAnHour,
    })
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id))
    expect(row!.nextAttemptAt.getTime()).toBe(inAnHour.getTime())

    const { sent, transport } = catcher()
    expect(await processOutboxOnce({ transport, workerId: 'w1' })).toMatchObject({ claimed: 0, sent: 0 })
    expect(sent).toEqual([])

    // The hour passes.
    await db()
      .update(emailOutbox)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(emailOutbox.id, id))
    expect(await processOutboxOnce({ transport, workerId: 'w1' })).toMatchObject({ claimed: 1, sent: 1 })
    expect(sent).toEqual(['held@example.com'])
  })
})

describe('enqueueEmails', () => {
  it('writes the same rows as enqueueEmail, one template read per template and brand', async () => {
    const brand = await createBrand({ name: 'Batch Brand', senderName: 'Batch Sender' })
    const inputs = ['a@example.com', 'b@example.com', 'c@example.com'].map((to, i) => ({
      to,
      template: (i === 2 ? 'activate_account' : 'programme_open') as 'activate_account' | 'programme_open',
      brandId: brand.id,
      values: { ...values, recipientName: `Person ${i}`, link: `http://localhost/x/${i}` },
      entity: 'scheme',
      entityId: '00000000-0000-4000-8000-000000000009',
      linkExpiresAt: i === 2 ? new Date(Date.now() + 86_400_000) : null,
    }))
    const one = await getDb().transaction(async (tx) => {
      const ids: string[] = []
      for (const input of inputs) ids.push((await enqueueEmail(tx, input)).id)
      return ids
    })
    const count = await getDb().transaction((tx) =>
      enqueueEmails(
        tx,
        inputs.map((i) => ({ ...i, to: i.to.replace('@', '+batch@') })),
      ),
    )
    expect(count).toBe(3)
    const pick = (r: typeof emailOutbox.$inferSelect) => ({
      recipient: r.recipient.replace('+batch@', '@'),
      senderName: r.senderName,
      templateKey: r.templateKey,
      subject: r.subject,
      html: r.html,
      text: r.text,
      linkExpiresAt: r.linkExpiresAt?.getTime() ?? null,
      entity: r.entity,
      entityId: r.entityId,
    })
    const singles = await db().select().from(emailOutbox).where(inArray(emailOutbox.id, one))
    const batch = await db()
      .select()
      .from(emailOutbox)
      .where(sql`${emailOutbox.recipient} LIKE '%+batch@%'`)
    const order = (rows: ReturnType<typeof pick>[]) =>
      rows.sort((a, b) => a.recipient.localeCompare(b.recipient))
    expect(order(batch.map(pick))).toEqual(order(singles.map(pick)))
    expect(batch.every((r) => r.senderName === 'Batch Sender')).toBe(true)
  })

  it('writes nothing when one recipient is malformed', async () => {
    const before = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(emailOutbox)
    )[0]!.n
    await expect(
      getDb().transaction((tx) =>
        enqueueEmails(tx, [
          { to: 'ok@example.com', template: 'programme_open', values },
          { to: 'two@example.com, three@example.com', template: 'programme_open', values },
        ]),
      ),
    ).rejects.toThrow(/single e-mail address/)
    expect(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(emailOutbox)
      )[0]!.n,
    ).toBe(before)
  })
})
