import { sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'

/**
 * The counts the database keeps for the admin pages (ADR 010, migrations/0009_tally-triggers.sql):
 * each is the sum of its name's rows in `tallies`, which triggers add to whenever a statement
 * changes it. Exact, and as cheap to read at 100,000 employees as at three: the table holds one row
 * per name after a fold, plus one per changing statement since.
 */
export const TALLY_NAMES = [
  'employees',
  // Employees who activated their account (a password set) and are not disabled (migration 0016).
  'active_employees',
  'submitted',
  'queued_emails',
  'failed_emails',
  'sending_emails',
  'sent_emails',
] as const
export type TallyName = (typeof TALLY_NAMES)[number]

/** A CTE `tally (name, n)` to put in a page's statement; read it with `tallyOf`. */
export const TALLY_CTE = sql`tally AS MATERIALIZED (SELECT name, sum(delta) AS n FROM tallies GROUP BY name)`

/** One count, from the statement's TALLY_CTE (0 when nothing was ever counted). */
export function tallyOf(name: TallyName) {
  return sql`coalesce((SELECT n FROM tally WHERE name = ${name}), 0)`
}

/**
 * Folds each name's rows into one, in one statement: readers see the rows before or after, never
 * half, and two workers folding at once each fold only the rows they deleted. Then vacuums the
 * table (a few rows; run outside a transaction), so its reads stay small where autovacuum is off.
 * Returns the number of rows folded.
 */
export async function compactTallies(): Promise<number> {
  const db = getDb()
  const [row] = await queryRows<{ folded: number | string }>(
    db,
    sql`
    WITH folded AS (DELETE FROM tallies RETURNING name, delta),
    kept AS (
      INSERT INTO tallies (name, delta)
      SELECT name, sum(delta) FROM folded GROUP BY name HAVING sum(delta) <> 0
    )
    SELECT count(*)::int AS folded FROM folded`,
  )
  const folded = Number(row?.folded ?? 0)
  if (folded > 0) await db.execute(sql`VACUUM tallies`)
  return folded
}

/**
 * Counts everything again from the tables (a full scan of each): for after a bulk load that ran
 * with triggers off. Writers to the counted tables wait until the caller's transaction ends.
 */
export async function recountTallies(tx: Tx = getDb()) {
  await tx.execute(sql`SELECT tally_recount()`)
}
