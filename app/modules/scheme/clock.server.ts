import { sql } from 'drizzle-orm'
import { getDb, isDatabaseDown, isDatabaseOpen, queryRows, reportDatabaseFailure } from '#db/client'
import { log } from '#app/lib/logger.server'
import { startPollingWorker, type PollingWorker } from '#app/lib/polling-worker.server'
import { releaseOnClose } from '#app/modules/report/release.server'
import { queueDeliveriesSql } from '#app/modules/webhook/events.server'

/**
 * The scheme clock (docs/decisions/013-scheme-lifecycle.md): schemes whose closing time has passed
 * are closed — status `closed`, `closed_at` the moment they closed — with an audit entry each.
 *
 * Opening needs no write: a launched scheme is `open` from its launch, and the one state rule
 * (state.ts) reads it as upcoming until `opens_at`; its e-mails wait in the outbox until then.
 * Closing does need the write, although the state rule already treats a scheme past `closes_at`
 * as closed: the status is what lists, filters, reports ("release on close") and people read, and
 * a status that says "open" for ever is the Formbricks bug of an auto-close that never fired.
 *
 * One statement, set-based: the UPDATE picks and changes the rows, and the audit entries are
 * written from its RETURNING. Two workers (two app instances) racing: the second waits on the row
 * locks, re-checks `status = 'open'` on the new row version, finds it closed and leaves it, so each
 * scheme is closed, and audited, exactly once. Its `scheme.closed` webhook deliveries are queued by
 * the same statement (ADR 057).
 */

export const SCHEME_CLOCK_POLL_MS = 60 * 1000

export type ClosedScheme = { id: string; name: string; closedAt: string }

/** Closes every open scheme whose closing time is at or before `now`; answers the ones it closed. */
export async function closeDueSchemes(now: Date = new Date()): Promise<ClosedScheme[]> {
  const at = sql`${now.toISOString()}::timestamptz`
  const rows = await queryRows<{ id: string; name: string; closedAt: Date | string }>(
    getDb(),
    sql`WITH closed AS (
        UPDATE schemes SET status = 'closed', closed_at = closes_at, updated_at = ${at}
        WHERE status = 'open' AND closes_at <= ${at}
        RETURNING id, name, closed_at, company_id
      ), hooked AS (${queueDeliveriesSql(sql`SELECT 'scheme.closed' AS type, company_id,
          jsonb_build_object('scheme_id', id, 'state', 'closed', 'closed_by', 'clock') AS data,
          closed_at AS at
        FROM closed`)}
      ), audited AS (
        INSERT INTO audit_log (actor_id, action, entity, entity_id, details)
        SELECT NULL, 'scheme.close', 'scheme', id::text,
          jsonb_build_object('by', 'clock', 'closedAt', closed_at)
        FROM closed
      )
      SELECT id, name, closed_at AS "closedAt" FROM closed`,
  )
  const closed = rows.map((r) => ({ id: r.id, name: r.name, closedAt: new Date(r.closedAt).toISOString() }))
  if (closed.length)
    log.info('schemes closed at their closing time', { count: closed.length, ids: closed.map((c) => c.id) })
  return closed
}

/**
 * Runs closeDueSchemes now and then every minute (lib/polling-worker.server.ts: rounds never
 * overlap, stop() waits for the round in flight). Any number of app instances may run one.
 * `now` is the clock it reads: tests pass their own.
 */
export function startSchemeClock(
  options: { intervalMs?: number; firstDelayMs?: number; now?: () => Date } = {},
): PollingWorker {
  return startPollingWorker({
    name: 'scheme clock',
    intervalMs: options.intervalMs ?? SCHEME_CLOCK_POLL_MS,
    firstDelayMs: options.firstDelayMs ?? 0,
    now: options.now,
    when: () => isDatabaseOpen() && !isDatabaseDown(),
    onError: reportDatabaseFailure,
    round: async (at) => {
      await closeDueSchemes(at)
      // Schemes that release on close release their reports (ADR 022); idempotent, so a round
      // that failed between the two statements is made good by the next one.
      await releaseOnClose(at)
    },
  })
}
