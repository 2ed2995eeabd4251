import { instantToZonedTime } from '#app/lib/dates'
import { listNotices } from '#app/lib/list-page.server'
import { getSchemeListOptions, listSchemes } from './scheme.server'
import type { SchemeListQuery } from './schemas'

const DAY = 24 * 60 * 60 * 1000

/**
 * The schemes page's data (the page-props rule: the route returns this, its components type their
 * props from it): one page of schemes, the filters' and the create form's choices, and its
 * suggested dates — from tomorrow 09:00 to four weeks later 17:00 (UTC until changed). `problems`
 * names the filters of the link that were not understood (parseSchemeListQuery).
 */
export async function loadSchemeList(
  query: SchemeListQuery,
  problems: string[] = [],
  now = Date.now(),
  /** The notice's words in the page's language (the route translates; English by default). */
  words = { unknownQuestionnaire: 'That questionnaire does not exist (any more).' },
) {
  const [page, { filterQuestionnaires, ...options }] = await Promise.all([
    listSchemes(query),
    getSchemeListOptions(query.questionnaire),
  ])
  const unknownQuestionnaire =
    query.questionnaire !== undefined && !filterQuestionnaires.some((q) => q.id === query.questionnaire)
  const tomorrow = new Date(now + DAY)
  return {
    query: {
      q: query.q,
      company: query.company ?? '',
      phase: query.phase ?? '',
      questionnaire: query.questionnaire ?? '',
      sort: query.sort,
    },
    page,
    options,
    filterQuestionnaires,
    defaults: {
      timeZone: 'UTC',
      opensAt: `${instantToZonedTime(tomorrow, 'UTC').slice(0, 10)}T09:00`,
      closesAt: `${instantToZonedTime(new Date(tomorrow.getTime() + 28 * DAY), 'UTC').slice(0, 10)}T17:00`,
    },
    notices: [...problems, ...listNotices(page, unknownQuestionnaire && words.unknownQuestionnaire)],
  }
}
