/**
 * The report's shape and the pure rules that build it from the rows SQL returns: the anonymity gate,
 * the anonymous colleague labels and the turning of aggregates into what the page shows. No database
 * and no Node imports, so the page's components and the property tests share it.
 */

import type { QuestionKind } from '#db/enums'
import type { BrandLook } from '#app/modules/brand/look'

export type { QuestionKind }

/** What the header query answers (report.server.ts), one row per report. */
export type HeaderRow = {
  response_id: string
  self_assignment_id: string
  subject_id: string
  scheme_id: string
  questionnaire_id: string
  subject_name: string
  scheme_name: string
  brand_name: string
  /** The brand's look (the page's header); optional so a header without them still shapes. */
  brand_logo_file_id?: string | null
  brand_primary_color?: string | null
  brand_accent_color?: string | null
  brand_callback_url?: string | null
  brand_contact_email?: string | null
  brand_profile_url?: string | null
  company_name: string
  questionnaire_title: string
  closes_at: Date | string
  time_zone?: string | null
  scheme_status: string
  self_submitted_at: Date | string | null
  min_raters: number
  invited: number
  submitted: number
}

/** One question with the self answer and, when the gate is open, the colleagues' aggregates. */
export type QuestionRow = {
  id: string
  position: number
  section: string
  kind: QuestionKind
  text: string
  category: string
  options: { labels?: string[]; min?: number; max?: number; allowNa?: boolean } | null
  self_value: number | null
  self_na: boolean | null
  self_choices: unknown
  self_text: string | null
  /** The columns below are null when the gate is closed (SQL sees no raters then). */
  avg: number | null
  answered: number | null
  na: number | null
  distribution: Record<string, number> | null
  option_counts: Record<string, number> | null
}

export type CategoryRow = {
  category: string
  self_avg: number | null
  colleagues_avg: number | null
}

/** One colleague's average in one category; `category` is null for a colleague with no scale answer. */
export type ColleagueCategoryRow = { assignment_id: string; category: string | null; avg: number | null }

export type CommentRow = { answer_id: string; question_id: string; text_value: string }

export type RawReport = {
  header: HeaderRow
  questions: QuestionRow[]
  categories: CategoryRow[]
  colleagueCategories: ColleagueCategoryRow[]
  comments: CommentRow[]
}

export type ReportHeader = {
  responseId: string
  selfAssignmentId: string
  subjectName: string
  schemeName: string
  brandName: string
  /** The programme's brand, for the page's header (app/modules/brand/look.ts). */
  brand: BrandLook
  companyName: string
  questionnaireTitle: string
  closesAt: string
  /** The scheme's time zone: the closing date is shown in it. */
  timeZone: string
  schemeClosed: boolean
  selfSubmittedAt: string | null
  minRaters: number
  /** Rater assignments that are not revoked. */
  invited: number
  /** Rater assignments submitted (revoked and self excluded). */
  colleaguesSubmitted: number
}

export type SelfAnswer = {
  value: number | null
  notApplicable: boolean
  choices: string[]
  text: string | null
}

export type SelfQuestion = {
  id: string
  position: number
  section: string
  category: string
  kind: QuestionKind
  text: string
  /** Scale labels from min to max, or the choice options. */
  labels: string[]
  min: number
  max: number
  self: SelfAnswer | null
}

export type ColleagueQuestionStats = {
  /** Scale questions: the mean of the colleagues' values, "not applicable" left out. */
  average: number | null
  /** Colleagues who gave an answer (not "not applicable"). */
  answered: number
  notApplicable: number
  /** Scale questions: how many colleagues chose each point, min to max. */
  distribution: { value: number; count: number }[]
  /** Choice questions: how many colleagues chose each option, in the question's order. */
  optionCounts: { label: string; count: number }[]
}

export type FullQuestion = SelfQuestion & { colleagues: ColleagueQuestionStats }

export type SelfCategory = { category: string; self: number | null }
export type FullCategory = SelfCategory & {
  colleagues: number | null
  /** One value per entry of `colleagueLabels`, same order. */
  byColleague: (number | null)[]
}

export type CommentGroup = { questionId: string; question: string; comments: string[] }

export type ScaleRange = { min: number; max: number }

export type ReportData =
  | { status: 'self-pending'; header: ReportHeader }
  | {
      status: 'gathering'
      header: ReportHeader
      needed: number
      scale: ScaleRange
      categories: SelfCategory[]
      questions: SelfQuestion[]
    }
  | {
      status: 'ready'
      header: ReportHeader
      scale: ScaleRange
      colleagueLabels: string[]
      categories: FullCategory[]
      questions: FullQuestion[]
      comments: CommentGroup[]
    }

export type Gate = { open: true; needed: 0 } | { open: false; needed: number }

/**
 * Colleague answers show only once `minRaters` colleagues have submitted, so no answer can be traced
 * to one person; below that, how many more are needed.
 */
export function anonymityGate(colleaguesSubmitted: number, minRaters: number): Gate {
  const threshold = Math.max(1, Math.floor(minRaters))
  const submitted = Math.max(0, Math.floor(colleaguesSubmitted))
  return submitted >= threshold ? { open: true, needed: 0 } : { open: false, needed: threshold - submitted }
}

/** "Colleague A", …, "Colleague Z", "Colleague AA", … (a scheme allows at most 8). */
export function colleagueLabel(index: number): string {
  let n = index
  let letters = ''
  do {
    letters = String.fromCharCode(65 + (n % 26)) + letters
    n = Math.floor(n / 26) - 1
  } while (n >= 0)
  return `Colleague ${letters}`
}

/**
 * Sorts by a key that says nothing about identity or time (the caller's keyed hash of each id), so
 * the order of labels and comments never follows invitation or submission order.
 */
export function anonymousOrder<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  keyOf: (id: string) => string,
) {
  return items
    .map((item) => ({ item, key: keyOf(idOf(item)) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ item }) => item)
}

const round2 = (value: number | string | null | undefined) =>
  value === null || value === undefined || Number.isNaN(Number(value))
    ? null
    : Math.round(Number(value) * 100) / 100

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

export function shapeHeader(row: HeaderRow): ReportHeader {
  return {
    responseId: row.response_id,
    selfAssignmentId: row.self_assignment_id,
    subjectName: row.subject_name,
    schemeName: row.scheme_name,
    brandName: row.brand_name,
    brand: {
      name: row.brand_name,
      logoFileId: row.brand_logo_file_id ?? null,
      primaryColor: row.brand_primary_color ?? '',
      accentColor: row.brand_accent_color ?? '',
      contact: {
        callbackUrl: row.brand_callback_url ?? null,
        email: row.brand_contact_email ?? null,
        profileUrl: row.brand_profile_url ?? null,
      },
    },
    companyName: row.company_name,
    questionnaireTitle: row.questionnaire_title,
    closesAt: iso(row.closes_at)!,
    timeZone: row.time_zone || 'UTC',
    schemeClosed: row.scheme_status === 'closed' || new Date(row.closes_at).getTime() <= Date.now(),
    selfSubmittedAt: iso(row.self_submitted_at),
    minRaters: Number(row.min_raters),
    invited: Number(row.invited),
    colleaguesSubmitted: Number(row.submitted),
  }
}

const DEFAULT_SCALE: ScaleRange = { min: 1, max: 5 }

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

function selfQuestion(row: QuestionRow): SelfQuestion {
  const options = row.options ?? {}
  const hasSelf = row.self_na !== null
  return {
    id: row.id,
    position: Number(row.position),
    section: row.section,
    category: row.category,
    kind: row.kind,
    text: row.text,
    labels: stringArray(options.labels),
    min: options.min ?? DEFAULT_SCALE.min,
    max: options.max ?? DEFAULT_SCALE.max,
    self: hasSelf
      ? {
          value: row.self_na ? null : row.self_value === null ? null : Number(row.self_value),
          notApplicable: Boolean(row.self_na),
          choices: row.self_na ? [] : stringArray(row.self_choices),
          text: row.self_na ? null : (row.self_text ?? null),
        }
      : null,
  }
}

function colleagueStats(row: QuestionRow, question: SelfQuestion): ColleagueQuestionStats {
  const distribution: { value: number; count: number }[] = []
  if (question.kind === 'scale') {
    const counts = row.distribution ?? {}
    const values = new Set<number>()
    for (let v = question.min; v <= question.max; v++) values.add(v)
    for (const key of Object.keys(counts)) values.add(Number(key))
    for (const value of [...values].sort((a, b) => a - b))
      distribution.push({ value, count: Number(counts[String(value)] ?? 0) })
  }
  const optionCounts: { label: string; count: number }[] = []
  if (question.kind === 'single' || question.kind === 'multi') {
    const counts = row.option_counts ?? {}
    for (const label of question.labels) optionCounts.push({ label, count: Number(counts[label] ?? 0) })
    // A choice no longer among the options (an edited questionnaire) still counts, listed last.
    for (const [label, count] of Object.entries(counts))
      if (!question.labels.includes(label)) optionCounts.push({ label, count: Number(count) })
  }
  return {
    average: question.kind === 'scale' ? round2(row.avg) : null,
    answered: Number(row.answered ?? 0),
    notApplicable: Number(row.na ?? 0),
    distribution,
    optionCounts,
  }
}

function scaleRange(questions: SelfQuestion[]): ScaleRange {
  const scales = questions.filter((q) => q.kind === 'scale')
  if (!scales.length) return DEFAULT_SCALE
  return { min: Math.min(...scales.map((q) => q.min)), max: Math.max(...scales.map((q) => q.max)) }
}

/**
 * Rows → the report. The gate is applied here as well as in SQL: below the threshold nothing a
 * colleague answered reaches the result, whatever the rows hold. `keyOf` orders colleagues and
 * comments (a keyed hash, see report.server.ts).
 */
export function shapeReport(raw: RawReport, keyOf: (id: string) => string): ReportData {
  const header = shapeHeader(raw.header)
  if (!header.selfSubmittedAt) return { status: 'self-pending', header }
  const questions = [...raw.questions].sort((a, b) => Number(a.position) - Number(b.position))
  const selfQuestions = questions.map(selfQuestion)
  const scale = scaleRange(selfQuestions)
  const gate = anonymityGate(header.colleaguesSubmitted, header.minRaters)
  if (!gate.open) {
    return {
      status: 'gathering',
      header,
      needed: gate.needed,
      scale,
      categories: raw.categories.map((c) => ({ category: c.category, self: round2(c.self_avg) })),
      questions: selfQuestions,
    }
  }

  const raterIds = anonymousOrder(
    [...new Set(raw.colleagueCategories.map((r) => r.assignment_id))],
    (id) => id,
    keyOf,
  )
  const labelIndex = new Map(raterIds.map((id, i) => [id, i]))
  const byCategory = new Map<string, (number | null)[]>()
  for (const row of raw.colleagueCategories) {
    if (row.category === null) continue
    const list = byCategory.get(row.category) ?? raterIds.map(() => null)
    list[labelIndex.get(row.assignment_id)!] = round2(row.avg)
    byCategory.set(row.category, list)
  }

  const questionText = new Map(selfQuestions.map((q) => [q.id, q]))
  const groups = new Map<string, string[]>()
  for (const row of anonymousOrder(raw.comments, (c) => c.answer_id, keyOf)) {
    const text = row.text_value.trim()
    if (!text || !questionText.has(row.question_id)) continue
    groups.set(row.question_id, [...(groups.get(row.question_id) ?? []), text])
  }

  return {
    status: 'ready',
    header,
    scale,
    colleagueLabels: raterIds.map((_, i) => colleagueLabel(i)),
    categories: raw.categories.map((c) => ({
      category: c.category,
      self: round2(c.self_avg),
      colleagues: round2(c.colleagues_avg),
      byColleague: byCategory.get(c.category) ?? raterIds.map(() => null),
    })),
    questions: questions.map((row, i) => ({
      ...selfQuestions[i]!,
      colleagues: colleagueStats(row, selfQuestions[i]!),
    })),
    comments: selfQuestions
      .filter((q) => groups.has(q.id))
      .map((q) => ({ questionId: q.id, question: q.text, comments: groups.get(q.id)! })),
  }
}

/** "4.0", or "—" when there is no value; averages read to one decimal. */
export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(1)
}

/** A self answer as words: "4 · Often", "Not applicable", "No answer". */
export function describeSelfAnswer(question: SelfQuestion): string {
  const answer = question.self
  if (!answer) return 'No answer'
  if (answer.notApplicable) return 'Not applicable'
  if (question.kind === 'scale') {
    if (answer.value === null) return 'No answer'
    const label = question.labels[answer.value - question.min]
    return label ? `${answer.value} · ${label}` : String(answer.value)
  }
  if (question.kind === 'single' || question.kind === 'multi')
    return answer.choices.length ? answer.choices.join(', ') : 'No answer'
  return answer.text?.trim() ? answer.text : 'No answer'
}
