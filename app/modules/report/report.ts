/**
 * The report's shape and the pure rules that build it from the rows SQL returns: the anonymity gate,
 * the colleague groups shown (rater-groups.ts, ADR 021) and the turning of aggregates into what the
 * page shows. Colleagues appear only as aggregates — all colleagues and relationship groups — never
 * one series per colleague. No database
 * and no Node imports, so the page's components and the property tests share it.
 */

import type { Language, QuestionKind } from '#db/enums'
import type {
  QnTextsTranslation,
  QuestionTranslation,
  SectionTranslation,
  Translations,
} from '#db/schema/questionnaires'
import type { BrandLook } from '#app/components/brand-look'
import { groupParts, RATER_GROUPS, shownParts, type GroupPart, type RaterGroup } from './rater-groups'
import { answersNeeded, enoughAnswers, threshold } from './threshold'

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
  /** The languages (ADR 051): the questionnaire's own, its title's translations, the scheme's list. */
  questionnaire_source_language?: Language | null
  questionnaire_translations?: Translations<QnTextsTranslation> | null
  scheme_languages?: string[] | null
  closes_at: Date | string
  time_zone?: string | null
  scheme_status: string
  self_submitted_at: Date | string | null
  min_raters: number
  /** The scheme shows the manager group below the threshold (ADR 021); optional for older rows. */
  show_manager_below_threshold?: boolean | null
  invited: number
  submitted: number
  /** When the scheme's reports show colleagues' results: 'on_close' (default) or 'by_admin'. */
  report_release?: string | null
  /** The latest release of this report (ADR 022); null/absent: not released, no colleague figure. */
  release_id?: string | null
  released_at?: Date | string | null
  /** How many colleagues' responses the release copied (the gate counts these). */
  released_raters?: number | null
  /** The release shows colleagues' results; false: it released the self-assessment alone (ADR 025). */
  release_colleagues_shown?: boolean | null
  /** The release may show rater groups (false when comparing releases would single some out). */
  release_groups_shown?: boolean | null
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
  /** Scale questions: per relationship group, how many gave a score and their sum (never who). */
  groups: Partial<Record<string, { n: number; sum: number }>> | null
  /** Its wordings, labels and section title in other languages (ADR 051); absent in stored copies. */
  translations?: Translations<QuestionTranslation> | null
  section_translations?: Translations<SectionTranslation> | null
}

/** Per category, the self-assessment's mean (colleagues' figures derive from the questions shown). */
export type CategoryRow = {
  category: string
  self_avg: number | null
}

/** How many counted colleagues each relationship group has. */
export type GroupSizeRow = { relationship: string; raters: number }

export type CommentRow = { answer_id: string; question_id: string; text_value: string }

/** A comment once put in its keyed order (anonymousOrder): the answer id that ordered it is gone. */
export type OrderedComment = { question_id: string; text_value: string }

export type RawReport = {
  header: HeaderRow
  questions: QuestionRow[]
  categories: CategoryRow[]
  groupSizes: GroupSizeRow[]
  comments: CommentRow[]
}

/** The rows of a report whose comments are already in their keyed order (a stored release's). */
export type OrderedRawReport = Omit<RawReport, 'comments'> & { comments: OrderedComment[] }

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
  /** The scheme shows the manager group on its own even below `minRaters` (its managers know). */
  showManager: boolean
  /** Rater assignments that are not revoked. */
  invited: number
  /**
   * Colleagues who answered: once released, those in the release (the figures' basis); before, the
   * rater assignments submitted so far (revoked and self excluded).
   */
  colleaguesSubmitted: number
  /** When the scheme's reports are released: when it closes, or by an administrator. */
  reportRelease: 'on_close' | 'by_admin'
  /** When the colleagues' results were released (the latest release); null before. */
  releasedAt: string | null
  /** The latest release shows colleagues' results; false when it released the self-assessment alone. */
  colleaguesShown: boolean
  /** The latest release may show rater groups besides all colleagues (ADR 025). */
  groupsShown: boolean
  /**
   * After a release of the self-assessment alone: the colleagues who have answered now (how many
   * more are needed). Null otherwise — a released report never moves with live answers, and before
   * a release `colleaguesSubmitted` is the live count.
   */
  answeredNow: number | null
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
  /**
   * Scale questions: the mean of the colleagues' values, "not applicable" left out; null when fewer
   * than `min_raters` colleagues gave a score.
   */
  average: number | null
  /** Colleagues who gave an answer (not "not applicable"). */
  answered: number
  notApplicable: number
  /**
   * Scale questions: how many colleagues chose each point, min to max; empty when fewer than
   * `min_raters` answered.
   */
  distribution: { value: number; count: number }[]
  /** Choice questions: how many colleagues chose each option, in order; empty below `min_raters`. */
  optionCounts: { label: string; count: number }[]
  /** One mean per entry of the report's `groups`, same order; null where that group is not shown. */
  groups: (number | null)[]
}

export type FullQuestion = SelfQuestion & { colleagues: ColleagueQuestionStats }

export type SelfCategory = { category: string; self: number | null }
export type FullCategory = SelfCategory & {
  /** The mean of the all-colleagues figures shown for the category's questions. */
  colleagues: number | null
  /** One value per entry of the report's `groups`: the mean of that group's figures shown. */
  groups: (number | null)[]
}

/** A colleague series besides the all-colleagues one: a relationship group or "Other colleagues". */
export type ReportGroup = { key: GroupPart['key']; label: string; raters: number }

/** One question in the insight lists. */
export type InsightItem = {
  questionId: string
  text: string
  category: string
  self: number | null
  /** The all-colleagues average as shown (one decimal): what the lists compare. */
  colleagues: number
  /** Colleagues' average minus the self score, as shown (one decimal); null without a self score. */
  difference: number | null
  /** How many colleagues gave each score, min to max (the question's spread). */
  distribution: { value: number; count: number }[]
}

/**
 * The first screen: what stands out, before the detail (the rules: `insightOf`, ADR 047). Each
 * question appears in at most one list.
 */
export type Insight = {
  /** Rated highest by colleagues: at most three, more only when tied; best first. */
  highest: InsightItem[]
  /** Rated lowest by colleagues: at most three, more only when tied; lowest first. */
  lowest: InsightItem[]
  /** Self at least one point above colleagues (not already listed above), biggest gap first. */
  blindSpots: InsightItem[]
  /** Colleagues at least one point above self (not already listed above), biggest gap first. */
  hiddenStrengths: InsightItem[]
  /** The lowest and highest colleague averages over all the questions (null without any). */
  range: { low: number; high: number } | null
  /**
   * How much more than the lowest average a question needs to be "rated highest" (and less than the
   * highest to be "rated lowest"): the spread that makes a difference real.
   */
  spread: number
}

export type CommentGroup = { questionId: string; question: string; comments: string[] }

export type ScaleRange = { min: number; max: number }

export type ReportData =
  | { status: 'self-pending'; header: ReportHeader }
  | {
      /** Not released yet: the employee's own answers and progress counts, no colleague figure. */
      status: 'awaiting-release'
      header: ReportHeader
      scale: ScaleRange
      categories: SelfCategory[]
      questions: SelfQuestion[]
    }
  | {
      /** Released, but with fewer than `min_raters` colleagues behind it. */
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
      /** The colleague groups shown (ADR 021), in series order after self and all colleagues. */
      groups: ReportGroup[]
      insight: Insight
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
  const needed = answersNeeded(colleaguesSubmitted, minRaters)
  return needed === 0 ? { open: true, needed: 0 } : { open: false, needed }
}

/**
 * Sorts by a key that says nothing about identity or time (the caller's keyed hash of each id), so
 * the order of comments never follows invitation or submission order.
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
    showManager: row.show_manager_below_threshold === true,
    invited: Number(row.invited),
    colleaguesSubmitted: row.release_id ? Number(row.released_raters ?? 0) : Number(row.submitted),
    reportRelease: row.report_release === 'by_admin' ? 'by_admin' : 'on_close',
    releasedAt: row.release_id ? iso(row.released_at ?? null) : null,
    colleaguesShown: Boolean(row.release_id) && row.release_colleagues_shown !== false,
    groupsShown: row.release_groups_shown !== false,
    answeredNow: row.release_id && row.release_colleagues_shown === false ? Number(row.submitted) : null,
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

/** The colleagues' figures for one question, each shown only when enough answers stand behind it. */
function colleagueStats(
  row: QuestionRow,
  question: SelfQuestion,
  parts: GroupPart[],
  minRaters: number,
): ColleagueQuestionStats {
  const answered = Number(row.answered ?? 0)
  const enough = enoughAnswers(answered, minRaters)
  const distribution: { value: number; count: number }[] = []
  if (question.kind === 'scale' && enough) {
    const counts = row.distribution ?? {}
    const values = new Set<number>()
    for (let v = question.min; v <= question.max; v++) values.add(v)
    for (const key of Object.keys(counts)) values.add(Number(key))
    for (const value of [...values].sort((a, b) => a - b))
      distribution.push({ value, count: Number(counts[String(value)] ?? 0) })
  }
  const optionCounts: { label: string; count: number }[] = []
  if ((question.kind === 'single' || question.kind === 'multi') && enough) {
    const counts = row.option_counts ?? {}
    for (const label of question.labels) optionCounts.push({ label, count: Number(counts[label] ?? 0) })
    // A choice no longer among the options (an edited questionnaire) still counts, listed last.
    for (const [label, count] of Object.entries(counts))
      if (!question.labels.includes(label)) optionCounts.push({ label, count: Number(count) })
  }
  // Per part: the answers and the sum of its groups' scores; the test of what shows uses them all.
  const byGroup = row.groups ?? {}
  const of = (g: RaterGroup) => byGroup[g] ?? { n: 0, sum: 0 }
  const partSums = parts.map((part) =>
    part.members.reduce((acc, g) => ({ n: acc.n + Number(of(g).n), sum: acc.sum + Number(of(g).sum) }), {
      n: 0,
      sum: 0,
    }),
  )
  const all = RATER_GROUPS.reduce((acc, g) => acc + Number(of(g).n), 0)
  const scale = question.kind === 'scale'
  // A manager part below the threshold exists only by the scheme's option (groupParts): it is exempt.
  const exempt = parts.map((p) => p.key === 'manager' && p.raters < threshold(minRaters))
  const shown = scale
    ? shownParts(
        partSums.map((p) => p.n),
        all,
        minRaters,
        exempt,
      )
    : parts.map(() => false)
  const average = scale && enough && row.avg !== null ? Number(row.avg) : null
  const groups = partSums.map((p, i) => (shown[i] && p.n > 0 ? p.sum / p.n : null))
  return {
    average: round2(average),
    answered,
    notApplicable: Number(row.na ?? 0),
    distribution,
    optionCounts,
    groups: groups.map(round2),
  }
}

const mean = (values: (number | null)[]) => {
  const present = values.filter((v): v is number => v !== null)
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null
}

/** How much a colleague figure and the self score must differ for a blind spot or hidden strength. */
export const INSIGHT_GAP = 1

/**
 * The real spread (as a share of the scale's range): a question is "rated highest" only when its
 * colleague average is more than this above the lowest average, and "rated lowest" only when more
 * than this below the highest: 0.5 on a 1–5 scale.
 */
export const INSIGHT_SPREAD_SHARE = 1 / 8

/** At most this many questions per highest/lowest list, unless the last place is tied. */
export const INSIGHT_LIST_SIZE = 3

/** A figure as the report shows it: to one decimal (`formatScore`). */
const shown = (value: number) => Math.round(value * 10) / 10

/**
 * The best-first (or worst-first) questions, whole ties at a time: tiers of equal shown score are
 * taken while fewer than `INSIGHT_LIST_SIZE` questions are in, so a tie is never cut in two.
 */
function takeTiers(sorted: InsightItem[]): InsightItem[] {
  const taken: InsightItem[] = []
  for (let i = 0; i < sorted.length && taken.length < INSIGHT_LIST_SIZE;) {
    const score = sorted[i]!.colleagues
    while (i < sorted.length && sorted[i]!.colleagues === score) taken.push(sorted[i++]!)
  }
  return taken
}

/**
 * What stands out (ADR 047), from the scale questions with an all-colleagues average shown, compared
 * as the page shows them (one decimal):
 * 1. Rated highest: of the questions in the upper half of the averages' range and more than `spread`
 *    above the lowest average, the best, three at most unless tied for the last place (ties are
 *    listed together, never cut).
 * 2. Rated lowest: of those in the lower half and more than `spread` below the highest average, the
 *    lowest, likewise.
 *    With no real spread between the averages both lists stay empty rather than calling a 3.0
 *    "highest".
 * 3. Blind spots: of the rest, self at least `INSIGHT_GAP` above colleagues, biggest gap first.
 * 4. Hidden strengths: of the rest, colleagues at least `INSIGHT_GAP` above self, biggest gap first.
 * A question is in one list at most; every item carries its difference so the words can say it.
 */
export function insightOf(questions: readonly FullQuestion[]): Insight {
  const scales = questions.filter((q) => q.kind === 'scale' && q.colleagues.average !== null)
  const items: InsightItem[] = scales.map((q) => {
    const colleagues = shown(q.colleagues.average!)
    const self = q.self && !q.self.notApplicable ? q.self.value : null
    return {
      questionId: q.id,
      text: q.text,
      category: q.category,
      self,
      colleagues,
      difference: self === null ? null : shown(colleagues - self),
      distribution: q.colleagues.distribution,
    }
  })
  const span = scales.length ? Math.max(...scales.map((q) => q.max - q.min)) : 4
  const spread = Math.round(span * INSIGHT_SPREAD_SHARE * 100) / 100
  if (!items.length)
    return { highest: [], lowest: [], blindSpots: [], hiddenStrengths: [], range: null, spread }
  const scores = items.map((item) => item.colleagues)
  const low = Math.min(...scores)
  const high = Math.max(...scores)
  // Stable orders: equal scores keep the questionnaire's order. The 1e-9 absorbs float noise in
  // one-decimal figures (3.5 − 0.5 is exactly 3.0 to the reader).
  const middle = (low + high) / 2
  const best = items.filter((item) => item.colleagues > Math.max(middle, low + spread) + 1e-9)
  const highest = takeTiers(best.toSorted((a, b) => b.colleagues - a.colleagues))
  const worst = items.filter((item) => item.colleagues < Math.min(middle, high - spread) - 1e-9)
  const lowest = takeTiers(worst.toSorted((a, b) => a.colleagues - b.colleagues))
  const listed = new Set([...highest, ...lowest])
  const rest = items.filter((item) => !listed.has(item) && item.difference !== null)
  return {
    highest,
    lowest,
    blindSpots: rest
      .filter((item) => -item.difference! >= INSIGHT_GAP)
      .toSorted((a, b) => a.difference! - b.difference!),
    hiddenStrengths: rest
      .filter((item) => item.difference! >= INSIGHT_GAP)
      .toSorted((a, b) => b.difference! - a.difference!),
    range: { low, high },
    spread,
  }
}

/**
 * A difference in words, so its sign needs no legend: "Colleagues rated you 0.8 higher than you
 * rated yourself." `who` is "you" on the employee's own report, else the subject's name.
 */
export function differenceWords(difference: number | null, who: 'you' | { name: string }): string {
  const you = who === 'you'
  if (difference === null) return you ? 'You gave no score of your own.' : 'No self score to compare.'
  const amount = Math.abs(difference).toFixed(1)
  if (you) {
    if (difference === 0) return 'Colleagues gave the same score as you gave yourself.'
    return `Colleagues rated you ${amount} ${difference > 0 ? 'higher' : 'lower'} than you rated yourself.`
  }
  if (difference === 0) return `Colleagues gave the same score as ${who.name} gave themself.`
  return `Colleagues rated ${who.name} ${amount} ${difference > 0 ? 'higher' : 'lower'} than ${who.name} rated themself.`
}

/** A difference in a table cell: "0.8 higher", "0.8 lower", "same", "—". */
export function differenceCell(difference: number | null): string {
  if (difference === null) return '—'
  if (difference === 0) return 'same'
  return `${Math.abs(difference).toFixed(1)} ${difference > 0 ? 'higher' : 'lower'}`
}

function scaleRange(questions: SelfQuestion[]): ScaleRange {
  const scales = questions.filter((q) => q.kind === 'scale')
  if (!scales.length) return DEFAULT_SCALE
  return { min: Math.min(...scales.map((q) => q.min)), max: Math.max(...scales.map((q) => q.max)) }
}

/**
 * Rows → the report. The gate is applied here as well as in SQL: below the threshold nothing a
 * colleague answered reaches the result, whatever the rows hold. `keyOf` orders the comments (a
 * keyed hash, see report.server.ts).
 */
export function shapeReport(raw: RawReport, keyOf: (id: string) => string): ReportData {
  const comments = anonymousOrder(raw.comments, (c) => c.answer_id, keyOf).map(
    ({ question_id, text_value }) => ({ question_id, text_value }),
  )
  return shapeOrderedReport({ ...raw, comments })
}

/**
 * The per-category means of the self-assessment's scale answers ("not applicable" and unanswered left
 * out), in the order the categories first appear: what the report's categories start from.
 */
export function selfCategoryRows(questions: readonly QuestionRow[]): CategoryRow[] {
  const sums = new Map<string, { total: number; n: number }>()
  for (const q of [...questions].sort((a, b) => Number(a.position) - Number(b.position))) {
    if (q.kind !== 'scale') continue
    const sum = sums.get(q.category) ?? { total: 0, n: 0 }
    sums.set(q.category, sum)
    if (q.self_na === false && q.self_value !== null) {
      sum.total += Number(q.self_value)
      sum.n += 1
    }
  }
  return [...sums].map(([category, { total, n }]) => ({ category, self_avg: n ? total / n : null }))
}

/** shapeReport for rows whose comments are already in their keyed order (a release's stored figures). */
export function shapeOrderedReport(raw: OrderedRawReport): ReportData {
  const header = shapeHeader(raw.header)
  if (!header.selfSubmittedAt) return { status: 'self-pending', header }
  const questions = [...raw.questions].sort((a, b) => Number(a.position) - Number(b.position))
  const selfQuestions = questions.map(selfQuestion)
  const scale = scaleRange(selfQuestions)
  const selfCategories = () => raw.categories.map((c) => ({ category: c.category, self: round2(c.self_avg) }))
  // Before a release nothing a colleague answered reaches the result, whatever the rows hold.
  if (!header.releasedAt)
    return {
      status: 'awaiting-release',
      header,
      scale,
      categories: selfCategories(),
      questions: selfQuestions,
    }
  const gate = anonymityGate(header.colleaguesSubmitted, header.minRaters)
  // A release of the self-assessment alone shows no colleague figure, whatever its count.
  if (!gate.open || !header.colleaguesShown) {
    return {
      status: 'gathering',
      header,
      needed: gate.needed,
      scale,
      categories: selfCategories(),
      questions: selfQuestions,
    }
  }

  const sizes: Partial<Record<RaterGroup, number>> = {}
  for (const row of raw.groupSizes)
    if ((RATER_GROUPS as readonly string[]).includes(row.relationship))
      sizes[row.relationship as RaterGroup] = Number(row.raters)
  const parts = header.groupsShown
    ? groupParts(sizes, header.minRaters, { showManager: header.showManager })
    : []
  const shaped = questions.map((row, i) => colleagueStats(row, selfQuestions[i]!, parts, header.minRaters))
  const fullQuestions: FullQuestion[] = selfQuestions.map((q, i) => ({ ...q, colleagues: shaped[i]! }))

  // A category's colleague figures are means of the question figures shown (as shown, to two
  // decimals), so a category never reveals what a hidden question figure would.
  const categoryOf = (category: string) =>
    shaped.filter((_, i) => selfQuestions[i]!.category === category && selfQuestions[i]!.kind === 'scale')

  const questionText = new Map(selfQuestions.map((q) => [q.id, q]))
  const commentsOf = new Map<string, string[]>()
  for (const row of raw.comments) {
    const text = row.text_value.trim()
    if (!text || !questionText.has(row.question_id)) continue
    commentsOf.set(row.question_id, [...(commentsOf.get(row.question_id) ?? []), text])
  }

  return {
    status: 'ready',
    header,
    scale,
    groups: parts.map((p) => ({ key: p.key, label: p.label, raters: p.raters })),
    insight: insightOf(fullQuestions),
    categories: raw.categories.map((c) => {
      const figures = categoryOf(c.category)
      return {
        category: c.category,
        self: round2(c.self_avg),
        colleagues: round2(mean(figures.map((f) => f.average))),
        groups: parts.map((_, k) => round2(mean(figures.map((f) => f.groups[k] ?? null)))),
      }
    }),
    questions: fullQuestions,
    comments: selfQuestions
      .filter((q) => commentsOf.has(q.id))
      .map((q) => ({ questionId: q.id, question: q.text, comments: commentsOf.get(q.id)! })),
  }
}

/** "4.0", or "—" when there is no value; averages read to one decimal. */
export function formatScore(value: number | null | undefined, locale?: string): string {
  if (value === null || value === undefined) return '—'
  return decimalIn(value.toFixed(1), locale)
}

/**
 * A number `toFixed` wrote ("4.0", "-0.8"), with the decimal separator of `locale` ("4,0" in
 * German): the rounding stays `toFixed`'s, only the separator follows the reader (ADR 050).
 */
export function decimalIn(fixed: string, locale?: string): string {
  if (!locale) return fixed
  return fixed.replace('.', decimalSeparator(locale))
}

const separators = new Map<string, string>()
function decimalSeparator(locale: string) {
  let sep = separators.get(locale)
  if (sep === undefined) {
    sep = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.'
    separators.set(locale, sep)
  }
  return sep
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
