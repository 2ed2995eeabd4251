import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './users'

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid().primaryKey().defaultRandom(),
    actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    details: jsonb().$type<Record<string, unknown>>(),
    ip: text(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When retention replaced the personal data in it with pseudonyms (ADR 058); null: not yet. */
    pseudonymisedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.at), index().on(t.entity, t.entityId), index().on(t.actorId)],
)
