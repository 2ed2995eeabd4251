import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { companyOptions, getEmployee, getEmployeeActivity } from './employee.server'
import { EmployeeDetailQuerySchema } from './schemas'

/**
 * Everything an employee's page shows (ADR 033): their details, their schemes and the feedback
 * asked of them, the companies for the edit form, and whether the disable confirmation is open.
 * Null for an unknown or malformed uid, an admin's or a colleague's.
 */
export async function loadEmployeePage(uid: string, searchParams: URLSearchParams) {
  const employee = await getEmployee(uid)
  if (!employee) return null
  const query = EmployeeDetailQuerySchema.parse(Object.fromEntries(searchParams))
  const [activity, companies, erasure] = await Promise.all([
    getEmployeeActivity(employee.id),
    companyOptions(),
    erasureFacts(employee.id),
  ])
  return {
    employee,
    ...activity,
    companies,
    confirmDisable: query.disable === '1' && employee.state !== 'disabled' && !erasure.erasedAt,
    erasure: { ...erasure, confirm: query.erase === '1' && !erasure.erasedAt },
  }
}

/**
 * What the erasure card says will go (ADR 056), in one statement: when they were erased (null while
 * not), how many of their own reports there are, and how many answers they gave about others in
 * schemes whose company keeps such answers anonymous or deletes them (each scheme's company decides).
 */
async function erasureFacts(id: string) {
  const [row] = await queryRows<{
    erased_at: string | null
    reports: number
    given_keep: number
    given_delete: number
  }>(
    getDb(),
    sql`SELECT to_char(u.erased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS erased_at,
          (SELECT count(*) FROM assignments a WHERE a.subject_id = u.id AND a.relationship = 'self')::int AS reports,
          (SELECT count(*) FILTER (WHERE c.erasure_rater_answers = 'keep_anonymous') FROM assignments a
            JOIN schemes s ON s.id = a.scheme_id JOIN companies c ON c.id = s.company_id
            WHERE a.respondent_id = u.id AND a.relationship <> 'self' AND a.status = 'submitted')::int AS given_keep,
          (SELECT count(*) FILTER (WHERE c.erasure_rater_answers = 'delete') FROM assignments a
            JOIN schemes s ON s.id = a.scheme_id JOIN companies c ON c.id = s.company_id
            WHERE a.respondent_id = u.id AND a.relationship <> 'self' AND a.status = 'submitted')::int AS given_delete
        FROM users u
        WHERE u.id = ${id}::uuid`,
  )
  return {
    erasedAt: row?.erased_at ?? null,
    reports: Number(row?.reports ?? 0),
    /** Answers about others in schemes whose company keeps them anonymous, and whose company deletes them. */
    givenKeep: Number(row?.given_keep ?? 0),
    givenDelete: Number(row?.given_delete ?? 0),
  }
}
