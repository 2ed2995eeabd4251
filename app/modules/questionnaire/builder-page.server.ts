import { publishBlockers } from './checks'
import { getQuestionnaire } from './questionnaire.server'
import { parseQnDetailQuery } from './schemas'
import type { PageData } from '#app/lib/page-data'

/** The colleague preview's subject: a made-up name in place of {{name}}. */
export const PREVIEW_NAME = 'Alex Example'

/**
 * Everything the questionnaire page shows (ADR 033: the builder's props are this function's
 * result): the questionnaire, what stops it being published, and the preview or confirmation the
 * address asks for. Null when there is no such questionnaire.
 */
export async function loadQuestionnairePage(qid: string, searchParams: URLSearchParams) {
  const questionnaire = await getQuestionnaire(qid)
  if (!questionnaire) return null
  const query = parseQnDetailQuery(searchParams)
  const blockers = publishBlockers(questionnaire.sections)
  const notices: string[] = []
  const deleting = query.deleteSection
    ? (questionnaire.sections.find((s) => s.id === query.deleteSection) ?? null)
    : null
  if (query.deleteSection && !deleting) notices.push('That section is not in this questionnaire (any more).')
  return {
    questionnaire,
    blockers,
    preview: query.preview ?? null,
    previewName: PREVIEW_NAME,
    confirm: query.confirm ?? null,
    deleting: deleting
      ? { id: deleting.id, title: deleting.title, questions: deleting.questions.length }
      : null,
    notices,
  }
}

/** What the builder page renders: its loader's data (ADR 033). */
export type BuilderData = PageData<typeof loadQuestionnairePage>
