import {
  QUESTION_KINDS,
  QUESTIONNAIRE_STATUSES,
  type QuestionKind,
  type QuestionnaireStatus,
} from '#db/enums'
import { multiLine } from '#app/lib/text-rules'
import { optionalText, requiredText } from '#app/lib/schema-parts'
import { LANGUAGE_CODES } from '#db/enums'
import {
  NAME_SORT_LABELS,
  NAME_SORTS,
  nameListQueryShape,
  parseListQuery,
  type NameSort,
} from '#app/lib/list-query'
import * as z from '#app/lib/zod'
import { archiveBlocked, NAME_PLACEHOLDER, placeholderFieldMessage, revertBlocked } from './named-messages'

/**
 * The questionnaire builder's forms (Zod Mini: they run in the browser through Conform and on the
 * server in the actions), their limits and wording, and the rules the builder, the publish checks
 * and the JSON import share: the {{name}} placeholder and the scale's bounds. No server imports.
 */

export const TITLE_MAX = 200
export const INTRO_MAX = 5000
export const SECTION_TITLE_MAX = 120
export const QUESTION_TEXT_MAX = 500
export const CATEGORY_MAX = 80
export const LABEL_MAX = 80
/** Choices of a single/multi question, labels of a scale. */
export const LABELS_MAX = 20
export const SECTIONS_MAX = 50
export const QUESTIONS_MAX = 200
/** A scale runs from SCALE_MIN_LOWEST…SCALE_MAX_HIGHEST with at most SCALE_POINTS_MAX points. */
export const SCALE_MIN_LOWEST = 0
export const SCALE_MAX_HIGHEST = 20
export const SCALE_POINTS_MAX = 11

export const KIND_LABELS: Record<QuestionKind, string> = {
  scale: 'Rating scale',
  single: 'One choice',
  multi: 'Several choices',
  text: 'Short text',
  textarea: 'Long text',
}

export const STATUS_LABELS: Record<QuestionnaireStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
}

/** The default scale of a new rating question: it passes the publish checks as it is. */
export const DEFAULT_SCALE = {
  min: 1,
  max: 5,
  labels: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'],
  allowNa: true,
}

/**
 * The forms' and the module's refusals, in English (the `questionnaires` catalogue's `validation`
 * table translates each sentence, ADR 052). The two with numbers the form kit cannot stand in for
 * (a thousands separator, two numbers in one sentence) are written out: the catalogue test checks
 * them against the limits.
 */
export const QN_MESSAGES = {
  archiveBlocked,
  revertBlocked,
  title: 'Enter the questionnaire’s title.',
  titleTooLong: `The title must be ${TITLE_MAX} characters or fewer.`,
  introTooLong: 'The introduction must be 5,000 characters or fewer.',
  sectionTitle: 'Enter the section’s title.',
  sectionTitleTooLong: `A section title must be ${SECTION_TITLE_MAX} characters or fewer.`,
  sectionTaken: 'Another section of this questionnaire has that title. Choose a different one.',
  text: 'Enter the question as the person answers it about themselves.',
  // {{name}} is written in: a table's value is ICU, where braces are syntax (the kit carries it over as {n}).
  raterText: `Enter the question as a colleague answers it, with ${NAME_PLACEHOLDER} where the person’s name goes.`,
  textTooLong: `A question must be ${QUESTION_TEXT_MAX} characters or fewer.`,
  needsName: `must contain ${NAME_PLACEHOLDER}`,
  unknownPlaceholder: (p: string) => `has an unknown placeholder ${p}: only ${NAME_PLACEHOLDER} can be used`,
  category: 'Enter the competency this question measures.',
  categoryTooLong: `A competency must be ${CATEGORY_MAX} characters or fewer.`,
  kind: 'Choose the kind of question.',
  label: 'Enter the label.',
  labelTooLong: `A label must be ${LABEL_MAX} characters or fewer.`,
  labelTaken: 'This question already has that label.',
  tooManyLabels: `A question can have at most ${LABELS_MAX} choices or labels.`,
  scaleMin: 'Enter the lowest point, a whole number from 0 to 19.',
  scaleMax: 'Enter the highest point, a whole number from 1 to 20.',
  scaleOrder: 'The highest point must be above the lowest.',
  scalePoints: `A scale can have at most ${SCALE_POINTS_MAX} points.`,
  scaleLabelsOver: 'A scale has more labels than points: remove labels or widen the scale.',
  direction: 'Choose up or down.',
  target: 'This item could not be identified. Reload the page and try again.',
  frozen: 'This questionnaire is published, so it can no longer change. Edit it as a new version instead.',
  archivedFrozen: 'This questionnaire is archived, so it can no longer change.',
  tooManySections: `A questionnaire can have at most ${SECTIONS_MAX} sections.`,
  tooManyQuestions: `A questionnaire can have at most ${QUESTIONS_MAX} questions.`,
  sectionHasQuestions: 'This section still has questions: confirm that they are deleted with it.',
  file: 'Choose a questionnaire file (.json) to import.',
  language: 'Choose one of the portal’s languages.',
  translateSource:
    'This is the questionnaire’s own language: change its texts in the builder, or choose another language to translate into.',
  translatedLabelsOver:
    'There are more translated labels than the question has. Reload the page and try again.',
} as const

// ---------------------------------------------------------------------------------------------
// The {{name}} placeholder.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

/** What is wrong with a colleague wording's placeholders, or null: {{name}} is needed, nothing else. */
export function placeholderProblem(raterText: string): string | null {
  let hasName = false
  for (const match of raterText.matchAll(PLACEHOLDER)) {
    if (match[1] === 'name') hasName = true
    else return QN_MESSAGES.unknownPlaceholder(match[0])
  }
  return hasName ? null : QN_MESSAGES.needsName
}

/** The field message for a placeholder problem (the import names its position instead). */
const placeholderMessage = (problem: string) =>
  problem === QN_MESSAGES.needsName
    ? `The colleague wording must contain ${NAME_PLACEHOLDER}.`
    : placeholderFieldMessage(problem)

// ---------------------------------------------------------------------------------------------
// Fields.

export const titleField = requiredText(QN_MESSAGES.title, QN_MESSAGES.titleTooLong, TITLE_MAX)
const intro = z._default(
  z.string().check(z.trim(), z.maxLength(INTRO_MAX, QN_MESSAGES.introTooLong), multiLine()),
  '',
)
const sectionTitle = requiredText(
  QN_MESSAGES.sectionTitle,
  QN_MESSAGES.sectionTitleTooLong,
  SECTION_TITLE_MAX,
)
const selfText = requiredText(QN_MESSAGES.text, QN_MESSAGES.textTooLong, QUESTION_TEXT_MAX)
const raterText = requiredText(QN_MESSAGES.raterText, QN_MESSAGES.textTooLong, QUESTION_TEXT_MAX).check(
  z.superRefine<string>((value, ctx) => {
    const problem = placeholderProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: placeholderMessage(problem) })
  }),
)
const category = requiredText(QN_MESSAGES.category, QN_MESSAGES.categoryTooLong, CATEGORY_MAX)
const label = requiredText(QN_MESSAGES.label, QN_MESSAGES.labelTooLong, LABEL_MAX)
const kind = z.enum(QUESTION_KINDS, { error: QN_MESSAGES.kind })
const target = z.uuid({ error: QN_MESSAGES.target })
const direction = z.enum(['up', 'down'], { error: QN_MESSAGES.direction })
const index = z
  .number({ error: QN_MESSAGES.target })
  .check(z.int(QN_MESSAGES.target), z.gte(0), z.lt(LABELS_MAX))
/** A checkbox: present ("on") or absent. */
const checkbox = z.pipe(
  z.optional(z.string()),
  z.transform((v: string | undefined) => v !== undefined && v !== ''),
)
const whole = (message: string, min: number, max: number) =>
  z.number({ error: message }).check(z.int(message), z.gte(min, message), z.lte(max, message))

// ---------------------------------------------------------------------------------------------
// The list page.

export const QnCreateSchema = z.object({ intent: z.literal('create'), title: titleField })
export const QnDuplicateSchema = z.object({ intent: z.literal('duplicate'), questionnaireId: target })
export const QnArchiveSchema = z.object({ intent: z.literal('archive'), questionnaireId: target })

// ---------------------------------------------------------------------------------------------
// The builder (each change is its own form, posted with its intent).

/**
 * The builder's forms about one section, or one question (and its options): each posts its intent,
 * the item's id and its own fields.
 */
const formAbout =
  <Key extends 'sectionId' | 'questionId'>(key: Key) =>
  <Intent extends string, Fields extends z.core.$ZodLooseShape>(intent: Intent, fields: Fields) =>
    z.object({ intent: z.literal(intent), ...({ [key]: target } as Record<Key, typeof target>), ...fields })
const sectionForm = formAbout('sectionId')
const questionForm = formAbout('questionId')

export const QnDetailsSchema = z.object({ intent: z.literal('details'), title: titleField, intro })
export const QnAddSectionSchema = z.object({ intent: z.literal('add-section'), title: sectionTitle })
export const QnRenameSectionSchema = sectionForm('rename-section', { title: sectionTitle })
export const QnMoveSectionSchema = sectionForm('move-section', { direction })
export const QnDeleteSectionSchema = sectionForm('delete-section', { confirmed: checkbox })

export const QnAddQuestionSchema = sectionForm('add-question', { kind, text: selfText, raterText, category })

const scaleBound = (message: string) => z.optional(whole(message, SCALE_MIN_LOWEST, SCALE_MAX_HIGHEST))

export const QnUpdateQuestionSchema = questionForm('update-question', {
  kind,
  text: selfText,
  raterText,
  category,
  required: checkbox,
  allowNa: checkbox,
  min: scaleBound(QN_MESSAGES.scaleMin),
  max: scaleBound(QN_MESSAGES.scaleMax),
}).check(
  z.superRefine((v, ctx) => {
    if (v.kind !== 'scale') return
    if (v.min === undefined) ctx.addIssue({ code: 'custom', path: ['min'], message: QN_MESSAGES.scaleMin })
    if (v.max === undefined) ctx.addIssue({ code: 'custom', path: ['max'], message: QN_MESSAGES.scaleMax })
    if (v.min === undefined || v.max === undefined) return
    if (v.max <= v.min) ctx.addIssue({ code: 'custom', path: ['max'], message: QN_MESSAGES.scaleOrder })
    else if (v.max - v.min + 1 > SCALE_POINTS_MAX)
      ctx.addIssue({ code: 'custom', path: ['max'], message: QN_MESSAGES.scalePoints })
  }),
)
export type QuestionUpdate = Omit<z.output<typeof QnUpdateQuestionSchema>, 'intent' | 'questionId'>

export const QnMoveQuestionSchema = questionForm('move-question', { direction })
export const QnDeleteQuestionSchema = questionForm('delete-question', {})

export const QnAddOptionSchema = questionForm('add-option', { label })
export const QnRenameOptionSchema = questionForm('rename-option', { index, label })
export const QnMoveOptionSchema = questionForm('move-option', { index, direction })
export const QnRemoveOptionSchema = questionForm('remove-option', { index })

// Translations (ADR 051): each item's texts in one language, with the source texts' limits; an
// empty field clears the translation, so none is required.
const language = z.enum(LANGUAGE_CODES, { error: QN_MESSAGES.language })
const translatedRaterText = optionalText(QN_MESSAGES.textTooLong, QUESTION_TEXT_MAX).check(
  z.superRefine((value: string | null, ctx) => {
    if (!value) return
    const problem = placeholderProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: placeholderMessage(problem) })
  }),
)
export const QnTranslateDetailsSchema = z.object({
  intent: z.literal('translate-details'),
  language,
  title: optionalText(QN_MESSAGES.titleTooLong, TITLE_MAX),
  intro: optionalText(QN_MESSAGES.introTooLong, INTRO_MAX, multiLine()),
})
export const QnTranslateSectionSchema = sectionForm('translate-section', {
  language,
  title: optionalText(QN_MESSAGES.sectionTitleTooLong, SECTION_TITLE_MAX),
})
export const QnTranslateQuestionSchema = questionForm('translate-question', {
  language,
  text: optionalText(QN_MESSAGES.textTooLong, QUESTION_TEXT_MAX),
  raterText: translatedRaterText,
  labels: z._default(
    z
      .array(optionalText(QN_MESSAGES.labelTooLong, LABEL_MAX))
      .check(z.maxLength(LABELS_MAX, QN_MESSAGES.tooManyLabels)),
    [],
  ),
})

export const QnPublishSchema = z.object({ intent: z.literal('publish') })
export const QnRevertSchema = z.object({ intent: z.literal('revert-to-draft') })
export const QnNewVersionSchema = z.object({ intent: z.literal('new-version') })
export const QnArchiveHereSchema = z.object({ intent: z.literal('archive') })
export const QnDuplicateHereSchema = z.object({ intent: z.literal('duplicate') })

// ---------------------------------------------------------------------------------------------
// Addresses: bad values fall back rather than failing the page.

/** The name-list orders, by title. */
export const QN_SORTS = NAME_SORTS
export type QnSort = NameSort
export const QN_SORT_LABELS: Record<QnSort, string> = {
  ...NAME_SORT_LABELS,
  'name-asc': 'Title, A to Z',
  'name-desc': 'Title, Z to A',
}

export const QnListQuerySchema = z.object({
  ...nameListQueryShape,
  status: z.catch(z.optional(z.enum(QUESTIONNAIRE_STATUSES)), undefined),
  archive: z.catch(z.optional(z.uuid()), undefined),
})
export type QnListQuery = z.output<typeof QnListQuerySchema>

export function parseQnListQuery(searchParams: URLSearchParams): QnListQuery {
  return parseListQuery(QnListQuerySchema, searchParams)
}

export const QnDetailQuerySchema = z.object({
  preview: z.catch(z.optional(z.enum(['self', 'colleague'])), undefined),
  deleteSection: z.catch(z.optional(z.uuid()), undefined),
  confirm: z.catch(z.optional(z.enum(['publish', 'archive', 'new-version', 'revert-to-draft'])), undefined),
  /** The translation view of this language (ADR 051). */
  language: z.catch(z.optional(z.enum(LANGUAGE_CODES)), undefined),
  /** The translation view shows only the items still untranslated. */
  untranslated: z.catch(z.optional(z.literal('1')), undefined),
})
export type QnDetailQuery = z.output<typeof QnDetailQuerySchema>

export function parseQnDetailQuery(searchParams: URLSearchParams): QnDetailQuery {
  return QnDetailQuerySchema.parse(Object.fromEntries(searchParams))
}
