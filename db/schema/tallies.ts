import { bigint, pgTable, text } from 'drizzle-orm/pg-core'

/**
 * Exact counts the admin pages show, kept by the database itself (ADR 010): statement-level
 * triggers on the counted tables add one row (name, change) per statement that changes a count, and
 * the worker folds the rows of each name into one from time to time. A count is the sum of its
 * name's rows, so reading it costs the same at 100,000 employees as at three. The triggers and the
 * recount function live in migrations/0009_tally-triggers.sql.
 */
// No index beyond the key: every read sums the whole (small) table.
export const tallies = pgTable('tallies', {
  id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  /** employees, submitted, queued_emails, failed_emails (app/modules/tally/tally.server.ts). */
  name: text().notNull(),
  delta: bigint({ mode: 'number' }).notNull(),
})
