import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { schemeMembers, schemes, users } from '#db/schema/index'
import { queryRows, type Tx } from '#db/client'

/**
 * Enrolment, set-based: one statement adds the scheme memberships and one the `self` assignments
 * (DESIGN.md §3: enrolling an employee creates their self assignment), however many employees.
 * Only active employees of the scheme's own company are enrolled; anyone already enrolled is left
 * as they are, so enrolling twice changes nothing. The caller holds the transaction, checks the
 * scheme may still take people and writes the audit entry.
 *
 * `employees` is either a list of ids or a subquery selecting one `id` column (the rows of a CSV
 * import, a whole company), so 10,000 people never travel through JavaScript.
 */
export async function enrolEmployees(
  tx: Tx,
  schemeId: string,
  employees: string[] | SQL,
): Promise<{ enrolled: string[] }> {
  if (Array.isArray(employees) && !employees.length) return { enrolled: [] }
  const [scheme] = await tx
    .select({
      companyId: schemes.companyId,
      questionnaireId: schemes.questionnaireId,
      closesAt: schemes.closesAt,
    })
    .from(schemes)
    .where(eq(schemes.id, schemeId))
  if (!scheme) return { enrolled: [] }
  const chosen = Array.isArray(employees) ? inArray(users.id, employees) : sql`${users.id} IN (${employees})`
  // The columns named: the membership's other columns (its list's state, ADR 042) take their
  // defaults. (Drizzle's insert-select wants every column of the table, in order.)
  const added = await queryRows<{ employeeId: string }>(
    tx,
    sql`INSERT INTO ${schemeMembers} (scheme_id, employee_id)
      SELECT ${schemeId}::uuid, ${users.id} FROM ${users}
      WHERE ${and(
        chosen,
        eq(users.role, 'employee'),
        eq(users.companyId, scheme.companyId),
        sql`${users.disabledAt} IS NULL`,
      )}
      ON CONFLICT DO NOTHING
      RETURNING employee_id AS "employeeId"`,
  )
  const enrolled = added.map((r) => r.employeeId)
  // Every member without a self assignment gets one (the new ones, and any an earlier failure left).
  if (enrolled.length) {
    await tx.execute(sql`
      INSERT INTO assignments (scheme_id, questionnaire_id, subject_id, respondent_id, relationship, due_at)
      SELECT m.scheme_id, ${scheme.questionnaireId}::uuid, m.employee_id, m.employee_id, 'self', ${scheme.closesAt.toISOString()}::timestamptz
      FROM scheme_members m
      WHERE m.scheme_id = ${schemeId}::uuid
        AND NOT EXISTS (
          SELECT 1 FROM assignments a
          WHERE a.scheme_id = m.scheme_id AND a.subject_id = m.employee_id AND a.relationship = 'self'
        )
      ON CONFLICT DO NOTHING`)
  }
  return { enrolled }
}
