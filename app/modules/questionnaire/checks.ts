import type { QuestionKind } from '#db/enums'
import { scaleRange } from '#app/modules/assignment/answer-schemas'

/**
 * What blocks publishing a questionnaire (DESIGN.md §7): the same list on the builder page, before
 * anyone clicks "Publish", and in the publish action, which runs it again inside its transaction.
 * Plain data in, sentences out: no server imports, so the page can show them as they are.
 */

export type CheckedQuestion = {
  kind: QuestionKind
  text: string
  options: { labels?: string[]; min?: number; max?: number }
}
export type CheckedSection = { title: string; questions: CheckedQuestion[] }

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text)

/** Where a problem is: the section's number and title, and the question's (shortened) when it is one. */
type Where = { section: number; title: string }
type WhereQuestion = Where & { question: number; text: string }

/** One thing that blocks publishing, as data: the builder words it in the reader's language. */
export type PublishProblem =
  | { key: 'noSections' }
  | ({ key: 'emptySection' } & Where)
  | ({ key: 'fewScaleLabels' } & WhereQuestion)
  | ({ key: 'scaleLabelsOver'; labels: number; points: number } & WhereQuestion)
  | ({ key: 'fewChoices' } & WhereQuestion)
  | { key: 'noScale' }

export function publishProblems(sections: CheckedSection[]): PublishProblem[] {
  const problems: PublishProblem[] = []
  if (!sections.length) problems.push({ key: 'noSections' })
  let scales = 0
  sections.forEach((section, s) => {
    const where = { section: s + 1, title: section.title }
    if (!section.questions.length) problems.push({ key: 'emptySection', ...where })
    section.questions.forEach((q, n) => {
      const which = { ...where, question: n + 1, text: short(q.text) }
      const labels = q.options.labels?.length ?? 0
      if (q.kind === 'scale') {
        scales++
        const { min, max } = scaleRange(q.options)
        if (labels < 2) problems.push({ key: 'fewScaleLabels', ...which })
        else if (labels > max - min + 1)
          problems.push({ key: 'scaleLabelsOver', ...which, labels, points: max - min + 1 })
      }
      if ((q.kind === 'single' || q.kind === 'multi') && labels < 2)
        problems.push({ key: 'fewChoices', ...which })
    })
  })
  if (sections.length && !scales) problems.push({ key: 'noScale' })
  return problems
}

/** A problem in English: the publish action's refusal (the catalogue's `blockers.*` equal these). */
export function blockerSentence(p: PublishProblem): string {
  if (p.key === 'noSections') return 'Add at least one section, with questions in it.'
  if (p.key === 'noScale')
    return 'Add at least one rating-scale question: the report’s charts are drawn from them.'
  const where = `Section ${p.section} (“${p.title}”)`
  if (p.key === 'emptySection') return `${where} has no questions: add one or delete the section.`
  const which = `${where}, question ${p.question} (“${p.text}”)`
  if (p.key === 'fewScaleLabels') return `${which}: a rating scale needs at least two labels.`
  if (p.key === 'scaleLabelsOver') return `${which}: the scale has ${p.labels} labels for ${p.points} points.`
  return `${which}: a choice question needs at least two choices.`
}

/** A problem in the reader's language, through the `questionnaires` catalogue's `blockers.*`. */
export function blockerText(
  t: (key: `blockers.${PublishProblem['key']}`, values: Record<string, unknown>) => string,
  { key, ...values }: PublishProblem,
) {
  return t(`blockers.${key}`, values)
}

/** What blocks publishing, in English (the publish action's refusal). */
export function publishBlockers(sections: CheckedSection[]): string[] {
  return publishProblems(sections).map(blockerSentence)
}
