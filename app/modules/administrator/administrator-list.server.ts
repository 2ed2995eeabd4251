import { listNotices } from '#app/lib/list-page.server'
import { listAdmins } from './administrator.server'
import type { AdminListQuery } from './schemas'

/**
 * The administrators page's data (the page-props rule: the route returns this, its list types from
 * it); `me` marks the signed-in administrator's row.
 */
export async function loadAdminList(query: AdminListQuery, me: string) {
  const page = await listAdmins(query)
  return { query: { q: query.q, sort: query.sort }, page, me, notices: listNotices(page) }
}
