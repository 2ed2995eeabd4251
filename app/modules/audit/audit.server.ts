import type { Tx } from '#db/client'
import { auditLog } from '#db/schema/index'

export type AuditEntry = {
  actorId: string | null
  action: string
  entity: string
  entityId?: string | null
  details?: Record<string, unknown>
  ip?: string | null
}

/** Every change is recorded, in the transaction that makes it. */
export async function recordAudit(tx: Tx, entry: AuditEntry) {
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  })
}
