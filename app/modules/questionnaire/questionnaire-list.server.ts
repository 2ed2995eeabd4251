import { listNotices } from '#app/lib/list-page.server'
import { IMPORT_MAX_BYTES } from './format.server'
import { getQuestionnaire, listQuestionnaires } from './questionnaire.server'
import type { QnListQuery } from './schemas'

/**
 * The questionnaires page's data (the page-props rule: the route returns this, its components type
 * their props from it): one page of lines with their versions, and the version whose archive
 * confirmation (`?archive=<id>`) is open, with the open schemes that stop it.
 */
export async function loadQuestionnaireList(query: QnListQuery) {
  const [page, archiving] = await Promise.all([
    listQuestionnaires(query),
    query.archive ? getQuestionnaire(query.archive) : null,
  ])
  const openUse = archiving?.schemes.filter((s) => s.phase === 'open') ?? []
  return {
    query: { q: query.q, status: query.status ?? '', sort: query.sort },
    page,
    archiving: archiving
      ? {
          id: archiving.id,
          title: archiving.title,
          version: archiving.version,
          status: archiving.status,
          openSchemes: openUse.map((s) => s.name),
        }
      : null,
    notices: listNotices(
      page,
      query.archive && !archiving && 'That questionnaire does not exist (any more).',
    ),
    importMaxBytes: IMPORT_MAX_BYTES,
  }
}
