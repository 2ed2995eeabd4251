import type { Tx } from '#db/client'
import { auditLog } from '#db/schema/index'
import type { Actor } from '#app/lib/outcome'
import { toStorableJson, toStorableText } from '#app/lib/text-rules'

/** What was done, to what. */
export type AuditEvent = {
  action: string
  entity: string
  entityId?: string | null
  details?: Record<string, unknown>
}

/** An event with its actor spelled out: the form for what the system does on no one's behalf. */
export type AuditEntry = AuditEvent & { actorId: string | null; ip?: string | null }

/**
 * Every change is recorded, in the transaction that makes it, with who made it:
 * `recordAudit(tx, actor, event)`, or `recordAudit(tx, entry)` where no one acts (`actorId: null`).
 * The details are jsonb, which refuses a NUL or a lone surrogate (and the whole change with it):
 * input is refused before it gets here (app/lib/text-rules.ts), and what slips past anyway is
 * recorded with U+FFFD in its place rather than turning an admin's change into a 500.
 */
export async function recordAudit(tx: Tx, ...args: [actor: Actor, event: AuditEvent] | [entry: AuditEntry]) {
  const entry: AuditEntry =
    args.length === 2
      ? {
          ...args[1],
          actorId: args[0].id,
          ip: args[0].ip,
          // A change made through the REST API names the key it came with.
          ...(args[0].apiKeyId ? { details: { ...args[1].details, apiKeyId: args[0].apiKeyId } } : {}),
        }
      : args[0]
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    action: toStorableText(entry.action),
    entity: toStorableText(entry.entity),
    entityId: entry.entityId == null ? null : toStorableText(entry.entityId),
    details: entry.details ? toStorableJson(entry.details) : null,
    ip: entry.ip ?? null,
  })
}
