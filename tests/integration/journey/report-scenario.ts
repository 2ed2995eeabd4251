import { eq } from 'drizzle-orm'
import { getDb, getHandle } from '#db/client'
import { assignments } from '#db/schema/index'
import {
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  createQuestionnaire,
  questionsOf,
  type AnswerSeed,
  type QuestionSeed,
} from '#db/factories'
import { vi } from 'vitest'
import { previewRelease, releaseParticipant } from '#app/modules/report/release.server'

/**
 * Report scenarios built with the shared factories: a scheme with a threshold, an employee with a
 * self response, and colleagues in every state (submitted, in progress, revoked after answering).
 */

export const SCALE = {
  min: 1,
  max: 5,
  labels: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'],
  allowNa: true,
}
export const CHOICES = ['Look for common ground', 'Hold my position', 'Defer to others']
export const STRENGTHS = ['Vision', 'Coaching', 'Empathy']

const scale = (category: string, n: number): QuestionSeed => ({
  section: category,
  category,
  kind: 'scale',
  text: `I do ${category.toLowerCase()} thing ${n}.`,
  raterText: `{{name}} does ${category.toLowerCase()} thing ${n}.`,
  options: SCALE,
})

/** Seven questions over four categories, every kind. */
export const QUESTIONS: QuestionSeed[] = [
  scale('Communication', 1),
  scale('Communication', 2),
  scale('Collaboration', 3),
  {
    section: 'Collaboration',
    category: 'Collaboration',
    kind: 'single',
    text: 'When we disagree, I usually…',
    raterText: 'When we disagree, {{name}} usually…',
    options: { labels: CHOICES },
  },
  {
    section: 'Leadership',
    category: 'Leadership',
    kind: 'multi',
    text: 'My strengths are…',
    raterText: 'Strengths of {{name}} are…',
    required: false,
    options: { labels: STRENGTHS },
  },
  scale('Leadership', 6),
  {
    section: 'Growth',
    category: 'Growth',
    kind: 'textarea',
    text: 'What could I do differently?',
    raterText: 'What could {{name}} do differently?',
    required: false,
  },
]

/** `count` scale questions over `categories` categories (for the query-count comparison). */
export function scaleQuestions(count: number, categories = 3): QuestionSeed[] {
  return Array.from({ length: count }, (_, i) => scale(`Area ${(i % categories) + 1}`, i + 1))
}

export type Question = Awaited<ReturnType<typeof questionsOf>>[number]

/** Answers for every question: scale questions get `value` (or N/A), text gets `comment`. */
export function answersFor(
  qs: Question[],
  options: { value?: number | null; comment?: string; choice?: string; strengths?: string[] } = {},
): AnswerSeed[] {
  return qs.map((q) => {
    switch (q.kind) {
      case 'scale':
        return options.value === null
          ? { questionId: q.id, notApplicable: true }
          : { questionId: q.id, numericValue: options.value ?? 3 }
      case 'single':
        return { questionId: q.id, choices: [options.choice ?? CHOICES[0]!] }
      case 'multi':
        return { questionId: q.id, choices: options.strengths ?? [STRENGTHS[0]!] }
      default:
        return { questionId: q.id, textValue: options.comment ?? null }
    }
  })
}

export type RaterSpec = {
  /** Answers from the questions (default: 3 on every scale, no comment). */
  answers?: (qs: Question[]) => AnswerSeed[]
  /** false: a response in progress (not counted). Default true. */
  submitted?: boolean
  /** true: revoked after answering (not counted). */
  revoked?: boolean
  /** No response at all (invited, never opened). */
  noResponse?: boolean
  name?: string
  /** The colleague's relationship to the employee (default peer). */
  relationship?: 'manager' | 'peer' | 'direct_report' | 'other'
}

export async function buildReport(input: {
  minRaters: number
  raters?: RaterSpec[]
  questions?: QuestionSeed[]
  selfSubmitted?: boolean
  selfAnswers?: (qs: Question[]) => AnswerSeed[]
  /**
   * Release the report once the colleagues are in (ADR 022: colleague figures come only from a
   * release). Default true; false leaves it unreleased, as before a programme closes.
   */
  release?: boolean
  /** The scheme shows the manager group below the threshold (ADR 021). */
  showManager?: boolean
}) {
  const questionnaire = await createQuestionnaire({ questions: input.questions ?? QUESTIONS })
  const scheme = await createScheme({
    minRaters: input.minRaters,
    questionnaireId: questionnaire.id,
    showManagerBelowThreshold: input.showManager ?? false,
  })
  // No password: these tests sign in with a session cookie, and hashing would only slow them down.
  const employee = await createUser({ role: 'employee', password: null })
  const self = (await enrolEmployee(scheme, employee.id))!
  const qs = await questionsOf(questionnaire.id)
  const selfResponse = await createResponse({
    assignmentId: self.id,
    answers: (input.selfAnswers ?? ((q) => answersFor(q, { value: 4, comment: 'My own note' })))(qs),
    submitted: input.selfSubmitted ?? true,
  })
  const raters = []
  for (const [i, spec] of (input.raters ?? []).entries()) {
    const name = spec.name ?? `Rater ${i + 1} ${Math.random().toString(36).slice(2, 8)}`
    const user = await createUser({ role: 'colleague', displayName: name, password: null })
    const assignment = await createRaterAssignment({
      scheme,
      subjectId: employee.id,
      respondentId: user.id,
      respondentName: name,
      relationship: spec.relationship,
    })
    let responseId: string | null = null
    if (!spec.noResponse) {
      const response = await createResponse({
        assignmentId: assignment.id,
        answers: (spec.answers ?? ((q) => answersFor(q)))(qs),
        submitted: spec.submitted ?? true,
      })
      responseId = response.id
    }
    if (spec.revoked)
      await getDb().update(assignments).set({ status: 'revoked' }).where(eq(assignments.id, assignment.id))
    raters.push({ user, assignment, responseId, name })
  }
  if ((input.release ?? true) && (input.selfSubmitted ?? true)) await releaseNow(scheme.id, employee.id)
  return { scheme, employee, self, rid: selfResponse.id, qs, raters }
}

/** A colleague of {@link addParticipant}: what they answered, and who they are to the employee (default peer). */
export type ColleagueSpec = { answers: AnswerSeed[]; relationship?: RaterSpec['relationship'] }

/**
 * One more participant of a scheme (a cohort, a cycle): a submitted self-assessment and one submitted
 * response per colleague, then released as an administrator would (ADR 025), unless `release: false`.
 * A new employee of the scheme's company, named `name`, or `subjectId` taking part once more (the
 * same employee in a later cycle).
 */
export async function addParticipant(
  scheme: { id: string; questionnaireId: string; closesAt: Date; companyId?: string },
  input: {
    self: AnswerSeed[]
    colleagues: ColleagueSpec[]
    subjectId?: string
    name?: string
    release?: boolean
  },
) {
  const subjectId =
    input.subjectId ??
    (
      await createUser({
        role: 'employee',
        password: null,
        companyId: scheme.companyId,
        ...(input.name ? { displayName: input.name } : {}),
      })
    ).id
  const self = (await enrolEmployee(scheme, subjectId))!
  const response = await createResponse({ assignmentId: self.id, answers: input.self, submitted: true })
  for (const colleague of input.colleagues) {
    const user = await createUser({ role: 'colleague', password: null })
    const assignment = await createRaterAssignment({
      scheme,
      subjectId,
      respondentId: user.id,
      relationship: colleague.relationship,
    })
    await createResponse({ assignmentId: assignment.id, answers: colleague.answers, submitted: true })
  }
  if (input.release ?? true) await releaseNow(scheme.id, subjectId)
  return { subjectId, rid: response.id }
}

/**
 * Releases (again) the employee's report as an administrator would, through the real release module:
 * below the threshold the administrator chooses to release the self-assessment alone (ADR 025).
 */
export async function releaseNow(schemeId: string, subjectId: string) {
  const admin = await createUser({ role: 'admin', password: null })
  const verdict = await previewRelease(schemeId, subjectId)
  const outcome = await releaseParticipant({ id: admin.id }, schemeId, subjectId, {
    kind: verdict?.kind === 'self-only' ? 'self-only' : 'full',
  })
  if (!outcome.ok) throw new Error(`release refused: ${JSON.stringify(outcome)}`)
  return outcome.value
}

/** Counts the statements sent to the database (node-postgres pool or PGlite) while `run` runs. */
export async function countQueries(run: () => Promise<unknown>) {
  const handle = getHandle()
  const target = (handle.pool ?? handle.pglite) as unknown as { query: (...args: unknown[]) => unknown }
  const spy = vi.spyOn(target, 'query')
  try {
    await run()
    return spy.mock.calls.length
  } finally {
    spy.mockRestore()
  }
}
