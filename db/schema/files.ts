import { customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
})

/** Uploaded images (brand logos, profile photos), bytes kept in Postgres so instances share them. */
export const files = pgTable(
  'files',
  {
    id: uuid().primaryKey().defaultRandom(),
    mime: text().notNull(),
    size: integer().notNull(),
    sha256: text().notNull(),
    bytes: bytea().notNull(),
    ownerId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.ownerId)],
)
