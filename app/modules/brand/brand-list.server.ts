import { listNotices } from '#app/lib/list-page.server'
import { listBrands } from './brand.server'
import type { BrandListQuery } from './schemas'

/** The brands page's data (the page-props rule: the route returns this, its list types from it). */
export async function loadBrandList(query: BrandListQuery) {
  const page = await listBrands(query)
  return { query: { q: query.q, sort: query.sort }, page, notices: listNotices(page) }
}
