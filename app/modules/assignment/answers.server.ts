import type { AssignmentStatus, Relationship, SchemeStatus } from '#db/enums'
import { isSchemeOpen, schemeOpenSql, schemePhase, type SchemePhase, type SchemeTimes } from '#app/modules/scheme/state'
import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import { getDb, type Tx } from '#db/client'
import {
  actionCodes,
  answers,
  assignments,
  brands,
  companies,
  questionnaires,
  questions,
  responses,
  schemes,
  users,
} from '#db/schema/index'
import { MAX_COLLEAGUES } from '#app/config/constants'
import { dateLabel, timeLeft, type DateLabel } from '#app/lib/dates'
import { misshapenFields, misshapenFormMessage } from '#app/lib/form-data.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { notFound } from '#app/modules/auth/guards.server'
import type { BrandLook } from '#app/modules/brand/look'
import { BRAND_LOOK_COLUMNS, brandLookOf } from '#app/modules/brand/look.server'
import type { SessionUser } from '#app/modules/auth/session.server'
import { publishEvent } from '#app/modules/realtime/events.server'
import {
  ANSWER_FIELD_PREFIX,
  estimateMinutes,
  fillName,
  formValuesOf,
  isAnswered,
  postedValues,
  type AnswerIntent,
  type AnswerQuestion,
  type AnswerValue,
  type QuestionKind,
} from './answer-schemas'
import { IntentSchema, parseSectionAnswers, sectionSchema } from './answer-parse.server'

/**
 * Answering a questionnaire: the introduction page, the stepped form, saving a section, submitting,
 * and the thank-you page. Ownership lives in every query (the respondent, or an admin who may look
 * but never answer); each page costs a fixed number of queries whatever the questionnaire's size.
 * A write locks the assignment row first, so a double click, a replayed form or an autosave racing
 * a submit are put in line rather than interleaved.
 */

type Viewer = Pick<SessionUser, 'id' | 'role'>

const IdSchema = z.uuid()
function parseId(raw: string | null | undefined): string {
  const parsed = IdSchema.safeParse(raw)
  if (!parsed.success) notFound()
  return parsed.data
}

// ---------------------------------------------------------------------------------------------
// Copy

/** The scheme's status and dates, from a row that selected its status as `schemeStatus`. */
function schemeOf(row: { schemeStatus: SchemeStatus; opensAt: Date; closesAt: Date }): SchemeTimes {
  return { status: row.schemeStatus, opensAt: row.opensAt, closesAt: row.closesAt }
}

export const ANSWER_MESSAGES = {
  closed: (closesAt: Date, timeZone?: string) =>
    `This feedback round closed on ${dateLabel(closesAt, timeZone).label}. Answers can no longer be added, changed or submitted.`,
  notOpen: (opensAt: Date, timeZone?: string) =>
    `This feedback round has not opened yet (it opens on ${dateLabel(opensAt, timeZone).label}). Answers cannot be saved before then.`,
  submitted: 'These answers were submitted and can no longer be changed.',
  admin: 'Administrators can view answers but cannot answer on someone’s behalf.',
  unreadable: 'This form could not be read. Reload the page and try again.',
} as const

// ---------------------------------------------------------------------------------------------
// Questions and sections

type QuestionRow = {
  id: string
  position: number
  section: string
  kind: QuestionKind
  text: string
  raterText: string
  required: boolean
  options: AnswerQuestion['options']
}

export type Section<Q> = { number: number; title: string; questions: Q[] }

/**
 * Questions (already in position order) grouped by section, sections in the order their first
 * question comes; numbered from 1 as the page and its URLs count them.
 */
export function groupSections<Q extends { section: string }>(list: Q[]): Section<Q>[] {
  const byTitle = new Map<string, Section<Q>>()
  for (const q of list) {
    let section = byTitle.get(q.section)
    if (!section) {
      section = { number: byTitle.size + 1, title: q.section, questions: [] }
      byTitle.set(q.section, section)
    }
    section.questions.push(q)
  }
  return [...byTitle.values()]
}

function subjectLabel(row: { subjectName: string; subjectEmail: string }) {
  return row.subjectName.trim() || row.subjectEmail
}

/** The wording this respondent reads: their own ("I …") or the colleague one with the name filled in. */
function toAnswerQuestion(q: QuestionRow, relationship: Relationship, subjectName: string): AnswerQuestion {
  return {
    id: q.id,
    kind: q.kind,
    text: relationship === 'self' ? q.text : fillName(q.raterText, subjectName),
    required: q.required,
    options: {
      labels: Array.isArray(q.options?.labels) ? q.options.labels.map(String) : undefined,
      min: q.options?.min,
      max: q.options?.max,
      allowNa: Boolean(q.options?.allowNa),
    },
  }
}

const questionColumns = {
  id: questions.id,
  position: questions.position,
  section: questions.section,
  kind: questions.kind,
  text: questions.text,
  raterText: questions.raterText,
  required: questions.required,
  options: questions.options,
}

// ---------------------------------------------------------------------------------------------
// The assignment row, with what every answering page needs beside it (one query)

async function findAssignment(id: string, viewer: Viewer, tx: Tx = getDb()) {
  const conditions: SQL[] = [eq(assignments.id, id)]
  if (viewer.role !== 'admin') conditions.push(eq(assignments.respondentId, viewer.id))
  const [row] = await tx
    .select({
      id: assignments.id,
      status: assignments.status,
      relationship: assignments.relationship,
      subjectId: assignments.subjectId,
      schemeId: assignments.schemeId,
      questionnaireId: assignments.questionnaireId,
      dueAt: assignments.dueAt,
      submittedAt: assignments.submittedAt,
      questionnaireTitle: questionnaires.title,
      schemeName: schemes.name,
      schemeStatus: schemes.status,
      opensAt: schemes.opensAt,
      closesAt: schemes.closesAt,
      timeZone: schemes.timeZone,
      subjectName: users.displayName,
      subjectEmail: users.email,
      responseId: responses.id,
      lastSection: responses.lastSection,
      // The programme's brand rides along for the page's header (no query of its own).
      ...BRAND_LOOK_COLUMNS,
    })
    .from(assignments)
    .innerJoin(questionnaires, eq(questionnaires.id, assignments.questionnaireId))
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(users, eq(users.id, assignments.subjectId))
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .innerJoin(brands, eq(brands.id, companies.brandId))
    .leftJoin(responses, eq(responses.assignmentId, assignments.id))
    .where(and(...conditions))
    .limit(1)
  // A revoked invitation is gone for its respondent; admins still see it.
  if (!row || (viewer.role !== 'admin' && row.status === 'revoked')) notFound()
  return row
}

// ---------------------------------------------------------------------------------------------
// The answering page

export type ViewQuestion = AnswerQuestion & {
  /** Numbered through the whole questionnaire, from 1. */
  number: number
  section: number
  /** The stored answer as form values (what the inputs start with). */
  values: string[]
  answer: AnswerValue | null
  /** Required and unanswered, shown beside the question when the page was asked to (?missing). */
  missing: boolean
}

export type SectionSummary = {
  number: number
  title: string
  questionCount: number
  answered: number
  /** Required questions in the section, and how many of them are still unanswered. */
  required: number
  missingRequired: number
}

export type ProgressTotals = {
  questions: number
  answered: number
  required: number
  requiredAnswered: number
  missingRequired: number
}

/** Answered and required counts, per section and overall, from which questions have a saved answer. */
export function progressOf(
  sections: Array<{ number: number; title: string; questions: Array<{ id: string; required: boolean }> }>,
  answered: (questionId: string) => boolean,
): { sections: SectionSummary[]; totals: ProgressTotals } {
  const summaries = sections.map((s) => {
    const required = s.questions.filter((q) => q.required)
    return {
      number: s.number,
      title: s.title,
      questionCount: s.questions.length,
      answered: s.questions.filter((q) => answered(q.id)).length,
      required: required.length,
      missingRequired: required.filter((q) => !answered(q.id)).length,
    }
  })
  const sum = (pick: (s: SectionSummary) => number) => summaries.reduce((n, s) => n + pick(s), 0)
  const required = sum((s) => s.required)
  const missingRequired = sum((s) => s.missingRequired)
  return {
    sections: summaries,
    totals: {
      questions: sum((s) => s.questionCount),
      answered: sum((s) => s.answered),
      required,
      requiredAnswered: required - missingRequired,
      missingRequired,
    },
  }
}

export type AnsweringMode = 'answer' | 'submitted' | 'admin' | 'closed' | 'not-open'

export type AnsweringView = {
  assignment: {
    id: string
    status: AssignmentStatus
    relationship: Relationship
    subjectName: string
    questionnaireId: string
    questionnaireTitle: string
    schemeName: string
    deadline: DateLabel
    timeLeft: string | null
    submittedAt: DateLabel | null
  }
  mode: AnsweringMode
  /** The programme's brand: the layout's header wears it (app/modules/brand/look.ts). */
  brand: BrandLook | null
  /** Why the form is not there (closed, not open yet, submitted, admin). */
  notice: string | null
  sections: SectionSummary[]
  /** The section shown (1-based); 0 when the questionnaire has no questions. */
  current: number
  /** The current section's questions when answering; every question in the read-only modes. */
  questions: ViewQuestion[]
  totals: ProgressTotals
}

/** `?section=N` when it names a section, else where the respondent stopped (last_section). */
function pickSection(raw: string | null | undefined, lastSection: number | null, count: number) {
  if (!count) return 0
  const asked = raw && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN
  if (asked >= 1 && asked <= count) return asked
  return Math.min(Math.max((lastSection ?? 0) + 1, 1), count)
}

export async function getAnsweringView(
  rawId: string | undefined,
  viewer: Viewer,
  options: { section?: string | null; showMissing?: boolean } = {},
): Promise<AnsweringView> {
  const id = parseId(rawId)
  const row = await findAssignment(id, viewer)
  const subjectName = subjectLabel(row)
  const questionRows = await getDb()
    .select({
      ...questionColumns,
      numericValue: answers.numericValue,
      textValue: answers.textValue,
      choices: answers.choices,
      notApplicable: answers.notApplicable,
      answerId: answers.id,
    })
    .from(questions)
    .leftJoin(
      answers,
      row.responseId
        ? and(eq(answers.questionId, questions.id), eq(answers.responseId, row.responseId))
        : sql`false`,
    )
    .where(eq(questions.questionnaireId, row.questionnaireId))
    .orderBy(asc(questions.position))

  const sections = groupSections(questionRows)
  const sectionOf = new Map<string, number>()
  const numberOf = new Map<string, number>()
  for (const s of sections)
    for (const q of s.questions) {
      sectionOf.set(q.id, s.number)
      numberOf.set(q.id, numberOf.size + 1)
    }
  const all: ViewQuestion[] = sections
    .flatMap((s) => s.questions)
    .map((q) => {
      const answer: AnswerValue | null = q.answerId
        ? {
            numericValue: q.numericValue,
            textValue: q.textValue,
            choices: q.choices,
            notApplicable: q.notApplicable ?? false,
          }
        : null
      return {
        ...toAnswerQuestion(q, row.relationship, subjectName),
        number: numberOf.get(q.id)!,
        section: sectionOf.get(q.id)!,
        values: formValuesOf(answer),
        answer,
        missing: false,
      }
    })
  const answeredIds = new Set(all.filter((q) => isAnswered(q.answer)).map((q) => q.id))
  const progress = progressOf(sections, (id) => answeredIds.has(id))

  const phase = schemePhase(schemeOf(row))
  const mode: AnsweringMode =
    row.status === 'submitted'
      ? 'submitted'
      : viewer.role === 'admin'
        ? 'admin'
        : phase === 'closed'
          ? 'closed'
          : phase === 'draft' || phase === 'upcoming'
            ? 'not-open'
            : 'answer'
  const notice =
    mode === 'submitted'
      ? viewer.role === 'admin'
        ? 'These answers were submitted; they are shown read-only.'
        : 'You submitted these answers, so they can no longer be changed. Thank you!'
      : mode === 'admin'
        ? `${ANSWER_MESSAGES.admin} This is a read-only view of the answers saved so far.`
        : mode === 'closed'
          ? ANSWER_MESSAGES.closed(row.closesAt, row.timeZone)
          : mode === 'not-open'
            ? ANSWER_MESSAGES.notOpen(row.opensAt, row.timeZone)
            : null

  const current = pickSection(options.section, row.lastSection, sections.length)
  const shown =
    mode === 'answer'
      ? all
          .filter((q) => q.section === current)
          .map((q) => ({
            ...q,
            missing: Boolean(options.showMissing) && q.required && !isAnswered(q.answer),
          }))
      : all
  const deadline = row.dueAt && row.dueAt < row.closesAt ? row.dueAt : row.closesAt
  return {
    assignment: {
      id: row.id,
      status: row.status,
      relationship: row.relationship,
      subjectName,
      questionnaireId: row.questionnaireId,
      questionnaireTitle: row.questionnaireTitle,
      schemeName: row.schemeName,
      deadline: dateLabel(deadline, row.timeZone),
      timeLeft: timeLeft(deadline),
      submittedAt: row.submittedAt ? dateLabel(row.submittedAt, row.timeZone) : null,
    },
    mode,
    brand: brandLookOf(row),
    notice,
    sections: progress.sections,
    current,
    questions: shown,
    totals: progress.totals,
  }
}

// ---------------------------------------------------------------------------------------------
// Saving and submitting

export type MissingSection = { number: number; title: string; count: number }

export type SaveOutcome =
  | {
      kind: 'saved'
      intent: Exclude<AnswerIntent, 'submit'>
      assignmentId: string
      relationship: Relationship
      /** The section the answers belonged to, and the one to show next (both 1-based). */
      section: number
      target: number
      sectionTitle: string
      /** Required questions of the saved section still unanswered. */
      missingInSection: number
      savedAt: string
      /**
       * After an autosave, the counts as saved now (the page does not reload, so its progress bar and
       * "still unanswered" summary take them from here).
       */
      progress?: { sections: SectionSummary[]; totals: ProgressTotals }
    }
  | { kind: 'submitted'; assignmentId: string; already: boolean }
  | {
      kind: 'refused'
      /** 200 when the posted section was saved and only the submit was refused (see below). */
      status: 200 | 400 | 403 | 409
      reason: 'unreadable' | 'invalid' | 'missing' | 'admin' | 'closed' | 'not-open' | 'submitted'
      message: string
      section?: number
      fieldErrors?: Record<string, string[]>
      values?: Record<string, string[]>
      missing?: MissingSection[]
    }

const ActionSchema = z.object({ intent: IntentSchema, section: z.unknown() })

function targetSection(intent: AnswerIntent, section: number, count: number) {
  if (intent === 'next') return Math.min(section + 1, count)
  if (intent === 'previous') return Math.max(section - 1, 1)
  if (intent.startsWith('goto-')) return Math.min(Math.max(Number(intent.slice(5)), 1), count)
  return section
}

function stateRefusal(
  phase: SchemePhase,
  scheme: { opensAt: Date; closesAt: Date; timeZone: string },
): Extract<SaveOutcome, { kind: 'refused' }> | null {
  if (phase === 'closed')
    return {
      kind: 'refused',
      status: 409,
      reason: 'closed',
      message: ANSWER_MESSAGES.closed(scheme.closesAt, scheme.timeZone),
    }
  if (phase === 'draft' || phase === 'upcoming')
    return {
      kind: 'refused',
      status: 409,
      reason: 'not-open',
      message: ANSWER_MESSAGES.notOpen(scheme.opensAt, scheme.timeZone),
    }
  return null
}

/**
 * Saves the posted section of an assignment, and with intent "submit" submits the whole response.
 * Saving part of a questionnaire always works (required questions may wait); an answer that breaks
 * its question's rules refuses the whole post with a message beside it, and nothing is written.
 */
export async function saveAnswers(
  rawId: string | undefined,
  viewer: Viewer & { ip?: string | null },
  formData: FormData,
): Promise<SaveOutcome> {
  const id = parseId(rawId)
  const row = await findAssignment(id, viewer)
  // Admins may open anyone's answers, never write them: answering on someone's behalf would forge feedback.
  if (viewer.role === 'admin')
    return { kind: 'refused', status: 403, reason: 'admin', message: ANSWER_MESSAGES.admin }

  // Answer fields are checked question by question (a multiple choice posts one value per box);
  // every other field takes one value, sent once, like every other form's (form-data.server.ts).
  const misshapen = misshapenFields(formData, (name) => name.startsWith(ANSWER_FIELD_PREFIX))
  if (misshapen.length)
    return {
      kind: 'refused',
      status: 400,
      reason: 'unreadable',
      message: misshapenFormMessage(misshapen[0]!),
    }
  const head = ActionSchema.safeParse({ intent: formData.get('intent'), section: formData.get('section') })
  if (!head.success)
    return { kind: 'refused', status: 400, reason: 'unreadable', message: ANSWER_MESSAGES.unreadable }
  const intent = head.data.intent

  // A replayed or double-clicked submit lands here after the first one: same outcome, no change.
  if (row.status === 'submitted') {
    return intent === 'submit'
      ? { kind: 'submitted', assignmentId: id, already: true }
      : { kind: 'refused', status: 409, reason: 'submitted', message: ANSWER_MESSAGES.submitted }
  }
  const early = stateRefusal(
    schemePhase(schemeOf(row)),
    row,
  )
  if (early) return early

  const questionRows = await getDb()
    .select(questionColumns)
    .from(questions)
    .where(eq(questions.questionnaireId, row.questionnaireId))
    .orderBy(asc(questions.position))
  const subjectName = subjectLabel(row)
  const sections = groupSections(
    questionRows.map((q) => ({ ...toAnswerQuestion(q, row.relationship, subjectName), section: q.section })),
  )
  const sectionParsed = sectionSchema(sections.length).safeParse(head.data.section)
  if (!sectionParsed.success || !sections.length) {
    return {
      kind: 'refused',
      status: 400,
      reason: 'unreadable',
      message: sectionParsed.success ? ANSWER_MESSAGES.unreadable : sectionParsed.error.issues[0]!.message,
    }
  }
  const sectionNumber = sectionParsed.data
  const section = sections[sectionNumber - 1]!
  const parsed = parseSectionAnswers(section.questions, formData)
  if (!parsed.ok) {
    const count = Object.keys(parsed.fieldErrors).length
    return {
      kind: 'refused',
      status: 400,
      reason: 'invalid',
      message:
        count === 1
          ? 'One answer needs correcting before it can be saved: see the message beside the question.'
          : `${count} answers need correcting before they can be saved: see the messages beside the questions.`,
      section: sectionNumber,
      fieldErrors: parsed.fieldErrors,
      values: postedValues(section.questions, formData),
    }
  }
  const target = targetSection(intent, sectionNumber, sections.length)

  return getDb().transaction(async (tx): Promise<SaveOutcome> => {
    // The lock puts concurrent posts for this assignment in line; the state is read again under it.
    const [locked] = await tx
      .select({
        status: assignments.status,
        subjectId: assignments.subjectId,
        relationship: assignments.relationship,
        schemeStatus: schemes.status,
        opensAt: schemes.opensAt,
        closesAt: schemes.closesAt,
        timeZone: schemes.timeZone,
      })
      .from(assignments)
      .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
      .where(and(eq(assignments.id, id), eq(assignments.respondentId, viewer.id)))
      .for('update', { of: assignments })
    if (!locked || locked.status === 'revoked') notFound()
    if (locked.status === 'submitted') {
      return intent === 'submit'
        ? { kind: 'submitted', assignmentId: id, already: true }
        : { kind: 'refused', status: 409, reason: 'submitted', message: ANSWER_MESSAGES.submitted }
    }
    const refusal = stateRefusal(
      schemePhase(schemeOf(locked)),
      locked,
    )
    if (refusal) return refusal

    // Read after the lock (a statement of its own): a response created by the post we waited for is seen.
    let [response] = await tx
      .select({ id: responses.id })
      .from(responses)
      .where(eq(responses.assignmentId, id))
      .limit(1)
    if (!response) {
      ;[response] = await tx
        .insert(responses)
        .values({ assignmentId: id, lastSection: target - 1 })
        .onConflictDoNothing()
        .returning({ id: responses.id })
      response ??= (
        await tx.select({ id: responses.id }).from(responses).where(eq(responses.assignmentId, id)).limit(1)
      )[0]
    }
    const responseId = response!.id

    const given = [...parsed.answers].filter((entry): entry is [string, AnswerValue] => entry[1] !== null)
    const cleared = [...parsed.answers]
      .filter(([, value]) => value === null)
      .map(([questionId]) => questionId)
    if (given.length) {
      await tx
        .insert(answers)
        .values(given.map(([questionId, value]) => ({ responseId, questionId, ...value })))
        .onConflictDoUpdate({
          target: [answers.responseId, answers.questionId],
          set: {
            numericValue: sql`excluded.numeric_value`,
            textValue: sql`excluded.text_value`,
            choices: sql`excluded.choices`,
            notApplicable: sql`excluded.not_applicable`,
            updatedAt: sql`now()`,
          },
        })
    }
    if (cleared.length) {
      await tx
        .delete(answers)
        .where(and(eq(answers.responseId, responseId), inArray(answers.questionId, cleared)))
    }
    const [saved] = await tx
      .update(responses)
      .set({ lastSection: target - 1, updatedAt: sql`now()` })
      .where(eq(responses.id, responseId))
      .returning({ updatedAt: responses.updatedAt })

    const readStored = () =>
      tx
        .select({
          questionId: answers.questionId,
          numericValue: answers.numericValue,
          textValue: answers.textValue,
          choices: answers.choices,
          notApplicable: answers.notApplicable,
        })
        .from(answers)
        .where(eq(answers.responseId, responseId))

    if (intent !== 'submit') {
      if (locked.status === 'pending') {
        await tx.update(assignments).set({ status: 'in_progress' }).where(eq(assignments.id, id))
        await publishEvent(tx, {
          type: 'assignment.updated',
          subjectId: locked.subjectId,
          respondentId: viewer.id,
          assignmentId: id,
          status: 'in_progress',
        })
      }
      // An autosave leaves the page as it is: it learns the new counts from here (the other steps reload it).
      const answeredNow =
        intent === 'autosave'
          ? new Set((await readStored()).filter((a) => isAnswered(a)).map((a) => a.questionId))
          : null
      return {
        kind: 'saved',
        intent,
        assignmentId: id,
        relationship: locked.relationship,
        section: sectionNumber,
        target,
        sectionTitle: section.title,
        missingInSection: section.questions.filter((q) => q.required && !parsed.answers.get(q.id)).length,
        savedAt: saved!.updatedAt.toISOString(),
        ...(answeredNow ? { progress: progressOf(sections, (id) => answeredNow.has(id)) } : {}),
      }
    }

    // Submit: every required answer must be there, in every section.
    const stored = await readStored()
    const answered = new Set(stored.filter((a) => isAnswered(a)).map((a) => a.questionId))
    const missing = sections
      .map((s) => ({
        number: s.number,
        title: s.title,
        count: s.questions.filter((q) => q.required && !answered.has(q.id)).length,
      }))
      .filter((s) => s.count > 0)
    if (missing.length) {
      if (locked.status === 'pending') {
        await tx.update(assignments).set({ status: 'in_progress' }).where(eq(assignments.id, id))
        await publishEvent(tx, {
          type: 'assignment.updated',
          subjectId: locked.subjectId,
          respondentId: viewer.id,
          assignmentId: id,
          status: 'in_progress',
        })
      }
      const total = missing.reduce((n, s) => n + s.count, 0)
      // The section was saved (the answers are kept, and the message says so): a 4xx would claim
      // the request changed nothing. The submit part is refused in the answer's content instead.
      return {
        kind: 'refused',
        status: 200,
        reason: 'missing',
        message:
          total === 1
            ? 'One required question is still unanswered. Your answers are saved; answer it, then submit.'
            : `${total} required questions are still unanswered. Your answers are saved; answer them, then submit.`,
        section: sectionNumber,
        missing,
        fieldErrors: Object.fromEntries(
          section.questions
            .filter((q) => q.required && !answered.has(q.id))
            .map((q) => [q.id, ['Answer this question before you submit.']]),
        ),
      }
    }

    // now() is the transaction's start: the response and the assignment get the same instant.
    await tx
      .update(responses)
      .set({ submittedAt: sql`now()` })
      .where(eq(responses.id, responseId))
    await tx
      .update(assignments)
      .set({ status: 'submitted', submittedAt: sql`now()` })
      .where(eq(assignments.id, id))
    if (locked.relationship !== 'self') {
      // The colleague's invite link has done its job: it stops signing anyone in.
      await tx
        .update(actionCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(actionCodes.assignmentId, id),
            eq(actionCodes.kind, 'colleague_invite'),
            sql`${actionCodes.usedAt} is null`,
          ),
        )
    }
    await recordAudit(tx, {
      actorId: viewer.id,
      action: 'assignment.submit',
      entity: 'assignment',
      entityId: id,
      details: { responseId, relationship: locked.relationship, answers: stored.length },
      ip: viewer.ip ?? null,
    })
    await publishEvent(tx, {
      type: 'assignment.updated',
      subjectId: locked.subjectId,
      respondentId: viewer.id,
      assignmentId: id,
      status: 'submitted',
    })
    return { kind: 'submitted', assignmentId: id, already: false }
  })
}

// ---------------------------------------------------------------------------------------------
// The questionnaire's introduction

export type IntroAssignment = {
  id: string
  status: AssignmentStatus
  relationship: Relationship
  subjectName: string
  schemeName: string
  deadline: DateLabel
  timeLeft: string | null
  /** Where the scheme stands (app/modules/scheme/state.ts): only an open one can be answered. */
  phase: SchemePhase
  /** The section a "continue" resumes at (1-based). */
  resumeSection: number
  brand: BrandLook | null
}

export type QuestionnaireIntro = {
  questionnaire: { id: string; title: string; intro: string }
  questionCount: number
  sectionCount: number
  minutes: number
  assignments: IntroAssignment[]
}

/** The assignment, its scheme and whose feedback it is: the columns the intro and thank-you pages share. */
const ASSIGNMENT_SUMMARY = {
  id: assignments.id,
  status: assignments.status,
  relationship: assignments.relationship,
  dueAt: assignments.dueAt,
  subjectName: users.displayName,
  subjectEmail: users.email,
  schemeName: schemes.name,
  schemeStatus: schemes.status,
  opensAt: schemes.opensAt,
  closesAt: schemes.closesAt,
  timeZone: schemes.timeZone,
}

export async function getQuestionnaireIntro(
  rawId: string | undefined,
  viewer: Viewer,
): Promise<QuestionnaireIntro> {
  const id = parseId(rawId)
  const db = getDb()
  // Ownership first: without a live assignment on it, the questionnaire does not exist for them.
  const rows =
    viewer.role === 'admin'
      ? []
      : await db
          .select({
            ...ASSIGNMENT_SUMMARY,
            lastSection: responses.lastSection,
            ...BRAND_LOOK_COLUMNS,
          })
          .from(assignments)
          .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
          .innerJoin(users, eq(users.id, assignments.subjectId))
          .innerJoin(companies, eq(companies.id, schemes.companyId))
          .innerJoin(brands, eq(brands.id, companies.brandId))
          .leftJoin(responses, eq(responses.assignmentId, assignments.id))
          .where(
            and(
              eq(assignments.questionnaireId, id),
              eq(assignments.respondentId, viewer.id),
              ne(assignments.status, 'revoked'),
            ),
          )
          // Self first, then the people who asked, oldest invitation first.
          .orderBy(sql`${assignments.relationship} = 'self' desc`, asc(assignments.createdAt))
  if (viewer.role !== 'admin' && !rows.length) notFound()

  const count = (kind: QuestionKind) =>
    sql<number>`(count(*) filter (where ${questions.kind} = ${kind}))::int`
  const [q] = await db
    .select({
      id: questionnaires.id,
      title: questionnaires.title,
      intro: questionnaires.intro,
      questionCount: sql<number>`count(${questions.id})::int`,
      sectionCount: sql<number>`count(distinct ${questions.section})::int`,
      scale: count('scale'),
      single: count('single'),
      multi: count('multi'),
      text: count('text'),
      textarea: count('textarea'),
    })
    .from(questionnaires)
    .leftJoin(questions, eq(questions.questionnaireId, questionnaires.id))
    .where(eq(questionnaires.id, id))
    .groupBy(questionnaires.id)
  if (!q) notFound()

  return {
    questionnaire: { id: q.id, title: q.title, intro: q.intro },
    questionCount: Number(q.questionCount),
    sectionCount: Number(q.sectionCount),
    minutes: estimateMinutes({
      scale: Number(q.scale),
      single: Number(q.single),
      multi: Number(q.multi),
      text: Number(q.text),
      textarea: Number(q.textarea),
    }),
    assignments: rows.map((r) => {
      const deadline = r.dueAt && r.dueAt < r.closesAt ? r.dueAt : r.closesAt
      return {
        id: r.id,
        status: r.status,
        relationship: r.relationship,
        subjectName: subjectLabel(r),
        schemeName: r.schemeName,
        deadline: dateLabel(deadline, r.timeZone),
        timeLeft: timeLeft(deadline),
        phase: schemePhase(schemeOf(r)),
        resumeSection: (r.lastSection ?? 0) + 1,
        brand: brandLookOf(r),
      }
    }),
  }
}

// ---------------------------------------------------------------------------------------------
// Thank you

export type OpenAssignment = {
  id: string
  relationship: Relationship
  subjectName: string
  status: AssignmentStatus
  deadline: DateLabel
}

export type ThankYouView = {
  role: 'employee' | 'colleague'
  /** The assignment the page is about (the one just submitted or saved), when there is one. */
  assignment: {
    id: string
    status: AssignmentStatus
    relationship: Relationship
    subjectName: string
    schemeName: string
    deadline: DateLabel
  } | null
  /** The programme's brand (header, and its contact links override the portal's). */
  brand: BrandLook | null
  /** The employee's own scheme: what happens next. */
  scheme: {
    maxColleagues: number
    minRaters: number
    invited: number
    remaining: number
    colleaguesSubmitted: number
    selfSubmitted: boolean
    reportResponseId: string | null
    open: boolean
  } | null
  /** Other assignments still waiting for this person's answers. */
  open: OpenAssignment[]
}

/**
 * The page after submitting (or "finish later"): about `?assignment=<id>` when it is the visitor's,
 * else their most recent assignment. Three queries: the assignment with its brand and scheme
 * counts, and the list of what is still open.
 */
export async function getThankYou(
  viewer: Viewer & { role: 'employee' | 'colleague' },
  rawAssignmentId: string | null,
): Promise<ThankYouView> {
  const db = getDb()
  const wanted = IdSchema.safeParse(rawAssignmentId)
  const wantedId = wanted.success ? wanted.data : null
  const raters = sql`(select count(*)::int from ${assignments} r where r.scheme_id = ${assignments.schemeId} and r.subject_id = ${viewer.id} and r.relationship <> 'self' and r.status <> 'revoked')`
  const ratersSubmitted = sql`(select count(*)::int from ${assignments} r where r.scheme_id = ${assignments.schemeId} and r.subject_id = ${viewer.id} and r.relationship <> 'self' and r.status = 'submitted')`
  const conditions: SQL[] = [eq(assignments.respondentId, viewer.id), ne(assignments.status, 'revoked')]
  // An employee's page is about their own self-assessment unless the link names another of theirs.
  if (viewer.role === 'employee' && !wantedId) conditions.push(eq(assignments.relationship, 'self'))
  const [row] = await db
    .select({
      ...ASSIGNMENT_SUMMARY,
      maxColleagues: schemes.maxColleagues,
      minRaters: schemes.minRaters,
      responseId: responses.id,
      invited: sql<number>`${raters}`,
      colleaguesSubmitted: sql<number>`${ratersSubmitted}`,
      ...BRAND_LOOK_COLUMNS,
    })
    .from(assignments)
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .innerJoin(brands, eq(brands.id, companies.brandId))
    .innerJoin(users, eq(users.id, assignments.subjectId))
    .leftJoin(responses, eq(responses.assignmentId, assignments.id))
    .where(and(...conditions))
    .orderBy(
      // The assignment the link names first (when it is theirs), else the latest submitted, else the newest.
      ...(wantedId ? [sql`${assignments.id} = ${wantedId} desc`] : []),
      sql`${assignments.submittedAt} desc nulls last`,
      desc(assignments.createdAt),
    )
    .limit(1)

  const openRows = await db
    .select({
      id: assignments.id,
      relationship: assignments.relationship,
      status: assignments.status,
      dueAt: assignments.dueAt,
      subjectName: users.displayName,
      subjectEmail: users.email,
      closesAt: schemes.closesAt,
      timeZone: schemes.timeZone,
    })
    .from(assignments)
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(users, eq(users.id, assignments.subjectId))
    .where(
      and(
        eq(assignments.respondentId, viewer.id),
        inArray(assignments.status, ['pending', 'in_progress']),
        schemeOpenSql(),
      ),
    )
    .orderBy(asc(assignments.createdAt))
    .limit(20)

  const isSelf = row?.relationship === 'self'
  return {
    role: viewer.role,
    assignment: row
      ? {
          id: row.id,
          status: row.status,
          relationship: row.relationship,
          subjectName: subjectLabel(row),
          schemeName: row.schemeName,
          deadline: dateLabel(row.dueAt && row.dueAt < row.closesAt ? row.dueAt : row.closesAt, row.timeZone),
        }
      : null,
    brand: brandLookOf(row),
    scheme:
      row && isSelf
        ? {
            maxColleagues: Math.min(row.maxColleagues, MAX_COLLEAGUES),
            minRaters: row.minRaters,
            invited: Number(row.invited),
            remaining: Math.max(0, Math.min(row.maxColleagues, MAX_COLLEAGUES) - Number(row.invited)),
            colleaguesSubmitted: Number(row.colleaguesSubmitted),
            selfSubmitted: row.status === 'submitted',
            reportResponseId: row.status === 'submitted' ? row.responseId : null,
            open: isSchemeOpen(schemeOf(row)),
          }
        : null,
    open: openRows
      .filter((o) => o.id !== row?.id)
      .map((o) => ({
        id: o.id,
        relationship: o.relationship,
        status: o.status,
        subjectName: subjectLabel(o),
        deadline: dateLabel(o.dueAt && o.dueAt < o.closesAt ? o.dueAt : o.closesAt, o.timeZone),
      })),
  }
}
