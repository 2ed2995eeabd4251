import { LANGUAGE_SQL_LIST, QUESTIONNAIRE_STATUSES, QUESTION_KINDS, type Language } from '../enums'
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core'

export const questionnaireStatusEnum = pgEnum('questionnaire_status', QUESTIONNAIRE_STATUSES)

/**
 * A questionnaire's texts in other languages than its source (issue 20 §3, ADR 051): on each row
 * that holds a source text, a jsonb object keyed by language code, holding that row's texts in
 * that language. A text absent (or empty) is untranslated: readers get the source text in its
 * place. The source language's own texts are the row's columns, never an entry here.
 */
export type Translations<T> = Partial<Record<Language, T>>
/** The questionnaire's title and introduction in a language. */
export type QnTextsTranslation = { title?: string; intro?: string }
/** A section's title in a language. */
export type SectionTranslation = { title?: string }
/**
 * A question's wordings in a language, and its choice or scale labels in the source labels' order
 * ('' where a label is untranslated).
 */
export type QuestionTranslation = { text?: string; raterText?: string; labels?: string[] }

export const questionnaires = pgTable(
  'questionnaires',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    intro: text().notNull().default(''),
    /** The language the row's own texts are written in (ADR 051); translations are of these. */
    sourceLanguage: text().$type<Language>().notNull().default('en'),
    /** Title and introduction in other languages (ADR 051). */
    translations: jsonb()
      .$type<Translations<QnTextsTranslation>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    status: questionnaireStatusEnum().notNull().default('draft'),
    version: integer().notNull().default(1),
    /** The version this one was copied from (a frozen questionnaire is edited as a new draft). */
    parentId: uuid().references((): AnyPgColumn => questionnaires.id, { onDelete: 'set null' }),
    /**
     * The first version of this questionnaire's line (its own id for a v1): the list groups the
     * versions of one questionnaire by it (docs/decisions/015-questionnaire-sections-and-versions.md).
     */
    lineageId: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.status, t.title, t.id),
    index().on(t.parentId),
    index().on(t.lineageId, t.version),
    index().on(t.title, t.id),
    index().on(t.createdAt, t.id),
    check('questionnaires_source_language', sql`${t.sourceLanguage} IN (${sql.raw(LANGUAGE_SQL_LIST)})`),
    check('questionnaires_translations_object', sql`jsonb_typeof(${t.translations}) = 'object'`),
  ],
)

/**
 * A questionnaire's sections, in order. A section exists without questions (a draft being built);
 * `questions.section` keeps a copy of its title, which answering and the report group by.
 */
export const questionnaireSections = pgTable(
  'questionnaire_sections',
  {
    id: uuid().primaryKey().defaultRandom(),
    questionnaireId: uuid()
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    title: text().notNull(),
    /** The title in other languages (ADR 051). */
    translations: jsonb()
      .$type<Translations<SectionTranslation>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    index().on(t.questionnaireId, t.position),
    uniqueIndex().on(t.questionnaireId, t.title),
    check('questionnaire_sections_translations_object', sql`jsonb_typeof(${t.translations}) = 'object'`),
  ],
)

export const questionKindEnum = pgEnum('question_kind', QUESTION_KINDS)

export type QuestionOptions = {
  /** Choice labels for single/multi; scale labels from min to max for scale. */
  labels?: string[]
  min?: number
  max?: number
  allowNa?: boolean
}

export const questions = pgTable(
  'questions',
  {
    id: uuid().primaryKey().defaultRandom(),
    questionnaireId: uuid()
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'cascade' }),
    /** The order through the whole questionnaire (sections in their order, then within each). */
    position: integer().notNull(),
    /**
     * The question's stable key across the versions of its questionnaire line (issue 19 §5, ADR 044):
     * a new version's copy of a question keeps it, a new question gets a new one. The previous
     * cycle's figures and the norms match questions by it.
     */
    key: uuid().notNull().defaultRandom(),
    sectionId: uuid()
      .notNull()
      .references(() => questionnaireSections.id, { onDelete: 'cascade' }),
    /** The section's title, kept in step with questionnaire_sections.title. */
    section: text().notNull(),
    kind: questionKindEnum().notNull(),
    /** Self wording ("I …"). */
    text: text().notNull(),
    /** Colleague wording with {{name}}. */
    raterText: text().notNull(),
    /** The competency: the report's chart axes. */
    category: text().notNull(),
    required: boolean().notNull().default(true),
    options: jsonb()
      .$type<QuestionOptions>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The wordings and labels in other languages (ADR 051). */
    translations: jsonb()
      .$type<Translations<QuestionTranslation>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    uniqueIndex().on(t.questionnaireId, t.position),
    check('questions_translations_object', sql`jsonb_typeof(${t.translations}) = 'object'`),
    index().on(t.sectionId),
    uniqueIndex('questions_questionnaire_key_unique').on(t.questionnaireId, t.key),
  ],
)
