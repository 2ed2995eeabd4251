import type { AssignmentStatus, Language, Relationship, SchemeStatus } from '#db/enums'
import type { QuestionTranslation, SectionTranslation, Translations } from '#db/schema/questionnaires'
import { labelsIn, textIn } from '#app/modules/questionnaire/translations'
import type { DateLabel } from '#app/lib/dates'
import type { SchemeTimes } from '#app/modules/scheme/state'
import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { SelectedFields } from 'drizzle-orm/pg-core'
import { getDb, preparedOnce, type Db, type Tx } from '#db/client'
import { assignments, brands, companies, questionnaires, responses, schemes, users } from '#db/schema/index'
import { BRAND_LOOK_COLUMNS } from '#app/modules/brand/look.server'
import type { SessionUser } from '#app/modules/auth/session.server'
import { fillName, type AnswerQuestion, type QuestionKind } from './answer-schemas'
import { isUuid } from '#app/lib/ids'

/**
 * What every answering page reads the same way: the assignment row (with its scheme, subject and
 * brand, in one query), the question columns, the wording a respondent reads, and the deadline.
 * Ownership lives in every query (the respondent, or an admin who may look but never answer); each
 * page costs a fixed number of queries whatever the questionnaire's size.
 */

export type Viewer = Pick<SessionUser, 'id' | 'role'>

/**
 * Whether an administrator reopened the assignment's response (ADR 023): the subject is never told
 * of it again, and it stays "answered" to them (issue 15 B4).
 */
export const assignmentReopened = sql<boolean>`EXISTS (SELECT 1 FROM responses r WHERE r.assignment_id = ${assignments.id} AND r.reopened_at IS NOT NULL)`

/** An id from a URL, or null when it is not a UUID (answered like an id that is not the viewer's). */
export function parseId(raw: string | null | undefined): string | null {
  return isUuid(raw) ? raw : null
}

/**
 * The scheme's status and dates, from a row that selected its status as `schemeStatus`, with the
 * assignment's own early end (`roundEndedAt`: its subject's report was released) when selected.
 */
export function schemeOf(row: {
  schemeStatus: SchemeStatus
  opensAt: Date
  closesAt: Date
  roundEndedAt?: Date | null
}): SchemeTimes {
  return {
    status: row.schemeStatus,
    opensAt: row.opensAt,
    closesAt: row.closesAt,
    roundEndedAt: row.roundEndedAt,
  }
}

/** When the respondent's round ended: the scheme's close, or earlier when the report was released. */
export function roundEndOf(row: { closesAt: Date; roundEndedAt?: Date | null }): Date {
  return row.roundEndedAt && row.roundEndedAt < row.closesAt ? row.roundEndedAt : row.closesAt
}

export type QuestionRow = {
  id: string
  position: number
  section: string
  kind: QuestionKind
  text: string
  raterText: string
  required: boolean
  options: AnswerQuestion['options']
  /** Its wordings and labels, and its section's title, in other languages (ADR 051). */
  translations?: Translations<QuestionTranslation> | null
  sectionTranslations?: Translations<SectionTranslation> | null
}

export function subjectLabel(row: { subjectName: string; subjectEmail: string }) {
  return row.subjectName.trim() || row.subjectEmail
}

/** The wording this respondent reads: their own ("I …") or the colleague one with the name filled in. */
export function toAnswerQuestion(
  q: QuestionRow,
  relationship: Relationship,
  subjectName: string,
  /** The language to read it in (ADR 051); null or absent: the source wording. */
  language: Language | null = null,
): AnswerQuestion {
  const labels = Array.isArray(q.options?.labels) ? q.options.labels.map(String) : undefined
  const shown = language && labels ? labelsIn(q, language, labels) : undefined
  const text = textIn(q, language, 'text', q.text)
  const raterText = textIn(q, language, 'raterText', q.raterText)
  return {
    id: q.id,
    kind: q.kind,
    text: relationship === 'self' ? text : fillName(raterText, subjectName),
    required: q.required,
    options: {
      // A scale answer is its point, so its labels are only read: they are shown translated. A
      // choice answer stores its label, so choices keep the source labels as values (ADR 051).
      labels: q.kind === 'scale' && shown ? shown : labels,
      ...(shown && q.kind !== 'scale' ? { displayLabels: shown } : {}),
      min: q.options?.min,
      max: q.options?.max,
      allowNa: Boolean(q.options?.allowNa),
    },
  }
}

/** A question with this response's stored answer beside it (every answer field null when none). */
export type QuestionWithAnswer = QuestionRow & {
  answerId: string | null
  numericValue: number | null
  textValue: string | null
  choices: string[] | null
  notApplicable: boolean | null
}

/**
 * The questionnaire's questions in order as one JSON column of the assignment's own row, in the
 * shape of `QuestionRow` (and with `answers`, this response's answer beside each): the answering
 * page and the save need them with the assignment, and a statement of their own would cost as much
 * as the rest of the page (issue 17 §2, ADR 036). Questionnaires are small (≤ 200 questions).
 */
function questionsJson(withAnswers: boolean) {
  const answerFields = withAnswers
    ? sql`, 'answerId', a.id, 'numericValue', a.numeric_value, 'textValue', a.text_value,
        'choices', a.choices, 'notApplicable', a.not_applicable`
    : sql``
  const answerJoin = withAnswers
    ? sql`LEFT JOIN answers a ON a.question_id = q.id AND a.response_id = ${responses.id}`
    : sql``
  return sql`(
    SELECT coalesce(json_agg(json_build_object(
        'id', q.id, 'position', q.position, 'section', q.section, 'kind', q.kind, 'text', q.text,
        'raterText', q.rater_text, 'required', q.required, 'options', q.options,
        'translations', q.translations,
        'sectionTranslations', (SELECT s.translations FROM questionnaire_sections s WHERE s.id = q.section_id)${answerFields}
      ) ORDER BY q.position), '[]'::json)
    FROM questions q ${answerJoin}
    WHERE q.questionnaire_id = ${assignments.questionnaireId})`
}

/** The assignment row's columns: the assignment, its questionnaire, scheme, subject and response. */
const ASSIGNMENT_FIELDS = {
  id: assignments.id,
  status: assignments.status,
  relationship: assignments.relationship,
  subjectId: assignments.subjectId,
  schemeId: assignments.schemeId,
  questionnaireId: assignments.questionnaireId,
  dueAt: assignments.dueAt,
  submittedAt: assignments.submittedAt,
  roundEndedAt: assignments.closedAt,
  questionnaireTitle: questionnaires.title,
  // The languages (ADR 051): the scheme's, the questionnaire's own and its title's translations.
  questionnaireSourceLanguage: questionnaires.sourceLanguage,
  questionnaireTranslations: questionnaires.translations,
  schemeLanguages: schemes.languages,
  schemeName: schemes.name,
  schemeStatus: schemes.status,
  opensAt: schemes.opensAt,
  closesAt: schemes.closesAt,
  timeZone: schemes.timeZone,
  subjectName: users.displayName,
  subjectEmail: users.email,
  responseId: responses.id,
  lastSection: responses.lastSection,
  reopenReason: responses.reopenReason,
}

/** A revoked invitation is gone for its respondent; admins still see it. */
function visibleTo<R extends { status: AssignmentStatus }>(row: R | undefined, viewer: Viewer): R | null {
  if (!row || (viewer.role !== 'admin' && row.status === 'revoked')) return null
  return row
}

/**
 * The assignment row, with what every answering page needs beside it (questionnaire, scheme, subject,
 * response, brand, the questions), in one query; null when it is not the viewer's, or revoked for
 * its respondent (the route answers 404: not found and not yours alike). Built once per database
 * handle and kind of viewer (the respondent, or an admin who may look at anyone's): every request
 * of those pages runs one, and building the select again was a measurable part of their CPU
 * (ADR 036). Named on Postgres.
 */
function prepareAssignmentRead<T extends SelectedFields>(db: Db, extra: T, admin: boolean, name: string) {
  const byId = eq(assignments.id, sql.placeholder('id'))
  return selectAssignmentsWithBrand({ ...ASSIGNMENT_FIELDS, ...extra }, db)
    .innerJoin(questionnaires, eq(questionnaires.id, assignments.questionnaireId))
    .where(admin ? byId : and(byId, eq(assignments.respondentId, sql.placeholder('viewer'))))
    .limit(1)
    .prepare(`${name}_${admin ? 'any' : 'own'}`)
}

const prepareWithAnswers = (db: Db, admin: boolean) =>
  prepareAssignmentRead(
    db,
    { questions: questionsJson(true) as SQL<QuestionWithAnswer[]> },
    admin,
    'assignment_with_answers',
  )

const prepareWithQuestions = (db: Db, admin: boolean) =>
  prepareAssignmentRead(
    db,
    { questions: questionsJson(false) as SQL<QuestionRow[]> },
    admin,
    'assignment_with_questions',
  )

/** The assignment with its questions in order and this response's answer beside each (the answering page). */
export async function findAssignmentWithAnswers(id: string, viewer: Viewer) {
  const db = getDb()
  const admin = viewer.role === 'admin'
  const read = preparedOnce(db, `assignment_with_answers_${admin}`, (d) => prepareWithAnswers(d, admin))
  const [row] = await read.execute({ id, viewer: viewer.id })
  return visibleTo(row, viewer)
}

/** The assignment with its questions in order (saving: the wording and rules of each). */
export async function findAssignmentWithQuestions(id: string, viewer: Viewer) {
  const db = getDb()
  const admin = viewer.role === 'admin'
  const read = preparedOnce(db, `assignment_with_questions_${admin}`, (d) => prepareWithQuestions(d, admin))
  const [row] = await read.execute({ id, viewer: viewer.id })
  return visibleTo(row, viewer)
}

/**
 * Assignments with their scheme, subject (`users`), the programme's brand (through the company) and
 * response (if any), selecting `fields` and the brand's columns: the join the answering, intro,
 * thank-you and home pages share. The caller adds its own conditions and order.
 */
export function selectAssignmentsWithBrand<T extends SelectedFields>(fields: T, db: Tx = getDb()) {
  return db
    .select({ ...fields, ...BRAND_LOOK_COLUMNS })
    .from(assignments)
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(users, eq(users.id, assignments.subjectId))
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .innerJoin(brands, eq(brands.id, companies.brandId))
    .leftJoin(responses, eq(responses.assignmentId, assignments.id))
}

/** An assignment as the intro and thank-you pages name it: whose feedback, in which programme, by when. */
export type AssignmentHeadline = {
  id: string
  status: AssignmentStatus
  relationship: Relationship
  subjectName: string
  schemeName: string
  deadline: DateLabel
}

/** The assignment, its scheme and whose feedback it is: the columns the intro, thank-you and home pages share. */
export const ASSIGNMENT_SUMMARY = {
  id: assignments.id,
  status: assignments.status,
  relationship: assignments.relationship,
  dueAt: assignments.dueAt,
  roundEndedAt: assignments.closedAt,
  subjectName: users.displayName,
  subjectEmail: users.email,
  schemeName: schemes.name,
  schemeStatus: schemes.status,
  opensAt: schemes.opensAt,
  closesAt: schemes.closesAt,
  timeZone: schemes.timeZone,
}
