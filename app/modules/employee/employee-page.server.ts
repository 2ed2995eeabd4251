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
 * not), how many of their own reports and of the answers they gave about others there are, and
 * what their company does with the latter.
 */
async function erasureFacts(id: string) {
  const [row] = await queryRows<{
    erased_at: string | null
    reports: number
    given: number
    mode: 'delete' | 'keep_anonymous' | null
  }>(
    getDb(),
    sql`SELECT to_char(u.erased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS erased_at,
          (SELECT count(*) FROM assignments a WHERE a.subject_id = u.id AND a.relationship = 'self')::int AS reports,
          (SELECT count(*) FROM assignments a
            WHERE a.respondent_id = u.id AND a.relationship <> 'self' AND a.status = 'submitted')::int AS given,
          c.erasure_rater_answers AS mode
        FROM users u LEFT JOIN companies c ON c.id = u.company_id
        WHERE u.id = ${id}::uuid`,
  )
  return {
    erasedAt: row?.erased_at ?? null,
    reports: Number(row?.reports ?? 0),
    given: Number(row?.given ?? 0),
    mode: row?.mode ?? 'keep_anonymous',
  }
}
