import { and, eq, type SQL } from 'drizzle-orm'
import { getDb } from '#db/client'
import { assignments, responses, schemes, users } from '#db/schema/index'
import { notFound } from '#app/modules/auth/guards.server'
import type { SessionUser } from '#app/modules/auth/session.server'
import { isUuid } from '#app/lib/ids'

/**
 * Ownership lives in the query: an employee or colleague reaches only rows where they are the
 * respondent (or, for reports, the subject); admins reach everything. Not found and not yours are
 * the same 404.
 */
function parseId(raw: string | undefined): string {
  if (!isUuid(raw)) notFound()
  return raw
}

/** A report id from the URL, or 404: the report page's query then checks ownership (loadReport). */
export const requireReportId = parseId

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
