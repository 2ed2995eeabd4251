import { asc, desc, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { keysetCondition, keysetPage, keysetPlan, type Page, type SortField } from '#app/lib/keyset.server'

/**
 * One keyset page of a list in one query: works out where the page starts and in which order it
 * reads (keysetPlan), hands the query its WHERE term, ORDER BY and LIMIT, then cuts and orders the
 * rows and finds the neighbouring pages' cursors (keysetPage). The list function writes only its
 * SELECT, its joins and its filters.
 */
/** What a list's query is handed: its keyset WHERE term, ORDER BY terms and LIMIT. */
export type KeysetRead = {
  /** The WHERE term that starts the page (undefined on a first page). */
  keyset: SQL | undefined
  /** The sort column then the id, both in the direction this page reads. */
  orderBy: SQL[]
  /** One row more than a page, to know whether there is a next one. */
  limit: number
  /** For a query written in SQL: the column it sorts by and the direction (ASC or DESC). */
  field: SortField
  direction: SQL
}

export async function keysetList<Row extends { id: string; name: string; createdAt: string }>(
  query: { sort: string; after?: string; before?: string },
  columns: { name: AnyPgColumn; created: AnyPgColumn; id: AnyPgColumn },
  pageSize: number,
  read: (page: KeysetRead) => PromiseLike<Row[]>,
): Promise<Page<Row>> {
  const plan = keysetPlan(query)
  const order = plan.ascending ? asc : desc
  const rows = await read({
    keyset: keysetCondition(plan, columns),
    orderBy: [order(columns[plan.field]), order(columns.id)],
    limit: pageSize + 1,
    field: plan.field,
    direction: plan.ascending ? sql`ASC` : sql`DESC`,
  })
  return keysetPage(plan, rows, pageSize)
}

// A list function's one import for its keyset page and its search.
export { escapeLike, timestampKey, type Page } from '#app/lib/keyset.server'
