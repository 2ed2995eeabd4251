import { z } from 'zod'
import { QUESTION_KINDS, type QuestionKind } from '#db/enums'
import type { QuestionOptions } from '#db/schema/index'
import type {
  QnTextsTranslation,
  QuestionTranslation,
  SectionTranslation,
  Translations,
} from '#db/schema/questionnaires'
import { LANGUAGE_CODES, type Language } from '#db/enums'
import { hasLoneSurrogate, isMultiLineText, isSingleLineText, toStorableText } from '#app/lib/text-rules'
import {
  CATEGORY_MAX,
  INTRO_MAX,
  LABEL_MAX,
  LABELS_MAX,
  placeholderProblem,
  QUESTION_TEXT_MAX,
  QUESTIONS_MAX,
  SCALE_MAX_HIGHEST,
  SCALE_MIN_LOWEST,
  SCALE_POINTS_MAX,
  SECTION_TITLE_MAX,
  SECTIONS_MAX,
  TITLE_MAX,
} from './schemas'

/**
 * The questionnaire file (docs/questionnaire-format.md): `{ "format": "panorama-questionnaire",
 * "version": 1, title, intro, sections: [{ title, questions: [...] }] }`. Export writes it from a
 * questionnaire; import reads it back as a new draft. Every problem of a refused file is named by
 * its position ("sections[1].questions[0].raterText: must contain {{name}}").
 */

export const FORMAT_NAME = 'panorama-questionnaire'
export const FORMAT_VERSION = 1
/** The largest file the import reads (a 200-question questionnaire is ≈ 100 kB). */
export const IMPORT_MAX_BYTES = 512 * 1024
/** At most this many problems are listed; the rest are counted. */
const PROBLEMS_SHOWN = 20

/** A questionnaire's content, as stored and as the file holds it. */
export type QnContent = {
  title: string
  intro: string
  /** The language of the texts above (ADR 051); English when absent. */
  sourceLanguage?: Language
  /** The texts in other languages, per item (ADR 051). */
  translations?: Translations<QnTextsTranslation>
  sections: Array<{
    title: string
    translations?: Translations<SectionTranslation>
    questions: Array<{
      translations?: Translations<QuestionTranslation>
      /** The question's stable key across versions (ADR 044); absent: a new key is made. */
      key?: string
      kind: QuestionKind
      text: string
      raterText: string
      competency: string
      required: boolean
      options: QuestionOptions
    }>
  }>
}

/** The options a question of this kind keeps (what the builder writes and the file holds). */
export function normalOptions(kind: QuestionKind, options: QuestionOptions): QuestionOptions {
  const labels = Array.isArray(options.labels) ? options.labels.map(String) : []
  if (kind === 'scale') {
    const min = Number.isInteger(options.min) ? options.min! : 1
    const max = Number.isInteger(options.max) ? options.max! : labels.length ? min + labels.length - 1 : 5
    return { min, max, labels, allowNa: Boolean(options.allowNa) }
  }
  if (kind === 'single' || kind === 'multi') return { labels }
  return {}
}

/**
 * JSON can spell what no form can: `"\ud800"`, half of a character pair, which jsonb refuses and a
 * text column silently turns into U+FFFD (a NUL, `"\u0000"`, is a control character and refused as
 * one below). Such a string is refused naming its place, and nothing else is checked in it.
 */
const HALF_PAIR = {
  message:
    'holds half of a character pair (such as \\ud800 alone), which is not text and cannot be saved. Remove it.',
  abort: true,
}

const line = (max: number) =>
  z
    .string()
    .refine((v) => !hasLoneSurrogate(v), HALF_PAIR)
    .min(1, 'must not be empty')
    .max(max, `must be ${max} characters or fewer`)
    .refine((v) => v.trim() === v, 'must not start or end with spaces')
    .refine(isSingleLineText, 'must be one line without control characters')

const labelList = z
  .array(line(LABEL_MAX))
  .max(LABELS_MAX, `must have at most ${LABELS_MAX} entries`)
  .superRefine((labels, ctx) => {
    const seen = new Set<string>()
    labels.forEach((l, i) => {
      if (seen.has(l)) ctx.addIssue({ code: 'custom', path: [i], message: `repeats “${l}”` })
      seen.add(l)
    })
  })

/**
 * Translations in a file (ADR 051): on the questionnaire, each section and each question, an object
 * keyed by language code holding that item's texts in it, each with its source text's rules.
 */
const languageKey = z.enum(LANGUAGE_CODES, {
  error: `must be a language code: ${LANGUAGE_CODES.map((l) => `"${l}"`).join(', ')}`,
})
const translationsOf = <T extends z.ZodType>(shape: T) => z.partialRecord(languageKey, shape).optional()
const introText = z
  .string()
  .refine((v) => !hasLoneSurrogate(v), HALF_PAIR)
  .max(INTRO_MAX, `must be ${INTRO_MAX} characters or fewer`)
  .refine(isMultiLineText, 'must not contain control characters')
const raterLine = line(QUESTION_TEXT_MAX).superRefine((v, ctx) => {
  const problem = placeholderProblem(v)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})
const questionTranslation = z.strictObject({
  text: line(QUESTION_TEXT_MAX).optional(),
  raterText: raterLine.optional(),
  /** In the source labels' order; "" where a label is untranslated. */
  labels: z
    .array(z.union([z.literal(''), line(LABEL_MAX)]))
    .max(LABELS_MAX, `must have at most ${LABELS_MAX} entries`)
    .optional(),
})

const base = {
  /** Optional: the question's stable key across versions (ADR 044), kept on import when given. */
  key: z.uuid('must be a question key as exported (a UUID)').optional(),
  text: line(QUESTION_TEXT_MAX),
  raterText: raterLine,
  competency: line(CATEGORY_MAX),
  required: z.boolean().default(true),
  translations: translationsOf(questionTranslation),
}

const bound = z.number().int('must be a whole number').min(SCALE_MIN_LOWEST).max(SCALE_MAX_HIGHEST)

const question = z.discriminatedUnion(
  'kind',
  [
    z
      .strictObject({
        kind: z.literal('scale'),
        ...base,
        scale: z.strictObject({
          min: bound,
          max: bound,
          labels: labelList,
          allowNa: z.boolean().default(false),
        }),
      })
      .superRefine((q, ctx) => {
        const { min, max, labels } = q.scale
        if (max <= min) ctx.addIssue({ code: 'custom', path: ['scale', 'max'], message: 'must be above min' })
        else if (max - min + 1 > SCALE_POINTS_MAX)
          ctx.addIssue({
            code: 'custom',
            path: ['scale', 'max'],
            message: `gives more than ${SCALE_POINTS_MAX} points`,
          })
        else if (labels.length > max - min + 1)
          ctx.addIssue({
            code: 'custom',
            path: ['scale', 'labels'],
            message: 'has more labels than the scale has points',
          })
      }),
    z.strictObject({ kind: z.literal('single'), ...base, choices: labelList }),
    z.strictObject({ kind: z.literal('multi'), ...base, choices: labelList }),
    z.strictObject({ kind: z.literal('text'), ...base }),
    z.strictObject({ kind: z.literal('textarea'), ...base }),
  ],
  { error: `must have a "kind" of ${QUESTION_KINDS.map((k) => `"${k}"`).join(', ')}` },
)

export const QuestionnaireFileSchema = z
  .strictObject({
    format: z.literal(FORMAT_NAME, { error: `must be "${FORMAT_NAME}"` }),
    version: z.literal(FORMAT_VERSION, {
      error: `must be ${FORMAT_VERSION}: this Panorama reads version 1 files`,
    }),
    title: line(TITLE_MAX),
    intro: introText.default(''),
    /** The language of the texts above (ADR 051); English when absent. */
    sourceLanguage: languageKey.optional(),
    translations: translationsOf(
      z.strictObject({ title: line(TITLE_MAX).optional(), intro: introText.optional() }),
    ),
    sections: z
      .array(
        z.strictObject({
          title: line(SECTION_TITLE_MAX),
          translations: translationsOf(z.strictObject({ title: line(SECTION_TITLE_MAX).optional() })),
          questions: z.array(question).max(QUESTIONS_MAX, `must have at most ${QUESTIONS_MAX} questions`),
        }),
      )
      .max(SECTIONS_MAX, `must have at most ${SECTIONS_MAX} sections`),
  })
  .superRefine((file, ctx) => {
    const titles = new Set<string>()
    file.sections.forEach((s, i) => {
      if (titles.has(s.title))
        ctx.addIssue({
          code: 'custom',
          path: ['sections', i, 'title'],
          message: `repeats the section title “${s.title}”`,
        })
      titles.add(s.title)
    })
    const keys = new Set<string>()
    file.sections.forEach((s, i) =>
      s.questions.forEach((q, j) => {
        if (q.key === undefined) return
        const key = q.key.toLowerCase()
        if (keys.has(key))
          ctx.addIssue({
            code: 'custom',
            path: ['sections', i, 'questions', j, 'key'],
            message: 'repeats the key of an earlier question: each question needs its own',
          })
        keys.add(key)
      }),
    )
    // Translations (ADR 051): never into the source language; never more labels than the source has.
    const source = file.sourceLanguage ?? 'en'
    const notSource = (translations: Partial<Record<string, unknown>> | undefined, path: PropertyKey[]) => {
      if (translations && source in translations)
        ctx.addIssue({
          code: 'custom',
          path: [...path, 'translations', source],
          message: `is the questionnaire’s own language (sourceLanguage "${source}"): its texts are the fields above`,
        })
    }
    notSource(file.translations, [])
    file.sections.forEach((s, i) => {
      notSource(s.translations, ['sections', i])
      s.questions.forEach((q, j) => {
        notSource(q.translations, ['sections', i, 'questions', j])
        const sourceLabels =
          q.kind === 'scale'
            ? q.scale.labels.length
            : q.kind === 'single' || q.kind === 'multi'
              ? q.choices.length
              : 0
        for (const [language, t] of Object.entries(q.translations ?? {}))
          if (t?.labels && t.labels.length > sourceLabels)
            ctx.addIssue({
              code: 'custom',
              path: ['sections', i, 'questions', j, 'translations', language, 'labels'],
              message: `has ${t.labels.length} labels: the question has ${sourceLabels}`,
            })
      })
    })
    const count = file.sections.reduce((n, s) => n + s.questions.length, 0)
    if (count > QUESTIONS_MAX)
      ctx.addIssue({
        code: 'custom',
        path: ['sections'],
        message: `hold ${count} questions: at most ${QUESTIONS_MAX}`,
      })
  })
export type QuestionnaireFile = z.output<typeof QuestionnaireFileSchema>

/** `["sections", 1, "questions", 0, "raterText"]` → `sections[1].questions[0].raterText`. */
export function pathLabel(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out ? `.${String(part)}` : String(part)
  }
  return out || '(the file)'
}

export type ImportRead = { ok: true; content: QnContent } | { ok: false; problems: string[] }

/** Reads an uploaded file's text: the content, or every problem with its position. */
export function readQuestionnaireFile(text: string): ImportRead {
  let json: unknown
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    return { ok: false, problems: ['The file is not JSON. Export a questionnaire to see the format.'] }
  }
  const parsed = QuestionnaireFileSchema.safeParse(json)
  if (!parsed.success) {
    const all = parsed.error.issues.map((issue) => {
      const message =
        issue.code === 'unrecognized_keys'
          ? `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${toStorableText(k.slice(0, 60))}"`).join(', ')}`
          : issue.code === 'invalid_type' && issue.input === undefined
            ? 'is missing'
            : issue.message
      return `${pathLabel(issue.path)}: ${message}`
    })
    const problems = all.slice(0, PROBLEMS_SHOWN)
    if (all.length > PROBLEMS_SHOWN) problems.push(`… and ${all.length - PROBLEMS_SHOWN} more problems.`)
    return { ok: false, problems }
  }
  const file = parsed.data
  return {
    ok: true,
    content: {
      title: file.title,
      intro: file.intro,
      ...(file.sourceLanguage ? { sourceLanguage: file.sourceLanguage } : {}),
      ...translated(file.translations),
      sections: file.sections.map((s) => ({
        title: s.title,
        ...translated(s.translations),
        questions: s.questions.map((q) => ({
          ...(q.key === undefined ? {} : { key: q.key.toLowerCase() }),
          ...translated(q.translations),
          kind: q.kind,
          text: q.text,
          raterText: q.raterText,
          competency: q.competency,
          required: q.required,
          options:
            q.kind === 'scale'
              ? { min: q.scale.min, max: q.scale.max, labels: q.scale.labels, allowNa: q.scale.allowNa }
              : q.kind === 'single' || q.kind === 'multi'
                ? { labels: q.choices }
                : {},
        })),
      })),
    },
  }
}

/** `{ translations }` when a file's item has any (empty ones dropped), else nothing. */
function translated<T extends object>(translations: Partial<Record<Language, T>> | undefined) {
  const kept = Object.fromEntries(
    Object.entries(translations ?? {}).filter(
      ([, t]) =>
        t && Object.values(t as object).some((v) => (Array.isArray(v) ? v.some(Boolean) : Boolean(v))),
    ),
  ) as Partial<Record<Language, T>>
  return Object.keys(kept).length ? { translations: kept } : {}
}

/** The file for a questionnaire's content (the export), with its translations (ADR 051) when it has any. */
export function questionnaireFile(content: QnContent) {
  return {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    title: content.title,
    intro: content.intro,
    ...(content.sourceLanguage && content.sourceLanguage !== 'en'
      ? { sourceLanguage: content.sourceLanguage }
      : {}),
    ...translated(content.translations),
    sections: content.sections.map((s) => ({
      title: s.title,
      ...translated(s.translations),
      questions: s.questions.map((q) => {
        const options = normalOptions(q.kind, q.options)
        const common = {
          ...(q.key === undefined ? {} : { key: q.key }),
          kind: q.kind,
          text: q.text,
          raterText: q.raterText,
          competency: q.competency,
          required: q.required,
          ...translated(q.translations),
        }
        if (q.kind === 'scale')
          return {
            ...common,
            scale: {
              min: options.min!,
              max: options.max!,
              labels: options.labels!,
              allowNa: options.allowNa!,
            },
          }
        if (q.kind === 'single' || q.kind === 'multi') return { ...common, choices: options.labels! }
        return common
      }),
    })),
  }
}
