import type { Relationship } from '#db/enums'
import { schemePhase, type SchemePhase } from '#app/modules/scheme/state'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { getDb } from '#db/client'
import { actionCodes, answers, assignments, questions, responses, schemes } from '#db/schema/index'
import { misshapenFields, misshapenFormMessage } from '#app/lib/form-data.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { notFound } from '#app/modules/auth/guards.server'
import { publishEvent } from '#app/modules/realtime/events.server'
import {
  ANSWER_FIELD_PREFIX,
  isAnswered,
  postedValues,
  type AnswerIntent,
  type AnswerValue,
} from './answer-schemas'
import { IntentSchema, parseSectionAnswers, sectionSchema } from './answer-parse.server'
import { ANSWER_MESSAGES } from './answer-messages'
import {
  findAssignment,
  parseId,
  questionColumns,
  schemeOf,
  subjectLabel,
  toAnswerQuestion,
  type Viewer,
} from './assignment-row.server'
import { groupSections, progressOf, type ProgressTotals, type SectionSummary } from './sections'

/**
 * Saving a section of answers and submitting them (POST /assignment/:id). A write locks the
 * assignment row first, so a double click, a replayed form or an autosave racing a submit are put in
 * line rather than interleaved.
 */

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
  const early = stateRefusal(schemePhase(schemeOf(row)), row)
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
    const refusal = stateRefusal(schemePhase(schemeOf(locked)), locked)
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
