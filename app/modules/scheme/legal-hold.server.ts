import { sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { isUuid } from '#app/lib/ids'
import { ok, refuse, refuseNotFound, type Actor, type Outcome } from '#app/lib/outcome'
import { recordAudit } from '#app/modules/audit/audit.server'

/**
 * A legal hold on a scheme (issue 21 §3, ADR 058): while it stands, retention leaves the scheme's
 * answers and snapshots, the audit entries about it and the accounts of the people in it alone.
 * Placing and lifting it are audited with the reason. The retention pass locks the scheme's row in
 * each of its batches, so a hold placed during a pass stops it at the next batch.
 */

export const LEGAL_HOLD_REFUSALS = {
  alreadyHeld: 'This scheme is already on legal hold. Lift the hold first to change its reason.',
  notHeld: 'This scheme is not on legal hold.',
} as const

type Held = { name: string; legal_hold_at: Date | string | null; legal_hold_reason: string | null }

async function lockHold(tx: Tx, id: string) {
  const [row] = await queryRows<Held>(
    tx,
    sql`SELECT name, legal_hold_at, legal_hold_reason FROM schemes WHERE id = ${id}::uuid FOR UPDATE`,
  )
  return row ?? null
}

export async function placeLegalHold(
  actor: Actor,
  schemeId: string,
  reason: string,
  now: Date = new Date(),
): Promise<Outcome<{ name: string }>> {
  if (!isUuid(schemeId)) return refuseNotFound()
  return getDb().transaction(async (tx): Promise<Outcome<{ name: string }>> => {
    const scheme = await lockHold(tx, schemeId)
    if (!scheme) return refuseNotFound()
    if (scheme.legal_hold_at) return refuse(LEGAL_HOLD_REFUSALS.alreadyHeld)
    await tx.execute(
      sql`UPDATE schemes SET legal_hold_at = ${now.toISOString()}::timestamptz, legal_hold_reason = ${reason},
            updated_at = ${now.toISOString()}::timestamptz
          WHERE id = ${schemeId}::uuid`,
    )
    await recordAudit(tx, actor, {
      action: 'scheme.legal_hold',
      entity: 'scheme',
      entityId: schemeId,
      details: { reason },
    })
    return ok({ name: scheme.name })
  })
}

export async function liftLegalHold(
  actor: Actor,
  schemeId: string,
  now: Date = new Date(),
): Promise<Outcome<{ name: string }>> {
  if (!isUuid(schemeId)) return refuseNotFound()
  return getDb().transaction(async (tx): Promise<Outcome<{ name: string }>> => {
    const scheme = await lockHold(tx, schemeId)
    if (!scheme) return refuseNotFound()
    if (!scheme.legal_hold_at) return refuse(LEGAL_HOLD_REFUSALS.notHeld)
    await tx.execute(
      sql`UPDATE schemes SET legal_hold_at = NULL, legal_hold_reason = NULL,
            updated_at = ${now.toISOString()}::timestamptz
          WHERE id = ${schemeId}::uuid`,
    )
    await recordAudit(tx, actor, {
      action: 'scheme.legal_hold_lifted',
      entity: 'scheme',
      entityId: schemeId,
      details: { reason: scheme.legal_hold_reason, heldSince: new Date(scheme.legal_hold_at).toISOString() },
    })
    return ok({ name: scheme.name })
  })
}
