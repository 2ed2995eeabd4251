import { z } from 'zod'
import { isMultiLineText, TEXT_MESSAGES } from '#app/lib/text-rules'
import {
  answerField,
  ANSWER_INTENTS,
  scaleRange,
  NOT_APPLICABLE,
  TEXT_MAX,
  TEXTAREA_MAX,
  type AnswerQuestion,
  type AnswerValue,
} from './answer-schemas'

/**
 * A posted section → the answers to store (the limits and wording are answer-schemas.ts's). A
 * questionnaire's questions are data, so the form's schema is built per question from its kind and
 * options rather than written out once. Server-only: the answering page sends what was typed and
 * shows what the server says about it.
 */

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
        // The shared text rule for prose: line breaks and tabs stay (a short answer has always been
        // allowed them, and they count as one character each), other control characters are refused.
        if (!isMultiLineText(text)) {
          ctx.addIssue({ code: 'custom', message: TEXT_MESSAGES.multiLine })
          return z.NEVER
        }
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
