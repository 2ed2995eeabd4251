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
  // The erasure's counts are read only while its confirmation is open (the page's usual reads stay three).
  const confirmErase = query.erase === '1' && !employee.erasedAt
  const [activity, companies, counts] = await Promise.all([
    getEmployeeActivity(employee.id),
    companyOptions(),
    confirmErase ? erasureCounts(employee.id) : null,
  ])
  return {
    employee,
    ...activity,
    companies,
    confirmDisable: query.disable === '1' && employee.state !== 'disabled' && !employee.erasedAt,
    erasure: {
      erasedAt: employee.erasedAt,
      confirm: confirmErase,
      reports: counts?.reports ?? 0,
      givenKeep: counts?.givenKeep ?? 0,
      givenDelete: counts?.givenDelete ?? 0,
    },
  }
}

/**
 * What the erasure's confirmation says will go (ADR 056), in one statement: how many of their own
 * reports there are, and how many answers they gave about others in
 * schemes whose company keeps such answers anonymous or deletes them (each scheme's company decides).
 */
async function erasureCounts(id: string) {
  const [row] = await queryRows<{
    reports: number
    given_keep: number
    given_delete: number
  }>(
    getDb(),
    sql`SELECT (SELECT count(*) FROM assignments a WHERE a.subject_id = u.id AND a.relationship = 'self')::int AS reports,
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
    reports: Number(row?.reports ?? 0),
    /** Answers about others in schemes whose company keeps them anonymous, and whose company deletes them. */
    givenKeep: Number(row?.given_keep ?? 0),
    givenDelete: Number(row?.given_delete ?? 0),
  }
}
