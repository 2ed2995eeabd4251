import type { TFunction } from 'i18next'
import type { Language } from '#db/enums'
import type { BrandLook } from '#app/components/brand-look'
import { isUuid } from '#app/lib/ids'
import { formatScore } from '#app/modules/report/report'
import { loadReport } from '#app/modules/report/report.server'
import { loadPlanContext, type PlanContext } from './plan.server'

/**
 * The plan page's data (/user/development-plan/:rid): the employee's plan and share, and what they
 * may choose from — the competencies and scale questions of their released report, each with the
 * self score and the colleagues' average the report shows. Two statements (the report's and the
 * plan's), both bound to the employee.
 */
export type FocusOption = { value: string; label: string; group: string }

export type PlanPage = {
  context: PlanContext
  subjectName: string
  options: FocusOption[]
  brand: BrandLook
}

/** The options' words in English (plan:add.options equals them): what a loader without the reader's gets. */
export const PLAN_OPTION_WORDS = {
  scores: (self: string, colleagues: string) => `you ${self}, colleagues ${colleagues}`,
  competencies: 'Competencies',
  questions: (category: string) => `Questions: ${category}`,
}

/**
 * The loader's `t` (the `plan` namespace), the reader's language and its `Intl` locale: the options
 * in the reader's language, the questions in it where the scheme offers it (ADR 051).
 */
export type PlanWords = { t: TFunction<'plan'>; language: Language; locale: string }

function wordsIn(words?: PlanWords) {
  if (!words) return { ...PLAN_OPTION_WORDS, locale: undefined }
  const { t, locale } = words
  return {
    scores: (self: string, colleagues: string) => t('add.options.scores', { self, colleagues }),
    competencies: t('add.options.competencies'),
    questions: (category: string) => t('add.options.questions', { category }),
    locale,
  }
}

export async function loadPlanPage(
  rid: string,
  employeeId: string,
  words?: PlanWords,
): Promise<PlanPage | null> {
  const w = wordsIn(words)
  const scores = (self: number | null, colleagues: number | null) =>
    w.scores(formatScore(self, w.locale), formatScore(colleagues, w.locale))
  // Not an id: not found, before any query (the report's would refuse it with a database error).
  if (!isUuid(rid)) return null
  const [report, context] = await Promise.all([
    loadReport(rid, { id: employeeId, role: 'employee' }, words?.language),
    loadPlanContext(rid, employeeId),
  ])
  if (!report || !context) return null
  const options: FocusOption[] = []
  if (report.status === 'ready' && context.ready) {
    for (const c of report.categories)
      options.push({
        value: `category:${c.category}`,
        label: `${c.category} (${scores(c.self, c.colleagues)})`,
        group: w.competencies,
      })
    for (const q of report.questions)
      if (q.kind === 'scale')
        options.push({
          value: `question:${q.id}`,
          label: `${q.text} (${scores(q.self?.notApplicable ? null : (q.self?.value ?? null), q.colleagues.average)})`,
          group: w.questions(q.category),
        })
  }
  return { context, subjectName: report.header.subjectName, options, brand: report.header.brand }
}
