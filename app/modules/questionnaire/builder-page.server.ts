import { publishProblems } from './checks'
import { getQuestionnaire } from './questionnaire.server'
import { parseQnDetailQuery } from './schemas'
import { targetLanguages } from './questionnaire.server'
import { localizeQuestionnaire, untranslatedCounts, untranslatedItems } from './translations'
import { LANGUAGE_CODES } from '#db/enums'
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
  const blockers = publishProblems(questionnaire.sections)
  // The notices' keys: the page words them (`questionnaires:notices.*`).
  const notices: Array<'sectionGone' | 'ownLanguage'> = []
  const deleting = query.deleteSection
    ? (questionnaire.sections.find((s) => s.id === query.deleteSection) ?? null)
    : null
  if (query.deleteSection && !deleting) notices.push('sectionGone')
  // Languages (ADR 051): how much each lacks, and the translation view of the one asked for.
  const others = LANGUAGE_CODES.filter((l) => l !== questionnaire.sourceLanguage)
  const languageCounts = untranslatedCounts(questionnaire, others, questionnaire.sourceLanguage)
  const targets = targetLanguages(questionnaire, questionnaire.schemeLanguages)
  // The languages left incomplete, which publishing warns about (worded by the page).
  const incompleteLanguages = languageCounts.filter((c) => targets.includes(c.language) && c.missing > 0)
  const translating =
    query.language && query.language !== questionnaire.sourceLanguage
      ? {
          language: query.language,
          onlyUntranslated: query.untranslated === '1',
          missing: untranslatedItems(questionnaire, query.language).length,
        }
      : null
  if (query.language && !translating) notices.push('ownLanguage')
  // The preview in a language (ADR 051): the texts as its readers will see them, source beneath.
  const previewLanguage = query.preview && translating ? translating.language : null
  return {
    previewLanguage,
    previewed: previewLanguage ? localizeQuestionnaire(questionnaire, previewLanguage) : null,
    languageCounts,
    incompleteLanguages,
    translating,
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
