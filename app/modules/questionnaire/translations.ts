import type { Language } from '#db/enums'
import type {
  QnTextsTranslation,
  QuestionOptions,
  QuestionTranslation,
  SectionTranslation,
  Translations,
} from '#db/schema/questionnaires'
import { languageInfo } from '#app/modules/i18n/languages'

/**
 * A questionnaire's texts in a language (ADR 051): each row's `translations` holds its texts per
 * language; a text absent or empty there is untranslated and reads as the source text. Pure, no
 * server imports: the builder's page, the answering pages and the reports all choose with these.
 */

/** Rows that carry translations of type T. */
type Translated<T> = { translations?: Translations<T> | null }

/** A translated text, or null when the language has none for it. */
function translated<T, K extends keyof T>(row: Translated<T>, language: Language, field: K): string | null {
  const value = row.translations?.[language]?.[field]
  return typeof value === 'string' && value.trim() !== '' ? value : null
}

/** The text in `language` when it is translated, else the source text. */
export function textIn<T, K extends keyof T>(
  row: Translated<T>,
  language: Language | null,
  field: K,
  source: string,
): string {
  return language ? (translated(row, language, field) ?? source) : source
}

/** The labels in `language`, each the source label where it is untranslated. */
export function labelsIn(
  row: Translated<QuestionTranslation>,
  language: Language | null,
  source: readonly string[],
): string[] {
  const mine = language ? row.translations?.[language]?.labels : undefined
  return source.map((label, i) => {
    const t = Array.isArray(mine) ? mine[i] : undefined
    return typeof t === 'string' && t.trim() !== '' ? t : label
  })
}

/**
 * The language a reader sees a scheme's questionnaire in: theirs when the scheme lists it and it is
 * not the source (null: the source texts as they are).
 */
export function displayLanguage(
  reader: Language,
  offered: readonly string[] | null | undefined,
  source: string,
): Language | null {
  if (reader === source) return null
  return offered?.includes(reader) ? reader : null
}

// ---------------------------------------------------------------------------------------------
// A whole questionnaire (the builder's shape) in a language.

export type LocalizableQuestion = {
  id: string
  text: string
  raterText: string
  options: QuestionOptions
  translations?: Translations<QuestionTranslation> | null
}
export type LocalizableSection<Q extends LocalizableQuestion = LocalizableQuestion> = {
  id: string
  title: string
  questions: Q[]
  translations?: Translations<SectionTranslation> | null
}
export type LocalizableQuestionnaire<S extends LocalizableSection = LocalizableSection> = {
  title: string
  intro: string
  sections: S[]
  translations?: Translations<QnTextsTranslation> | null
}

/** A question with its wordings and labels in `language` (the source where untranslated). */
export function localizeQuestion<Q extends LocalizableQuestion>(q: Q, language: Language | null): Q {
  if (!language) return q
  const labels = q.options?.labels
  return {
    ...q,
    text: textIn(q, language, 'text', q.text),
    raterText: textIn(q, language, 'raterText', q.raterText),
    options: Array.isArray(labels) ? { ...q.options, labels: labelsIn(q, language, labels) } : q.options,
  }
}

/** The questionnaire read in `language`, item by item falling back to the source text. */
export function localizeQuestionnaire<Q extends LocalizableQuestionnaire>(
  qn: Q,
  language: Language | null,
): Q {
  if (!language) return qn
  return {
    ...qn,
    title: textIn(qn, language, 'title', qn.title),
    intro: textIn(qn, language, 'intro', qn.intro),
    sections: qn.sections.map((s) => ({
      ...s,
      title: textIn(s, language, 'title', s.title),
      questions: s.questions.map((q) => localizeQuestion(q, language)),
    })),
  }
}

// ---------------------------------------------------------------------------------------------
// What is untranslated.

export type MissingItem =
  | { item: 'title' }
  | { item: 'intro' }
  | { item: 'section'; sectionId: string; source: string }
  | { item: 'text' | 'raterText'; questionId: string; source: string }
  | { item: 'label'; questionId: string; index: number; source: string }

/** Every source text `language` has no translation for, in the questionnaire's order. */
export function untranslatedItems(qn: LocalizableQuestionnaire, language: Language): MissingItem[] {
  const missing: MissingItem[] = []
  if (!translated(qn, language, 'title')) missing.push({ item: 'title' })
  if (qn.intro.trim() && !translated(qn, language, 'intro')) missing.push({ item: 'intro' })
  for (const s of qn.sections) {
    if (!translated(s, language, 'title')) missing.push({ item: 'section', sectionId: s.id, source: s.title })
    for (const q of s.questions) {
      if (!translated(q, language, 'text')) missing.push({ item: 'text', questionId: q.id, source: q.text })
      if (!translated(q, language, 'raterText'))
        missing.push({ item: 'raterText', questionId: q.id, source: q.raterText })
      const mine = q.translations?.[language]?.labels
      ;(q.options?.labels ?? []).forEach((label, index) => {
        const t = Array.isArray(mine) ? mine[index] : undefined
        if (!(typeof t === 'string' && t.trim()))
          missing.push({ item: 'label', questionId: q.id, index, source: label })
      })
    }
  }
  return missing
}

/** How many texts each language lacks (the source language lacks none and is left out). */
export function untranslatedCounts(
  qn: LocalizableQuestionnaire,
  languages: readonly Language[],
  source: string,
): Array<{ language: Language; missing: number }> {
  return languages
    .filter((l) => l !== source)
    .map((language) => ({ language, missing: untranslatedItems(qn, language).length }))
}

/** Whether a question has any text untranslated in `language` (the builder's filter). */
export function questionUntranslated(q: LocalizableQuestion, language: Language): boolean {
  const t = q.translations?.[language]
  if (!t?.text?.trim() || !t.raterText?.trim()) return true
  return (q.options?.labels ?? []).some((_l, i) => !t.labels?.[i]?.trim())
}

/** “German lacks 12 texts, French lacks 3”: the warning publishing and a scheme's page give. */
export function incompleteLanguagesMessage(counts: Array<{ language: Language; missing: number }>) {
  const incomplete = counts.filter((c) => c.missing > 0)
  if (!incomplete.length) return null
  const parts = incomplete.map(
    (c) => `${languageInfo(c.language).name} lacks ${c.missing} ${c.missing === 1 ? 'text' : 'texts'}`,
  )
  return `${parts.join(', ')}: raters reading ${incomplete.length === 1 ? 'it' : 'them'} see the source wording there.`
}

/**
 * The labels' translations after a change to the source labels (the builder's option changes keep
 * each translation beside its source label).
 */
export function moveLabelTranslations(
  translations: Translations<QuestionTranslation> | null | undefined,
  change:
    | { op: 'add' }
    | { op: 'rename'; index: number }
    | { op: 'move'; index: number; to: number }
    | { op: 'remove'; index: number },
  sourceCount: number,
): Translations<QuestionTranslation> {
  const out: Translations<QuestionTranslation> = {}
  for (const [language, t] of Object.entries(translations ?? {}) as Array<[Language, QuestionTranslation]>) {
    if (!t?.labels) {
      out[language] = t
      continue
    }
    const labels = Array.from({ length: sourceCount }, (_v, i) => t.labels?.[i] ?? '')
    if (change.op === 'add') labels.push('')
    else if (change.op === 'move')
      [labels[change.index], labels[change.to]] = [labels[change.to]!, labels[change.index]!]
    else if (change.op === 'remove') labels.splice(change.index, 1)
    out[language] = { ...t, labels }
  }
  return out
}
