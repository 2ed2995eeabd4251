import os from 'node:os'
import crypto from 'node:crypto'
import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import { getDb, isDatabaseDown, isDatabaseOpen, queryRows, reportDatabaseFailure, type Tx } from '#db/client'
import { brands, companies, emailOutbox, emailTemplates, users } from '#db/schema/index'
import { getEnv, type Env } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'
import { startPollingWorker, type PollingWorker, type Scheduler } from '#app/lib/polling-worker.server'
import { ACTION_CODE_TTL_MS } from '#app/modules/action-code/action-code.server'
import { formatDate, formatDateTime } from '#app/lib/dates'
import { wordIn, type Worded } from '#app/modules/email/value-words'
import { offeredLanguages } from './offered.server'
import { intlLocale, type Language } from '#app/modules/i18n/languages'
import { chooseWording, emailLanguage } from './languages'
import { maskActionCodes } from './mask'
import { sanitizeEmailHtml } from './sanitize.server'
import {
  codePlaceholders,
  DEFAULT_TEMPLATES,
  linkLabelFor,
  ONE_TIME_LINK_KIND,
  TEMPLATE_PLACEHOLDERS,
  findPlaceholders,
  renderTemplate,
  type RenderBrand,
  type TemplateContent,
  type TemplateKey,
} from './templates'

/**
 * The transactional outbox: callers write a rendered message in the same transaction as the change
 * that causes it (enqueueEmail); a worker in any app instance claims due rows with FOR UPDATE SKIP
 * LOCKED and a short lease that it renews while it sends, and delivers them through SMTP with
 * retries and backoff (docs/decisions/008-outbox-claims-and-leases.md).
 *
 * A message that carries a one-time link (an action code) is marked at enqueue time
 * (`link_expires_at`) and its body is not kept longer than it is needed: it is blanked in the very
 * statement that records it as sent; a message given up on keeps it for an admin's retry for
 * FAILED_BODY_RETENTION_HOURS at most; and no body is kept (or sent) once its link has expired.
 */

export type { TemplateKey } from './templates'

export type EnqueueInput = {
  to: string
  template: TemplateKey
  brandId?: string | null
  values: Record<string, string>
  /**
   * Dates to write in the message's language (ADR 053): each placeholder's instant, formatted in
   * its zone through the language's Intl locale (a date, or with `time` a date and time). A
   * placeholder here wins over the same name in `values`.
   */
  dates?: Record<string, { at: Date | string; timeZone?: string; time?: boolean }>
  /**
   * Values that are words (ADR 053): each placeholder's text in every language it is written in,
   * the message's own taken, else the English (value-words.ts). A placeholder here wins over the
   * same name in `values`.
   */
  words?: Record<string, Worded>
  /**
   * The language to write in, whatever the recipient's (an admin's test of one version). Without
   * it the recipient's language is used: ADR 053's rule.
   */
  language?: Language
  entity?: string
  entityId?: string
  /**
   * When the one-time link in `values.link` stops working. Defaults to the longest life of the
   * action code the template carries (ONE_TIME_LINK_KIND); `null` says this message carries none.
   */
  linkExpiresAt?: Date | null
  /** Not sent before this time (default: at once). The worker claims only rows that are due. */
  nextAttemptAt?: Date
}

/** After this many failed deliveries a message is 'failed' and waits for an admin's retry. */
export const MAX_ATTEMPTS = 8
/**
 * A claimed row belongs to its worker this long unless renewed; once it runs out (the worker
 * died), another worker takes the row over. Short, so a crash delays mail by seconds, not minutes.
 */
export const LEASE_SECONDS = 15
/** The worker renews its lease this often while it sends, so a slow batch keeps its rows. */
export const LEASE_RENEW_MS = 5_000
/**
 * A message with a one-time link that was given up on keeps its body this long for an admin's
 * retry (after fixing SMTP, say, over a weekend); then it is erased and a fresh link must be sent.
 */
export const FAILED_BODY_RETENTION_HOURS = 72
const EXPIRED_LINK_ERROR = 'The one-time link in this message expired before it could be delivered.'
const BACKOFF_BASE_SECONDS = 30
const BACKOFF_CAP_SECONDS = 3600
const POLL_MS = 2_000
const BATCH_SIZE = 10

/** Seconds to wait after the given (1-based) failed attempt: 30 s, 1 min, 2 min, … capped at 1 h. */
export function backoffSeconds(attempts: number): number {
  return Math.min(BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_SECONDS)
}

/** What rendering needs once per template, brand and language: the wording and the brand's look. */
type RenderContext = {
  template: TemplateContent
  /** Whose wording `template` is: the brand's own, or the default. */
  wording: 'brand' | 'default'
  /** The language the message is written in, and the version's (another when it fell back). */
  language: Language
  brandId: string | null
  brand: (RenderBrand & { logoFileId: string | null }) | undefined
  appUrl: string
  /** Set once this wording was found to break ADR 026's rules, so a batch warns once, not per message. */
  warned?: boolean
}

/** The brand columns an e-mail is dressed in: its name, colours, sender name and logo. */
export const EMAIL_BRAND_COLUMNS = {
  name: brands.name,
  primaryColor: brands.primaryColor,
  accentColor: brands.accentColor,
  senderName: brands.senderName,
  logoFileId: brands.logoFileId,
}

/** A template's wording, and whose it is (a null brand: the default) in which language. */
export const TEMPLATE_COLUMNS = {
  brandId: emailTemplates.brandId,
  language: emailTemplates.language,
  subject: emailTemplates.subject,
  body: emailTemplates.body,
  html: emailTemplates.htmlBody,
}

/**
 * The templates that can word `key` for `brandId`, in every language: the brand's own and the
 * default (without a brand, the default alone).
 */
export function templatesFor(key: TemplateKey, brandId: string | null) {
  return and(
    eq(emailTemplates.key, key),
    brandId
      ? or(eq(emailTemplates.brandId, brandId), isNull(emailTemplates.brandId))
      : isNull(emailTemplates.brandId),
  )
}

type TemplateRow = { brandId: string | null; language: string } & TemplateContent

/** What a key and brand offer every language: the template's versions, the brand's look and default language. */
type Sources = {
  key: TemplateKey
  rows: TemplateRow[]
  brand: RenderContext['brand']
  brandId: string | null
  brandLanguage: string | null
  contexts: Map<Language, RenderContext>
}

async function loadSources(tx: Tx, key: TemplateKey, brandId: string | null): Promise<Sources> {
  const rows = await tx.select(TEMPLATE_COLUMNS).from(emailTemplates).where(templatesFor(key, brandId))
  const [brandRow] = brandId
    ? await tx
        .select({ ...EMAIL_BRAND_COLUMNS, defaultLanguage: brands.defaultLanguage })
        .from(brands)
        .where(eq(brands.id, brandId))
    : []
  if (!rows.length) log.warn('email template missing; using built-in default', { template: key })
  const env = getEnv()
  const { defaultLanguage, ...look } = brandRow ?? { defaultLanguage: null }
  // The logo as an absolute address: the recipient's mail client fetches it (files are public by id).
  const brand = brandRow && {
    ...(look as Omit<typeof brandRow, 'defaultLanguage'>),
    logoUrl: brandRow.logoFileId ? new URL(`/files/${brandRow.logoFileId}`, env.APP_URL).toString() : null,
  }
  return {
    key,
    rows,
    brand,
    brandId: brandRow ? brandId : null,
    brandLanguage: defaultLanguage,
    contexts: new Map(),
  }
}

/**
 * The wording of a message in `language` (ADR 053): the brand's own version in that language, its
 * brand's default language, English; then the install default in the same order. The migration
 * always provides the English default; the constant is a last resort (a database someone emptied
 * by hand) so a password reset still goes out.
 */
function contextFor(sources: Sources, language: Language): RenderContext {
  const known = sources.contexts.get(language)
  if (known) return known
  const row = chooseWording(sources.rows, language, sources.brandLanguage, offeredLanguages())
  const context: RenderContext = {
    template: row ?? DEFAULT_TEMPLATES[sources.key],
    wording: row?.brandId ? 'brand' : 'default',
    language,
    brand: sources.brand,
    brandId: sources.brandId,
    appUrl: getEnv().APP_URL,
  }
  sources.contexts.set(language, context)
  return context
}

/** Rows per statement when reading recipients' languages. */
const RECIPIENT_CHUNK = 1000

/**
 * Each recipient's own language and their company's brand's default (ADR 053), by address; an
 * address without an account is absent. One statement per thousand addresses; none when every
 * message names its language.
 */
async function recipientLanguages(
  tx: Tx,
  inputs: EnqueueInput[],
  recipients: string[],
): Promise<Map<string, { userLanguage: string | null; userBrandLanguage: string | null }>> {
  const found = new Map<string, { userLanguage: string | null; userBrandLanguage: string | null }>()
  const addresses = [
    ...new Set(recipients.filter((_, i) => !inputs[i]!.language).map((to) => to.toLowerCase())),
  ]
  for (let i = 0; i < addresses.length; i += RECIPIENT_CHUNK) {
    const rows = await tx
      .select({ email: users.email, userLanguage: users.language, userBrandLanguage: brands.defaultLanguage })
      .from(users)
      .leftJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(brands, eq(brands.id, companies.brandId))
      .where(inArray(users.email, addresses.slice(i, i + RECIPIENT_CHUNK)))
    for (const row of rows) found.set(row.email, row)
  }
  return found
}

/** The language of one message: the one it names, else the recipient's (ADR 053's rule). */
function messageLanguage(
  input: EnqueueInput,
  to: string,
  sources: Sources,
  recipients: Map<string, { userLanguage: string | null; userBrandLanguage: string | null }>,
): Language {
  const offered = offeredLanguages()
  if (input.language && offered.includes(input.language)) return input.language
  const recipient = recipients.get(to.toLowerCase())
  return emailLanguage({
    userLanguage: recipient?.userLanguage,
    userBrandLanguage: recipient?.userBrandLanguage,
    messageBrandLanguage: sources.brandLanguage,
    offered,
  })
}

/** One outbox row for `input`, rendered with its template and brand. */
function outboxRow(context: RenderContext, input: EnqueueInput, to: string): typeof emailOutbox.$inferInsert {
  const { template, brand } = context
  const locale = intlLocale(context.language)
  const dates = Object.entries(input.dates ?? {}).map(([name, d]) => [
    name,
    d.time ? formatDateTime(d.at, d.timeZone, locale) : formatDate(d.at, d.timeZone, locale),
  ])
  const words = Object.entries(input.words ?? {}).map(([name, w]) => [name, wordIn(w, context.language)])
  const values: Record<string, string> = {
    appUrl: context.appUrl,
    ...input.values,
    ...Object.fromEntries(dates),
    ...Object.fromEntries(words),
  }
  const missing = findPlaceholders(template.subject + '\n' + template.body).filter(
    (name) => TEMPLATE_PLACEHOLDERS[input.template].includes(name) && !values[name] && name !== 'brandName',
  )
  if (missing.length) log.warn('email template values missing', { template: input.template, missing })

  const dropped: string[] = []
  const rendered = renderTemplate(template, values, {
    brand,
    linkLabel: linkLabelFor(input.template, context.language),
    language: context.language,
    codePlaceholders: codePlaceholders(input.template),
    // A wording saved before ADR 026 (or written around the editor) may hold a one-time code where
    // it would leak, or an image from elsewhere: the sanitiser drops those parts from the message.
    sanitize: (html, codeMarks) =>
      sanitizeEmailHtml(html, codeMarks, {
        appUrl: context.appUrl,
        report: (problem) => dropped.push(problem.where),
      }),
  })
  if (dropped.length && !context.warned) {
    context.warned = true
    // Which wording, never its content or the message's values.
    log.warn('email template needs attention: parts of its HTML were left out of the message', {
      template: input.template,
      wording: context.wording,
      language: context.language,
      brandId: context.brandId,
      dropped: [...new Set(dropped)],
    })
  }
  const kind = ONE_TIME_LINK_KIND[input.template]
  const linkExpiresAt =
    input.linkExpiresAt !== undefined
      ? input.linkExpiresAt
      : kind
        ? new Date(Date.now() + ACTION_CODE_TTL_MS[kind])
        : null
  return {
    recipient: to,
    brandId: context.brandId,
    senderName: brand?.senderName || null,
    templateKey: input.template,
    language: context.language,
    subject: rendered.subject,
    html: rendered.html,
    text: rendered.text,
    status: 'queued',
    linkExpiresAt,
    entity: input.entity,
    entityId: input.entityId,
    // Held until then (a programme's e-mails wait for its opening); the default is "now".
    ...(input.nextAttemptAt ? { nextAttemptAt: input.nextAttemptAt } : {}),
  }
}

function checkedRecipient(input: EnqueueInput) {
  const to = input.to.trim()
  if (!to || /[\s,;<>]/.test(to)) throw new Error('enqueueEmail: "to" must be a single e-mail address')
  return to
}

/** Whether this deployment delivers e-mail at all (SMTP_URL); without it messages stay queued. */
export function emailDeliveryConfigured(): boolean {
  return Boolean(getEnv().SMTP_URL)
}

function logUnsent(input: EnqueueInput, to: string) {
  // Without SMTP nothing is delivered: the link in the log is how a local run follows the flow (the
  // one deliberate exception to "no codes in logs", documented in the README). The row itself stays
  // queued and is erased when its link expires (eraseStaleOutboxBodies).
  if (!getEnv().SMTP_URL)
    log.info('email queued (no SMTP_URL; not sent)', {
      to,
      template: input.template,
      link: input.values.link,
    })
}

/**
 * Renders `input.template` in the recipient's language with the brand's wording (else the default,
 * ADR 053's order) and queues it in `tx`.
 */
export async function enqueueEmail(tx: Tx, input: EnqueueInput): Promise<{ id: string }> {
  const to = checkedRecipient(input)
  const sources = await loadSources(tx, input.template, input.brandId || null)
  const recipients = await recipientLanguages(tx, [input], [to])
  const context = contextFor(sources, messageLanguage(input, to, sources, recipients))
  const [row] = await tx
    .insert(emailOutbox)
    .values(outboxRow(context, input, to))
    .returning({ id: emailOutbox.id })
  logUnsent(input, to)
  return { id: row!.id }
}

/** Rows per INSERT when queueing many messages (a programme's launch e-mails a whole company). */
const ENQUEUE_CHUNK = 200

/**
 * Many messages in a few statements: each template and brand is read once, the recipients'
 * languages in one statement per thousand, and the rows are inserted in chunks. Same rendering and checks as enqueueEmail; nothing is written if any
 * recipient is malformed.
 */
export async function enqueueEmails(tx: Tx, inputs: EnqueueInput[]): Promise<number> {
  if (!inputs.length) return 0
  const recipients = inputs.map(checkedRecipient)
  const languages = await recipientLanguages(tx, inputs, recipients)
  const sourcesByKey = new Map<string, Sources>()
  const rows: Array<typeof emailOutbox.$inferInsert> = []
  for (const [i, input] of inputs.entries()) {
    const key = `${input.template}|${input.brandId || ''}`
    let sources = sourcesByKey.get(key)
    if (!sources) {
      sources = await loadSources(tx, input.template, input.brandId || null)
      sourcesByKey.set(key, sources)
    }
    const to = recipients[i]!
    rows.push(outboxRow(contextFor(sources, messageLanguage(input, to, sources, languages)), input, to))
  }
  for (let i = 0; i < rows.length; i += ENQUEUE_CHUNK)
    await tx.insert(emailOutbox).values(rows.slice(i, i + ENQUEUE_CHUNK))
  for (const [i, input] of inputs.entries()) logUnsent(input, recipients[i]!)
  return rows.length
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
 * A row a worker may take (`o` is the table's alias): queued and due, or sending under a lease
 * that ran out (its worker died). Never a row whose body was erased or whose one-time link has
 * expired: that would send an empty message or a dead link.
 */
function claimable(o: string): SQL {
  const t = sql.raw(o)
  return sql`((${t}.status = 'queued' AND ${t}.next_attempt_at <= now())
      OR (${t}.status = 'sending' AND ${t}.locked_until < now()))
    AND ${t}.body_erased_at IS NULL
    AND (${t}.link_expires_at IS NULL OR ${t}.link_expires_at > now())`
}

/**
 * Leases up to `limit` claimable rows in one statement. The candidates are a MATERIALIZED CTE:
 * computed once, so the statement can never take more than `limit` rows (an `id IN (SELECT … LIMIT
 * n FOR UPDATE SKIP LOCKED)` may be re-run by the planner, skipping the rows it has just updated,
 * and lease far more). SKIP LOCKED lets concurrent workers take disjoint rows.
 */
export async function claimBatch(workerId: string, limit: number): Promise<Claimed[]> {
  const claimed = await queryRows<Claimed>(
    getDb(),
    sql`WITH candidates AS MATERIALIZED (
        SELECT c.id FROM email_outbox c
        WHERE ${claimable('c')}
        ORDER BY c.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE email_outbox o
      SET status = 'sending',
        locked_by = ${workerId},
        locked_until = now() + make_interval(secs => ${LEASE_SECONDS}),
        attempts = o.attempts + 1
      FROM candidates
      -- Claimable again: had another worker changed the row between our snapshot and our lock,
      -- Postgres re-checks this on the new version and leaves the row alone.
      WHERE o.id = candidates.id AND ${claimable('o')}
      RETURNING o.id, o.recipient, o.subject, o.html, o.text, o.sender_name AS "senderName", o.attempts`,
  )
  if (claimed.length) log.debug('outbox batch claimed', { workerId, count: claimed.length })
  return claimed.map((r) => ({ ...r, attempts: Number(r.attempts) }))
}

/**
 * Extends this worker's lease on the rows it still holds; answers the ids it renewed (a row it no
 * longer holds has been taken over and must not be sent).
 */
async function renewLeases(workerId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set()
  const rows = await queryRows<{ id: string }>(
    getDb(),
    sql`UPDATE email_outbox SET locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
        AND status = 'sending' AND locked_by = ${workerId}
      RETURNING id`,
  )
  return new Set(rows.map((r) => r.id))
}

/** The claim a worker holds on a row: its own lease, taken for this attempt. */
function heldBy(row: Claimed, workerId: string): SQL {
  return sql`id = ${row.id} AND status = 'sending' AND locked_by = ${workerId} AND attempts = ${row.attempts}`
}

/**
 * Only the worker holding the row marks it sent, so it is never marked sent twice. A body that
 * carries a one-time link is blanked in the same statement: once delivered, nothing needs it.
 */
async function markSent(row: Claimed, workerId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    getDb(),
    sql`UPDATE email_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, locked_by = NULL,
        last_error = NULL,
        html = CASE WHEN link_expires_at IS NULL THEN html ELSE '' END,
        text = CASE WHEN link_expires_at IS NULL THEN text ELSE '' END,
        body_erased_at = CASE WHEN link_expires_at IS NULL THEN NULL ELSE now() END
      WHERE ${heldBy(row, workerId)}
      RETURNING id`,
  )
  return rows.length > 0
}

/**
 * Puts a failed delivery back in the queue with backoff, or gives up after MAX_ATTEMPTS (the body
 * stays for an admin's retry, FAILED_BODY_RETENTION_HOURS at most). Only the worker holding the row
 * records the outcome: one whose lease was taken over does not touch the new owner's row.
 */
async function markFailed(row: Claimed, workerId: string, error: string): Promise<'retried' | 'failed'> {
  const giveUp = row.attempts >= MAX_ATTEMPTS
  await getDb().execute(
    sql`UPDATE email_outbox SET
        status = ${giveUp ? 'failed' : 'queued'},
        next_attempt_at = now() + make_interval(secs => ${giveUp ? 0 : backoffSeconds(row.attempts)}),
        locked_until = NULL, locked_by = NULL, last_error = ${error}
      WHERE ${heldBy(row, workerId)}`,
  )
  return giveUp ? 'failed' : 'retried'
}

/**
 * Erases the bodies that carry a one-time link and are no longer needed, and returns how many:
 * any not yet delivered whose link has expired (queued ones become 'failed': a dead link is never
 * sent), and those given up on more than FAILED_BODY_RETENTION_HOURS ago. Sent ones were blanked
 * when they were sent. Run by the housekeeping round (startReminderWorker, app/server/workers.ts).
 */
export async function eraseStaleOutboxBodies(): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    getDb(),
    sql`UPDATE email_outbox SET html = '', text = '', body_erased_at = now(),
        last_error = CASE WHEN status = 'failed' THEN last_error ELSE ${EXPIRED_LINK_ERROR} END,
        status = 'failed', locked_until = NULL, locked_by = NULL
      WHERE link_expires_at IS NOT NULL AND body_erased_at IS NULL AND (
        (link_expires_at <= now()
          AND (status IN ('queued', 'failed') OR (status = 'sending' AND locked_until < now())))
        OR (status = 'failed'
          AND next_attempt_at <= now() - make_interval(hours => ${FAILED_BODY_RETENTION_HOURS})))
      RETURNING id`,
  )
  if (rows.length)
    log.info('outbox: erased bodies with one-time links no longer needed', { count: rows.length })
  return rows.length
}

/**
 * An SMTP error as safe to store and show: its message, without credentials or one-time codes (a
 * server may echo part of the message back), bounded.
 */
function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return (
    maskActionCodes(message.replace(/(\w+:\/\/)[^\s/@]+@/g, '$1[redacted]@')).slice(0, 500) || 'unknown error'
  )
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
  // The lease as this worker can vouch for it: it runs from before the claim (or the last renewal)
  // was sent, so the local clock never overestimates it.
  let leaseFrom = Date.now()
  const batch = await claimBatch(workerId, options.limit ?? BATCH_SIZE)
  result.claimed = batch.length
  if (!batch.length) return result
  const held = new Set(batch.map((row) => row.id))
  let renewing = false
  const renew = setInterval(() => {
    if (renewing || !held.size) return
    renewing = true
    const started = Date.now()
    renewLeases(workerId, [...held])
      .then((renewed) => {
        for (const id of held) if (!renewed.has(id)) held.delete(id)
        leaseFrom = started
      })
      // A failed renewal is retried at the next tick; meanwhile the lease view stays as it was.
      .catch((error) => log.debug('outbox lease renewal failed', { workerId, error: describeError(error) }))
      .finally(() => (renewing = false))
  }, LEASE_RENEW_MS)
  renew.unref()
  try {
    for (const row of batch) {
      if (!held.has(row.id)) continue
      // A send starts only while at least one renewal interval of lease is left, so the renewals
      // (every LEASE_RENEW_MS) keep it ours; if they keep failing, the rest is left for a takeover.
      if (Date.now() > leaseFrom + LEASE_SECONDS * 1000 - LEASE_RENEW_MS) break
      try {
        await transport.sendMail({
          from: fromHeader(mailFrom, row.senderName ?? undefined),
          to: row.recipient,
          subject: row.subject,
          text: row.text,
          html: row.html,
        })
      } catch (error) {
        held.delete(row.id)
        const message = describeError(error)
        const outcome = await markFailed(row, workerId, message)
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
      held.delete(row.id)
      if (await markSent(row, workerId)) result.sent++
      else log.warn('email sent but its row had changed', { workerId, id: row.id })
    }
  } finally {
    clearInterval(renew)
  }
  return result
}

/**
 * An admin's "retry" on a failed message: queued again now, for one more delivery attempt (the
 * attempts so far are kept, so the count stays true; a retry that fails is 'failed' again at once).
 * Only failed → queued: a message queued, sending or sent is left alone, so two retries racing
 * queue it once. Refused (false) when its body was erased or its one-time link has expired: a
 * fresh link must be sent from where it was made (resend the activation, the invite, …).
 */
export async function retryOutboxMessage(id: string, tx: Tx = getDb()): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE email_outbox SET status = 'queued', next_attempt_at = now(),
        locked_until = NULL, locked_by = NULL
      WHERE id = ${id} AND status = 'failed' AND body_erased_at IS NULL
        AND (link_expires_at IS NULL OR link_expires_at > now())
      RETURNING id`,
  )
  return rows.length > 0
}

/**
 * Polls the outbox every 2 s while SMTP_URL is set (any number of instances may run one). A full
 * batch is followed at once by the next; batches never overlap; stop() waits for the one in flight
 * (lib/polling-worker.server.ts), then closes the SMTP connection. `timers` is the scheduler (tests
 * pass one that shows whether a round is still planned).
 */
export function startOutboxWorker(env: Env, { timers }: { timers?: Scheduler } = {}): PollingWorker {
  if (!env.SMTP_URL) return { stop: async () => {} }
  const transport = createSmtpTransport(env.SMTP_URL)
  const workerId = defaultWorkerId()
  return startPollingWorker({
    name: 'outbox worker',
    intervalMs: POLL_MS,
    firstDelayMs: 0,
    fields: { workerId },
    timers,
    // During an outage the worker waits quietly: the outage is logged once, not per poll.
    when: () => isDatabaseOpen() && !isDatabaseDown(),
    onError: reportDatabaseFailure,
    round: async () => {
      const result = await processOutboxOnce({
        transport,
        workerId,
        mailFrom: env.MAIL_FROM,
        limit: BATCH_SIZE,
      })
      return result.claimed >= BATCH_SIZE
    },
    onStop: () => transport.close?.(),
  })
}
