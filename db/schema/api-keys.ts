import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { API_SCOPE_SQL_LIST } from '../enums'
import { companies } from './companies'
import { users } from './users'

/**
 * The REST API's keys (issue 21 §1, ADR 054): created by an admin, shown once, stored as the
 * SHA-256 of the whole key (never the key). `prefix` is the key's first characters, kept to tell keys
 * apart on the admin page. A key with a company reads and writes that company's data only.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    /** The key's public start ("pnr_" and 8 characters), unique: what the list shows. */
    prefix: text().notNull(),
    /** SHA-256 of the whole key, hex (app/lib/secret-hash.server.ts). */
    secretHash: text().notNull(),
    /** `<resource>:<read|write>` (db/enums.ts API_SCOPES). */
    scopes: text().array().notNull(),
    companyId: uuid().references(() => companies.id, { onDelete: 'cascade' }),
    /** Requests a minute before 429 (the rate-limit module's fixed window). */
    requestsPerMinute: integer().notNull().default(600),
    expiresAt: timestamp({ withTimezone: true }),
    lastUsedAt: timestamp({ withTimezone: true }),
    lastUsedIp: text(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash_unique').on(t.secretHash),
    uniqueIndex('api_keys_prefix_unique').on(t.prefix),
    index().on(t.createdAt, t.id),
    index().on(t.companyId),
    check('api_keys_scopes_known', sql`${t.scopes} <@ ARRAY[${sql.raw(API_SCOPE_SQL_LIST)}]::text[]`),
    check('api_keys_scopes_some', sql`cardinality(${t.scopes}) > 0`),
    check('api_keys_requests_per_minute', sql`${t.requestsPerMinute} BETWEEN 1 AND 100000`),
  ],
)
