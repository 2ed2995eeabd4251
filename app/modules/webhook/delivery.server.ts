import crypto from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import os from 'node:os'
import { sql, type SQL } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { getDb, isDatabaseDown, isDatabaseOpen, queryRows, reportDatabaseFailure } from '#db/client'
import type { AllowEntry } from '#app/lib/outbound-address'
import { log } from '#app/lib/logger.server'
import { startPollingWorker, type PollingWorker, type Scheduler } from '#app/lib/polling-worker.server'
import { decryptSecret } from '#app/lib/secret-box.server'
import { checkDestination, type Destination, type Resolver } from './destination.server'
import { secretContext } from './webhook.server'

/**
 * The webhook worker (issue 21 §2, ADR 057), after the e-mail outbox's (ADR 008): it claims due
 * deliveries with FOR UPDATE SKIP LOCKED and a lease, checks the receiver's address again (the host
 * resolved now, every address judged, and the request sent to the address judged: no second lookup
 * for a rebinding DNS server to answer), signs the body per Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`; during a rotation's overlap two signatures), POSTs it
 * with a short timeout and no redirects, and records the outcome: 2xx delivered, anything else a
 * failed attempt retried with backoff until MAX_ATTEMPTS. Nothing secret is logged or stored: the
 * last error is a short description, never a header or a body.
 */

/** After this many failed attempts a delivery is 'failed' and waits for an admin's "redeliver". */
export const MAX_ATTEMPTS = 8
/** Seconds before the next attempt after the n-th failure: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h. */
export const BACKOFF_SECONDS = [60, 300, 1800, 7200, 21_600, 43_200, 86_400] as const
/** A request gets this long for an answer (connection, headers) before it counts as failed. */
export const REQUEST_TIMEOUT_MS = 10_000
/** A host lookup gets this long. */
const LOOKUP_TIMEOUT_MS = 5_000
/**
 * A claimed row belongs to its worker this long: a batch's deliveries run side by side, each
 * bounded by the lookup and request timeouts, so a batch ends well within it; a worker that died
 * leaves its rows to another after it.
 */
export const LEASE_SECONDS = 60
const POLL_MS = 2_000
const BATCH_SIZE = 5
const ERROR_MAX = 200

export function backoffSeconds(attempts: number): number {
  return BACKOFF_SECONDS[Math.min(Math.max(attempts, 1), BACKOFF_SECONDS.length) - 1]!
}

type Claimed = {
  id: string
  endpointId: string
  attempts: number
  payload: unknown
  url: string
  secretSealed: string
  previousSecretSealed: string | null
  previousSecretExpiresAt: Date | string | null
}

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`

/** Rows a worker may take (`d` the delivery, `e` its endpoint): due and queued, or a lease run out; endpoint enabled. */
function claimable(d: string, now: Date): SQL {
  const t = sql.raw(d)
  return sql`((${t}.status = 'queued' AND ${t}.next_attempt_at <= ${at(now)})
    OR (${t}.status = 'sending' AND ${t}.locked_until < ${at(now)}))`
}

/**
 * Leases up to `limit` due deliveries of enabled endpoints in one statement (a MATERIALIZED CTE,
 * as the e-mail outbox: computed once, so never more than `limit` rows), with each one's endpoint.
 */
export async function claimDeliveries(workerId: string, limit: number, now: Date): Promise<Claimed[]> {
  const rows = await queryRows<Claimed>(
    getDb(),
    sql`WITH candidates AS MATERIALIZED (
        SELECT c.id FROM webhook_deliveries c
        WHERE ${claimable('c', now)}
          AND EXISTS (SELECT 1 FROM webhook_endpoints ce WHERE ce.id = c.endpoint_id AND ce.enabled)
        ORDER BY c.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF c SKIP LOCKED
      )
      UPDATE webhook_deliveries d
      SET status = 'sending', locked_by = ${workerId},
        locked_until = ${at(now)} + make_interval(secs => ${LEASE_SECONDS}),
        attempts = d.attempts + 1, last_attempt_at = ${at(now)}
      FROM candidates, webhook_endpoints e
      WHERE d.id = candidates.id AND e.id = d.endpoint_id AND ${claimable('d', now)}
      RETURNING d.id, d.endpoint_id AS "endpointId", d.attempts, d.payload, e.url,
        e.secret_sealed AS "secretSealed", e.previous_secret_sealed AS "previousSecretSealed",
        e.previous_secret_expires_at AS "previousSecretExpiresAt"`,
  )
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }))
}

function heldBy(row: Claimed, workerId: string): SQL {
  return sql`id = ${row.id} AND status = 'sending' AND locked_by = ${workerId} AND attempts = ${row.attempts}`
}

async function markDelivered(row: Claimed, workerId: string, code: number, now: Date) {
  await getDb().execute(
    sql`UPDATE webhook_deliveries SET status = 'delivered', delivered_at = ${at(now)},
        locked_until = NULL, locked_by = NULL, last_response_code = ${code}, last_error = NULL
      WHERE ${heldBy(row, workerId)}`,
  )
}

async function markFailed(
  row: Claimed,
  workerId: string,
  failure: { code: number | null; error: string },
  now: Date,
): Promise<'retried' | 'failed'> {
  const giveUp = row.attempts >= MAX_ATTEMPTS
  await getDb().execute(
    sql`UPDATE webhook_deliveries SET
        status = ${giveUp ? 'failed' : 'queued'},
        next_attempt_at = ${at(now)} + make_interval(secs => ${giveUp ? 0 : backoffSeconds(row.attempts)}),
        locked_until = NULL, locked_by = NULL,
        last_response_code = ${failure.code}, last_error = ${failure.error.slice(0, ERROR_MAX)}
      WHERE ${heldBy(row, workerId)}`,
  )
  return giveUp ? 'failed' : 'retried'
}

/**
 * The `webhook-signature` header: the current secret's signature and, while a rotation's overlap
 * runs, the previous one's, separated by a space (Standard Webhooks allows several).
 */
export function signatureHeader(
  secrets: string[],
  message: { id: string; timestamp: Date; body: string },
): string {
  return secrets.map((s) => new Webhook(s).sign(message.id, message.timestamp, message.body)).join(' ')
}

function secretsOf(row: Claimed, now: Date): string[] {
  const secrets = [decryptSecret(row.secretSealed, secretContext(row.endpointId, 'current'))]
  const until = row.previousSecretExpiresAt ? new Date(row.previousSecretExpiresAt) : null
  if (row.previousSecretSealed && until && until.getTime() > now.getTime())
    secrets.push(decryptSecret(row.previousSecretSealed, secretContext(row.endpointId, 'previous')))
  return secrets
}

/** A network error as the log shows it: its code or a short reason, never an address's secret part. */
function describe(error: unknown): string {
  const code = (error as { code?: unknown })?.code
  if (typeof code === 'string') return code
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/(\w+:\/\/)[^\s/@]+@/g, '$1[redacted]@').slice(0, ERROR_MAX) || 'unknown error'
}

/**
 * POSTs `body` to the checked destination: the connection goes to the address judged (the lookup is
 * answered with it), the Host header and TLS name stay the URL's host. No redirect is followed (a
 * 3xx is an answer like any other non-2xx); the answer's body is not read.
 */
function post(
  destination: Destination,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<number> {
  const { url, address, family } = destination
  const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }) as unknown as LookupFunction
  const send = url.protocol === 'https:' ? https.request : http.request
  return new Promise<number>((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        agent: false,
        timeout: timeoutMs,
      },
      (response) => {
        clearTimeout(deadline)
        resolve(response.statusCode ?? 0)
        response.on('error', () => {})
        response.destroy()
      },
    )
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    )
    request.on('timeout', () =>
      request.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
    )
    request.on('error', (error) => {
      clearTimeout(deadline)
      reject(error)
    })
    request.end(body)
  })
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    work,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

export type DeliveryOptions = {
  /** The clock: when this round runs (tests pass their own; due times and backoff follow it). */
  now?: Date
  workerId?: string
  limit?: number
  /** The allow-list (default: WEBHOOK_ALLOWED_HOSTS). */
  allow?: readonly AllowEntry[]
  resolve?: Resolver
  timeoutMs?: number
}

export type DeliveryRound = { claimed: number; delivered: number; retried: number; failed: number }

const defaultWorkerId = () => `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`

async function deliverOne(row: Claimed, workerId: string, now: Date, options: DeliveryOptions) {
  const body = JSON.stringify(row.payload)
  const checked = await withTimeout(
    checkDestination(row.url, { allow: options.allow, resolve: options.resolve }),
    LOOKUP_TIMEOUT_MS,
    'host lookup timed out',
  ).catch((error: unknown) => ({ ok: false as const, message: describe(error) }))
  if (!checked.ok)
    return markFailed(row, workerId, { code: null, error: `address refused: ${checked.message}` }, now)
  let code: number
  try {
    code = await post(
      checked.destination,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'Panorama-Webhooks/1',
        'webhook-id': row.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signatureHeader(secretsOf(row, now), { id: row.id, timestamp: now, body }),
      },
      options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    )
  } catch (error) {
    return markFailed(row, workerId, { code: null, error: describe(error) }, now)
  }
  if (code >= 200 && code < 300) {
    await markDelivered(row, workerId, code, now)
    return 'delivered' as const
  }
  return markFailed(row, workerId, { code, error: `HTTP ${code}` }, now)
}

/** Claims one batch and delivers it, side by side. Tests call it directly; the worker on a timer. */
export async function processWebhooksOnce(options: DeliveryOptions = {}): Promise<DeliveryRound> {
  const now = options.now ?? new Date()
  const workerId = options.workerId ?? defaultWorkerId()
  const batch = await claimDeliveries(workerId, options.limit ?? BATCH_SIZE, now)
  const round: DeliveryRound = { claimed: batch.length, delivered: 0, retried: 0, failed: 0 }
  const outcomes = await Promise.all(
    batch.map((row) =>
      deliverOne(row, workerId, now, options).catch((error: unknown) => {
        // A secret that does not open (another SECRET_KEY): the attempt fails, the reason is logged.
        log.warn('webhook delivery could not be attempted', { id: row.id, error: describe(error) })
        return markFailed(row, workerId, { code: null, error: 'could not be signed (check SECRET_KEY)' }, now)
      }),
    ),
  )
  for (const outcome of outcomes) round[outcome]++
  if (round.retried || round.failed)
    log.info('webhook deliveries failed', { workerId, retried: round.retried, failed: round.failed })
  return round
}

/** A finished delivery (delivered, or failed for good) stays in the log this long after its last attempt. */
export const DELIVERY_LOG_DAYS = 30
const PRUNE_BATCH = 1000

/**
 * Deletes finished deliveries older than DELIVERY_LOG_DAYS (created and last tried before then), a
 * batch per statement, each endpoint's oldest first through the log's index (endpoint, created_at):
 * the log stays a month deep, not a record of every event for ever. Queued and sending rows, and a
 * failed one an admin may still redeliver within the month, stay. Answers how many went.
 */
export async function pruneWebhookDeliveries(now: Date = new Date(), batch = PRUNE_BATCH): Promise<number> {
  const cutoff = at(new Date(now.getTime() - DELIVERY_LOG_DAYS * 24 * 60 * 60 * 1000))
  let pruned = 0
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      getDb(),
      sql`WITH picked AS MATERIALIZED (
            SELECT d.id FROM webhook_endpoints e CROSS JOIN LATERAL (
              SELECT d.id FROM webhook_deliveries d
              WHERE d.endpoint_id = e.id AND d.created_at < ${cutoff}
                AND d.status IN ('delivered', 'failed') AND coalesce(d.last_attempt_at, d.created_at) < ${cutoff}
              ORDER BY d.created_at LIMIT ${batch}) d
            LIMIT ${batch}
          ), gone AS (DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM picked) RETURNING 1)
          SELECT count(*)::int AS n FROM gone`,
    )
    const n = Number(row?.n ?? 0)
    pruned += n
    if (n < batch) break
  }
  if (pruned) log.info('webhook deliveries pruned', { pruned })
  return pruned
}

/**
 * Polls for due deliveries every 2 s (any number of instances may run one); a full batch is
 * followed at once by the next (lib/polling-worker.server.ts).
 */
export function startWebhookWorker({ timers }: { timers?: Scheduler } = {}): PollingWorker {
  const workerId = defaultWorkerId()
  return startPollingWorker({
    name: 'webhook worker',
    intervalMs: POLL_MS,
    firstDelayMs: 0,
    fields: { workerId },
    timers,
    when: () => isDatabaseOpen() && !isDatabaseDown(),
    onError: reportDatabaseFailure,
    round: async (now) => (await processWebhooksOnce({ now, workerId })).claimed >= BATCH_SIZE,
  })
}
