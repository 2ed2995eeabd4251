import { asc, desc, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { keysetCondition, keysetPage, keysetPlan, type Page } from '#app/lib/keyset.server'

/**
 * One keyset page of a list in one query: works out where the page starts and in which order it
 * reads (keysetPlan), hands the query its WHERE term, ORDER BY and LIMIT, then cuts and orders the
 * rows and finds the neighbouring pages' cursors (keysetPage). The list function writes only its
 * SELECT, its joins and its filters.
 */
export async function keysetList<Row extends { id: string; name: string; createdAt: string }>(
  query: { sort: string; after?: string; before?: string },
  columns: { name: AnyPgColumn; created: AnyPgColumn; id: AnyPgColumn },
  pageSize: number,
  read: (page: { keyset: SQL | undefined; orderBy: SQL[]; limit: number }) => PromiseLike<Row[]>,
): Promise<Page<Row>> {
  const plan = keysetPlan(query)
  const order = plan.ascending ? asc : desc
  const rows = await read({
    keyset: keysetCondition(plan, columns),
    orderBy: [order(columns[plan.field]), order(columns.id)],
    limit: pageSize + 1,
  })
  return keysetPage(plan, rows, pageSize)
}

// A list function's one import for its keyset page and its search.
export { escapeLike, timestampKey, type Page } from '#app/lib/keyset.server'
