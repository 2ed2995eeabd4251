import type { AssignmentStatus, Relationship, SchemeStatus } from '#db/enums'
import { schemePhase } from '#app/modules/scheme/state'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { getDb, type Tx } from '#db/client'
import { answers, assignments, responses, schemes } from '#db/schema/index'
import { misshapenFields, misshapenFormMessage } from '#app/lib/form-data.server'
import { voidInviteCodes } from '#app/modules/action-code/action-code.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { publishEvent } from '#app/modules/realtime/events.server'
import {
  ANSWER_FIELD_PREFIX,
  isAnswered,
  postedValues,
  type AnswerIntent,
  type AnswerQuestion,
  type AnswerValue,
} from './answer-schemas'
import { IntentSchema, parseSectionAnswers, sectionSchema } from './answer-parse.server'
import { ANSWER_MESSAGES } from './answer-messages'
import {
  assignmentReopened,
  findAssignmentWithQuestions,
  parseId,
  schemeOf,
  roundEndOf,
  subjectLabel,
  toAnswerQuestion,
  type Viewer,
} from './assignment-row.server'
import { groupSections, progressOf, type ProgressTotals, type Section, type SectionSummary } from './sections'

/**
 * Saving a section of answers and submitting them (POST /assignment/:id). A write locks the
 * assignment row first, so a double click, a replayed form or an autosave racing a submit are put in
 * line rather than interleaved.
 */

export type MissingSection = { number: number; title: string; count: number }

export type SaveRefusal =
  'not-found' | 'unreadable' | 'invalid' | 'missing' | 'admin' | 'closed' | 'not-open' | 'submitted'

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
      /**
       * Why, in the module's words; the route alone turns it into an HTTP status. 'missing' is a
       * refused submit after the posted section was saved (see missingRequired).
       */
      reason: SaveRefusal
      message: string
      section?: number
      fieldErrors?: Record<string, string[]>
      values?: Record<string, string[]>
      missing?: MissingSection[]
    }

type Refused = Extract<SaveOutcome, { kind: 'refused' }>

/** No such assignment, or not the writer's (or revoked for them): the same answer for all three. */
const NOT_FOUND: Refused = { kind: 'refused', reason: 'not-found', message: 'That page does not exist.' }
type Writer = Viewer & { ip?: string | null }

/**
 * Saves the posted section of an assignment, and with intent "submit" submits the whole response.
 * Saving part of a questionnaire always works (required questions may wait); an answer that breaks
 * its question's rules refuses the whole post with a message beside it, and nothing is written.
 */
export async function saveAnswers(
  rawId: string | undefined,
  viewer: Writer,
  formData: FormData,
): Promise<SaveOutcome> {
  const id = parseId(rawId)
  const row = id ? await findAssignmentWithQuestions(id, viewer) : null
  if (!id || !row) return NOT_FOUND
  // Admins may open anyone's answers, never write them: answering on someone's behalf would forge feedback.
  if (viewer.role === 'admin') return { kind: 'refused', reason: 'admin', message: ANSWER_MESSAGES.admin }
  const head = readIntent(formData)
  if ('kind' in head) return head
  const { intent } = head
  const early = refuseUnlessAnswerable(row, intent, id)
  if (early) return early
  const post = readSection(row, intent, head.section, formData)
  if ('kind' in post) return post

  return getDb().transaction(async (tx): Promise<SaveOutcome> => {
    const locked = await lockAssignment(tx, id, viewer.id)
    if (!locked) return NOT_FOUND
    const refusal = refuseUnlessAnswerable(locked, intent, id)
    if (refusal) return refusal
    const { responseId, savedAt, before } = await upsertSectionAnswers(tx, id, post, {
      readBefore: intent === 'autosave',
    })
    if (intent === 'submit') return submit(tx, { id, viewer, locked, post, responseId })
    await markStarted(tx, { id, respondentId: viewer.id, locked })
    if (intent === 'review') {
      // The confirmation step only makes sense when the submit would go through: else say what is missing.
      const missing = missingRequired(post, answeredIds(await readStoredAnswers(tx, responseId)))
      if (missing) return missing
    }
    return savedOutcome({ id, intent, locked, post, savedAt, before })
  })
}

// ---------------------------------------------------------------------------------------------
// Reading the post (before any write)

const ActionSchema = z.object({ intent: IntentSchema, section: z.unknown() })

/**
 * The post's intent and (unchecked) section number. Answer fields are checked question by question
 * later (a multiple choice posts one value per box); every other field takes one value, sent once,
 * like every other form's (form-data.server.ts).
 */
function readIntent(formData: FormData): { intent: AnswerIntent; section: unknown } | Refused {
  const misshapen = misshapenFields(formData, (name) => name.startsWith(ANSWER_FIELD_PREFIX))
  if (misshapen.length)
    return {
      kind: 'refused',
      reason: 'unreadable',
      message: misshapenFormMessage(misshapen[0]!),
    }
  const head = ActionSchema.safeParse({ intent: formData.get('intent'), section: formData.get('section') })
  if (!head.success) return { kind: 'refused', reason: 'unreadable', message: ANSWER_MESSAGES.unreadable }
  return head.data
}

/** What decides whether answers may be written: asked before reading the post, and again under the lock. */
type AnswerableState = {
  status: AssignmentStatus
  schemeStatus: SchemeStatus
  opensAt: Date
  closesAt: Date
  roundEndedAt: Date | null
  timeZone: string
}

/**
 * Null when answers may be written: the assignment is not submitted and its scheme is open (the one
 * rule, app/modules/scheme/state.ts). A replayed or double-clicked submit lands here after the first
 * one: same outcome, no change.
 */
function refuseUnlessAnswerable(
  state: AnswerableState,
  intent: AnswerIntent,
  id: string,
): SaveOutcome | null {
  if (state.status === 'submitted')
    return intent === 'submit'
      ? { kind: 'submitted', assignmentId: id, already: true }
      : { kind: 'refused', reason: 'submitted', message: ANSWER_MESSAGES.submitted }
  const phase = schemePhase(schemeOf(state))
  if (phase === 'closed')
    return {
      kind: 'refused',
      reason: 'closed',
      message: ANSWER_MESSAGES.closed(roundEndOf(state), state.timeZone),
    }
  if (phase === 'draft' || phase === 'upcoming')
    return {
      kind: 'refused',
      reason: 'not-open',
      message: ANSWER_MESSAGES.notOpen(state.opensAt, state.timeZone),
    }
  return null
}

type AssignmentRow = NonNullable<Awaited<ReturnType<typeof findAssignmentWithQuestions>>>

type QuestionSection = Section<AnswerQuestion & { section: string }>

/** The posted section, checked: the questionnaire's sections, the one posted, its answers, where to go next. */
type PostedSection = {
  sections: QuestionSection[]
  number: number
  section: QuestionSection
  answers: Map<string, AnswerValue | null>
  target: number
}

/** The section to show after this post (1-based): the next, the previous, a named one, or the same. */
function targetSection(intent: AnswerIntent, section: number, count: number) {
  if (intent === 'next') return Math.min(section + 1, count)
  if (intent === 'previous') return Math.max(section - 1, 1)
  if (intent.startsWith('goto-')) return Math.min(Math.max(Number(intent.slice(5)), 1), count)
  return section
}

/**
 * Puts the questionnaire's questions (read with the assignment) in the wording this respondent
 * reads, checks the posted section number against them and parses that section's answers. Any
 * answer breaking its question's rules refuses the whole post, with the messages and the posted
 * values to show again.
 */
function readSection(
  row: Pick<AssignmentRow, 'questions' | 'relationship' | 'subjectName' | 'subjectEmail'>,
  intent: AnswerIntent,
  rawSection: unknown,
  formData: FormData,
): PostedSection | Refused {
  const questionRows = row.questions
  const subjectName = subjectLabel(row)
  const sections = groupSections(
    questionRows.map((q) => ({ ...toAnswerQuestion(q, row.relationship, subjectName), section: q.section })),
  )
  const sectionParsed = sectionSchema(sections.length).safeParse(rawSection)
  if (!sectionParsed.success || !sections.length) {
    return {
      kind: 'refused',
      reason: 'unreadable',
      message: sectionParsed.success ? ANSWER_MESSAGES.unreadable : sectionParsed.error.issues[0]!.message,
    }
  }
  const number = sectionParsed.data
  const section = sections[number - 1]!
  const parsed = parseSectionAnswers(section.questions, formData)
  if (!parsed.ok) {
    const count = Object.keys(parsed.fieldErrors).length
    return {
      kind: 'refused',
      reason: 'invalid',
      message:
        count === 1
          ? 'One answer needs correcting before it can be saved: see the message beside the question.'
          : `${count} answers need correcting before they can be saved: see the messages beside the questions.`,
      section: number,
      fieldErrors: parsed.fieldErrors,
      values: postedValues(section.questions, formData),
    }
  }
  return {
    sections,
    number,
    section,
    answers: parsed.answers,
    target: targetSection(intent, number, sections.length),
  }
}

// ---------------------------------------------------------------------------------------------
// Writing (one transaction)

/**
 * Locks the assignment row for the rest of the transaction and reads its state again under the
 * lock: concurrent posts for this assignment are put in line. Gone, not the viewer's, or revoked: a 404.
 */
async function lockAssignment(tx: Tx, id: string, respondentId: string) {
  const [locked] = await tx
    .select({
      status: assignments.status,
      schemeId: assignments.schemeId,
      subjectId: assignments.subjectId,
      relationship: assignments.relationship,
      schemeStatus: schemes.status,
      opensAt: schemes.opensAt,
      closesAt: schemes.closesAt,
      roundEndedAt: assignments.closedAt,
      timeZone: schemes.timeZone,
      reopened: assignmentReopened,
    })
    .from(assignments)
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .where(and(eq(assignments.id, id), eq(assignments.respondentId, respondentId)))
    .for('update', { of: assignments })
  return !locked || locked.status === 'revoked' ? null : locked
}

type LockedAssignment = NonNullable<Awaited<ReturnType<typeof lockAssignment>>>

/** An answer as stored, as the response's upsert reads them back. */
type StoredAnswer = AnswerValue & { questionId: string }

/**
 * Writes the posted section's answers: the response is created on the first save or else touched,
 * remembering the section to come back to (one upsert, after the lock, so a response created by the
 * post we waited for is found); given answers are inserted or replaced, emptied ones deleted. With
 * `readBefore` the upsert also reads back every answer stored before this post (the autosave's
 * counts; nothing else writes them while the assignment is locked).
 */
async function upsertSectionAnswers(
  tx: Tx,
  assignmentId: string,
  post: PostedSection,
  { readBefore = false }: { readBefore?: boolean } = {},
): Promise<{ responseId: string; savedAt: Date; before: StoredAnswer[] | null }> {
  // (The RETURNING subquery names the row as responses.id: Drizzle writes a RETURNING column
  // unqualified, which inside the subquery would mean the answer's own id.)
  const [response] = await tx
    .insert(responses)
    .values({ assignmentId, lastSection: post.target - 1 })
    .onConflictDoUpdate({
      target: responses.assignmentId,
      set: { lastSection: post.target - 1, updatedAt: sql`now()` },
    })
    .returning({
      id: responses.id,
      updatedAt: responses.updatedAt,
      before: readBefore
        ? sql<StoredAnswer[]>`(SELECT coalesce(json_agg(json_build_object('questionId', x.question_id,
            'numericValue', x.numeric_value, 'textValue', x.text_value, 'choices', x.choices,
            'notApplicable', x.not_applicable)), '[]'::json)
            FROM answers x WHERE x.response_id = responses.id)`
        : sql<null>`NULL`,
    })
  const responseId = response!.id
  const given = [...post.answers].filter((entry): entry is [string, AnswerValue] => entry[1] !== null)
  const cleared = [...post.answers].filter(([, value]) => value === null).map(([questionId]) => questionId)
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
  return { responseId, savedAt: response!.updatedAt, before: response!.before }
}

/** A pending assignment becomes in progress at its first save, and the subject's pages hear of it. */
async function markStarted(
  tx: Tx,
  { id, respondentId, locked }: { id: string; respondentId: string; locked: LockedAssignment },
) {
  if (locked.status !== 'pending') return
  await tx.update(assignments).set({ status: 'in_progress' }).where(eq(assignments.id, id))
  await publishEvent(tx, {
    type: 'assignment.updated',
    subjectId: locked.subjectId,
    respondentId,
    assignmentId: id,
    status: 'in_progress',
  })
}

/** Every stored answer of the response (one query). */
function readStoredAnswers(tx: Tx, responseId: string) {
  return tx
    .select({
      questionId: answers.questionId,
      numericValue: answers.numericValue,
      textValue: answers.textValue,
      choices: answers.choices,
      notApplicable: answers.notApplicable,
    })
    .from(answers)
    .where(eq(answers.responseId, responseId))
}

function answeredIds(stored: Awaited<ReturnType<typeof readStoredAnswers>>): Set<string> {
  return new Set(stored.filter((a) => isAnswered(a)).map((a) => a.questionId))
}

/**
 * The questions answered once this post is saved: the posted section's as posted (its given
 * answers were stored as they are, its emptied ones deleted), every other question's as stored
 * before. The same set a read of the stored answers after the writes gives, without that read.
 */
function answeredAfter(post: PostedSection, before: StoredAnswer[]): Set<string> {
  const answered = new Set<string>()
  for (const a of before) if (!post.answers.has(a.questionId) && isAnswered(a)) answered.add(a.questionId)
  for (const [questionId, value] of post.answers) {
    const stored = value && {
      numericValue: value.numericValue ?? null,
      textValue: value.textValue ?? null,
      choices: value.choices ?? null,
      notApplicable: value.notApplicable ?? false,
    }
    if (isAnswered(stored)) answered.add(questionId)
  }
  return answered
}

/**
 * What a save (not a submit) answers. An autosave leaves the page as it is: it learns the new
 * counts from here (the other steps reload it), from the answers the response's upsert read back.
 */
function savedOutcome(ctx: {
  id: string
  intent: Exclude<AnswerIntent, 'submit'>
  locked: LockedAssignment
  post: PostedSection
  savedAt: Date
  before: StoredAnswer[] | null
}): SaveOutcome {
  const { post } = ctx
  const answeredNow = ctx.intent === 'autosave' && ctx.before ? answeredAfter(post, ctx.before) : null
  return {
    kind: 'saved',
    intent: ctx.intent,
    assignmentId: ctx.id,
    relationship: ctx.locked.relationship,
    section: post.number,
    target: post.target,
    sectionTitle: post.section.title,
    missingInSection: post.section.questions.filter((q) => q.required && !post.answers.get(q.id)).length,
    savedAt: ctx.savedAt.toISOString(),
    ...(answeredNow ? { progress: progressOf(post.sections, (id) => answeredNow.has(id)) } : {}),
  }
}

/**
 * Submit: every required answer must be there, in every section. When one is missing the section
 * just posted stays saved (and the assignment counts as started) and the submit alone is refused,
 * naming the sections and questions still to answer; otherwise the submission is recorded. The page
 * asks first (intent `review`, then a confirmation step); a post of `submit` itself is the answer.
 */
async function submit(
  tx: Tx,
  ctx: { id: string; viewer: Writer; locked: LockedAssignment; post: PostedSection; responseId: string },
): Promise<SaveOutcome> {
  const { id, viewer, locked, post } = ctx
  const stored = await readStoredAnswers(tx, ctx.responseId)
  const missing = missingRequired(post, answeredIds(stored))
  if (missing) {
    await markStarted(tx, { id, respondentId: viewer.id, locked })
    return missing
  }
  await recordSubmission(tx, { ...ctx, answerCount: stored.length })
  return { kind: 'submitted', assignmentId: id, already: false }
}

/**
 * The refusal of a submit (or of its confirmation step) while required questions are unanswered,
 * naming the sections and questions still to answer; null when every required answer is there.
 */
function missingRequired(post: PostedSection, answered: Set<string>): Refused | null {
  const missing = post.sections
    .map((s) => ({
      number: s.number,
      title: s.title,
      count: s.questions.filter((q) => q.required && !answered.has(q.id)).length,
    }))
    .filter((s) => s.count > 0)
  if (!missing.length) return null
  const total = missing.reduce((n, s) => n + s.count, 0)
  // The section was saved (the answers are kept, and the message says so): a 4xx would claim
  // the request changed nothing. The submit part is refused in the answer's content instead.
  return {
    kind: 'refused',
    reason: 'missing',
    message:
      total === 1
        ? 'One required question is still unanswered. Your answers are saved; answer it, then submit.'
        : `${total} required questions are still unanswered. Your answers are saved; answer them, then submit.`,
    section: post.number,
    missing,
    fieldErrors: Object.fromEntries(
      post.section.questions
        .filter((q) => q.required && !answered.has(q.id))
        .map((q) => [q.id, ['Answer this question before you submit.']]),
    ),
  }
}

/**
 * Marks the response and the assignment submitted at one instant, retires a colleague's invite
 * link, and audits and announces the submission.
 */
async function recordSubmission(
  tx: Tx,
  {
    id,
    viewer,
    locked,
    responseId,
    answerCount,
  }: {
    id: string
    viewer: Writer
    locked: LockedAssignment
    responseId: string
    answerCount: number
  },
) {
  // now() is the transaction's start: the response and the assignment get the same instant.
  // The admin's reopen reason was about the round that ends here (answer management, ADR 023).
  await tx
    .update(responses)
    .set({ submittedAt: sql`now()`, reopenReason: null })
    .where(eq(responses.id, responseId))
  await tx
    .update(assignments)
    .set({ status: 'submitted', submittedAt: sql`now()` })
    .where(eq(assignments.id, id))
  if (locked.relationship !== 'self') {
    // The colleague's invite link has done its job: it stops signing anyone in.
    await voidInviteCodes(tx, id)
  }
  await recordAudit(tx, viewer, {
    action: 'assignment.submit',
    entity: 'assignment',
    entityId: id,
    details: { responseId, relationship: locked.relationship, answers: answerCount },
  })
  // Ids and states only (ADR 057): whose self-assessment, or that a colleague's answers for this
  // subject came in; a colleague submission carries neither the rater nor their assignment's id,
  // so no receiver can tie answers to a person (DESIGN.md §8).
  await enqueueWebhookEvents(tx, [
    {
      type: 'assignment.submitted',
      schemeId: locked.schemeId,
      data:
        locked.relationship === 'self'
          ? {
              scheme_id: locked.schemeId,
              employee_id: locked.subjectId,
              assignment_id: id,
              kind: 'self',
              state: 'submitted',
            }
          : {
              scheme_id: locked.schemeId,
              employee_id: locked.subjectId,
              kind: 'colleague',
              state: 'submitted',
            },
    },
  ])
  await publishEvent(tx, {
    type: 'assignment.updated',
    subjectId: locked.subjectId,
    respondentId: viewer.id,
    assignmentId: id,
    status: 'submitted',
    // A colleague submitting a reopened response again: to the subject they stayed "answered".
    ...(locked.relationship !== 'self' && locked.reopened ? { subjectSees: false } : {}),
  })
}
