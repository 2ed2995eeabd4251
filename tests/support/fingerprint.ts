import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'

/**
 * A cheap fingerprint of everything the application stores: per table, its row count and a hash
 * of its rows. Two equal fingerprints mean nothing was written in between. The tables are read
 * from the catalogue, so a table added later is covered without touching this file. Test databases
 * are small (tens of rows), so hashing whole tables costs a few milliseconds.
 *
 * What a refused (4xx) request may legitimately change is left out, each for its reason:
 */
const IGNORED_TABLES: Record<string, string> = {
  // Fixed-window counters: counting refused attempts (wrong passwords, too many invitations) is
  // what a rate limit is for, so a 4xx moves them by design.
  rate_limits: 'counts refused requests by design',
}
const IGNORED_COLUMNS: Record<string, string[]> = {
  // Every signed-in request may extend its session (sliding expiry) and note when it was last
  // seen, whatever the answer. A session created, deleted or otherwise changed still shows.
  sessions: ['expires_at', 'last_seen_at'],
}

export type Fingerprint = Record<string, { rows: number; hash: string }>

let query: string | undefined

async function buildQuery(): Promise<string> {
  const rows = await queryRows<{ table_name: string; column_name: string }>(
    getDb(),
    sql`
    SELECT c.table_name, c.column_name
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position`,
  )
  const tables = new Map<string, string[]>()
  for (const { table_name: table, column_name: column } of rows) {
    if (table in IGNORED_TABLES || IGNORED_COLUMNS[table]?.includes(column)) continue
    tables.set(table, [...(tables.get(table) ?? []), column])
  }
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
  return [...tables]
    .map(([table, columns]) => {
      const row = `md5(row(${columns.map((c) => `t.${quote(c)}`).join(', ')})::text)`
      return `SELECT '${table}' AS name, count(*)::int AS rows, coalesce(md5(string_agg(${row}, '' ORDER BY ${row})), '') AS hash FROM ${quote(table)} t`
    })
    .join('\nUNION ALL\n')
}

export async function fingerprint(): Promise<Fingerprint> {
  query ??= await buildQuery()
  // bigint-free: count(*)::int comes back as a number from both drivers.
  const rows = await queryRows<{ name: string; rows: number; hash: string }>(getDb(), sql.raw(query))
  return Object.fromEntries(rows.map((r) => [r.name, { rows: Number(r.rows), hash: r.hash }]))
}

/** The tables whose fingerprint differs, for a readable failure. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names].filter(
    (name) => before[name]?.rows !== after[name]?.rows || before[name]?.hash !== after[name]?.hash,
  )
}
