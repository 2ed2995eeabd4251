import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { auditLog, webhookDeliveries, webhookEndpoints } from '#db/schema/index'
import { createCompany, createUser } from '#db/factories'
import { resetEnvCache } from '#app/config/env.server'
import { parseAllowList } from '#app/lib/outbound-address'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import {
  BACKOFF_SECONDS,
  DELIVERY_LOG_DAYS,
  MAX_ATTEMPTS,
  processWebhooksOnce,
  pruneWebhookDeliveries,
} from '#app/modules/webhook/delivery.server'
import { newWebhookSecret, redeliverWebhook, rotateWebhookSecret } from '#app/modules/webhook/webhook.server'
import { useTestDatabase } from '#tests/support/database'
import { deliveriesOf, insertEndpoint, startReceiver, type Received } from './helpers'

/**
 * Deliveries to a real HTTP receiver on 127.0.0.1 (allowed by WEBHOOK_ALLOWED_HOSTS, as an intranet
 * install would), signed per Standard Webhooks and verified here by the `standardwebhooks` verifier;
 * retried with backoff on a controlled clock (`now`, no sleeps) until the receiver comes back; given
 * up after MAX_ATTEMPTS and redelivered; signed with two secrets during a rotation's overlap only;
 * refused at delivery time when the host resolves to a private address; never following a redirect.
 */
const db = useTestDatabase()
let receiver: Awaited<ReturnType<typeof startReceiver>>
let companyId = ''
let admin = { id: '' }

beforeAll(async () => {
  process.env.WEBHOOK_ALLOWED_HOSTS = '127.0.0.1'
  resetEnvCache()
  receiver = await startReceiver()
  companyId = (await createCompany()).id
  admin = await createUser({ role: 'admin' })
})

afterAll(async () => {
  delete process.env.WEBHOOK_ALLOWED_HOSTS
  resetEnvCache()
  await receiver.close()
})

const MINUTE = 60_000

/** Verifies a request as a receiver would, on its clock at `at` (the verifier checks the timestamp's age). */
function verify(secret: string, request: Received, at: Date) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(at)
  try {
    return new Webhook(secret).verify(request.body, request.headers) as { type: string; data: unknown }
  } finally {
    vi.useRealTimers()
  }
}

async function queueOne(endpointCompany: string = companyId) {
  await db().transaction(async (tx) =>
    enqueueWebhookEvents(tx, [
      {
        type: 'employee.created',
        companyId: endpointCompany,
        data: { employee_id: crypto.randomUUID(), enabled: true },
      },
    ]),
  )
}

async function fresh(endpoint: { url?: string } = {}) {
  const made = await insertEndpoint({ url: endpoint.url ?? receiver.url, events: ['employee.created'] })
  // Only this endpoint takes new events while the test runs.
  await db().update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.enabled, true))
  await db().update(webhookEndpoints).set({ enabled: true }).where(eq(webhookEndpoints.id, made.id))
  return made
}

describe('delivery', () => {
  test('signed per Standard Webhooks: the verifier accepts it; 2xx is delivered', async () => {
    const { id, secret } = await fresh()
    await queueOne()
    const before = receiver.received.length
    const now = new Date()
    const round = await processWebhooksOnce({ now })
    expect(round).toMatchObject({ claimed: 1, delivered: 1 })
    const request = receiver.received[before]!
    expect(receiver.received.length).toBe(before + 1)
    const [row] = await deliveriesOf(id)
    expect(request.headers['webhook-id']).toBe(row!.id)
    expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)))
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.path).toBe('/hooks')
    const payload = verify(secret, request, now)
    expect(payload.type).toBe('employee.created')
    expect(payload).toEqual(row!.payload)
    // A changed body fails verification.
    expect(() => verify(secret, { ...request, body: request.body.replace('true', 'false') }, now)).toThrow()
    // Another secret fails too.
    expect(() => verify(newWebhookSecret(), request, now)).toThrow('No matching signature')
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, lastResponseCode: 200, lastError: null })
    expect(row!.deliveredAt?.getTime()).toBe(now.getTime())
    // Nothing left to claim.
    expect((await processWebhooksOnce({ now: new Date(now.getTime() + MINUTE) })).claimed).toBe(0)
  })

  test('a receiver that fails (500) is retried with backoff, and delivered once it is back', async () => {
    const { id, secret } = await fresh()
    await queueOne()
    const before = receiver.received.length
    receiver.answer((n) => (n - before <= 2 ? 500 : 204))
    const t0 = new Date()
    expect(await processWebhooksOnce({ now: t0 })).toMatchObject({ claimed: 1, retried: 1 })
    let [row] = await deliveriesOf(id)
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastResponseCode: 500, lastError: 'HTTP 500' })
    expect(row!.nextAttemptAt.getTime()).toBe(t0.getTime() + BACKOFF_SECONDS[0] * 1000)

    // Not before its time.
    expect((await processWebhooksOnce({ now: new Date(t0.getTime() + 30_000) })).claimed).toBe(0)
    const t1 = new Date(t0.getTime() + BACKOFF_SECONDS[0] * 1000)
    expect(await processWebhooksOnce({ now: t1 })).toMatchObject({ claimed: 1, retried: 1 })
    ;[row] = await deliveriesOf(id)
    expect(row!.attempts).toBe(2)
    expect(row!.nextAttemptAt.getTime()).toBe(t1.getTime() + BACKOFF_SECONDS[1] * 1000)
    expect((await processWebhooksOnce({ now: new Date(t1.getTime() + 4 * MINUTE) })).claimed).toBe(0)

    const t2 = new Date(t1.getTime() + BACKOFF_SECONDS[1] * 1000)
    expect(await processWebhooksOnce({ now: t2 })).toMatchObject({ claimed: 1, delivered: 1 })
    ;[row] = await deliveriesOf(id)
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, lastResponseCode: 204, lastError: null })
    // Every attempt was the same message (one webhook-id), each signed for its own time.
    const attempts = receiver.received.slice(before)
    expect(attempts.length).toBe(3)
    expect(new Set(attempts.map((r) => r.headers['webhook-id']))).toEqual(new Set([row!.id]))
    expect(verify(secret, attempts[2]!, t2).type).toBe('employee.created')
    receiver.answer(() => 200)
  })

  test('given up after MAX_ATTEMPTS, then redelivered by an admin (audited)', async () => {
    const { id } = await fresh()
    await queueOne()
    receiver.answer(() => 503)
    let now = new Date()
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect((await processWebhooksOnce({ now })).claimed).toBe(1)
      now = new Date(now.getTime() + 2 * 86_400_000)
    }
    let [row] = await deliveriesOf(id)
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastResponseCode: 503 })
    expect((await processWebhooksOnce({ now })).claimed).toBe(0)

    receiver.answer(() => 200)
    const redelivered = await redeliverWebhook(admin, id, row!.id)
    expect(redelivered.ok).toBe(true)
    ;[row] = await deliveriesOf(id)
    expect(row).toMatchObject({ status: 'queued', attempts: 0 })
    expect(await processWebhooksOnce({ now: new Date(Date.now() + 1000) })).toMatchObject({ delivered: 1 })
    ;[row] = await deliveriesOf(id)
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, lastResponseCode: 200 })
    const audit = await db().select().from(auditLog).where(eq(auditLog.entityId, row!.id))
    expect(audit.map((a) => a.action)).toEqual(['webhook.redeliver'])
    expect(audit[0]!.details).toMatchObject({
      endpointId: id,
      eventType: 'employee.created',
      previousStatus: 'failed',
    })

    // A delivery of another endpoint is not this one's to redeliver.
    const other = await insertEndpoint()
    expect((await redeliverWebhook(admin, other.id, row!.id)).ok).toBe(false)
  })

  test('rotation: both secrets verify during the overlap, the old one fails after it', async () => {
    const { id, secret: oldSecret } = await fresh()
    const rotatedAt = new Date()
    const rotated = await rotateWebhookSecret(admin, id, rotatedAt)
    expect(rotated.ok).toBe(true)
    const newSecret = rotated.ok ? rotated.value.secret : ''
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(newSecret).not.toBe(oldSecret)
    // Sealed at rest: neither secret is in the row, nor in the audit.
    const [stored] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))
    expect(JSON.stringify(stored)).not.toContain(newSecret.slice(6, 30))
    expect(JSON.stringify(stored)).not.toContain(oldSecret.slice(6, 30))
    const audit = await db().select().from(auditLog).where(eq(auditLog.entityId, id))
    expect(audit.map((a) => a.action)).toContain('webhook.rotate_secret')
    expect(JSON.stringify(audit)).not.toContain(newSecret.slice(6, 30))

    const before = receiver.received.length
    await queueOne()
    const during = new Date(rotatedAt.getTime() + 60 * MINUTE)
    expect((await processWebhooksOnce({ now: during })).delivered).toBe(1)
    const first = receiver.received[before]!
    expect(first.headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(verify(newSecret, first, during).type).toBe('employee.created')
    expect(verify(oldSecret, first, during).type).toBe('employee.created')

    await queueOne()
    const after = new Date(rotatedAt.getTime() + 25 * 60 * MINUTE)
    expect((await processWebhooksOnce({ now: after })).delivered).toBe(1)
    const second = receiver.received[before + 1]!
    expect(second.headers['webhook-signature']!.split(' ')).toHaveLength(1)
    expect(verify(newSecret, second, after).type).toBe('employee.created')
    expect(() => verify(oldSecret, second, after)).toThrow('No matching signature')
  })
})

describe('where a delivery may go', () => {
  test('a host that resolves to a private address at delivery time is refused, nothing sent', async () => {
    const { id } = await fresh({ url: 'https://rebinding.example.test/hooks' })
    await queueOne()
    const before = receiver.received.length
    const round = await processWebhooksOnce({
      now: new Date(),
      resolve: async () => [{ address: '10.1.2.3', family: 4 }],
    })
    expect(round).toMatchObject({ claimed: 1, retried: 1 })
    const [row] = await deliveriesOf(id)
    expect(row!.lastError).toContain('address refused')
    expect(row!.lastResponseCode).toBeNull()
    expect(receiver.received.length).toBe(before)
  })

  test('the receiver itself is refused once the allow-list no longer names it', async () => {
    const { id } = await fresh()
    await queueOne()
    const before = receiver.received.length
    expect((await processWebhooksOnce({ now: new Date(), allow: parseAllowList('').entries })).retried).toBe(
      1,
    )
    expect(receiver.received.length).toBe(before)
    const [row] = await deliveriesOf(id)
    expect(row!.lastError).toContain('address refused')
  })

  test('a redirect is an answer, not followed', async () => {
    const { id } = await fresh()
    await queueOne()
    receiver.answer(() => 302)
    const before = receiver.received.length
    expect((await processWebhooksOnce({ now: new Date() })).retried).toBe(1)
    expect(receiver.received.length).toBe(before + 1)
    const [row] = await deliveriesOf(id)
    expect(row).toMatchObject({ status: 'queued', lastResponseCode: 302, lastError: 'HTTP 302' })
    receiver.answer(() => 200)
  })

  test('a disabled endpoint’s deliveries wait; two workers at once send each delivery once', async () => {
    const { id } = await fresh()
    for (let i = 0; i < 6; i++) await queueOne()
    await db().update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, id))
    expect((await processWebhooksOnce({ now: new Date() })).claimed).toBe(0)
    await db().update(webhookEndpoints).set({ enabled: true }).where(eq(webhookEndpoints.id, id))
    const before = receiver.received.length
    const now = new Date(Date.now() + 1000)
    const rounds = await Promise.all([
      processWebhooksOnce({ now, workerId: 'a', limit: 4 }),
      processWebhooksOnce({ now, workerId: 'b', limit: 4 }),
      processWebhooksOnce({ now, workerId: 'c', limit: 4 }),
    ])
    expect(rounds.reduce((n, r) => n + r.delivered, 0)).toBe(6)
    const ids = receiver.received.slice(before).map((r) => r.headers['webhook-id'])
    expect(ids.length).toBe(6)
    expect(new Set(ids).size).toBe(6)
    const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id))
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true)
  })
})

describe('the delivery log', () => {
  test('keeps a month of finished deliveries: older delivered and failed ones go, waiting ones stay', async () => {
    const { id } = await insertEndpoint()
    const DAY = 24 * 60 * 60 * 1000
    const now = new Date()
    const old = new Date(now.getTime() - DELIVERY_LOG_DAYS * DAY - 60_000)
    const young = new Date(now.getTime() - DELIVERY_LOG_DAYS * DAY + 60_000)
    const row = (status: 'queued' | 'delivered' | 'failed', createdAt: Date, lastAttemptAt: Date | null) => ({
      endpointId: id,
      eventType: 'employee.created',
      payload: { type: 'employee.created' },
      status,
      createdAt,
      lastAttemptAt,
    })
    await db()
      .insert(webhookDeliveries)
      .values([
        // Gone: finished and last tried over a month ago (three, to need more than one batch of 2).
        row('delivered', old, old),
        row('delivered', old, old),
        row('failed', old, old),
        // Stay: a day short of the month; redelivered lately; still waiting for its turn.
        row('delivered', young, young),
        row('delivered', old, young),
        row('queued', old, null),
      ])
    expect(await pruneWebhookDeliveries(now, 2)).toBe(3)
    const left = (await deliveriesOf(id)).map(
      (d) => `${d.status} ${d.createdAt.getTime() === old.getTime() ? 'old' : 'young'}`,
    )
    expect(left.sort()).toEqual(['delivered old', 'delivered young', 'queued old'])
    expect(await pruneWebhookDeliveries(now, 2)).toBe(0)
  })
})
