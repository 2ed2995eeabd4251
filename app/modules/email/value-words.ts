import type { FocusStance, Language } from '#db/enums'
import { formatDate } from '#app/lib/dates'
import { intlLocale } from '#app/modules/i18n/languages'
import { STANCE_LABELS } from '#app/modules/plan/words'
import { colleaguePrivacyNote } from '#app/modules/report/rater-groups'

/**
 * The words callers put into a message as values (`{{privacyNote}}`, `{{planNote}}`,
 * `{{focusAreas}}`), written in every language an e-mail can be in (ADR 053): the caller does not
 * know the message's language, the outbox picks the one it writes in. Like the templates' own
 * German, they are e-mail content kept in code (the outbox worker renders without the catalogues);
 * the English is the modules' own wording, unchanged.
 */
export type Worded = { en: string } & Partial<Record<Language, string>>

/** A value in `language`, else its English. */
export const wordIn = (worded: Worded, language: string): string => worded[language as Language] ?? worded.en

/** What a colleague is told about who sees their answers (colleaguePrivacyNote), in each language. */
export function privacyNoteWords(input: {
  relationship: string
  showManager: boolean
  employeeName: string
}): Worded {
  const name = input.employeeName
  if (input.relationship === 'manager' && input.showManager)
    return {
      en: colleaguePrivacyNote(input),
      de: `Als Führungskraft von ${name} werden Ihre Antworten ${name} als Sicht der Führungskraft gezeigt, getrennt von denen anderer Kolleginnen und Kollegen und auch dann, wenn Sie als einzige Führungskraft antworten – ${name} wird also wissen, dass sie von Ihnen stammen. Antworten Sie bitte offen und konstruktiv.`,
      fr: `En tant que responsable de ${name}, vos réponses lui sont présentées comme le point de vue du responsable, séparément de celles des autres collègues et même si vous êtes le seul responsable à répondre : ${name} saura donc qu’elles viennent de vous. Soyez franc et constructif.`,
    }
  return {
    en: colleaguePrivacyNote(input),
    de: 'Ihre Antworten werden mit denen anderer Kolleginnen und Kollegen zusammengefasst und ohne Ihren Namen gezeigt. Antworten Sie also bitte offen und konstruktiv.',
    fr: 'Vos réponses sont regroupées avec celles d’autres collègues et présentées sans votre nom : soyez donc franc et constructif.',
  }
}

/** The sentence a shared report's e-mail adds when the development plan is shared with it. */
export const PLAN_NOTE: Worded = {
  en: ' Their development plan is shared with it.',
  de: ' Auch den Entwicklungsplan können Sie lesen.',
  fr: ' Son plan de développement est partagé avec lui.',
}

/** A focus area's stance as the check-in e-mail lists it ("Communication: an area to develop"). */
const STANCE_WORDS: Record<FocusStance, Worded> = {
  strength: {
    en: STANCE_LABELS.strength.toLowerCase(),
    de: 'Stärke, die Sie nutzen',
    fr: 'force à exploiter',
  },
  develop: {
    en: STANCE_LABELS.develop.toLowerCase(),
    de: 'Bereich, den Sie entwickeln',
    fr: 'axe à développer',
  },
}

/** The check-in e-mail's list of focus areas, one line each, in each language. */
export function focusAreasWords(areas: Array<{ title: string; stance: FocusStance }>): Worded {
  const lines = (language: Language) =>
    areas.map((a) => `• ${a.title}: ${wordIn(STANCE_WORDS[a.stance], language)}`).join('\n')
  return { en: lines('en'), de: lines('de'), fr: lines('fr') }
}

/** The sample scheme's name in the editor's preview and the test message. */
const SAMPLE_SCHEME: Worded = {
  en: 'Leadership 360 (sample)',
  de: 'Leadership 360 (Beispiel)',
  fr: 'Leadership 360 (exemple)',
}

/**
 * The preview's and the test message's values that are words or dates, in `language`: every
 * placeholder reads as the language's own (sampleValues has the rest, and the English).
 */
export function sampleWordsIn(language: string): Record<string, string> {
  const locale = intlLocale(language)
  return {
    schemeName: wordIn(SAMPLE_SCHEME, language),
    dueDate: formatDate('2026-06-30T12:00:00Z', 'UTC', locale),
    targetDate: formatDate('2026-09-30T12:00:00Z', 'UTC', locale),
    focusAreas: wordIn(
      focusAreasWords([
        { title: 'Communication', stance: 'develop' },
        { title: 'Listening actively', stance: 'strength' },
      ]),
      language,
    ),
    planNote: wordIn(PLAN_NOTE, language),
    privacyNote: wordIn(
      privacyNoteWords({ relationship: 'peer', showManager: false, employeeName: 'Sam Example' }),
      language,
    ),
  }
}
