/**
 * The answering form's rules, shared by the server (which decides) and the page (which shows the
 * same limits as attributes and labels). The parsing of a posted section lives in
 * answer-parse.server.ts: the page never parses (the server does, on every save), so Zod stays out
 * of the page's JavaScript.
 */

export const QUESTION_KINDS = ['scale', 'single', 'multi', 'text', 'textarea'] as const
export type QuestionKind = (typeof QUESTION_KINDS)[number]

export const TEXT_MAX = 500
export const TEXTAREA_MAX = 5000
/** The value a scale's "Not applicable" radio posts. */
export const NOT_APPLICABLE = 'na'

/** What the page needs of a question to render and validate it (wording already chosen). */
export type AnswerQuestion = {
  id: string
  kind: QuestionKind
  text: string
  required: boolean
  options: {
    labels?: string[]
    /**
     * The choices as the respondent reads them, in the labels' order (ADR 051: a translation); the
     * labels stay the values posted and stored, so answers do not depend on the language read in.
     */
    displayLabels?: string[]
    min?: number
    max?: number
    allowNa?: boolean
  }
}

/** One stored answer, as the answers table holds it. */
export type AnswerValue = {
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean
}

/** Each question's form field: its id behind a prefix, so other fields can never collide with it. */
export const ANSWER_FIELD_PREFIX = 'q-'
export const answerField = (questionId: string) => `${ANSWER_FIELD_PREFIX}${questionId}`

/** A scale's bounds; a scale without explicit bounds runs 1…(number of labels, else 5). */
export function scaleRange(options: AnswerQuestion['options']): { min: number; max: number } {
  const min = Number.isInteger(options.min) ? options.min! : 1
  const fallbackMax = options.labels?.length ? min + options.labels.length - 1 : 5
  const max = Number.isInteger(options.max) ? options.max! : fallbackMax
  return { min, max: Math.max(min, max) }
}

/** The label of a scale point, when the questionnaire gives one. */
export function scaleLabel(options: AnswerQuestion['options'], value: number): string | undefined {
  const { min } = scaleRange(options)
  return options.labels?.[value - min]
}

/** The colleague wording: the subject's name in place of {{name}} (React escapes it when rendered). */
export function fillName(raterText: string, name: string) {
  return raterText.replace(/\{\{\s*name\s*\}\}/g, name)
}

/**
 * `review` is the first press of "Submit answers": it saves the section and, when every required
 * question is answered, leads to the confirmation step, whose button posts `submit`.
 */
export const ANSWER_INTENTS = [
  'save',
  'next',
  'previous',
  'finish-later',
  'review',
  'submit',
  'autosave',
] as const
export type AnswerIntent = (typeof ANSWER_INTENTS)[number] | `goto-${number}`

/**
 * The raw values a form posted for a section's questions, to put back in the form after a refusal:
 * whole, however long (the request body's own cap bounds them), since a refused answer that came
 * back shortened would lose what was typed without a word.
 */
export function postedValues(questions: AnswerQuestion[], formData: FormData): Record<string, string[]> {
  return Object.fromEntries(
    questions.map((q) => [
      q.id,
      formData.getAll(answerField(q.id)).filter((v): v is string => typeof v === 'string'),
    ]),
  )
}

/** An answer counts for the required check when it says something (N/A included). */
export function isAnswered(answer: AnswerValue | null | undefined): boolean {
  if (!answer) return false
  return (
    answer.notApplicable ||
    answer.numericValue !== null ||
    Boolean(answer.textValue?.trim()) ||
    Boolean(answer.choices?.length)
  )
}

/** A stored answer as the form's raw values (the inverse of answerSchema). */
export function formValuesOf(answer: AnswerValue | null | undefined): string[] {
  if (!answer) return []
  if (answer.notApplicable) return [NOT_APPLICABLE]
  if (answer.numericValue !== null) return [String(answer.numericValue)]
  if (answer.choices?.length) return answer.choices
  if (answer.textValue) return [answer.textValue]
  return []
}

/** Rough time to answer: half a minute per scale or choice question, two minutes per written answer. */
export const SECONDS_PER_KIND: Record<QuestionKind, number> = {
  scale: 30,
  single: 30,
  multi: 30,
  text: 120,
  textarea: 120,
}

export function estimateMinutes(counts: Partial<Record<QuestionKind, number>>): number {
  const seconds = QUESTION_KINDS.reduce((sum, kind) => sum + (counts[kind] ?? 0) * SECONDS_PER_KIND[kind], 0)
  return seconds ? Math.max(1, Math.ceil(seconds / 60)) : 0
}

/**
 * Autosave's wait before retrying after a failure: from 2 s, doubling, up to 30 s (the session
 * sync's backoff idea, app/lib/session-sync.ts, at the pace of someone typing). An autosave is safe
 * to repeat, unlike most POSTs (app/lib/retry-policy.ts never retries them): it replaces the
 * section's answers with what the form holds now, so a repeat writes the same thing again.
 */
export const AUTOSAVE_DEBOUNCE_MS = 800
export const AUTOSAVE_RETRY_INITIAL_MS = 2_000
export const AUTOSAVE_RETRY_MAX_MS = 30_000

export function autosaveRetryDelay(failures: number): number {
  const n = Math.max(1, Math.floor(failures))
  return Math.min(AUTOSAVE_RETRY_MAX_MS, AUTOSAVE_RETRY_INITIAL_MS * 2 ** Math.min(n - 1, 20))
}
