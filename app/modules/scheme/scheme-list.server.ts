import { instantToZonedTime } from '#app/lib/dates'
import { listNotices } from '#app/lib/list-page.server'
import { getSchemeFormOptions, listSchemes } from './scheme.server'
import type { SchemeListQuery } from './schemas'

const DAY = 24 * 60 * 60 * 1000

/**
 * The schemes page's data (the page-props rule: the route returns this, its components type their
 * props from it): one page of schemes, the create form's choices, and its suggested dates — from
 * tomorrow 09:00 to four weeks later 17:00 (UTC until changed).
 */
export async function loadSchemeList(query: SchemeListQuery, now = Date.now()) {
  const [page, options] = await Promise.all([listSchemes(query), getSchemeFormOptions()])
  const tomorrow = new Date(now + DAY)
  return {
    query: { q: query.q, company: query.company ?? '', phase: query.phase ?? '', sort: query.sort },
    page,
    options,
    defaults: {
      timeZone: 'UTC',
      opensAt: `${instantToZonedTime(tomorrow, 'UTC').slice(0, 10)}T09:00`,
      closesAt: `${instantToZonedTime(new Date(tomorrow.getTime() + 28 * DAY), 'UTC').slice(0, 10)}T17:00`,
    },
    notices: listNotices(page),
  }
}
