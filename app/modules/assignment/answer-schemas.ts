import { z } from 'zod'

/**
 * The answering form's rules, shared by the server (which decides) and the page (which shows the
 * same limits as attributes and labels). A questionnaire's questions are data, so the form's schema
 * is built per question from its kind and options rather than written out once.
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
  options: { labels?: string[]; min?: number; max?: number; allowNa?: boolean }
}

/** One stored answer, as the answers table holds it. */
export type AnswerValue = {
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean
}

/** Each question's form field: its id behind a prefix, so other fields can never collide with it. */
export const answerField = (questionId: string) => `q-${questionId}`

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

export const ANSWER_INTENTS = ['save', 'next', 'previous', 'finish-later', 'submit', 'autosave'] as const
export type AnswerIntent = (typeof ANSWER_INTENTS)[number] | `goto-${number}`

/** `goto-N` jumps to section N (1-based), saving the current one first. */
export const IntentSchema = z.union([
  z.enum(ANSWER_INTENTS),
  z.string().regex(/^goto-[1-9]\d{0,3}$/) as z.ZodType<`goto-${number}`>,
])

/** The section (1-based) the posted answers belong to, checked against the questionnaire's count. */
export const sectionSchema = (sectionCount: number) =>
  z.coerce
    .number({ error: 'This form does not say which section it belongs to. Reload the page and try again.' })
    .int('This form does not say which section it belongs to. Reload the page and try again.')
    .min(1, 'This form belongs to a section that does not exist. Reload the page and try again.')
    .max(
      Math.max(sectionCount, 1),
      'This form belongs to a section that does not exist. Reload the page and try again.',
    )

type Raw = FormDataEntryValue[]

/** The values a form posted for one field: strings only (a file is never an answer); undefined = refused. */
function strings(raw: Raw, ctx: z.RefinementCtx): string[] | undefined {
  if (raw.some((v) => typeof v !== 'string')) {
    ctx.addIssue({ code: 'custom', message: 'This answer could not be read. Choose or type it again.' })
    return undefined
  }
  return raw as string[]
}

/** The one value of a single-value field: null when left empty, undefined when refused. */
function single(raw: Raw, ctx: z.RefinementCtx, message: string): string | null | undefined {
  const list = strings(raw, ctx)
  if (!list) return undefined
  const filled = list.filter((v) => v !== '')
  if (filled.length > 1) {
    ctx.addIssue({ code: 'custom', message })
    return undefined
  }
  return filled[0] ?? null
}

const chars = (text: string) => [...text].length

/**
 * The schema of one question's posted value(s) → the answer to store, or null for "not answered".
 * Whether a required question may stay unanswered is decided elsewhere: saving part of a
 * questionnaire always works, only submitting insists.
 */
export function answerSchema(question: AnswerQuestion): z.ZodType<AnswerValue | null, Raw> {
  const base = z.custom<Raw>((v) => Array.isArray(v))
  const empty: AnswerValue = { numericValue: null, textValue: null, choices: null, notApplicable: false }
  switch (question.kind) {
    case 'scale': {
      const { min, max } = scaleRange(question.options)
      const range = `Choose a value from ${min} to ${max}.`
      return base.transform((raw, ctx) => {
        const value = single(raw, ctx, `Choose one value from ${min} to ${max}.`)
        if (value === undefined) return z.NEVER
        if (value === null) return null
        if (value === NOT_APPLICABLE) {
          if (question.options.allowNa) return { ...empty, notApplicable: true }
          ctx.addIssue({ code: 'custom', message: `“Not applicable” is not an option here. ${range}` })
          return z.NEVER
        }
        if (!/^-?\d{1,6}$/.test(value)) {
          ctx.addIssue({ code: 'custom', message: `Choose a whole number from ${min} to ${max}.` })
          return z.NEVER
        }
        const n = Number(value)
        if (n < min || n > max) {
          ctx.addIssue({ code: 'custom', message: range })
          return z.NEVER
        }
        return { ...empty, numericValue: n }
      })
    }
    case 'single': {
      const labels = question.options.labels ?? []
      return base.transform((raw, ctx) => {
        const value = single(raw, ctx, 'Choose only one of the options.')
        if (value === undefined) return z.NEVER
        if (value === null) return null
        if (!labels.includes(value)) {
          ctx.addIssue({ code: 'custom', message: 'Choose one of the options listed.' })
          return z.NEVER
        }
        return { ...empty, choices: [value] }
      })
    }
    case 'multi': {
      const labels = question.options.labels ?? []
      return base.transform((raw, ctx) => {
        const list = strings(raw, ctx)
        if (!list) return z.NEVER
        const chosen = [...new Set(list.filter((v) => v !== ''))]
        if (chosen.some((v) => !labels.includes(v))) {
          ctx.addIssue({ code: 'custom', message: 'Choose only from the options listed.' })
          return z.NEVER
        }
        if (!chosen.length) return null
        // Stored in the questionnaire's order, whatever order the browser posted them in.
        return { ...empty, choices: labels.filter((l) => chosen.includes(l)) }
      })
    }
    case 'text':
    case 'textarea': {
      const limit = question.kind === 'text' ? TEXT_MAX : TEXTAREA_MAX
      return base.transform((raw, ctx) => {
        const value = single(raw, ctx, 'Enter one answer.')
        if (value === undefined) return z.NEVER
        if (value === null) return null
        // Browsers post a textarea's line breaks as CR LF but count (and limit) them as one character.
        const text = value.replace(/\r\n?/g, '\n').trim()
        if (!text) return null
        if (chars(text) > limit) {
          ctx.addIssue({
            code: 'custom',
            message: `Keep your answer to ${limit.toLocaleString('en-GB')} characters or fewer (it has ${chars(text).toLocaleString('en-GB')}).`,
          })
          return z.NEVER
        }
        return { ...empty, textValue: text }
      })
    }
  }
}

export type SectionParse =
  | { ok: true; answers: Map<string, AnswerValue | null> }
  | { ok: false; fieldErrors: Record<string, string[]> }

/** Every question of a section from a posted form; fields of other questions are ignored. */
export function parseSectionAnswers(questions: AnswerQuestion[], formData: FormData): SectionParse {
  const answers = new Map<string, AnswerValue | null>()
  const fieldErrors: Record<string, string[]> = {}
  for (const question of questions) {
    const parsed = answerSchema(question).safeParse(formData.getAll(answerField(question.id)))
    if (parsed.success) answers.set(question.id, parsed.data)
    else fieldErrors[question.id] = parsed.error.issues.map((i) => i.message)
  }
  return Object.keys(fieldErrors).length ? { ok: false, fieldErrors } : { ok: true, answers }
}

/** The raw values a form posted for a section's questions, to put back in the form after a refusal. */
export function postedValues(questions: AnswerQuestion[], formData: FormData): Record<string, string[]> {
  return Object.fromEntries(
    questions.map((q) => [
      q.id,
      formData
        .getAll(answerField(q.id))
        .filter((v): v is string => typeof v === 'string')
        .map((v) => v.slice(0, TEXTAREA_MAX * 2)),
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
