import { and, eq, isNull, like, sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { brands, emailOutbox, emailTemplates, users } from '#db/schema/index'
import type { OutboxStatus } from '#db/enums'
import { getEnv } from '#app/config/env.server'
import { escapeLike, keysetList, timestampKey, type Page } from '#app/lib/keyset-list.server'
import { refuseNotFound, ok, refuse, refuseField, type Actor, type Outcome } from '#app/lib/outcome'
import { TALLY_CTE, tallyOf } from '#app/modules/tally/tally.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { maskActionCodes } from './mask'
import {
  EMAIL_BRAND_COLUMNS,
  enqueueEmail,
  retryOutboxMessage,
  TEMPLATE_COLUMNS,
  templatesFor,
} from './outbox.server'
import { log } from '#app/lib/logger.server'
import { emailHtmlProblems, sanitizeEmailHtml, savedTemplateProblems } from './sanitize.server'
import {
  EMAIL_MESSAGES,
  recipientFilter,
  sampleValues,
  type EmailListQuery,
  type TemplateInput,
} from './schemas'
import { DEFAULT_TEMPLATES, TEMPLATE_KEYS, type TemplateKey } from './templates'
import { GERMAN_TEMPLATES } from './templates-de'
import { offeredLanguages } from './offered.server'
import {
  isLanguage,
  languageInfo,
  LANGUAGE_CODES,
  SOURCE_LANGUAGE,
  type Language,
} from '#app/modules/i18n/languages'

/**
 * E-mail management (/admin/email-management): the templates each e-mail is sent with, per brand,
 * and the outbox. Every query and rule; routes call these and never run SQL themselves. Every change
 * runs in a transaction with its audit row (ADR 016).
 */

export const OUTBOX_PAGE_SIZE = 25

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

// ---------------------------------------------------------------------------------------------
// Templates.

export type TemplateSummary = {
  key: TemplateKey
  defaultSubject: string
  defaultUpdatedAt: string | null
  /** The default differs from the copy the product ships (DEFAULT_TEMPLATES). */
  defaultEdited: boolean
  /** Why the default wording breaks the rules of ADR 026 (found by the start-up review); null: it does not. */
  defaultAttention: string | null
  /** How many brands have their own wording of this e-mail. */
  overrides: number
  /** How many of those break the rules of ADR 026. */
  overridesNeedingAttention: number
  /** The chosen brand's own wording, if it has one. */
  brand: { subject: string; updatedAt: string; hasHtml: boolean; attention: string | null } | null
  /** The languages the default has a version in (English first, ADR 053). */
  defaultLanguages: Language[]
  /** The languages the chosen brand has its own version in. */
  brandLanguages: Language[]
}

/** Codes as the database answers them (an array, or Postgres' `{de,en}` text), English first, then the list's order. */
function languagesOf(value: string[] | string | null): Language[] {
  const codes = Array.isArray(value) ? value : (value ?? '').replace(/[{}]/g, '').split(',')
  return LANGUAGE_CODES.filter((code) => codes.includes(code))
}

/**
 * Every e-mail the product sends, with its default and (for the chosen brand) that brand's own
 * wording, in one statement over email_templates (keys × brands rows at most) and one for the
 * brand's name.
 */
export async function listTemplateSummaries(
  brandId: string | null,
): Promise<{ rows: TemplateSummary[]; brand: { id: string; name: string } | null }> {
  const db = getDb()
  const brand = brandId
    ? ((
        await db.select({ id: brands.id, name: brands.name }).from(brands).where(eq(brands.id, brandId))
      )[0] ?? null)
    : null
  const rows = await queryRows<{
    key: TemplateKey
    subject: string | null
    body: string | null
    html: string | null
    updated_at: string | null
    attention: string | null
    overrides: number | string
    overrides_attention: number | string
    brand_subject: string | null
    brand_updated_at: string | null
    brand_has_html: boolean | null
    brand_attention: string | null
    default_languages: string[] | string | null
    brand_languages: string[] | string | null
  }>(
    db,
    sql`SELECT k.key,
        d.subject, d.body, d.html_body AS html, to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at,
        d.needs_attention AS attention,
        (SELECT count(DISTINCT o.brand_id) FROM email_templates o WHERE o.key = k.key AND o.brand_id IS NOT NULL) AS overrides,
        (SELECT array_agg(o.language) FROM email_templates o WHERE o.key = k.key AND o.brand_id IS NULL) AS default_languages,
        (SELECT array_agg(o.language) FROM email_templates o
          WHERE o.key = k.key AND o.brand_id = ${brand?.id ?? null}::uuid) AS brand_languages,
        (SELECT count(DISTINCT o.brand_id) FROM email_templates o
          WHERE o.key = k.key AND o.brand_id IS NOT NULL AND o.needs_attention IS NOT NULL) AS overrides_attention,
        b.subject AS brand_subject,
        to_char(b.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS brand_updated_at,
        b.html_body IS NOT NULL AS brand_has_html,
        b.needs_attention AS brand_attention
      FROM unnest(enum_range(NULL::email_template_key)) AS k (key)
      LEFT JOIN email_templates d ON d.key = k.key AND d.brand_id IS NULL AND d.language = 'en'
      LEFT JOIN email_templates b ON b.key = k.key AND b.brand_id = ${brand?.id ?? null}::uuid AND b.language = 'en'`,
  )
  const byKey = new Map(rows.map((r) => [r.key, r]))
  return {
    brand,
    rows: TEMPLATE_KEYS.map((key) => {
      const r = byKey.get(key)
      const shipped = DEFAULT_TEMPLATES[key]
      return {
        key,
        defaultSubject: r?.subject ?? shipped.subject,
        defaultUpdatedAt: r?.updated_at ?? null,
        defaultEdited: Boolean(
          r && (r.subject !== shipped.subject || r.body !== shipped.body || r.html !== null),
        ),
        defaultAttention: r?.attention ?? null,
        overrides: Number(r?.overrides ?? 0),
        overridesNeedingAttention: Number(r?.overrides_attention ?? 0),
        defaultLanguages: languagesOf(r?.default_languages ?? null),
        brandLanguages: languagesOf(r?.brand_languages ?? null),
        brand:
          r?.brand_subject != null
            ? {
                subject: r.brand_subject,
                updatedAt: r.brand_updated_at!,
                hasHtml: Boolean(r.brand_has_html),
                attention: r.brand_attention,
              }
            : null,
      }
    }),
  }
}

export type TemplateContentRow = { id: string | null; subject: string; body: string; html: string | null }

export type TemplateEditorData = {
  key: TemplateKey
  /** The language being edited (ADR 053). */
  language: Language
  brand: {
    id: string
    name: string
    primaryColor: string
    accentColor: string
    senderName: string | null
    logoUrl: string | null
  } | null
  /**
   * What a message in this language uses when this brand (or, for the default, the install) has no
   * version of its own in it: the default's version in the language, else the English default.
   */
  fallback: TemplateContentRow
  /** The version being edited; for the English default, the default row. null: it has none yet. */
  own: TemplateContentRow | null
  /** The shipped copy differs from the English default row (so "restore the default" changes something). */
  defaultEdited: boolean
  /** What in the wording shown (own, else the fallback) breaks the rules of ADR 026, checked now. */
  problems: string[]
  /** The languages this brand (or the default) has a version in, English first. */
  languages: Language[]
  /** Languages offered now that it has no version in yet: what "Add a version" offers. */
  addable: Language[]
  appUrl: string
}

/** The `?language=` of an editor's address: a known code, English when absent; null for anything else. */
export function editorLanguage(value: string | null): Language | null {
  if (value === null || value === '') return SOURCE_LANGUAGE
  return isLanguage(value) ? value : null
}

const contentOf = (row: { id: string; subject: string; body: string; html: string | null }) => ({
  id: row.id,
  subject: row.subject,
  body: row.body,
  html: row.html,
})

/**
 * What the editor of `key` for `brandId` (null: the default) in `language` needs, in two
 * statements (every language's versions come with the one read); null if the brand is unknown.
 */
export async function getTemplateEditor(
  key: TemplateKey,
  brandId: string | null,
  language: Language = SOURCE_LANGUAGE,
): Promise<TemplateEditorData | null> {
  const db = getDb()
  const env = getEnv()
  const [brandRow] = brandId
    ? await db
        .select({ id: brands.id, ...EMAIL_BRAND_COLUMNS })
        .from(brands)
        .where(eq(brands.id, brandId))
    : []
  if (brandId && !brandRow) return null
  const rows = await db
    .select({ id: emailTemplates.id, ...TEMPLATE_COLUMNS })
    .from(emailTemplates)
    .where(templatesFor(key, brandId))
  const defaults = rows.filter((r) => r.brandId === null)
  const defaultRow = defaults.find((r) => r.language === SOURCE_LANGUAGE)
  const defaultInLanguage = defaults.find((r) => r.language === language)
  const shipped = DEFAULT_TEMPLATES[key]
  const englishDefault: TemplateContentRow = defaultRow
    ? contentOf(defaultRow)
    : { id: null, subject: shipped.subject, body: shipped.body, html: null }
  const mine = brandId ? rows.filter((r) => r.brandId !== null) : defaults
  const ownRow = mine.find((r) => r.language === language)
  const own = ownRow ? contentOf(ownRow) : !brandId && language === SOURCE_LANGUAGE ? englishDefault : null
  const fallback = brandId && defaultInLanguage ? contentOf(defaultInLanguage) : englishDefault
  const languages = LANGUAGE_CODES.filter(
    (code) => mine.some((r) => r.language === code) || (!brandId && code === SOURCE_LANGUAGE),
  )
  const { logoFileId, ...brandRest } = brandRow ?? {}
  return {
    key,
    language,
    brand: brandRow
      ? {
          ...(brandRest as Omit<typeof brandRow, 'logoFileId'>),
          logoUrl: logoFileId ? new URL(`/files/${logoFileId}`, env.APP_URL).toString() : null,
        }
      : null,
    fallback,
    own,
    defaultEdited:
      !defaultRow ||
      defaultRow.subject !== shipped.subject ||
      defaultRow.body !== shipped.body ||
      defaultRow.html !== null,
    problems: savedTemplateProblems(own ?? fallback, key, env.APP_URL),
    languages,
    addable: offeredLanguages().filter((code) => !languages.includes(code)),
    appUrl: env.APP_URL,
  }
}

async function brandExists(tx: Tx, brandId: string) {
  const [row] = await tx.select({ id: brands.id }).from(brands).where(eq(brands.id, brandId)).for('share')
  return Boolean(row)
}

const gone = () => ({ ok: false as const, notFound: true, formErrors: ['This brand no longer exists.'] })

/** Refusals of the editor's language changes (ADR 053), as written for the form; English, like every form message. */
export const LANGUAGE_VERSION_MESSAGES = {
  unknown: 'Choose one of the languages offered.',
  englishKept:
    'The English version cannot be deleted: every other language falls back to it. Restore the default instead.',
  missing: 'There is no version in this language to delete.',
} as const

/** "This e-mail already has a German version." */
export const duplicateVersionMessage = (language: Language) =>
  `This e-mail already has a ${languageInfo(language).name} version.`

/** The rows of one version: `key` for `brandId` (null: the default) in `language`. */
function versionOf(key: TemplateKey, brandId: string | null, language: Language) {
  return and(
    eq(emailTemplates.key, key),
    brandId ? eq(emailTemplates.brandId, brandId) : isNull(emailTemplates.brandId),
    eq(emailTemplates.language, language),
  )
}

/** The unique index a version's insert meets when it races another (ADR 053: key × brand × language). */
function versionConflict(brandId: string | null) {
  return brandId
    ? {
        target: [emailTemplates.brandId, emailTemplates.key, emailTemplates.language],
        targetWhere: sql`brand_id IS NOT NULL`,
      }
    : { target: [emailTemplates.key, emailTemplates.language], targetWhere: sql`brand_id IS NULL` }
}

/**
 * Saves the wording of `key` for `brandId` (null: the default) in `language`. The HTML body is
 * sanitised here (and again whenever a message is rendered); answers whether the sanitiser changed
 * it, so the admin is told what was removed.
 */
export async function saveTemplate(
  actor: Actor,
  key: TemplateKey,
  brandId: string | null,
  input: Omit<TemplateInput, 'intent'>,
  language: Language = SOURCE_LANGUAGE,
): Promise<Outcome<{ created: boolean; cleaned: boolean }>> {
  // A one-time code where it would leak, or an image from elsewhere, is refused (ADR 026) rather
  // than silently removed: the admin decides what the message says instead.
  const problems = input.html === null ? [] : emailHtmlProblems(input.html, key)
  if (problems.length) return refuseField('html', ...problems)
  const html = input.html === null ? null : sanitizeEmailHtml(input.html)
  const cleaned = input.html !== null && html !== input.html.trim()
  const values = {
    subject: input.subject,
    body: input.body.replace(/\r\n?/g, '\n'),
    htmlBody: html || null,
    // The subject passed the schema and the HTML the check above.
    needsAttention: null,
  }
  return getDb().transaction(async (tx) => {
    if (brandId && !(await brandExists(tx, brandId))) return gone()
    const [existing] = await tx
      .select({ id: emailTemplates.id })
      .from(emailTemplates)
      .where(versionOf(key, brandId, language))
      .for('update')
    // A new version in a language the install no longer offers is not started (an old form).
    if (!existing && !offeredLanguages().includes(language)) return refuse(LANGUAGE_VERSION_MESSAGES.unknown)
    let id: string
    if (existing) {
      await tx
        .update(emailTemplates)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(emailTemplates.id, existing.id))
      id = existing.id
    } else {
      // Two admins creating the same version at once: the unique index lets one insert, the other
      // updates what the first wrote.
      const [row] = await tx
        .insert(emailTemplates)
        .values({ key, brandId, language, ...values })
        .onConflictDoUpdate({ ...versionConflict(brandId), set: { ...values, updatedAt: sql`now()` } })
        .returning({ id: emailTemplates.id })
      id = row!.id
    }
    await recordAudit(tx, actor, {
      action: existing ? 'email_template.update' : 'email_template.create',
      entity: 'email_template',
      entityId: id,
      details: {
        key,
        brandId,
        language,
        subject: values.subject,
        htmlBody: values.htmlBody !== null,
        cleaned,
      },
    })
    return ok({ created: !existing, cleaned })
  })
}

/**
 * A new version copied from `from`; undefined when the version exists already. A copy of a wording
 * that needs attention needs it too (checked now: it may have changed since the start-up review).
 */
async function insertCopy(
  tx: Tx,
  key: TemplateKey,
  brandId: string | null,
  language: Language,
  from: { subject: string; body: string; html: string | null },
) {
  const problems = savedTemplateProblems(from, key)
  const [row] = await tx
    .insert(emailTemplates)
    .values({
      key,
      brandId,
      language,
      subject: from.subject,
      body: from.body,
      htmlBody: from.html,
      needsAttention: problems.length ? problems.join('\n') : null,
    })
    .onConflictDoNothing()
    .returning({ id: emailTemplates.id })
  return row
}

/** Gives a brand its own copy of the default wording of `key` (in English), to edit. */
export async function createOverride(
  actor: Actor,
  key: TemplateKey,
  brandId: string,
): Promise<Outcome<{ id: string }>> {
  return getDb().transaction(async (tx) => {
    if (!(await brandExists(tx, brandId))) return gone()
    const [source] = await tx
      .select({ subject: emailTemplates.subject, body: emailTemplates.body, html: emailTemplates.htmlBody })
      .from(emailTemplates)
      .where(versionOf(key, null, SOURCE_LANGUAGE))
    const from = source ?? { ...DEFAULT_TEMPLATES[key], html: null }
    const row = await insertCopy(tx, key, brandId, SOURCE_LANGUAGE, from)
    if (!row) return refuse('This brand already has its own wording of this e-mail.')
    await recordAudit(tx, actor, {
      action: 'email_template.create',
      entity: 'email_template',
      entityId: row.id,
      details: { key, brandId, language: SOURCE_LANGUAGE, from: 'default' },
    })
    return ok({ id: row.id })
  })
}

/**
 * "Add a German version" (ADR 053): a new version of `key` for `brandId` (null: the default) in
 * `language`, starting from the default's version in that language, else the shipped German copy
 * for German, else the English wording it would otherwise fall back to. Refused for a language not
 * offered and for one it already has.
 */
export async function addLanguageVersion(
  actor: Actor,
  key: TemplateKey,
  brandId: string | null,
  language: string,
): Promise<Outcome<{ language: Language }>> {
  if (!isLanguage(language) || !offeredLanguages().includes(language))
    return refuseField('language', LANGUAGE_VERSION_MESSAGES.unknown)
  return getDb().transaction(async (tx) => {
    if (brandId && !(await brandExists(tx, brandId))) return gone()
    const rows = await tx
      .select({ id: emailTemplates.id, ...TEMPLATE_COLUMNS })
      .from(emailTemplates)
      .where(templatesFor(key, brandId))
    const mine = rows.filter((r) => r.brandId === brandId)
    if (mine.some((r) => r.language === language) || (!brandId && language === SOURCE_LANGUAGE))
      return refuseField('language', duplicateVersionMessage(language))
    const inDefault = rows.find((r) => r.brandId === null && r.language === language)
    const english =
      mine.find((r) => r.language === SOURCE_LANGUAGE) ??
      rows.find((r) => r.brandId === null && r.language === SOURCE_LANGUAGE)
    const from = (brandId ? inDefault : undefined) ??
      (language === 'de' ? { ...GERMAN_TEMPLATES[key], html: null } : undefined) ??
      english ?? { ...DEFAULT_TEMPLATES[key], html: null }
    const row = await insertCopy(tx, key, brandId, language, from)
    if (!row) return refuseField('language', duplicateVersionMessage(language))
    await recordAudit(tx, actor, {
      action: 'email_template.create',
      entity: 'email_template',
      entityId: row.id,
      details: { key, brandId, language },
    })
    return ok({ language })
  })
}

/**
 * Deletes the version of `key` for `brandId` (null: the default) in `language`: messages in that
 * language fall back (ADR 053). Never the English one: everything falls back to it (a brand's
 * English wording goes through "Restore the default").
 */
export async function deleteLanguageVersion(
  actor: Actor,
  key: TemplateKey,
  brandId: string | null,
  language: string,
): Promise<Outcome<{ language: Language }>> {
  if (!isLanguage(language)) return refuse(LANGUAGE_VERSION_MESSAGES.unknown)
  if (language === SOURCE_LANGUAGE) return refuse(LANGUAGE_VERSION_MESSAGES.englishKept)
  return getDb().transaction(async (tx) => {
    if (brandId && !(await brandExists(tx, brandId))) return gone()
    const [row] = await tx
      .delete(emailTemplates)
      .where(versionOf(key, brandId, language))
      .returning({ id: emailTemplates.id, subject: emailTemplates.subject })
    if (!row) return refuse(LANGUAGE_VERSION_MESSAGES.missing)
    await recordAudit(tx, actor, {
      action: 'email_template.delete',
      entity: 'email_template',
      entityId: row.id,
      details: { key, brandId, language, deletedSubject: row.subject },
    })
    return ok({ language })
  })
}

/**
 * "Restore the default" (the English version): a brand's own English wording is deleted (it uses
 * the default again); the default row goes back to the copy the product ships.
 */
export async function restoreDefault(
  actor: Actor,
  key: TemplateKey,
  brandId: string | null,
): Promise<Outcome<{ key: TemplateKey }>> {
  return getDb().transaction(async (tx) => {
    if (brandId) {
      if (!(await brandExists(tx, brandId))) return gone()
      const [row] = await tx
        .delete(emailTemplates)
        .where(versionOf(key, brandId, SOURCE_LANGUAGE))
        .returning({ id: emailTemplates.id, subject: emailTemplates.subject })
      if (!row) return refuse('This brand already uses the default wording.')
      await recordAudit(tx, actor, {
        action: 'email_template.restore',
        entity: 'email_template',
        entityId: row.id,
        details: { key, brandId, deletedSubject: row.subject },
      })
      return ok({ key })
    }
    const shipped = DEFAULT_TEMPLATES[key]
    const [row] = await tx
      .insert(emailTemplates)
      .values({
        key,
        brandId: null,
        language: SOURCE_LANGUAGE,
        subject: shipped.subject,
        body: shipped.body,
        htmlBody: null,
      })
      .onConflictDoUpdate({
        ...versionConflict(null),
        set: {
          subject: shipped.subject,
          body: shipped.body,
          htmlBody: null,
          needsAttention: null,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: emailTemplates.id })
    await recordAudit(tx, actor, {
      action: 'email_template.restore',
      entity: 'email_template',
      entityId: row!.id,
      details: { key, brandId: null },
    })
    return ok({ key })
  })
}

/**
 * "Send a test to me": one message of `key` as `brandId` would send it today in `language` (its
 * saved wording, else what that language falls back to), filled with sample values, queued through
 * the outbox to the admin's own address. The sample link is the portal's address, not a one-time code.
 */
export async function sendTestEmail(
  actor: Actor,
  key: TemplateKey,
  brandId: string | null,
  language: Language = SOURCE_LANGUAGE,
): Promise<Outcome<{ to: string; id: string }>> {
  return getDb().transaction(async (tx) => {
    if (brandId && !(await brandExists(tx, brandId))) return gone()
    const [me] = await tx
      .select({ email: users.email, name: users.displayName })
      .from(users)
      .where(eq(users.id, actor.id))
    if (!me) return refuse('Your account could not be found. Sign in again.')
    const values = { ...sampleValues(getEnv().APP_URL, language), recipientName: me.name || 'Alex Sample' }
    const { id } = await enqueueEmail(tx, {
      to: me.email,
      template: key,
      brandId,
      values,
      language,
      linkExpiresAt: null,
      entity: 'email_template_test',
    })
    await recordAudit(tx, actor, {
      action: 'email_template.test',
      entity: 'email_outbox',
      entityId: id,
      details: { key, brandId, language, to: me.email },
    })
    return ok({ to: me.email, id })
  })
}

/**
 * The start-up review of saved wordings (ADR 026): every row that could break the rules for
 * one-time codes and images (an HTML body, or a placeholder in the subject) is checked against
 * today's rules and APP_URL; `needs_attention` is set or cleared to match, so the template list
 * shows it, and each one that breaks them is logged at warn by key and brand, never its content.
 * Messages are made safe at render regardless; this makes the rows visible. Idempotent: every
 * instance runs it at start-up.
 */
export async function reviewSavedTemplates(): Promise<Array<{ key: TemplateKey; brandId: string | null }>> {
  const db = getDb()
  const appUrl = getEnv().APP_URL
  const rows = await db
    .select({
      id: emailTemplates.id,
      key: emailTemplates.key,
      brandId: emailTemplates.brandId,
      subject: emailTemplates.subject,
      html: emailTemplates.htmlBody,
      needsAttention: emailTemplates.needsAttention,
    })
    .from(emailTemplates)
    .where(
      sql`${emailTemplates.htmlBody} IS NOT NULL OR ${emailTemplates.subject} LIKE '%{{%' OR ${emailTemplates.needsAttention} IS NOT NULL`,
    )
  const flagged: Array<{ key: TemplateKey; brandId: string | null }> = []
  for (const row of rows) {
    const problems = savedTemplateProblems(row, row.key, appUrl)
    const attention = problems.length ? problems.join('\n') : null
    if (attention !== row.needsAttention)
      await db.update(emailTemplates).set({ needsAttention: attention }).where(eq(emailTemplates.id, row.id))
    if (attention) {
      flagged.push({ key: row.key, brandId: row.brandId })
      log.warn('email template needs attention: a one-time code or an image breaks the e-mail rules', {
        template: row.key,
        brandId: row.brandId,
      })
    }
  }
  return flagged
}

// ---------------------------------------------------------------------------------------------
// The outbox.

export type OutboxListRow = {
  id: string
  /** keyset's sort name: the recipient (the list is always sorted by time). */
  name: string
  recipient: string
  templateKey: TemplateKey
  /** The language the message was written in (ADR 053). */
  language: string
  brandName: string | null
  status: OutboxStatus
  /** 'sending' whose lease ran out: its worker died and another will take it over. */
  leaseExpired: boolean
  attempts: number
  lastError: string | null
  createdAt: string
  sentAt: string | null
  nextAttemptAt: string
}

export type OutboxCounts = Record<OutboxStatus, number> & { all: number }

/** Counts per state from the tallies (ADR 010): one read of a table of a few rows, whatever the outbox holds. */
export async function outboxCounts(): Promise<OutboxCounts> {
  const [row] = await queryRows<{ queued: number; sending: number; sent: number; failed: number }>(
    getDb(),
    sql`WITH ${TALLY_CTE} SELECT
      (${tallyOf('queued_emails')} - ${tallyOf('sending_emails')})::bigint AS queued,
      ${tallyOf('sending_emails')}::bigint AS sending,
      ${tallyOf('sent_emails')}::bigint AS sent,
      ${tallyOf('failed_emails')}::bigint AS failed`,
  )
  const counts = {
    queued: Number(row?.queued ?? 0),
    sending: Number(row?.sending ?? 0),
    sent: Number(row?.sent ?? 0),
    failed: Number(row?.failed ?? 0),
  }
  return { ...counts, all: counts.queued + counts.sending + counts.sent + counts.failed }
}

/**
 * One page of the outbox, newest first, filtered by state, template and recipient (exact, or a
 * prefix `abc*`). Each filter has an index ordered by (created_at, id), so a page reads its rows in
 * order from one index (ADR 016); a prefix reads the matching recipients' rows and sorts them.
 */
export async function listOutbox(
  query: EmailListQuery,
): Promise<Page<OutboxListRow> & { recipientTooShort: boolean }> {
  const recipient = recipientFilter(query.to)
  const sorted = { sort: 'created-desc', after: query.after, before: query.before }
  const columns = { name: emailOutbox.recipient, created: emailOutbox.createdAt, id: emailOutbox.id }
  const page = await keysetList(sorted, columns, OUTBOX_PAGE_SIZE, async ({ keyset, orderBy, limit }) => {
    const rows = await getDb()
      .select({
        id: emailOutbox.id,
        name: emailOutbox.recipient,
        recipient: emailOutbox.recipient,
        templateKey: emailOutbox.templateKey,
        language: emailOutbox.language,
        brandName: brands.name,
        status: emailOutbox.status,
        leaseExpired: sql<boolean>`(${emailOutbox.status} = 'sending' AND ${emailOutbox.lockedUntil} < now())`,
        attempts: emailOutbox.attempts,
        lastError: emailOutbox.lastError,
        createdAt: timestampKey(emailOutbox.createdAt),
        sentAt: sql<
          string | null
        >`to_char(${emailOutbox.sentAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
        nextAttemptAt: sql<string>`to_char(${emailOutbox.nextAttemptAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      })
      .from(emailOutbox)
      .leftJoin(brands, eq(brands.id, emailOutbox.brandId))
      .where(
        and(
          query.state ? eq(emailOutbox.status, query.state) : undefined,
          query.template ? eq(emailOutbox.templateKey, query.template) : undefined,
          recipient && 'exact' in recipient ? eq(emailOutbox.recipient, recipient.exact) : undefined,
          recipient && 'prefix' in recipient
            ? like(emailOutbox.recipient, `${escapeLike(recipient.prefix)}%`)
            : undefined,
          // A prefix that is too short shows nothing rather than reading most of the outbox.
          recipient && 'tooShort' in recipient ? sql`false` : undefined,
          keyset,
        ),
      )
      .orderBy(...orderBy)
      .limit(limit)
    return rows.map((r) => ({ ...r, lastError: maskActionCodes(r.lastError) ?? null }))
  })
  return { ...page, recipientTooShort: Boolean(recipient && 'tooShort' in recipient) }
}

export type OutboxMessage = OutboxListRow & {
  subject: string
  html: string
  text: string
  senderName: string | null
  brandId: string | null
  bodyErasedAt: string | null
  linkExpiresAt: string | null
  entity: string | null
  /** Whether "retry" would be accepted now, and if not why. */
  retry: { allowed: true } | { allowed: false; reason: string }
}

const iso = (column: unknown) =>
  sql<string | null>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`

/** Why a message cannot be retried (null: it can). The same rule as retryOutboxMessage's WHERE. */
function retryRefusal(m: {
  status: OutboxStatus
  bodyErasedAt: string | null
  linkExpired: boolean
}): string | null {
  if (m.status !== 'failed')
    return m.status === 'sent'
      ? 'This message was sent, so there is nothing to retry.'
      : `This message is ${m.status === 'sending' ? 'being sent' : 'already queued'}; only a failed message can be retried.`
  if (m.bodyErasedAt || m.linkExpired)
    return 'The one-time link in this message has expired and its body was erased. Send a fresh one from where it was made (resend the invitation, the activation or the reset).'
  return null
}

/** One message, its body with one-time codes masked; null for an unknown or malformed id. */
export async function getOutboxMessage(id: string): Promise<OutboxMessage | null> {
  if (!UUID.test(id)) return null
  const [row] = await getDb()
    .select({
      id: emailOutbox.id,
      name: emailOutbox.recipient,
      recipient: emailOutbox.recipient,
      templateKey: emailOutbox.templateKey,
      language: emailOutbox.language,
      brandId: emailOutbox.brandId,
      brandName: brands.name,
      status: emailOutbox.status,
      leaseExpired: sql<boolean>`(${emailOutbox.status} = 'sending' AND ${emailOutbox.lockedUntil} < now())`,
      linkExpired: sql<boolean>`(${emailOutbox.linkExpiresAt} IS NOT NULL AND ${emailOutbox.linkExpiresAt} <= now())`,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: timestampKey(emailOutbox.createdAt),
      sentAt: iso(emailOutbox.sentAt),
      nextAttemptAt: sql<string>`${iso(emailOutbox.nextAttemptAt)}`,
      subject: emailOutbox.subject,
      html: emailOutbox.html,
      text: emailOutbox.text,
      senderName: emailOutbox.senderName,
      bodyErasedAt: iso(emailOutbox.bodyErasedAt),
      linkExpiresAt: iso(emailOutbox.linkExpiresAt),
      entity: emailOutbox.entity,
    })
    .from(emailOutbox)
    .leftJoin(brands, eq(brands.id, emailOutbox.brandId))
    .where(eq(emailOutbox.id, id))
  if (!row) return null
  const { linkExpired, ...rest } = row
  const reason = retryRefusal({ status: row.status, bodyErasedAt: row.bodyErasedAt, linkExpired })
  return {
    ...rest,
    subject: maskActionCodes(row.subject),
    html: maskActionCodes(row.html),
    text: maskActionCodes(row.text),
    lastError: maskActionCodes(row.lastError) ?? null,
    retry: reason ? { allowed: false, reason } : { allowed: true },
  }
}

/**
 * An admin's retry: failed → queued, nothing else (attempts kept, audited). The state change is one
 * conditional UPDATE, so two retries racing queue the message once; the loser is told why.
 */
export async function retryMessage(actor: Actor, id: string): Promise<Outcome<{ recipient: string }>> {
  if (!UUID.test(id)) return refuseNotFound()
  return getDb().transaction(async (tx) => {
    const retried = await retryOutboxMessage(id, tx)
    const [row] = await tx
      .select({
        recipient: emailOutbox.recipient,
        status: emailOutbox.status,
        attempts: emailOutbox.attempts,
        bodyErasedAt: iso(emailOutbox.bodyErasedAt),
        linkExpired: sql<boolean>`(${emailOutbox.linkExpiresAt} IS NOT NULL AND ${emailOutbox.linkExpiresAt} <= now())`,
      })
      .from(emailOutbox)
      .where(eq(emailOutbox.id, id))
    if (!row) return refuseNotFound()
    if (!retried) return refuse(retryRefusal(row) ?? EMAIL_MESSAGES.notFailed)
    await recordAudit(tx, actor, {
      action: 'email_outbox.retry',
      entity: 'email_outbox',
      entityId: id,
      details: { recipient: row.recipient, attempts: row.attempts },
    })
    return ok({ recipient: row.recipient })
  })
}
