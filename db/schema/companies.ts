import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import {
  ERASURE_RATER_ANSWERS,
  LANGUAGE_SQL_LIST,
  RETENTION_ANSWER_MODES,
  type ErasureRaterAnswers,
  type RetentionAnswerMode,
} from '../enums'
import { files } from './files'

/** A consultancy's look for one or more client companies; contact links override the config defaults. */
export const brands = pgTable(
  'brands',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    logoFileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    primaryColor: text().notNull().default('#1d4ed8'),
    accentColor: text().notNull().default('#0f766e'),
    senderName: text(),
    callbackUrl: text(),
    contactEmail: text(),
    profileUrl: text(),
    /** The language of its employees who chose none (ADR 050). */
    defaultLanguage: text().notNull().default('en'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.name, t.id),
    index().on(t.createdAt, t.id),
    // Names are unique ignoring case (the forms check first; this makes it hold under races).
    uniqueIndex('brands_name_lower_unique').on(sql`lower(${t.name})`),
    check('brands_default_language', sql`${t.defaultLanguage} IN (${sql.raw(LANGUAGE_SQL_LIST)})`),
  ],
)

export const companies = pgTable(
  'companies',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    brandId: uuid()
      .notNull()
      .references(() => brands.id, { onDelete: 'restrict' }),
    /**
     * Rater fatigue cap (issue 18 §4): how many open feedback requests one person may hold across
     * every scheme at once before this company's schemes may ask them for more.
     */
    feedbackRequestCap: integer().notNull().default(5),
    /**
     * When a person is erased (ADR 056), the answers they gave about others: `delete` removes them
     * (and the released reports that can no longer keep them say so), `keep_anonymous` keeps those
     * already inside released reports, tied to no one.
     */
    erasureRaterAnswers: text().$type<ErasureRaterAnswers>().notNull().default('keep_anonymous'),
    /**
     * Retention (issue 21 §3, ADR 058), each in whole months; null keeps for ever. Answers and report
     * snapshots: counted from when a scheme closed, then anonymised or deleted (`retentionAnswersMode`).
     * Accounts never activated or disabled: counted from their invitation or their disabling, then
     * erased as ADR 056 erases a person. Audit entries: counted from when they were written, then
     * pseudonymised.
     */
    retentionAnswersMonths: integer(),
    retentionAnswersMode: text().$type<RetentionAnswerMode>().notNull().default('anonymise'),
    retentionAccountsMonths: integer(),
    retentionAuditMonths: integer(),
    /** When the retention worker last looked at this company, and what that pass did (counts). */
    retentionLastPassAt: timestamp({ withTimezone: true }),
    retentionLastPass: jsonb().$type<Record<string, number>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('companies_feedback_request_cap_range', sql`${t.feedbackRequestCap} BETWEEN 1 AND 50`),
    check(
      'companies_erasure_rater_answers',
      sql`${t.erasureRaterAnswers} IN (${sql.raw(ERASURE_RATER_ANSWERS.map((v) => `'${v}'`).join(', '))})`,
    ),
    check(
      'companies_retention_answers_mode',
      sql`${t.retentionAnswersMode} IN (${sql.raw(RETENTION_ANSWER_MODES.map((v) => `'${v}'`).join(', '))})`,
    ),
    check(
      'companies_retention_months_range',
      sql`(${t.retentionAnswersMonths} IS NULL OR ${t.retentionAnswersMonths} BETWEEN 1 AND 600)
        AND (${t.retentionAccountsMonths} IS NULL OR ${t.retentionAccountsMonths} BETWEEN 1 AND 600)
        AND (${t.retentionAuditMonths} IS NULL OR ${t.retentionAuditMonths} BETWEEN 1 AND 600)`,
    ),
    index().on(t.name, t.id),
    index().on(t.createdAt, t.id),
    index().on(t.brandId),
    uniqueIndex('companies_name_lower_unique').on(sql`lower(${t.name})`),
  ],
)
