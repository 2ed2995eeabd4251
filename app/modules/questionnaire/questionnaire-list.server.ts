import { listNotices } from '#app/lib/list-page.server'
import { IMPORT_MAX_BYTES } from './format.server'
import { getQuestionnaire, listQuestionnaires } from './questionnaire.server'
import type { QnListQuery } from './schemas'

/**
 * The questionnaires page's data (the page-props rule: the route returns this, its components type
 * their props from it): one page of lines with their versions, and the version whose archive
 * confirmation (`?archive=<id>`) is open, with the open schemes that stop it (the first few named,
 * all counted). Each version says how many schemes use it, with a link to the scheme list filtered
 * to it: the page does not grow with the schemes.
 */
export async function loadQuestionnaireList(query: QnListQuery) {
  const [page, archiving] = await Promise.all([
    listQuestionnaires(query),
    query.archive ? getQuestionnaire(query.archive) : null,
  ])
  return {
    query: { q: query.q, status: query.status ?? '', sort: query.sort },
    page,
    archiving: archiving
      ? {
          id: archiving.id,
          title: archiving.title,
          version: archiving.version,
          status: archiving.status,
          openSchemes: archiving.use.openNames,
          openCount: archiving.use.open,
        }
      : null,
    notices: listNotices(
      page,
      query.archive && !archiving && 'That questionnaire does not exist (any more).',
    ),
    importMaxBytes: IMPORT_MAX_BYTES,
  }
}
