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

export function publishBlockers(sections: CheckedSection[]): string[] {
  const problems: string[] = []
  if (!sections.length) problems.push('Add at least one section, with questions in it.')
  let scales = 0
  sections.forEach((section, s) => {
    const where = `Section ${s + 1} (“${section.title}”)`
    if (!section.questions.length) problems.push(`${where} has no questions: add one or delete the section.`)
    section.questions.forEach((q, n) => {
      const which = `${where}, question ${n + 1} (“${short(q.text)}”)`
      const labels = q.options.labels?.length ?? 0
      if (q.kind === 'scale') {
        scales++
        const { min, max } = scaleRange(q.options)
        if (labels < 2) problems.push(`${which}: a rating scale needs at least two labels.`)
        else if (labels > max - min + 1)
          problems.push(`${which}: the scale has ${labels} labels for ${max - min + 1} points.`)
      }
      if ((q.kind === 'single' || q.kind === 'multi') && labels < 2)
        problems.push(`${which}: a choice question needs at least two choices.`)
    })
  })
  if (sections.length && !scales)
    problems.push('Add at least one rating-scale question: the report’s charts are drawn from them.')
  return problems
}
