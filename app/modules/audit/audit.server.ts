import type { Tx } from '#db/client'
import { auditLog } from '#db/schema/index'
import { toStorableJson, toStorableText } from '#app/lib/text-rules'

export type AuditEntry = {
  actorId: string | null
  action: string
  entity: string
  entityId?: string | null
  details?: Record<string, unknown>
  ip?: string | null
}

/**
 * Every change is recorded, in the transaction that makes it. The details are jsonb, which refuses
 * a NUL or a lone surrogate (and the whole change with it): input is refused before it gets here
 * (app/lib/text-rules.ts), and what slips past anyway is recorded with U+FFFD in its place rather
 * than turning an admin's change into a 500.
 */
export async function recordAudit(tx: Tx, entry: AuditEntry) {
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    action: toStorableText(entry.action),
    entity: toStorableText(entry.entity),
    entityId: entry.entityId == null ? null : toStorableText(entry.entityId),
    details: entry.details ? toStorableJson(entry.details) : null,
    ip: entry.ip ?? null,
  })
}
