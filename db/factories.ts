import type { QuestionKind } from './enums'
import crypto from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import { getDb, type Tx } from './client'
import {
  answers,
  assignments,
  brands,
  companies,
  questionnaireSections,
  questionnaires,
  questions,
  responses,
  schemeMembers,
  schemes,
  users,
  type QuestionOptions,
} from './schema/index'
import { hashPassword } from '../app/modules/auth/password.server'

/**
 * Building blocks shared by the seed and the tests (STYLE.md §3.11). Each returns the inserted
 * row; every argument has a sensible default so a test names only what it cares about.
 */

const unique = () => crypto.randomBytes(4).toString('hex')

export async function createBrand(overrides: Partial<typeof brands.$inferInsert> = {}, tx: Tx = getDb()) {
  const [row] = await tx
    .insert(brands)
    .values({ name: `Brand ${unique()}`, ...overrides })
    .returning()
  return row!
}

export async function createCompany(
  overrides: Partial<typeof companies.$inferInsert> = {},
  tx: Tx = getDb(),
) {
  const brandId = overrides.brandId ?? (await createBrand({}, tx)).id
  const [row] = await tx
    .insert(companies)
    .values({ name: `Company ${unique()}`, ...overrides, brandId })
    .returning()
  return row!
}

export async function createUser(
  overrides: Partial<typeof users.$inferInsert> & { password?: string | null } = {},
  tx: Tx = getDb(),
) {
  const { password = 'correct horse battery', ...rest } = overrides
  const role = rest.role ?? 'employee'
  const [row] = await tx
    .insert(users)
    .values({
      email: `${role}-${unique()}@example.test`,
      displayName: `${role[0]!.toUpperCase()}${role.slice(1)} ${unique()}`,
      emailVerifiedAt: new Date(),
      passwordHash: role === 'colleague' || password === null ? null : await hashPassword(password),
      ...rest,
      role,
    })
    .returning()
  return row!
}

export type QuestionSeed = {
  section: string
  kind: QuestionKind
  text: string
  raterText: string
  category: string
  required?: boolean
  options?: QuestionOptions
}

export async function createQuestionnaire(
  input: {
    title?: string
    intro?: string
    status?: 'draft' | 'published' | 'archived'
    questions?: QuestionSeed[]
  } = {},
  tx: Tx = getDb(),
) {
  const id = crypto.randomUUID()
  const [questionnaire] = await tx
    .insert(questionnaires)
    .values({
      id,
      lineageId: id,
      title: input.title ?? `Questionnaire ${unique()}`,
      intro: input.intro ?? '',
      status: input.status ?? 'published',
    })
    .returning()
  const list = input.questions ?? [
    {
      section: 'Working together',
      kind: 'scale',
      text: 'I listen carefully to others.',
      raterText: '{{name}} listens carefully to others.',
      category: 'Communication',
      options: { min: 1, max: 5, labels: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'], allowNa: true },
    },
  ]
  if (list.length) {
    const titles = [...new Set(list.map((q) => q.section))]
    const sections = await tx
      .insert(questionnaireSections)
      .values(titles.map((title, position) => ({ questionnaireId: id, position, title })))
      .returning()
    const sectionId = new Map(sections.map((s) => [s.title, s.id]))
    await tx.insert(questions).values(
      list.map((q, position) => ({
        questionnaireId: questionnaire!.id,
        position,
        sectionId: sectionId.get(q.section)!,
        section: q.section,
        kind: q.kind,
        text: q.text,
        raterText: q.raterText,
        category: q.category,
        required: q.required ?? true,
        options: q.options ?? {},
      })),
    )
  }
  return questionnaire!
}

const DAY = 24 * 60 * 60 * 1000

export async function createScheme(overrides: Partial<typeof schemes.$inferInsert> = {}, tx: Tx = getDb()) {
  const companyId = overrides.companyId ?? (await createCompany({}, tx)).id
  const questionnaireId = overrides.questionnaireId ?? (await createQuestionnaire({}, tx)).id
  const [row] = await tx
    .insert(schemes)
    .values({
      name: `Scheme ${unique()}`,
      opensAt: new Date(Date.now() - DAY),
      closesAt: new Date(Date.now() + 30 * DAY),
      status: 'open',
      ...overrides,
      companyId,
      questionnaireId,
    })
    .returning()
  return row!
}

/** Enrols an employee: the membership and their self-assessment assignment. */
export async function enrolEmployee(
  scheme: { id: string; questionnaireId: string; closesAt: Date },
  employeeId: string,
  tx: Tx = getDb(),
) {
  await tx.insert(schemeMembers).values({ schemeId: scheme.id, employeeId }).onConflictDoNothing()
  const [row] = await tx
    .insert(assignments)
    .values({
      schemeId: scheme.id,
      questionnaireId: scheme.questionnaireId,
      subjectId: employeeId,
      respondentId: employeeId,
      relationship: 'self',
      dueAt: scheme.closesAt,
    })
    .onConflictDoNothing()
    .returning()
  return row
}

export async function createRaterAssignment(
  input: {
    scheme: { id: string; questionnaireId: string; closesAt: Date }
    subjectId: string
    respondentId: string
    relationship?: 'manager' | 'peer' | 'direct_report' | 'other'
    respondentName?: string
  },
  tx: Tx = getDb(),
) {
  const [row] = await tx
    .insert(assignments)
    .values({
      schemeId: input.scheme.id,
      questionnaireId: input.scheme.questionnaireId,
      subjectId: input.subjectId,
      respondentId: input.respondentId,
      relationship: input.relationship ?? 'peer',
      respondentName: input.respondentName ?? null,
      dueAt: input.scheme.closesAt,
      invitedAt: new Date(),
    })
    .returning()
  return row!
}

export type AnswerSeed = {
  questionId: string
  numericValue?: number | null
  textValue?: string | null
  choices?: string[] | null
  notApplicable?: boolean
}

/**
 * A response with its answers for an assignment; `submitted` also marks the assignment submitted
 * (as the answering flow does), otherwise it is left in progress.
 */
export async function createResponse(
  input: { assignmentId: string; answers?: AnswerSeed[]; submitted?: boolean; submittedAt?: Date },
  tx: Tx = getDb(),
) {
  const submittedAt = input.submitted ? (input.submittedAt ?? new Date()) : null
  const [response] = await tx
    .insert(responses)
    .values({ assignmentId: input.assignmentId, submittedAt })
    .returning()
  if (input.answers?.length) {
    await tx.insert(answers).values(
      input.answers.map((a) => ({
        responseId: response!.id,
        questionId: a.questionId,
        numericValue: a.numericValue ?? null,
        textValue: a.textValue ?? null,
        choices: a.choices ?? null,
        notApplicable: a.notApplicable ?? false,
      })),
    )
  }
  await tx
    .update(assignments)
    .set({ status: input.submitted ? 'submitted' : 'in_progress', submittedAt })
    .where(eq(assignments.id, input.assignmentId))
  return response!
}

export async function questionsOf(questionnaireId: string, tx: Tx = getDb()) {
  return tx
    .select()
    .from(questions)
    .where(eq(questions.questionnaireId, questionnaireId))
    .orderBy(asc(questions.position))
}
