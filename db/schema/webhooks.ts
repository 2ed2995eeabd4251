import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_SQL_LIST } from '../enums'
import { companies } from './companies'
import { users } from './users'

export const webhookDeliveryStatusEnum = pgEnum('webhook_delivery_status', WEBHOOK_DELIVERY_STATUSES)

/**
 * Webhook endpoints (issue 21 §2, ADR 057): registered by an admin; the signing secret is sealed
 * with SECRET_KEY (app/lib/secret-box.server.ts), never kept in clear. After a rotation the previous
 * secret stays, sealed, until `previous_secret_expires_at`: deliveries are signed with both until then.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid().primaryKey().defaultRandom(),
    url: text().notNull(),
    description: text().notNull().default(''),
    /** db/enums.ts WEBHOOK_EVENTS. */
    events: text().array().notNull(),
    /** Only this company's events are sent (null: every company's). */
    companyId: uuid().references(() => companies.id, { onDelete: 'cascade' }),
    enabled: boolean().notNull().default(true),
    secretSealed: text().notNull(),
    previousSecretSealed: text(),
    previousSecretExpiresAt: timestamp({ withTimezone: true }),
    secretRotatedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.createdAt, t.id),
    index().on(t.companyId),
    check(
      'webhook_endpoints_events_known',
      sql`${t.events} <@ ARRAY[${sql.raw(WEBHOOK_EVENT_SQL_LIST)}]::text[]`,
    ),
    check('webhook_endpoints_events_some', sql`cardinality(${t.events}) > 0`),
  ],
)

/**
 * One delivery of one event to one endpoint: the webhook outbox (ADR 057, after ADR 008's e-mail
 * outbox). Written in the transaction of the change it reports; a worker claims due rows with FOR
 * UPDATE SKIP LOCKED and a lease, posts them signed, and records the outcome.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    endpointId: uuid()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: text().notNull(),
    /** `{type, timestamp, data}`: ids and states only (ADR 057). */
    payload: jsonb().notNull(),
    status: webhookDeliveryStatusEnum().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true }),
    lockedBy: text(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    lastResponseCode: integer(),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The worker's due query: queued rows by time, and leases that ran out.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('webhook_deliveries_leased_idx')
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'sending'`),
    // The endpoint's delivery log, newest first, keyset on (created_at, id).
    index('webhook_deliveries_log_idx').on(t.endpointId, t.createdAt, t.id),
    check('webhook_deliveries_event_known', sql`${t.eventType} IN (${sql.raw(WEBHOOK_EVENT_SQL_LIST)})`),
  ],
)
