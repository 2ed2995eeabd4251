import { sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import { singleLine } from '#app/lib/text-rules'

/**
 * Keyset pagination for every list: one query per page, stable under inserts, no OFFSET scans.
 * The cursor is the last row's sort value and its id, base64url JSON, checked when read back.
 */

export type SortField = 'name' | 'created'

/** A page boundary: the sort it belongs to, the last row's sort value and its id (the tie-breaker). */
// `v` goes to Postgres as text: a hand-made cursor holding a NUL byte would fail the query, and no
// stored name holds a control character (the shared one-line rule).
const CursorSchema = z.object({
  s: z.enum(['name', 'created']),
  v: z.string().max(1000).check(singleLine()),
  id: z.uuid(),
})
export type Cursor = z.output<typeof CursorSchema>

// created_at as text with its full microsecond precision: a JS Date keeps only milliseconds, and a
// cursor that rounds would skip or repeat rows created within the same millisecond.
const CREATED_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
export const timestampKey = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

export function encodeCursor(cursor: Cursor) {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url')
}

/** null for anything that is not a cursor of this sort (an edited or outdated link). */
export function decodeCursor(raw: string, field: SortField): Cursor | null {
  if (raw.length > 2000) return null
  try {
    const parsed = CursorSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')))
    if (!parsed.success || parsed.data.s !== field) return null
    if (field === 'created' && !CREATED_KEY.test(parsed.data.v)) return null
    return parsed.data
  } catch {
    return null
  }
}

/** `%` and `_` typed into the search box are literal characters, not wildcards. */
export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, '\\$&')
}

export type Page<Row> = {
  rows: Row[]
  /** Cursor for the rows after this page (null on the last page). */
  next: string | null
  /** Cursor for the rows before this page (null on the first page). */
  prev: string | null
  /** The link's cursor could not be read, so the first page is shown instead. */
  staleCursor: boolean
}

/** Where a list query starts and in which order it reads (see listBrands for a use). */
export function keysetPlan(query: { sort: string; after?: string; before?: string }) {
  const field: SortField = query.sort.startsWith('name') ? 'name' : 'created'
  const descending = query.sort.endsWith('-desc')
  const raw = query.before ?? query.after
  const cursor = raw ? decodeCursor(raw, field) : null
  const backwards = Boolean(query.before) && cursor !== null
  // Walking back reads the rows before the cursor in reverse order, then flips them.
  const ascending = descending === backwards
  return { field, cursor, backwards, ascending, staleCursor: Boolean(raw) && cursor === null }
}

/** The WHERE term that starts a page after (or before) the cursor. */
export function keysetCondition(
  plan: ReturnType<typeof keysetPlan>,
  columns: { name: AnyPgColumn; created: AnyPgColumn; id: AnyPgColumn },
): SQL | undefined {
  const { cursor, field, ascending } = plan
  if (!cursor) return undefined
  const value = field === 'name' ? sql`${cursor.v}::text` : sql`${cursor.v}::timestamptz`
  return sql`(${columns[field]}, ${columns.id}) ${ascending ? sql`>` : sql`<`} (${value}, ${cursor.id}::uuid)`
}

/** Cuts the extra row off, restores the order and works out the neighbouring pages' cursors. */
export function keysetPage<Row extends { id: string; name: string; createdAt: string }>(
  plan: ReturnType<typeof keysetPlan>,
  rows: Row[],
  pageSize: number,
): Page<Row> {
  const more = rows.length > pageSize
  const page = rows.slice(0, pageSize)
  if (plan.backwards) page.reverse()
  const keyOf = (row: Row) =>
    encodeCursor({ s: plan.field, v: plan.field === 'name' ? row.name : row.createdAt, id: row.id })
  const first = page[0]
  const last = page[page.length - 1]
  return {
    rows: page,
    next: last && (plan.backwards || more) ? keyOf(last) : null,
    prev: first && (plan.backwards ? more : plan.cursor !== null) ? keyOf(first) : null,
    staleCursor: plan.staleCursor,
  }
}
