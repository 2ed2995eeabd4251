import { EMAIL_TEMPLATE_KEYS, LANGUAGE_SQL_LIST, OUTBOX_STATUSES } from '../enums'
import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { brands } from './companies'

export const emailTemplateKeyEnum = pgEnum('email_template_key', EMAIL_TEMPLATE_KEYS)

/**
 * Subject and body with {{placeholders}}; brand_id null is the deployment's default. One row per
 * key × brand (or default) × language (ADR 053); the English default of every key always exists.
 */
export const emailTemplates = pgTable(
  'email_templates',
  {
    id: uuid().primaryKey().defaultRandom(),
    key: emailTemplateKeyEnum().notNull(),
    brandId: uuid().references(() => brands.id, { onDelete: 'cascade' }),
    /** The language this version is written in (db/enums.ts LANGUAGE_CODES, ADR 053). */
    language: text().notNull().default('en'),
    subject: text().notNull(),
    /** The text part, and the source of the HTML part when html_body is null. */
    body: text().notNull(),
    /**
     * An admin-written HTML body (sanitised at save and again at render, ADR 016), placed inside the
     * brand's e-mail frame; null means the HTML part is generated from `body` as before.
     */
    htmlBody: text(),
    /**
     * Why this wording breaks the rules for one-time codes and images (ADR 026), as the editor
     * would word it; null when it does not. Written by the start-up review, cleared when the wording
     * is saved or restored. Messages are made safe at render whatever it says.
     */
    needsAttention: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_templates_brand_key_language_unique')
      .on(t.brandId, t.key, t.language)
      .where(sql`${t.brandId} IS NOT NULL`),
    uniqueIndex('email_templates_default_key_language_unique')
      .on(t.key, t.language)
      .where(sql`${t.brandId} IS NULL`),
    check('email_templates_language', sql`${t.language} IN (${sql.raw(LANGUAGE_SQL_LIST)})`),
  ],
)

export const outboxStatusEnum = pgEnum('outbox_status', OUTBOX_STATUSES)

/**
 * Every e-mail, written in the same transaction as the change that causes it. The worker claims
 * rows with FOR UPDATE SKIP LOCKED and a lease (locked_until), so instances never send one twice.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    recipient: text().notNull(),
    /** The brand whose wording and look the message was rendered with (null: the deployment default). */
    brandId: uuid().references(() => brands.id, { onDelete: 'set null' }),
    /** Display name for the From header (the brand's sender name), null for the deployment default. */
    senderName: text(),
    templateKey: emailTemplateKeyEnum().notNull(),
    /** The language the message was written in (ADR 053): the recipient's, as the rule chose it. */
    language: text().notNull().default('en'),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    status: outboxStatusEnum().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true }),
    /** The worker holding the lease: only it renews the lease or records the outcome. */
    lockedBy: text(),
    /**
     * Set when the body carries a one-time link (an action code): when that link stops working at
     * the latest. Such a body is erased once it is no longer needed (see outbox.server.ts); null
     * means the message carries no one-time code.
     */
    linkExpiresAt: timestamp({ withTimezone: true }),
    /** When html and text were blanked because they carried a one-time link. */
    bodyErasedAt: timestamp({ withTimezone: true }),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    /** What the message is about (an assignment for invites and reminders), for the admin outbox view. */
    entity: text(),
    entityId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index().on(t.entity, t.entityId),
    // The admin outbox list (newest first, keyset on created_at, id): one index per filter it offers,
    // so every page reads its rows from an index in order (ADR 016).
    index('email_outbox_created_idx').on(t.createdAt, t.id),
    index('email_outbox_status_created_idx').on(t.status, t.createdAt, t.id),
    index('email_outbox_template_created_idx').on(t.templateKey, t.createdAt, t.id),
    index('email_outbox_recipient_created_idx').on(t.recipient, t.createdAt, t.id),
    // Prefix search on the recipient (LIKE 'abc%') whatever the database's collation.
    index('email_outbox_recipient_prefix_idx').using('btree', sql`${t.recipient} text_pattern_ops`),
    // A brand's deletion sets its messages' brand_id to null without reading the whole outbox.
    index('email_outbox_brand_idx')
      .on(t.brandId)
      .where(sql`${t.brandId} IS NOT NULL`),
  ],
)
