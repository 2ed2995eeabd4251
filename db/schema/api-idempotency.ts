import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { apiKeys } from './api-keys'

/**
 * Idempotency keys of the REST API's bulk upsert (issue 21 §1, ADR 054 "Writes"): the first request
 * with a key claims its row ("in progress": `status` null) before it runs, and its answer is stored
 * there, so a replay with the same key and the same body gets the same answer without running
 * again; a second request while the first runs finds the row and is refused (409). The body is kept
 * as its SHA-256 only. Rows older than a day are deleted as new ones come in.
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    id: uuid().primaryKey().defaultRandom(),
    keyId: uuid()
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    idempotencyKey: text().notNull(),
    /** SHA-256 (hex) of the request's JSON body as parsed: a replay must send the same body. */
    requestHash: text().notNull(),
    /** The stored answer's status; null while the first request is still running. */
    status: integer(),
    responseBody: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_idempotency_keys_key_unique').on(t.keyId, t.idempotencyKey),
    index().on(t.createdAt),
  ],
)
