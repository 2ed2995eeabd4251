import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import {
  QUESTION_KINDS,
  QUESTIONNAIRE_STATUSES,
  type QuestionKind,
  type QuestionnaireStatus,
} from '#db/enums'
import type { Language } from '#app/modules/i18n/languages'
import { QN_SORTS, type QnSort } from '../schemas'

/**
 * The questionnaire pages' recurring words in the reader's language (the `questionnaires`
 * catalogue): the statuses, the kinds of question, the list's orders, and the refusals that name
 * schemes. The English catalogue equals the English constants of ../schemas.ts (the catalogue test).
 */

const table = <K extends string>(keys: readonly K[], word: (k: K) => string) =>
  Object.fromEntries(keys.map((k) => [k, word(k)])) as Record<K, string>

/** “A”, “B”, “C” and 247 more: the first few names of a longer list, and how many it leaves out. */
function someNamed(t: TFunction<'questionnaires'>, names: string[], total: number) {
  const quoted = names.map((name) => t('names.quoted', { name })).join(t('names.separator'))
  return total > names.length ? t('names.andMore', { names: quoted, count: total - names.length }) : quoted
}

export function qnWords(t: TFunction<'questionnaires'>) {
  return {
    statusLabels: table<QuestionnaireStatus>(QUESTIONNAIRE_STATUSES, (s) => t(`status.${s}`)),
    kindLabels: table<QuestionKind>(QUESTION_KINDS, (k) => t(`kind.${k}`)),
    sortLabels: table<QnSort>(QN_SORTS, (s) => t(`sort.${s}`)),
    archiveBlocked: (names: string[], total: number) =>
      t('refusals.archiveBlocked', { count: total, names: someNamed(t, names, total) }),
    revertBlocked: (names: string[], total: number) =>
      t('refusals.revertBlocked', { count: total, names: someNamed(t, names, total) }),
  }
}

export function useQnWords() {
  const { t } = useTranslation('questionnaires')
  return qnWords(t)
}

/** A language's name in the reader's language ("German", "Deutsch", "allemand"). */
export const languageName = (t: TFunction<'questionnaires'>, language: Language) => t(`languages.${language}`)

/**
 * “German lacks 12 texts, French lacks 3: raters reading them see the source wording there.”, in the
 * reader's language (translations.ts's incompleteLanguagesMessage says it in English).
 */
export function languageWarningOf(
  t: TFunction<'questionnaires'>,
  counts: ReadonlyArray<{ language: Language; missing: number }>,
) {
  const incomplete = counts.filter((c) => c.missing > 0)
  if (!incomplete.length) return null
  const parts = incomplete.map((c) =>
    t('languageWarning.lacks', { language: languageName(t, c.language), count: c.missing }),
  )
  return t('languageWarning.sentence', { parts: parts.join(t('names.separator')), count: incomplete.length })
}
