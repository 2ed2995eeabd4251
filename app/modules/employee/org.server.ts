import { sql } from 'drizzle-orm'
import { queryRows, type Tx } from '#db/client'
import { refuseField, ok, type Outcome } from '#app/lib/outcome'
import { EMPLOYEE_MESSAGES } from './schemas'

/**
 * Reporting lines (issue 18 §1, ADR 041): an employee's manager is another employee of the same
 * company, never themself, and following managers upwards never comes back to where it started.
 * The database holds the first two halves of that (the foreign key, `users_manager_not_self`); the
 * rest is checked here for single changes and in the CSV import's set-based check for files.
 *
 * Changes to reporting lines queue on one transaction-scoped lock, taken before the check and
 * before any row lock: two admins making A report to B and B report to A at the same moment cannot
 * both pass the cycle check. It is one lock for the whole install, not one per company: an employee
 * moving between companies touches two, and the foreign key's check on the new manager takes a share
 * lock on the manager's row, so row locks taken first would deadlock with a second change. Admins
 * edit people one at a time; the wait is a few milliseconds. The CSV import takes the same lock.
 */

/** The deepest chain of managers followed; an organisation is far shallower than this. */
export const MAX_CHAIN = 1000

/**
 * How long a change waits for the reporting-lines lock before it is refused with "try again": a
 * 10,000-row import holds it for several seconds, and a wait must end in words before the
 * statement timeout (15 s) would end it in a 500.
 */
export const REPORTING_LINES_WAIT_MS = 5_000

/**
 * Serialises changes to reporting lines until the transaction ends. Take it before locking any
 * `users` row (the import takes it after locking its own preview row, which nothing else locks).
 * Throws Postgres's lock_not_available (PG_ERROR.lockNotAvailable) after REPORTING_LINES_WAIT_MS;
 * callers answer it with EMPLOYEE_MESSAGES.reportingLinesBusy.
 */
export async function lockReportingLines(tx: Tx, { waitMs }: { waitMs?: number } = {}) {
  if (waitMs !== undefined)
    await tx.execute(sql.raw(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(waitMs))}`))
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('reporting-lines'))`)
  if (waitMs !== undefined) await tx.execute(sql`SET LOCAL lock_timeout = DEFAULT`)
}

export type ManagerChoice = { id: string; name: string } | null

/**
 * The manager named by `managerEmail` for an employee (null `employeeId` while they are being
 * created) of `companyId`, checked in one statement: an employee of that company, not the employee
 * themself, and not someone who already reports to them (directly or through others). Null address:
 * no manager. Call after lockReportingLines.
 */
export async function resolveManager(
  tx: Tx,
  input: { employeeId: string | null; companyId: string; companyName: string; managerEmail: string | null },
): Promise<Outcome<ManagerChoice>> {
  if (!input.managerEmail) return ok(null)
  const [row] = await queryRows<{
    id: string
    name: string
    company_id: string | null
    role: string
    cycle: boolean
  }>(
    tx,
    sql`SELECT m.id, coalesce(nullif(m.display_name, ''), m.email) AS name, m.company_id, m.role::text AS role,
        ${
          input.employeeId
            ? sql`EXISTS (
                WITH RECURSIVE up(id, manager_id, depth) AS (
                  SELECT u.id, u.manager_id, 1 FROM users u WHERE u.id = m.id
                  UNION ALL
                  SELECT u.id, u.manager_id, up.depth + 1 FROM users u JOIN up ON u.id = up.manager_id
                  WHERE up.depth < ${MAX_CHAIN}
                )
                SELECT 1 FROM up WHERE up.id = ${input.employeeId}::uuid)`
            : sql`false`
        } AS cycle
      FROM users m WHERE m.email = ${input.managerEmail}`,
  )
  // An administrator's, a colleague's or another company's employee's address: the same words as none.
  if (!row || row.role !== 'employee' || row.company_id !== input.companyId)
    return refuseField('managerEmail', EMPLOYEE_MESSAGES.managerUnknown(input.companyName))
  if (row.id === input.employeeId) return refuseField('managerEmail', EMPLOYEE_MESSAGES.managerSelf)
  if (row.cycle) return refuseField('managerEmail', EMPLOYEE_MESSAGES.managerCycle(row.name))
  return ok({ id: row.id, name: row.name })
}

/** How many employees report directly to this one (checked before they move to another company). */
export async function directReportCount(tx: Tx, employeeId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM users WHERE manager_id = ${employeeId}::uuid AND role = 'employee'`,
  )
  return Number(row?.n ?? 0)
}
