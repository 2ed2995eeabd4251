import os from 'node:os'
import crypto from 'node:crypto'
import { and, asc, eq, inArray, isNull, lte, lt, or, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import { getDb, isDatabaseOpen, type Tx } from '#db/client'
import { brands, emailOutbox, emailTemplates } from '#db/schema/index'
import { getEnv, type Env } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'
import {
  DEFAULT_TEMPLATES,
  LINK_LABELS,
  TEMPLATE_PLACEHOLDERS,
  findPlaceholders,
  renderTemplate,
  type TemplateKey,
} from './templates'

/**
 * The transactional outbox: callers write a rendered message in the same transaction as the change
 * that causes it (enqueueEmail); a worker in any app instance claims due rows with FOR UPDATE SKIP
 * LOCKED and a lease, and delivers them through SMTP with retries and backoff.
 */

export type { TemplateKey } from './templates'

export type EnqueueInput = {
  to: string
  template: TemplateKey
  brandId?: string | null
  values: Record<string, string>
  entity?: string
  entityId?: string
}

/** After this many failed deliveries a message is 'failed' and waits for an admin's retry. */
export const MAX_ATTEMPTS = 8
/** A claimed row belongs to its worker this long; after it, another worker may take it over. */
export const LEASE_SECONDS = 300
const BACKOFF_BASE_SECONDS = 30
const BACKOFF_CAP_SECONDS = 3600
const POLL_MS = 2_000
const BATCH_SIZE = 10

/** Seconds to wait after the given (1-based) failed attempt: 30 s, 1 min, 2 min, … capped at 1 h. */
export function backoffSeconds(attempts: number): number {
  return Math.min(BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_SECONDS)
}

/** Renders the brand's template for `input.template` (else the default) and queues it in `tx`. */
export async function enqueueEmail(tx: Tx, input: EnqueueInput): Promise<{ id: string }> {
  const to = input.to.trim()
  if (!to || /[\s,;<>]/.test(to)) throw new Error('enqueueEmail: "to" must be a single e-mail address')
  const brandId = input.brandId || null

  const rows = await tx
    .select({ brandId: emailTemplates.brandId, subject: emailTemplates.subject, body: emailTemplates.body })
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.key, input.template),
        brandId
          ? or(eq(emailTemplates.brandId, brandId), isNull(emailTemplates.brandId))
          : isNull(emailTemplates.brandId),
      ),
    )
  const [brand] = brandId
    ? await tx
        .select({ name: brands.name, primaryColor: brands.primaryColor, senderName: brands.senderName })
        .from(brands)
        .where(eq(brands.id, brandId))
    : []
  // The brand's own wording wins; the migration always provides the default, the constant is a last
  // resort (a database someone emptied by hand) so a password reset still goes out.
  const template = rows.find((r) => r.brandId !== null) ?? rows[0] ?? DEFAULT_TEMPLATES[input.template]
  if (!rows.length) log.warn('email template missing; using built-in default', { template: input.template })

  const env = getEnv()
  const values: Record<string, string> = { appUrl: env.APP_URL, ...input.values }
  const missing = findPlaceholders(template.subject + '\n' + template.body).filter(
    (name) => TEMPLATE_PLACEHOLDERS[input.template].includes(name) && !values[name] && name !== 'brandName',
  )
  if (missing.length) log.warn('email template values missing', { template: input.template, missing })

  const rendered = renderTemplate(template, values, { brand, linkLabel: LINK_LABELS[input.template] })
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      recipient: to,
      senderName: brand?.senderName || null,
      templateKey: input.template,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      status: 'queued',
      entity: input.entity,
      entityId: input.entityId,
    })
    .returning({ id: emailOutbox.id })

  // Without SMTP nothing is delivered: the link in the log is how a local run follows the flow.
  if (!env.SMTP_URL)
    log.info('email queued (no SMTP_URL; not sent)', { to, template: input.template, link: values.link })
  return { id: row.id }
}

/** What the worker needs from a transport; a nodemailer transporter fits, and so does a test double. */
export type MailTransport = {
  sendMail(message: {
    from: string | { name: string; address: string }
    to: string
    subject: string
    text: string
    html: string
  }): Promise<unknown>
  close?: () => void
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  return nodemailer.createTransport({
    url: smtpUrl,
    // nodemailer's defaults (2 min to connect, 10 min of silence) would outlive the claim lease.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  })
}

type Claimed = {
  id: string
  recipient: string
  subject: string
  html: string
  text: string
  senderName: string | null
  attempts: number
}

/**
 * Takes up to `limit` due rows in one statement: queued ones whose time has come and sending ones
 * whose worker's lease ran out (it crashed). SKIP LOCKED lets concurrent workers take disjoint rows.
 */
export async function claimBatch(workerId: string, limit: number): Promise<Claimed[]> {
  const db = getDb()
  const due = or(
    and(eq(emailOutbox.status, 'queued'), lte(emailOutbox.nextAttemptAt, sql`now()`)),
    and(eq(emailOutbox.status, 'sending'), lt(emailOutbox.lockedUntil, sql`now()`)),
  )
  const candidates = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(due)
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true })
  const claimed = await db
    .update(emailOutbox)
    .set({
      status: 'sending',
      lockedUntil: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
      attempts: sql`${emailOutbox.attempts} + 1`,
    })
    // `due` again: if another worker changed a row between our snapshot and our lock, Postgres
    // re-checks the condition on the new version and leaves the row alone.
    .where(and(inArray(emailOutbox.id, candidates), due))
    .returning({
      id: emailOutbox.id,
      recipient: emailOutbox.recipient,
      subject: emailOutbox.subject,
      html: emailOutbox.html,
      text: emailOutbox.text,
      senderName: emailOutbox.senderName,
      attempts: emailOutbox.attempts,
    })
  if (claimed.length) log.debug('outbox batch claimed', { workerId, count: claimed.length })
  return claimed.map((r) => ({ ...r, attempts: Number(r.attempts) }))
}

/** Only a row still in 'sending' becomes 'sent': a message is never marked sent twice. */
async function markSent(id: string): Promise<boolean> {
  const rows = await getDb()
    .update(emailOutbox)
    .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'sending')))
    .returning({ id: emailOutbox.id })
  return rows.length > 0
}

/**
 * Puts a failed delivery back in the queue with backoff, or gives up after MAX_ATTEMPTS. The
 * attempts check makes sure a worker whose lease was taken over does not touch the new owner's row.
 */
async function markFailed(row: Claimed, error: string): Promise<'retried' | 'failed'> {
  const giveUp = row.attempts >= MAX_ATTEMPTS
  await getDb()
    .update(emailOutbox)
    .set({
      status: giveUp ? 'failed' : 'queued',
      nextAttemptAt: giveUp
        ? sql`now()`
        : sql`now() + make_interval(secs => ${backoffSeconds(row.attempts)})`,
      lockedUntil: null,
      lastError: error,
    })
    .where(
      and(
        eq(emailOutbox.id, row.id),
        eq(emailOutbox.status, 'sending'),
        eq(emailOutbox.attempts, row.attempts),
      ),
    )
  return giveUp ? 'failed' : 'retried'
}

/** An SMTP error as safe to store and show: its message, without credentials, bounded. */
function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/(\w+:\/\/)[^\s/@]+@/g, '$1[redacted]@').slice(0, 500) || 'unknown error'
}

/** `Name <address>` or a bare address → its parts. */
export function parseMailFrom(mailFrom: string): { name?: string; address: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom)
  if (match) return { name: match[1].trim() || undefined, address: match[2].trim() }
  return { address: mailFrom.trim() }
}

function fromHeader(mailFrom: string, senderName: string | undefined) {
  const parsed = parseMailFrom(mailFrom)
  const name = senderName || parsed.name
  return name ? { name, address: parsed.address } : parsed.address
}

export type ProcessOptions = {
  /** Defaults to an SMTP transport for SMTP_URL; without either nothing is claimed. */
  transport?: MailTransport
  workerId?: string
  limit?: number
  /** Defaults to MAIL_FROM. */
  mailFrom?: string
}

export type ProcessResult = { sent: number; failed: number; retried: number; claimed: number }

let defaultTransport: { url: string; transport: MailTransport } | undefined

function transportFor(url: string): MailTransport {
  if (defaultTransport?.url !== url) defaultTransport = { url, transport: createSmtpTransport(url) }
  return defaultTransport.transport
}

const defaultWorkerId = () => `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`

/** Claims one batch and delivers it. Tests call it directly; the worker calls it on a timer. */
export async function processOutboxOnce(options: ProcessOptions = {}): Promise<ProcessResult> {
  const result: ProcessResult = { sent: 0, failed: 0, retried: 0, claimed: 0 }
  const env = getEnv()
  const transport = options.transport ?? (env.SMTP_URL ? transportFor(env.SMTP_URL) : undefined)
  // Without a way to deliver, rows stay queued (readable in the admin outbox) instead of failing.
  if (!transport) return result
  const workerId = options.workerId ?? defaultWorkerId()
  const mailFrom = options.mailFrom ?? env.MAIL_FROM
  const batch = await claimBatch(workerId, options.limit ?? BATCH_SIZE)
  result.claimed = batch.length
  // The lease runs from the claim; a message whose lease is nearly over is left for the takeover
  // rather than risk two workers sending it. The margin covers one slow SMTP exchange.
  const leaseEnd = Date.now() + (LEASE_SECONDS - 90) * 1000
  for (const row of batch) {
    if (Date.now() > leaseEnd) break
    try {
      await transport.sendMail({
        from: fromHeader(mailFrom, row.senderName ?? undefined),
        to: row.recipient,
        subject: row.subject,
        text: row.text,
        html: row.html,
      })
    } catch (error) {
      const message = describeError(error)
      const outcome = await markFailed(row, message)
      result[outcome]++
      log.warn('email delivery failed', {
        workerId,
        id: row.id,
        attempts: row.attempts,
        outcome,
        error: message,
      })
      continue
    }
    if (await markSent(row.id)) result.sent++
    else log.warn('email sent but its row had changed', { workerId, id: row.id })
  }
  return result
}

/** An admin's "retry" on a failed message: queued again now, with a fresh set of attempts. */
export async function retryOutboxMessage(id: string): Promise<boolean> {
  const rows = await getDb()
    .update(emailOutbox)
    .set({ status: 'queued', attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'failed')))
    .returning({ id: emailOutbox.id })
  return rows.length > 0
}

/**
 * Polls the outbox every 2 s while SMTP_URL is set (any number of instances may run one). A full
 * batch is followed at once by the next; batches never overlap; stop() waits for the one in flight.
 */
export function startOutboxWorker(env: Env): { stop: () => Promise<void> } {
  if (!env.SMTP_URL) return { stop: async () => {} }
  const transport = createSmtpTransport(env.SMTP_URL)
  const workerId = defaultWorkerId()
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let inFlight: Promise<void> | undefined

  const schedule = (ms: number) => {
    if (stopped) return
    timer = setTimeout(tick, ms)
    // The worker alone must not keep the process alive.
    timer.unref()
  }
  const tick = () => {
    timer = undefined
    inFlight = (async () => {
      let next = POLL_MS
      try {
        if (isDatabaseOpen()) {
          const result = await processOutboxOnce({
            transport,
            workerId,
            mailFrom: env.MAIL_FROM,
            limit: BATCH_SIZE,
          })
          if (result.claimed >= BATCH_SIZE) next = 0
        }
      } catch (error) {
        log.error('outbox worker batch failed', { workerId, error: describeError(error) })
      }
      inFlight = undefined
      schedule(next)
    })()
  }

  log.info('outbox worker started', { workerId })
  schedule(0)
  return {
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      await inFlight
      transport.close?.()
    },
  }
}
