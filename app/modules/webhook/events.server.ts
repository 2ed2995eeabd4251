import { sql, type SQL } from 'drizzle-orm'
import type { Tx } from '#db/client'
import type { WebhookEvent } from '#db/enums'

/**
 * The webhook events (issue 21 §2, ADR 057) as the domain code writes them: in the transaction of
 * the change they report (the transactional outbox, after the e-mail outbox of ADR 008), one
 * delivery row per endpoint that asked for the event and may see its company. A change rolled back
 * takes its deliveries with it; nothing is sent for a change that did not happen.
 *
 * A payload is `{type, timestamp, data}` and its data holds ids and states only: never a name, an
 * address, an answer, a comment, or who rated whom (DESIGN.md §8).
 */

/** One event: its type, the company it belongs to (or a scheme whose company it is), its data. */
export type WebhookEventInput = {
  type: WebhookEvent
  /** The company whose event this is; when absent, the company of `schemeId`. */
  companyId?: string | null
  schemeId?: string | null
  /** Ids and states only (ADR 057). `company_id` is added. */
  data: Record<string, string | number | boolean | null | string[]>
  /** When it happened (default: the transaction's time). */
  at?: Date
}

/**
 * The statement that queues deliveries for a set of events given as rows of `source` (columns
 * `type text, company_id uuid, data jsonb, at timestamptz`): each event goes to every enabled
 * endpoint that asked for its type and is for all companies or for the event's company. One
 * statement whatever the number of events and endpoints; none queued when no endpoint wants them.
 */
export function queueDeliveriesSql(source: SQL): SQL {
  return sql`INSERT INTO webhook_deliveries (endpoint_id, event_type, payload)
    SELECT e.id, ev.type,
      jsonb_build_object(
        'type', ev.type,
        'timestamp', to_char(ev.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', ev.data || jsonb_build_object('company_id', ev.company_id))
    FROM (${source}) ev
    JOIN webhook_endpoints e ON e.enabled AND ev.type = ANY(e.events)
      AND (e.company_id IS NULL OR e.company_id = ev.company_id)`
}

/**
 * Queues the deliveries of `events` in `tx`, the transaction of the change they report (one
 * statement; nothing for no events).
 */
export async function enqueueWebhookEvents(tx: Tx, events: WebhookEventInput[]): Promise<void> {
  if (!events.length) return
  const rows = events.map((e) => ({
    type: e.type,
    company_id: e.companyId ?? null,
    scheme_id: e.schemeId ?? null,
    data: e.data,
    at: e.at?.toISOString() ?? null,
  }))
  await tx.execute(
    queueDeliveriesSql(sql`SELECT r.type,
        COALESCE(r.company_id, (SELECT s.company_id FROM schemes s WHERE s.id = r.scheme_id)) AS company_id,
        r.data, COALESCE(r.at, now()) AS at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS r(type text, company_id uuid, scheme_id uuid, data jsonb, at timestamptz)`),
  )
}
