import { and, ne, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Tx } from '#db/client'

/** A table whose rows have a name unique regardless of case (brands, companies). */
type Named = { table: PgTable; id: PgColumn; name: PgColumn; lock: string }

/**
 * true when another row already has this name (case-insensitive). The advisory lock on the name
 * makes two concurrent saves of one name take turns, so the check cannot be raced.
 */
export async function nameTaken(tx: Tx, named: Named, name: string, exceptId?: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`${named.lock}:${name.toLowerCase()}`}))`)
  const [row] = await tx
    .select({ id: named.id })
    .from(named.table)
    .where(and(sql`lower(${named.name}) = lower(${name})`, exceptId ? ne(named.id, exceptId) : undefined))
    .limit(1)
  return Boolean(row)
}
