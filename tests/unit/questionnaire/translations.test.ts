import { describe, expect, test } from 'vitest'
import {
  displayLanguage,
  incompleteLanguagesMessage,
  labelsIn,
  localizeQuestionnaire,
  moveLabelTranslations,
  questionUntranslated,
  untranslatedItems,
} from '#app/modules/questionnaire/translations'

/** The rules of a questionnaire's languages (ADR 051), without a database. */
const question = {
  id: 'q1',
  text: 'I listen.',
  raterText: '{{name}} listens.',
  options: { labels: ['Never', 'Often'] },
  translations: { de: { text: 'Ich höre zu.', raterText: '  ', labels: ['Nie', ''] } },
}
const qn = {
  title: 'Feedback',
  intro: '',
  translations: { de: { title: 'Rückmeldung' } },
  sections: [{ id: 's1', title: 'Listening', translations: {}, questions: [question] }],
}

describe('reading a questionnaire in a language', () => {
  test('each item falls back to its source text where it is untranslated or blank', () => {
    const de = localizeQuestionnaire(qn, 'de')
    expect(de.title).toBe('Rückmeldung')
    expect(de.sections[0]!.title).toBe('Listening')
    expect(de.sections[0]!.questions[0]!.text).toBe('Ich höre zu.')
    expect(de.sections[0]!.questions[0]!.raterText).toBe('{{name}} listens.')
    expect(de.sections[0]!.questions[0]!.options.labels).toEqual(['Nie', 'Often'])
    expect(localizeQuestionnaire(qn, null)).toBe(qn)
    expect(localizeQuestionnaire(qn, 'fr').title).toBe('Feedback')
    expect(labelsIn(question, 'fr', ['Never', 'Often'])).toEqual(['Never', 'Often'])
  })

  test('a reader sees their language only when the scheme lists it and it is not the source', () => {
    expect(displayLanguage('de', ['en', 'de'], 'en')).toBe('de')
    expect(displayLanguage('de', ['en'], 'en')).toBeNull()
    expect(displayLanguage('en', ['en', 'de'], 'en')).toBeNull()
    expect(displayLanguage('fr', null, 'en')).toBeNull()
  })
})

describe('what is untranslated', () => {
  test('lists each missing text in order (no intro when the source has none) and words the warning', () => {
    expect(untranslatedItems(qn, 'de')).toEqual([
      { item: 'section', sectionId: 's1', source: 'Listening' },
      { item: 'raterText', questionId: 'q1', source: '{{name}} listens.' },
      { item: 'label', questionId: 'q1', index: 1, source: 'Often' },
    ])
    expect(untranslatedItems(qn, 'fr')).toHaveLength(6)
    expect(questionUntranslated(question, 'de')).toBe(true)
    expect(
      incompleteLanguagesMessage([
        { language: 'de', missing: 1 },
        { language: 'fr', missing: 0 },
      ]),
    ).toBe('German lacks 1 text: raters reading it see the source wording there.')
    expect(incompleteLanguagesMessage([{ language: 'de', missing: 0 }])).toBeNull()
  })
})

describe('label translations follow their source labels', () => {
  const t = { de: { text: 'X', labels: ['A', 'B', 'C'] }, fr: { text: 'Y' } }
  test('moved, removed, added; a language without labels is left as it is', () => {
    expect(moveLabelTranslations(t, { op: 'move', index: 0, to: 1 }, 3).de!.labels).toEqual(['B', 'A', 'C'])
    expect(moveLabelTranslations(t, { op: 'remove', index: 1 }, 3).de!.labels).toEqual(['A', 'C'])
    expect(moveLabelTranslations(t, { op: 'add' }, 3).de!.labels).toEqual(['A', 'B', 'C', ''])
    expect(moveLabelTranslations(t, { op: 'rename', index: 0 }, 3).de!.labels).toEqual(['A', 'B', 'C'])
    expect(moveLabelTranslations(t, { op: 'add' }, 3).fr).toEqual({ text: 'Y' })
    // Fewer translated labels than source labels: padded before the change.
    expect(moveLabelTranslations({ de: { labels: ['A'] } }, { op: 'add' }, 2).de!.labels).toEqual([
      'A',
      '',
      '',
    ])
  })
})
