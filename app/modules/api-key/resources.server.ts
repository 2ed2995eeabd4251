import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm'
import { getDb } from '#db/client'
import { companies, users } from '#db/schema/index'
import { isUuid } from '#app/lib/ids'
import { employeeStateSql } from '#app/modules/employee/employee.server'
import {
  API_PAGE_DEFAULT,
  decodeCursor,
  encodeCursor,
  type CompanyListQuery,
  type EmployeeListQuery,
} from './api-schemas'
import type { z } from 'zod'

/**
 * What the REST API reads (issue 21 §1, ADR 054): companies and employees, with what the back office
 * shows of them and nothing more (no password state beyond "invited", no phone, no photo). Lists are
 * keyset-paginated by id: one statement a page, however deep.
 */

/** The company a key is restricted to, or none: every read adds it to its WHERE. */
export type Restriction = { companyId: string | null }

const iso = (v: Date | string) => new Date(v).toISOString()

const companyColumns = {
  id: companies.id,
  name: companies.name,
  createdAt: companies.createdAt,
  updatedAt: companies.updatedAt,
}

function companyOut(row: { id: string; name: string; createdAt: Date; updatedAt: Date }) {
  return { id: row.id, name: row.name, created_at: iso(row.createdAt), updated_at: iso(row.updatedAt) }
}

function pageOf<Row extends { id: string }, Out>(rows: Row[], limit: number, out: (row: Row) => Out) {
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  return { data: page.map(out), next_cursor: more ? encodeCursor(page.at(-1)!.id) : null }
}

function afterCursor(column: typeof companies.id | typeof users.id, cursor: string | undefined) {
  const id = cursor ? decodeCursor(cursor) : null
  return id ? gt(column, id) : undefined
}

export async function listCompanies(restriction: Restriction, query: z.output<typeof CompanyListQuery>) {
  const limit = query.limit ?? API_PAGE_DEFAULT
  const rows = await getDb()
    .select(companyColumns)
    .from(companies)
    .where(
      and(
        restriction.companyId ? eq(companies.id, restriction.companyId) : undefined,
        afterCursor(companies.id, query.cursor),
      ),
    )
    .orderBy(asc(companies.id))
    .limit(limit + 1)
  return pageOf(rows, limit, companyOut)
}

export async function getCompany(id: string) {
  if (!isUuid(id)) return null
  const [row] = await getDb().select(companyColumns).from(companies).where(eq(companies.id, id)).limit(1)
  return row ? companyOut(row) : null
}

const employeeColumns = {
  id: users.id,
  email: users.email,
  displayName: users.displayName,
  companyId: users.companyId,
  department: users.department,
  jobTitle: users.jobTitle,
  managerId: users.managerId,
  status: employeeStateSql,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
}

type EmployeeRow = {
  id: string
  email: string
  displayName: string
  companyId: string | null
  department: string | null
  jobTitle: string | null
  managerId: string | null
  status: 'invited' | 'active' | 'disabled'
  createdAt: Date
  updatedAt: Date
}

function employeeOut(row: EmployeeRow) {
  return {
    id: row.id,
    email: row.email,
    display_name: row.displayName,
    company_id: row.companyId!,
    department: row.department,
    job_title: row.jobTitle,
    manager_id: row.managerId,
    status: row.status,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  }
}

const isEmployee = eq(users.role, 'employee')

function statusCondition(status: EmployeeRow['status'] | undefined): SQL | undefined {
  return status ? sql`${employeeStateSql} = ${status}` : undefined
}

export async function listEmployees(restriction: Restriction, query: z.output<typeof EmployeeListQuery>) {
  const limit = query.limit ?? API_PAGE_DEFAULT
  const rows = await getDb()
    .select(employeeColumns)
    .from(users)
    .where(
      and(
        isEmployee,
        restriction.companyId ? eq(users.companyId, restriction.companyId) : undefined,
        query.company_id ? eq(users.companyId, query.company_id.toLowerCase()) : undefined,
        query.email ? eq(users.email, query.email.toLowerCase()) : undefined,
        statusCondition(query.status),
        afterCursor(users.id, query.cursor),
      ),
    )
    .orderBy(asc(users.id))
    .limit(limit + 1)
  return pageOf(rows as EmployeeRow[], limit, employeeOut)
}

/** One employee, within the key's company: another company's is not found, like an unknown id. */
export async function getEmployee(restriction: Restriction, id: string) {
  if (!isUuid(id)) return null
  const [row] = await getDb()
    .select(employeeColumns)
    .from(users)
    .where(
      and(
        isEmployee,
        eq(users.id, id),
        restriction.companyId ? eq(users.companyId, restriction.companyId) : undefined,
      ),
    )
    .limit(1)
  return row ? employeeOut(row as EmployeeRow) : null
}
