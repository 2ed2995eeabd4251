import { and, eq, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import { getDb } from '#db/client'
import { assignments, questionnaires, responses, schemes, users } from '#db/schema/index'
import { notFound } from '#app/modules/auth/guards.server'
import type { SessionUser } from '#app/modules/auth/session.server'

/**
 * Ownership lives in the query: an employee or colleague reaches only rows where they are the
 * respondent (or, for reports, the subject); admins reach everything. Not found and not yours are
 * the same 404.
 */
const IdSchema = z.uuid()

function parseId(raw: string | undefined): string {
  const parsed = IdSchema.safeParse(raw)
  if (!parsed.success) notFound()
  return parsed.data
}

export async function requireAssignmentAccess(
  rawId: string | undefined,
  user: Pick<SessionUser, 'id' | 'role'>,
) {
  const id = parseId(rawId)
  const conditions: SQL[] = [eq(assignments.id, id)]
  if (user.role !== 'admin') conditions.push(eq(assignments.respondentId, user.id))
  const [row] = await getDb()
    .select({
      id: assignments.id,
      status: assignments.status,
      relationship: assignments.relationship,
      questionnaireId: assignments.questionnaireId,
      questionnaireTitle: questionnaires.title,
      subjectName: users.displayName,
      schemeName: schemes.name,
      closesAt: schemes.closesAt,
    })
    .from(assignments)
    .innerJoin(questionnaires, eq(questionnaires.id, assignments.questionnaireId))
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(users, eq(users.id, assignments.subjectId))
    .where(and(...conditions))
    .limit(1)
  if (!row || (user.role !== 'admin' && row.status === 'revoked')) notFound()
  return row
}

/** A questionnaire is visible to admins, and to whoever has a live assignment on it. */
export async function requireQuestionnaireAccess(
  rawId: string | undefined,
  user: Pick<SessionUser, 'id' | 'role'>,
) {
  const id = parseId(rawId)
  const db = getDb()
  if (user.role === 'admin') {
    const [row] = await db
      .select({ id: questionnaires.id, title: questionnaires.title, intro: questionnaires.intro })
      .from(questionnaires)
      .where(eq(questionnaires.id, id))
      .limit(1)
    if (!row) notFound()
    return row
  }
  const [row] = await db
    .select({ id: questionnaires.id, title: questionnaires.title, intro: questionnaires.intro })
    .from(questionnaires)
    .innerJoin(assignments, eq(assignments.questionnaireId, questionnaires.id))
    .where(and(eq(questionnaires.id, id), eq(assignments.respondentId, user.id)))
    .limit(1)
  if (!row) notFound()
  return row
}

/** /user/response-:rid — rid is the employee's self response; the employee sees only their own. */
export async function requireReportAccess(
  rawRid: string | undefined,
  user: Pick<SessionUser, 'id' | 'role'>,
) {
  const id = parseId(rawRid)
  const conditions: SQL[] = [eq(responses.id, id), eq(assignments.relationship, 'self')]
  if (user.role !== 'admin') conditions.push(eq(assignments.subjectId, user.id))
  const [row] = await getDb()
    .select({
      id: responses.id,
      submittedAt: responses.submittedAt,
      subjectName: users.displayName,
      schemeName: schemes.name,
    })
    .from(responses)
    .innerJoin(assignments, eq(assignments.id, responses.assignmentId))
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(users, eq(users.id, assignments.subjectId))
    .where(and(...conditions))
    .limit(1)
  if (!row) notFound()
  return row
}
