/**
 * A questionnaire's sections and how far a respondent is through them: pure functions shared by the
 * answering page and by saving (whose autosave answers the page's new counts).
 */

export type Section<Q> = { number: number; title: string; questions: Q[] }

/**
 * Questions (already in position order) grouped by section, sections in the order their first
 * question comes; numbered from 1 as the page and its URLs count them.
 */
export function groupSections<Q extends { section: string }>(list: Q[]): Section<Q>[] {
  const byTitle = new Map<string, Section<Q>>()
  for (const q of list) {
    let section = byTitle.get(q.section)
    if (!section) {
      section = { number: byTitle.size + 1, title: q.section, questions: [] }
      byTitle.set(q.section, section)
    }
    section.questions.push(q)
  }
  return [...byTitle.values()]
}

export type SectionSummary = {
  number: number
  title: string
  questionCount: number
  answered: number
  /** Required questions in the section, and how many of them are still unanswered. */
  required: number
  missingRequired: number
}

export type ProgressTotals = {
  questions: number
  answered: number
  required: number
  requiredAnswered: number
  missingRequired: number
}

/** Answered and required counts, per section and overall, from which questions have a saved answer. */
export function progressOf(
  sections: Array<{ number: number; title: string; questions: Array<{ id: string; required: boolean }> }>,
  answered: (questionId: string) => boolean,
): { sections: SectionSummary[]; totals: ProgressTotals } {
  const summaries = sections.map((s) => {
    const required = s.questions.filter((q) => q.required)
    return {
      number: s.number,
      title: s.title,
      questionCount: s.questions.length,
      answered: s.questions.filter((q) => answered(q.id)).length,
      required: required.length,
      missingRequired: required.filter((q) => !answered(q.id)).length,
    }
  })
  const sum = (pick: (s: SectionSummary) => number) => summaries.reduce((n, s) => n + pick(s), 0)
  const required = sum((s) => s.required)
  const missingRequired = sum((s) => s.missingRequired)
  return {
    sections: summaries,
    totals: {
      questions: sum((s) => s.questionCount),
      answered: sum((s) => s.answered),
      required,
      requiredAnswered: required - missingRequired,
      missingRequired,
    },
  }
}
