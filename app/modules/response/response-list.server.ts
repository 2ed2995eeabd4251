import { listNotices } from '#app/lib/list-page.server'
import { listFilterOptions, listResponses, revealAllowed } from './response.server'
import type { ResponseListQuery } from './schemas'

/**
 * Answer management's data (the page-props rule: the route returns this, its components type their
 * props from it). Two statements whatever the data: the page and the filters' choices. `problems`
 * names the filters of the link that were not understood (parseResponseFilters).
 */
export async function loadResponseList(query: ResponseListQuery, problems: string[]) {
  const [page, options] = await Promise.all([listResponses(query), listFilterOptions(query)])
  return {
    query,
    page,
    ...options,
    notices: [...problems, ...listNotices(page)],
    identitiesAllowed: revealAllowed(),
  }
}
