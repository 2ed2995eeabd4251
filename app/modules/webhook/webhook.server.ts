import crypto from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { companies, webhookDeliveries, webhookEndpoints } from '#db/schema/index'
import type { WebhookDeliveryStatus, WebhookEvent } from '#db/enums'
import { getEnv } from '#app/config/env.server'
import { isUuid } from '#app/lib/ids'
import { ok, refuse, refuseField, refuseNotFound, type Actor, type Outcome } from '#app/lib/outcome'
import { encryptSecret, decryptSecret, NO_KEY_MESSAGE } from '#app/lib/secret-box.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { checkDestination, type Resolver } from './destination.server'
import { WEBHOOK_MESSAGES, type WebhookInput } from './schemas'

/**
 * Webhook endpoints as admins manage them (issue 21 §2, ADR 057): registered with a URL that passes
 * the address guard (destination.server.ts), the events wanted and an optional company; a signing
 * secret (`whsec_…`, the Standard Webhooks form) shown once at registration and at each rotation and
 * kept sealed with SECRET_KEY; rotation keeps the previous secret signing beside the new one for
 * ROTATION_OVERLAP_HOURS. Every change is audited, never with a secret.
 */

/** After a rotation, deliveries carry the previous secret's signature too, this long. */
export const ROTATION_OVERLAP_HOURS = 24
/** The most endpoints the page lists (a handful per HR system; newest first). */
export const WEBHOOK_LIST_LIMIT = 200
/** Deliveries per page of an endpoint's log. */
export const DELIVERY_PAGE_SIZE = 50

const SECRET_BYTES = 32

/** The sealed secret's place (secret-box.server.ts binds it in): a value copied elsewhere does not open. */
export const secretContext = (id: string, which: 'current' | 'previous') =>
  `webhook_endpoints.${which === 'current' ? 'secret_sealed' : 'previous_secret_sealed'}:${id}`

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(SECRET_BYTES).toString('base64')}`
}

/** The URL as the audit keeps it: no query string (a receiver's token may sit there). */
function auditedUrl(raw: string) {
  try {
    const url = new URL(raw)
    return `${url.origin}${url.pathname}${url.search ? '?…' : ''}`
  } catch {
    return '(unreadable)'
  }
}

type CheckOptions = { resolve?: Resolver }

/** A lookup gets this long at registration before the host counts as not found. */
const LOOKUP_TIMEOUT_MS = 5_000

/**
 * The address, checked before any transaction opens (a lookup may take seconds, and must not hold a
 * connection or a lock while it does): the normalised URL, or the field's message.
 */
async function checkUrl(raw: string, options: CheckOptions): Promise<Outcome<{ url: string }>> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<{ ok: false; message: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, message: WEBHOOK_MESSAGES.hostUnknown }), LOOKUP_TIMEOUT_MS)
  })
  const checked = await Promise.race([checkDestination(raw, { resolve: options.resolve }), timeout]).finally(
    () => clearTimeout(timer),
  )
  if (!checked.ok) return refuseField('url', checked.message)
  return ok({ url: checked.destination.url.toString() })
}

/** The company an endpoint is restricted to still exists (held until the transaction ends). */
async function companyGone(tx: Tx, companyId: string | null): Promise<boolean> {
  if (!companyId) return false
  const [company] = await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, companyId))
    .for('key share')
  return !company
}

/** Registers an endpoint; its secret is in the answer and nowhere else (sealed at rest). Audited without it. */
export async function createWebhook(
  actor: Actor,
  input: WebhookInput,
  options: CheckOptions = {},
): Promise<Outcome<{ id: string; secret: string }>> {
  if (!getEnv().SECRET_KEY) return refuse(NO_KEY_MESSAGE)
  const checked = await checkUrl(input.url, options)
  if (!checked.ok) return checked
  const id = crypto.randomUUID()
  const secret = newWebhookSecret()
  return getDb().transaction(async (tx) => {
    if (await companyGone(tx, input.companyId)) return refuseField('companyId', WEBHOOK_MESSAGES.companyGone)
    await tx.insert(webhookEndpoints).values({
      id,
      url: checked.value.url,
      description: input.description,
      events: input.events,
      companyId: input.companyId,
      secretSealed: encryptSecret(secret, secretContext(id, 'current')),
      createdBy: actor.id,
    })
    await recordAudit(tx, actor, {
      action: 'webhook.create',
      entity: 'webhook_endpoint',
      entityId: id,
      details: {
        url: auditedUrl(checked.value.url),
        description: input.description,
        events: input.events,
        companyId: input.companyId,
      },
    })
    return ok({ id, secret })
  })
}

/** Changes an endpoint's URL, description, events, company or whether it is enabled. Audited: what changed. */
export async function updateWebhook(
  actor: Actor,
  id: string,
  input: WebhookInput & { enabled: boolean },
  options: CheckOptions = {},
): Promise<Outcome<{ changed: string[] }>> {
  if (!isUuid(id)) return refuseNotFound()
  const checked = await checkUrl(input.url, options)
  if (!checked.ok) return checked
  return getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({
        url: webhookEndpoints.url,
        description: webhookEndpoints.description,
        events: webhookEndpoints.events,
        companyId: webhookEndpoints.companyId,
        enabled: webhookEndpoints.enabled,
      })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .for('update')
    if (!current) return refuseNotFound()
    if (await companyGone(tx, input.companyId)) return refuseField('companyId', WEBHOOK_MESSAGES.companyGone)
    const next = {
      url: checked.value.url,
      description: input.description,
      events: input.events as string[],
      companyId: input.companyId,
      enabled: input.enabled,
    }
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    if (current.url !== next.url) changes.url = { from: auditedUrl(current.url), to: auditedUrl(next.url) }
    if (current.description !== next.description)
      changes.description = { from: current.description, to: next.description }
    if ([...current.events].sort().join() !== [...next.events].sort().join())
      changes.events = { from: current.events, to: next.events }
    if (current.companyId !== next.companyId)
      changes.companyId = { from: current.companyId, to: next.companyId }
    if (current.enabled !== next.enabled) changes.enabled = { from: current.enabled, to: next.enabled }
    if (!Object.keys(changes).length) return ok({ changed: [] })
    await tx
      .update(webhookEndpoints)
      .set({ ...next, updatedAt: sql`now()` })
      .where(eq(webhookEndpoints.id, id))
    await recordAudit(tx, actor, {
      action: 'webhook.update',
      entity: 'webhook_endpoint',
      entityId: id,
      details: { changes },
    })
    return ok({ changed: Object.keys(changes) })
  })
}

/**
 * A new secret, shown once: from now on deliveries are signed with it and, for
 * ROTATION_OVERLAP_HOURS, with the one it replaces too (both signatures in `webhook-signature`), so
 * the receiver can switch without losing a delivery. A second rotation within the overlap drops the
 * oldest secret. Audited without either secret.
 */
export async function rotateWebhookSecret(
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<Outcome<{ secret: string; previousUntil: string }>> {
  if (!isUuid(id)) return refuseNotFound()
  if (!getEnv().SECRET_KEY) return refuse(NO_KEY_MESSAGE)
  return getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({ sealed: webhookEndpoints.secretSealed })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .for('update')
    if (!current) return refuseNotFound()
    const previous = decryptSecret(current.sealed, secretContext(id, 'current'))
    const secret = newWebhookSecret()
    const previousUntil = new Date(now.getTime() + ROTATION_OVERLAP_HOURS * 3_600_000)
    await tx
      .update(webhookEndpoints)
      .set({
        secretSealed: encryptSecret(secret, secretContext(id, 'current')),
        previousSecretSealed: encryptSecret(previous, secretContext(id, 'previous')),
        previousSecretExpiresAt: previousUntil,
        secretRotatedAt: now,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, id))
    await recordAudit(tx, actor, {
      action: 'webhook.rotate_secret',
      entity: 'webhook_endpoint',
      entityId: id,
      details: { previousSignsUntil: previousUntil.toISOString() },
    })
    return ok({ secret, previousUntil: previousUntil.toISOString() })
  })
}

/** Deletes an endpoint and its delivery log. Audited with its URL and events. */
export async function deleteWebhook(actor: Actor, id: string): Promise<Outcome<{ url: string }>> {
  if (!isUuid(id)) return refuseNotFound()
  return getDb().transaction(async (tx) => {
    const [gone] = await tx
      .delete(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .returning({ url: webhookEndpoints.url, events: webhookEndpoints.events })
    if (!gone) return refuseNotFound()
    await recordAudit(tx, actor, {
      action: 'webhook.delete',
      entity: 'webhook_endpoint',
      entityId: id,
      details: { url: auditedUrl(gone.url), events: gone.events },
    })
    return ok({ url: gone.url })
  })
}

/**
 * An admin's "redeliver": the delivery (delivered, failed or waiting) is queued again now, with a
 * fresh round of attempts; the same `webhook-id`, so a receiver that keeps ids sees a repeat. Refused
 * while a worker is sending it. Audited.
 */
export async function redeliverWebhook(
  actor: Actor,
  endpointId: string,
  deliveryId: string,
): Promise<Outcome<{ eventType: string }>> {
  if (!isUuid(endpointId) || !isUuid(deliveryId)) return refuseNotFound()
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select({ status: webhookDeliveries.status, eventType: webhookDeliveries.eventType })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)))
      .for('update')
    if (!row) return refuse(WEBHOOK_MESSAGES.deliveryGone)
    if (row.status === 'sending') return refuse(WEBHOOK_MESSAGES.deliveryBusy)
    await tx
      .update(webhookDeliveries)
      .set({
        status: 'queued',
        attempts: 0,
        nextAttemptAt: sql`now()`,
        lockedUntil: null,
        lockedBy: null,
      })
      .where(eq(webhookDeliveries.id, deliveryId))
    await recordAudit(tx, actor, {
      action: 'webhook.redeliver',
      entity: 'webhook_delivery',
      entityId: deliveryId,
      details: { endpointId, eventType: row.eventType, previousStatus: row.status },
    })
    return ok({ eventType: row.eventType })
  })
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())

export type WebhookListRow = {
  id: string
  url: string
  description: string
  events: WebhookEvent[]
  companyName: string | null
  enabled: boolean
  createdAt: string
  /** Deliveries given up on, and waiting. */
  failed: number
  queued: number
}

/** The page's list: every endpoint, newest first, with its failed and waiting counts (one statement). */
export async function listWebhooks(): Promise<WebhookListRow[]> {
  const rows = await queryRows<{
    id: string
    url: string
    description: string
    events: string[]
    company_name: string | null
    enabled: boolean
    created_at: Date | string
    failed: number
    queued: number
  }>(
    getDb(),
    sql`SELECT e.id, e.url, e.description, e.events, c.name AS company_name, e.enabled, e.created_at,
        (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'failed')::int AS failed,
        (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status IN ('queued', 'sending'))::int AS queued
      FROM webhook_endpoints e LEFT JOIN companies c ON c.id = e.company_id
      ORDER BY e.created_at DESC, e.id DESC
      LIMIT ${WEBHOOK_LIST_LIMIT}`,
  )
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events as WebhookEvent[],
    companyName: r.company_name,
    enabled: r.enabled,
    createdAt: iso(r.created_at)!,
    failed: Number(r.failed),
    queued: Number(r.queued),
  }))
}

export type WebhookDetail = {
  id: string
  url: string
  description: string
  events: WebhookEvent[]
  companyId: string | null
  companyName: string | null
  enabled: boolean
  createdAt: string
  secretRotatedAt: string | null
  /** Until when the previous secret still signs (null: no overlap running). */
  previousSignsUntil: string | null
}

/** One endpoint, without its secrets; null when there is none with this id. */
export async function getWebhook(id: string, now = new Date()): Promise<WebhookDetail | null> {
  if (!isUuid(id)) return null
  const [row] = await getDb()
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      description: webhookEndpoints.description,
      events: webhookEndpoints.events,
      companyId: webhookEndpoints.companyId,
      companyName: companies.name,
      enabled: webhookEndpoints.enabled,
      createdAt: webhookEndpoints.createdAt,
      secretRotatedAt: webhookEndpoints.secretRotatedAt,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookEndpoints)
    .leftJoin(companies, eq(companies.id, webhookEndpoints.companyId))
    .where(eq(webhookEndpoints.id, id))
  if (!row) return null
  const { previousSecretExpiresAt, ...rest } = row
  return {
    ...rest,
    events: rest.events as WebhookEvent[],
    createdAt: iso(rest.createdAt)!,
    secretRotatedAt: iso(rest.secretRotatedAt),
    previousSignsUntil:
      previousSecretExpiresAt && previousSecretExpiresAt.getTime() > now.getTime()
        ? previousSecretExpiresAt.toISOString()
        : null,
  }
}

export type DeliveryRow = {
  id: string
  eventType: WebhookEvent
  status: WebhookDeliveryStatus
  attempts: number
  lastResponseCode: number | null
  lastError: string | null
  createdAt: string
  lastAttemptAt: string | null
  nextAttemptAt: string | null
  deliveredAt: string | null
}

/**
 * One page of an endpoint's delivery log, newest first, keyset on (created_at, id) through the
 * endpoint's log index: one statement whatever the page. `older` is the cursor of the next page.
 */
export async function listDeliveries(
  endpointId: string,
  after: string | null,
): Promise<{ rows: DeliveryRow[]; older: string | null }> {
  // The cursor is the last row's id: the row itself gives the position, at the database's full precision.
  const cursor = isUuid(after) ? after : null
  const rows = await getDb()
    .select({
      id: webhookDeliveries.id,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastResponseCode: webhookDeliveries.lastResponseCode,
      lastError: webhookDeliveries.lastError,
      createdAt: webhookDeliveries.createdAt,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
    })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        cursor
          ? sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (
              SELECT c.created_at, c.id FROM webhook_deliveries c
              WHERE c.id = ${cursor} AND c.endpoint_id = ${endpointId})`
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(DELIVERY_PAGE_SIZE + 1)
  const page = rows.slice(0, DELIVERY_PAGE_SIZE).map((r) => ({
    ...r,
    eventType: r.eventType as WebhookEvent,
    createdAt: iso(r.createdAt)!,
    lastAttemptAt: iso(r.lastAttemptAt),
    deliveredAt: iso(r.deliveredAt),
    // A time to wait for only while one is planned.
    nextAttemptAt: r.status === 'queued' ? iso(r.nextAttemptAt) : null,
  }))
  const last = page.at(-1)
  return { rows: page, older: rows.length > DELIVERY_PAGE_SIZE && last ? last.id : null }
}
