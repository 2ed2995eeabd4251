import { and, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { companies, users } from '#db/schema/index'
import type { AssignmentStatus, Relationship } from '#db/enums'
import { escapeLike, keysetList, type Page, timestampKey } from '#app/lib/keyset-list.server'
import { refuseNotFound, ok, refuse, refuseField, type Actor, type Outcome } from '#app/lib/outcome'
import { PG_ERROR, pgErrorCode } from '#app/lib/pg-error'
import { createActionCode, revokeActionCodes } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { hit, peek, refuseLimited, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import { invalidateUserSessions } from '#app/modules/auth/session.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { formatDate } from '#app/lib/dates'
import { schemePhaseSql, type SchemePhase } from '#app/modules/scheme/state'
import { EMPLOYEE_MESSAGES, type EmployeeInput, type EmployeeListQuery, type EmployeeState } from './schemas'
import { isUuid } from '#app/lib/ids'
import { minutes } from '#app/lib/words'
import { directReportCount, lockReportingLines, REPORTING_LINES_WAIT_MS, resolveManager } from './org.server'

/**
 * Employees (DESIGN.md §7): every query and rule of the list, the detail page and single changes.
 * The CSV import lives beside this file (import.server.ts). An employee is a `users` row with role
 * `employee`; an admin or a colleague is never one, and their ids answer 404 here.
 */

export const EMPLOYEE_PAGE_SIZE = 25

/** invited / active / disabled, from the row (disabled wins). */
export const employeeStateSql = sql<EmployeeState>`CASE
  WHEN ${users.disabledAt} IS NOT NULL THEN 'disabled'
  WHEN ${users.passwordHash} IS NULL THEN 'invited'
  ELSE 'active' END`

function stateCondition(state: EmployeeState | ''): SQL | undefined {
  if (state === 'disabled') return isNotNull(users.disabledAt)
  if (state === 'invited') return and(isNull(users.disabledAt), isNull(users.passwordHash))
  if (state === 'active') return and(isNull(users.disabledAt), isNotNull(users.passwordHash))
  return undefined
}

export type EmployeeListRow = {
  id: string
  name: string
  email: string
  companyId: string | null
  companyName: string | null
  department: string | null
  jobTitle: string | null
  managerName: string | null
  state: EmployeeState
  createdAt: string
}

/**
 * One page of employees, in one query: the search (name or address, `ILIKE '%x%'` served by the
 * trigram indexes of ADR 011), the filters, the sort and the keyset page.
 */
export async function listEmployees(query: EmployeeListQuery): Promise<Page<EmployeeListRow>> {
  const pattern = query.q ? `%${escapeLike(query.q)}%` : null
  const columns = { name: users.displayName, created: users.createdAt, id: users.id }
  return keysetList(query, columns, EMPLOYEE_PAGE_SIZE, ({ keyset, orderBy, limit }) =>
    getDb()
      .select({
        id: users.id,
        name: users.displayName,
        email: users.email,
        companyId: users.companyId,
        companyName: companies.name,
        department: users.department,
        jobTitle: users.jobTitle,
        managerName: sql<string | null>`(SELECT coalesce(nullif(m.display_name, ''), m.email) FROM users m
          WHERE m.id = ${users.managerId})`,
        state: employeeStateSql,
        createdAt: timestampKey(users.createdAt),
      })
      .from(users)
      .leftJoin(companies, eq(companies.id, users.companyId))
      .where(
        and(
          eq(users.role, 'employee'),
          query.manager ? eq(users.managerId, query.manager) : undefined,
          // A department is a company's: the filter applies with a company chosen (the index's order).
          query.company && query.department ? eq(users.department, query.department) : undefined,
          pattern ? or(ilike(users.displayName, pattern), ilike(users.email, pattern)) : undefined,
          query.company ? eq(users.companyId, query.company) : undefined,
          query.scheme
            ? sql`EXISTS (SELECT 1 FROM scheme_members m WHERE m.employee_id = ${users.id} AND m.scheme_id = ${query.scheme}::uuid)`
            : undefined,
          stateCondition(query.state),
          keyset,
        ),
      )
      .orderBy(...orderBy)
      .limit(limit),
  )
}

export type CompanyOption = { id: string; name: string }
export type SchemeOption = {
  id: string
  name: string
  companyId: string
  companyName: string
  phase: SchemePhase
}

/** Companies a form or filter offers (a select; a consultancy has tens or hundreds of clients). */
const COMPANY_OPTION_LIMIT = 1000
/**
 * Schemes the list's filter offers at once. A large install has hundreds (1,000 in the scale seed):
 * then the filter lists the chosen company's schemes, and asks for a company first otherwise.
 */
export const SCHEME_OPTION_LIMIT = 100
/** Departments the filter offers for the chosen company. */
export const DEPARTMENT_OPTION_LIMIT = 300

const companyOptionsSql = sql`(SELECT json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY lower(c.name), c.id)
  FROM (SELECT id, name FROM companies ORDER BY lower(name), id LIMIT ${COMPANY_OPTION_LIMIT}) c)`

/** The companies the detail page's form offers, in one query. */
export async function companyOptions(): Promise<CompanyOption[]> {
  const [row] = await queryRows<{ companies: CompanyOption[] | null }>(
    getDb(),
    sql`SELECT ${companyOptionsSql} AS companies`,
  )
  return row?.companies ?? []
}

/**
 * The list's choices, in one query: every company (the add form and the filter), and the schemes
 * of the chosen company — or every scheme while there are few. The chosen scheme is always there.
 */
export async function listOptions(filter: { company: string; scheme: string; manager?: string }): Promise<{
  companies: CompanyOption[]
  schemes: SchemeOption[]
  schemesNeedCompany: boolean
  departments: string[]
  manager: { id: string; name: string } | null
}> {
  const [row] = await queryRows<{
    companies: CompanyOption[] | null
    schemes: SchemeOption[] | null
    departments: string[] | null
    manager: { id: string; name: string } | null
  }>(
    getDb(),
    sql`SELECT ${companyOptionsSql} AS companies,
      ${
        filter.company
          ? sql`(SELECT json_agg(d.department ORDER BY lower(d.department), d.department) FROM (
              SELECT DISTINCT department FROM users
              WHERE company_id = ${filter.company}::uuid AND role = 'employee' AND department IS NOT NULL
              LIMIT ${DEPARTMENT_OPTION_LIMIT}) d)`
          : sql`NULL::json`
      } AS departments,
      ${
        filter.manager
          ? sql`(SELECT json_build_object('id', m.id, 'name', coalesce(nullif(m.display_name, ''), m.email))
              FROM users m WHERE m.id = ${filter.manager}::uuid AND m.role = 'employee')`
          : sql`NULL::json`
      } AS manager,
      (SELECT json_agg(json_build_object(
           'id', s.id, 'name', s.name, 'companyId', s.company_id, 'companyName', s.company_name, 'phase', s.phase)
           ORDER BY lower(s.company_name), lower(s.name), s.id)
         FROM (
           SELECT schemes.id, schemes.name, schemes.company_id, c.name AS company_name,
             ${schemePhaseSql()} AS phase
           FROM schemes JOIN companies c ON c.id = schemes.company_id
           WHERE ${filter.company ? sql`schemes.company_id = ${filter.company}::uuid` : sql`true`}
             ${filter.scheme ? sql`OR schemes.id = ${filter.scheme}::uuid` : sql``}
           ORDER BY (schemes.id = ${filter.scheme || null}::uuid) IS TRUE DESC, schemes.created_at DESC, schemes.id
           LIMIT ${SCHEME_OPTION_LIMIT + 1}
         ) s) AS schemes`,
  )
  const schemes = row?.schemes ?? []
  const org = { departments: row?.departments ?? [], manager: row?.manager ?? null }
  if (!filter.company && schemes.length > SCHEME_OPTION_LIMIT)
    return {
      companies: row?.companies ?? [],
      schemes: schemes.filter((s) => s.id === filter.scheme),
      schemesNeedCompany: true,
      ...org,
    }
  return {
    companies: row?.companies ?? [],
    schemes: schemes.slice(0, SCHEME_OPTION_LIMIT),
    schemesNeedCompany: false,
    ...org,
  }
}

// ---------------------------------------------------------------------------------------------
// One employee.

export type EmployeeDetail = {
  id: string
  name: string
  email: string
  phone: string | null
  companyId: string | null
  companyName: string | null
  state: EmployeeState
  createdAt: string
  emailVerified: boolean
  department: string | null
  jobTitle: string | null
  manager: { id: string; name: string; email: string } | null
  /** When an administrator erased them (ADR 056); null while not. */
  erasedAt: string | null
  /** Direct reports, by name (the first REPORTS_SHOWN; reportCount says how many there are). */
  reports: { id: string; name: string; jobTitle: string | null }[]
  reportCount: number
}

/** Direct reports named on an employee's page; the list's manager filter shows them all. */
export const REPORTS_SHOWN = 20

/** Who an employee is, as the detail page and the locked row for a change both read it. */
const EMPLOYEE_COLUMNS = {
  id: users.id,
  name: users.displayName,
  email: users.email,
  phone: users.phone,
  companyId: users.companyId,
  department: users.department,
  jobTitle: users.jobTitle,
  managerId: users.managerId,
}

/** An employee; null for anything else (unknown, malformed, an admin, a colleague). */
export async function getEmployee(uid: unknown): Promise<EmployeeDetail | null> {
  if (!isUuid(uid)) return null
  const [row] = await getDb()
    .select({
      ...EMPLOYEE_COLUMNS,
      companyName: companies.name,
      state: employeeStateSql,
      createdAt: timestampKey(users.createdAt),
      emailVerified: sql<boolean>`${users.emailVerifiedAt} IS NOT NULL`,
      erasedAt: sql<
        string | null
      >`to_char(${users.erasedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      manager: sql<EmployeeDetail['manager']>`(
        SELECT json_build_object('id', m.id, 'name', coalesce(nullif(m.display_name, ''), m.email), 'email', m.email)
        FROM users m WHERE m.id = ${users.managerId})`,
      reports: sql<EmployeeDetail['reports']>`(
        SELECT coalesce(json_agg(json_build_object('id', r.id, 'name', r.name, 'jobTitle', r.job_title)
          ORDER BY lower(r.name), r.id), '[]'::json)
        FROM (SELECT x.id, coalesce(nullif(x.display_name, ''), x.email) AS name, x.job_title FROM users x
          WHERE x.manager_id = ${users.id} AND x.role = 'employee'
          ORDER BY lower(coalesce(nullif(x.display_name, ''), x.email)), x.id LIMIT ${REPORTS_SHOWN}) r)`,
      reportCount: sql<number>`(SELECT count(*) FROM users x
        WHERE x.manager_id = ${users.id} AND x.role = 'employee')::int`.mapWith(Number),
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.id, uid), eq(users.role, 'employee')))
    .limit(1)
  if (!row) return null
  const { managerId: _managerId, ...detail } = row
  return detail
}

export type EmployeeProgramme = {
  schemeId: string
  schemeName: string
  companyName: string
  phase: SchemePhase
  closesAt: string
  timeZone: string
  selfStatus: AssignmentStatus | null
  /** The self-assessment's response: their report is /user/response-<id>. */
  responseId: string | null
  invited: number
  answered: number
}

export type EmployeeRating = {
  assignmentId: string
  schemeId: string
  schemeName: string
  subjectId: string
  subjectName: string
  relationship: Relationship
  status: AssignmentStatus
}

/** Shown per list on the page; an employee has a handful of each in practice. */
const ACTIVITY_LIMIT = 200

/**
 * The employee's schemes (with their self-assessment and colleagues) and the feedback they were
 * asked to give, in one statement: two index-served halves joined by UNION ALL.
 */
export async function getEmployeeActivity(
  uid: string,
): Promise<{ programmes: EmployeeProgramme[]; ratings: EmployeeRating[] }> {
  type Row = {
    kind: 'self' | 'rater'
    scheme_id: string
    scheme_name: string
    company_name: string | null
    phase: SchemePhase
    closes_at: string
    time_zone: string
    status: AssignmentStatus | null
    response_id: string | null
    invited: number | null
    answered: number | null
    assignment_id: string | null
    subject_id: string | null
    subject_name: string | null
    relationship: Relationship | null
  }
  const rows = await queryRows<Row>(
    getDb(),
    sql`(
      SELECT 'self' AS kind, schemes.id AS scheme_id, schemes.name AS scheme_name, c.name AS company_name,
        ${schemePhaseSql()} AS phase,
        to_char(schemes.closes_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS closes_at, schemes.time_zone,
        a.status::text AS status, r.id AS response_id,
        (SELECT count(*) FROM assignments x
          WHERE x.scheme_id = schemes.id AND x.subject_id = m.employee_id
            AND x.relationship <> 'self' AND x.status <> 'revoked')::int AS invited,
        (SELECT count(*) FROM assignments x
          WHERE x.scheme_id = schemes.id AND x.subject_id = m.employee_id
            AND x.relationship <> 'self' AND x.status = 'submitted')::int AS answered,
        NULL::uuid AS assignment_id, NULL::uuid AS subject_id, NULL::text AS subject_name,
        NULL::text AS relationship
      FROM scheme_members m
      JOIN schemes ON schemes.id = m.scheme_id
      LEFT JOIN companies c ON c.id = schemes.company_id
      LEFT JOIN assignments a ON a.scheme_id = m.scheme_id AND a.subject_id = m.employee_id AND a.relationship = 'self'
      LEFT JOIN responses r ON r.assignment_id = a.id
      WHERE m.employee_id = ${uid}::uuid
      ORDER BY schemes.closes_at DESC, schemes.id
      LIMIT ${ACTIVITY_LIMIT}
    ) UNION ALL (
      SELECT 'rater', s.id, s.name, NULL, NULL, NULL, NULL, a.status::text, NULL, NULL, NULL,
        a.id, a.subject_id, coalesce(nullif(u.display_name, ''), u.email), a.relationship::text
      FROM assignments a
      JOIN schemes s ON s.id = a.scheme_id
      JOIN users u ON u.id = a.subject_id
      WHERE a.respondent_id = ${uid}::uuid AND a.relationship <> 'self'
      ORDER BY a.created_at DESC, a.id
      LIMIT ${ACTIVITY_LIMIT}
    )`,
  )
  const programmes: EmployeeProgramme[] = []
  const ratings: EmployeeRating[] = []
  for (const r of rows) {
    if (r.kind === 'self')
      programmes.push({
        schemeId: r.scheme_id,
        schemeName: r.scheme_name,
        companyName: r.company_name ?? '',
        phase: r.phase,
        closesAt: r.closes_at,
        timeZone: r.time_zone,
        selfStatus: r.status,
        responseId: r.response_id,
        invited: Number(r.invited ?? 0),
        answered: Number(r.answered ?? 0),
      })
    else
      ratings.push({
        assignmentId: r.assignment_id!,
        schemeId: r.scheme_id,
        schemeName: r.scheme_name,
        subjectId: r.subject_id!,
        subjectName: r.subject_name ?? '',
        relationship: r.relationship!,
        status: r.status!,
      })
  }
  return { programmes, ratings }
}

// ---------------------------------------------------------------------------------------------
// Changes.

async function companyName(tx: Tx, companyId: string) {
  const [row] = await tx
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1)
  return row?.name ?? null
}

const unavailable = () => refuseField('email', EMPLOYEE_MESSAGES.emailUnavailable)

/**
 * Adds one employee. The address is one account across the product: an administrator's, or
 * another company's employee's, is refused in the same words; this company's employee is named;
 * a colleague's account (someone who gave feedback before) becomes this company's employee and
 * loses the sessions its invitation links opened (a link-opened session must not turn into an
 * employee's).
 */
export async function createEmployee(
  actor: Actor,
  input: EmployeeInput,
): Promise<Outcome<{ id: string; promoted: boolean }>> {
  try {
    // No reporting-lines lock: nobody reports to a person who is only now becoming an employee, so
    // naming their manager cannot close a circle (org.server.ts).
    return await getDb().transaction(async (tx): Promise<Outcome<{ id: string; promoted: boolean }>> => {
      const company = await companyName(tx, input.companyId)
      if (company === null) return refuseField('companyId', EMPLOYEE_MESSAGES.companyGone)
      const [existing] = await tx
        .select({ id: users.id, role: users.role, companyId: users.companyId })
        .from(users)
        .where(eq(users.email, input.email))
        .for('update')
      if (existing && existing.role !== 'colleague') {
        if (existing.role === 'employee' && existing.companyId === input.companyId)
          return refuseField('email', EMPLOYEE_MESSAGES.alreadyEmployee(company))
        return unavailable()
      }
      const manager = await resolveManager(tx, {
        employeeId: existing?.id ?? null,
        companyId: input.companyId,
        companyName: company,
        managerEmail: input.managerEmail,
      })
      if (!manager.ok) return manager
      const org = {
        department: input.department,
        jobTitle: input.jobTitle,
        managerId: manager.value?.id ?? null,
      }
      let id: string
      if (existing) {
        await tx
          .update(users)
          .set({
            role: 'employee',
            companyId: input.companyId,
            displayName: input.name,
            phone: input.phone,
            ...org,
            updatedAt: sql`now()`,
          })
          .where(eq(users.id, existing.id))
        await invalidateUserSessions(existing.id, undefined, tx)
        id = existing.id
      } else {
        const [row] = await tx
          .insert(users)
          .values({
            email: input.email,
            displayName: input.name,
            phone: input.phone,
            role: 'employee',
            companyId: input.companyId,
            ...org,
          })
          .returning({ id: users.id })
        id = row!.id
      }
      await recordAudit(tx, actor, {
        action: 'employee.create',
        entity: 'user',
        entityId: id,
        details: {
          name: input.name,
          email: input.email,
          companyId: input.companyId,
          companyName: company,
          phone: input.phone,
          // The reporting line, where one was given.
          ...Object.fromEntries(Object.entries(org).filter(([, value]) => value !== null)),
          ...(existing ? { promotedFrom: 'colleague' } : {}),
        },
      })
      await enqueueWebhookEvents(tx, [
        { type: 'employee.created', companyId: input.companyId, data: { employee_id: id, enabled: true } },
      ])
      return ok({ id, promoted: Boolean(existing) })
    })
  } catch (error) {
    // Another account took the address between the check and the insert.
    if (pgErrorCode(error) === PG_ERROR.uniqueViolation) return unavailable()
    if (pgErrorCode(error) === PG_ERROR.foreignKeyViolation)
      return refuseField('companyId', EMPLOYEE_MESSAGES.companyGone)
    throw error
  }
}

type Locked = {
  id: string
  name: string
  email: string
  phone: string | null
  companyId: string | null
  department: string | null
  jobTitle: string | null
  managerId: string | null
  disabledAt: Date | null
  hasPassword: boolean
}

/** The employee's row, locked until the transaction ends; null when `id` is not an employee. */
async function lockEmployee(tx: Tx, id: string): Promise<Locked | null> {
  if (!isUuid(id)) return null
  const [row] = await tx
    .select({
      ...EMPLOYEE_COLUMNS,
      disabledAt: users.disabledAt,
      hasPassword: sql<boolean>`${users.passwordHash} IS NOT NULL`,
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'employee')))
    .for('update')
  return row ?? null
}

/** Schemes of another company that still run (not closed) and hold this employee. */
async function runningSchemesElsewhere(tx: Tx, employeeId: string, companyId: string) {
  return queryRows<{ name: string }>(
    tx,
    sql`SELECT schemes.name FROM scheme_members m JOIN schemes ON schemes.id = m.scheme_id
        WHERE m.employee_id = ${employeeId}::uuid AND schemes.company_id <> ${companyId}::uuid
          AND ${schemePhaseSql()} <> 'closed'
        ORDER BY schemes.name LIMIT 3`,
  )
}

export async function updateEmployee(
  actor: Actor,
  id: string,
  input: EmployeeInput,
): Promise<Outcome<{ changed: string[] }>> {
  try {
    return await getDb().transaction(async (tx): Promise<Outcome<{ changed: string[] }>> => {
      await lockReportingLines(tx, { waitMs: REPORTING_LINES_WAIT_MS })
      const current = await lockEmployee(tx, id)
      if (!current) return refuseNotFound()
      const changes: Record<string, { from: unknown; to: unknown }> = {}
      if (current.name !== input.name) changes.name = { from: current.name, to: input.name }
      if (current.phone !== input.phone) changes.phone = { from: current.phone, to: input.phone }
      if (current.email !== input.email) {
        const [taken] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, input.email), sql`${users.id} <> ${id}`))
          .limit(1)
        if (taken) return unavailable()
        changes.email = { from: current.email, to: input.email }
      }
      const company = await companyName(tx, input.companyId)
      if (company === null) return refuseField('companyId', EMPLOYEE_MESSAGES.companyGone)
      const manager = await resolveManager(tx, {
        employeeId: id,
        companyId: input.companyId,
        companyName: company,
        managerEmail: input.managerEmail,
      })
      if (!manager.ok) return manager
      const managerId = manager.value?.id ?? null
      if (current.department !== input.department)
        changes.department = { from: current.department, to: input.department }
      if (current.jobTitle !== input.jobTitle)
        changes.jobTitle = { from: current.jobTitle, to: input.jobTitle }
      if (current.managerId !== managerId) changes.managerId = { from: current.managerId, to: managerId }
      if (current.companyId !== input.companyId) {
        // Their reports stay in the old company: a manager in another company is not allowed.
        const reports = await directReportCount(tx, id)
        if (reports)
          return refuseField(
            'companyId',
            EMPLOYEE_MESSAGES.managesOthers(
              reports,
              (current.companyId && (await companyName(tx, current.companyId))) || 'their company',
            ),
          )
        const running = await runningSchemesElsewhere(tx, id, input.companyId)
        if (running.length)
          return refuseField(
            'companyId',
            `${current.name || current.email} takes part in ${running.map((s) => `“${s.name}”`).join(', ')}, ` +
              'a scheme of their current company that has not closed. Remove them from it, or wait until it closes, before moving them.',
          )
        changes.companyId = { from: current.companyId, to: input.companyId }
      }
      if (!Object.keys(changes).length) return ok({ changed: [] })
      await tx
        .update(users)
        .set({
          displayName: input.name,
          phone: input.phone,
          email: input.email,
          companyId: input.companyId,
          department: input.department,
          jobTitle: input.jobTitle,
          managerId,
          // An address an admin typed is not confirmed: the activation or a verification link confirms it.
          ...(changes.email ? { emailVerifiedAt: null } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, id))
      await recordAudit(tx, actor, {
        action: 'employee.update',
        entity: 'user',
        entityId: id,
        details: { changes },
      })
      // Which fields changed, never their values (ADR 057).
      await enqueueWebhookEvents(tx, [
        {
          type: 'employee.updated',
          companyId: input.companyId,
          data: { employee_id: id, enabled: current.disabledAt === null, changed: Object.keys(changes) },
        },
      ])
      return ok({ changed: Object.keys(changes) })
    })
  } catch (error) {
    if (pgErrorCode(error) === PG_ERROR.lockNotAvailable) return refuse(EMPLOYEE_MESSAGES.reportingLinesBusy)
    if (pgErrorCode(error) === PG_ERROR.uniqueViolation) return unavailable()
    if (pgErrorCode(error) === PG_ERROR.foreignKeyViolation)
      return refuseField('companyId', EMPLOYEE_MESSAGES.companyGone)
    throw error
  }
}

/**
 * Disables an employee: they can no longer sign in, and every session they have ends in the same
 * transaction (DESIGN.md §1). Disabling a disabled employee changes nothing.
 */
export async function disableEmployee(
  actor: Actor,
  id: string,
): Promise<Outcome<{ name: string; changed: boolean; sessionsEnded: number }>> {
  return getDb().transaction(async (tx) => {
    const current = await lockEmployee(tx, id)
    if (!current) return refuseNotFound()
    const name = current.name || current.email
    if (current.disabledAt) return ok({ name, changed: false, sessionsEnded: 0 })
    await tx
      .update(users)
      .set({ disabledAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(users.id, id))
    const [ended] = await queryRows<{ n: number }>(
      tx,
      sql`WITH gone AS (DELETE FROM sessions WHERE user_id = ${id}::uuid RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    )
    const sessionsEnded = Number(ended?.n ?? 0)
    await recordAudit(tx, actor, {
      action: 'employee.disable',
      entity: 'user',
      entityId: id,
      details: { sessionsEnded },
    })
    await enqueueWebhookEvents(tx, [
      {
        type: 'employee.updated',
        companyId: current.companyId,
        data: { employee_id: id, enabled: false, changed: ['enabled'] },
      },
    ])
    return ok({ name, changed: true, sessionsEnded })
  })
}

export async function enableEmployee(
  actor: Actor,
  id: string,
): Promise<Outcome<{ name: string; changed: boolean }>> {
  return getDb().transaction(async (tx) => {
    const current = await lockEmployee(tx, id)
    if (!current) return refuseNotFound()
    const name = current.name || current.email
    if (!current.disabledAt) return ok({ name, changed: false })
    await tx
      .update(users)
      .set({ disabledAt: null, updatedAt: sql`now()` })
      .where(eq(users.id, id))
    await recordAudit(tx, actor, {
      action: 'employee.enable',
      entity: 'user',
      entityId: id,
    })
    await enqueueWebhookEvents(tx, [
      {
        type: 'employee.updated',
        companyId: current.companyId,
        data: { employee_id: id, enabled: true, changed: ['enabled'] },
      },
    ])
    return ok({ name, changed: true })
  })
}

/**
 * Activation e-mails sent again: like invitation resends (invite.server.ts RESEND_LIMITS), once per
 * 10 minutes per employee, and a ceiling per admin so a script cannot mail every employee at once.
 */
export const ACTIVATION_RESEND_LIMITS = {
  employee: { limit: 1, windowMs: 10 * 60 * 1000 },
  admin: { limit: 60, windowMs: 60 * 60 * 1000 },
} satisfies Record<string, RateLimitRule>

export const ACTIVATION_MESSAGES = {
  disabled: 'This employee is disabled. Enable them first, then send the activation e-mail.',
  active:
    'This employee has already activated their account. If they forgot their password, they can reset it from the sign-in page.',
  tooSoon: (seconds: number) =>
    `An activation e-mail was sent to this employee a few minutes ago. You can send another in ${minutes(seconds)}.`,
  tooMany: (seconds: number) =>
    `You have sent many activation e-mails in the last hour. Please try again in ${minutes(seconds)}.`,
} as const

/**
 * A fresh activation link for an employee who has no password yet: older links stop working, the
 * e-mail (in their company's brand) goes through the outbox in the same transaction, audited.
 */
export async function resendActivation(
  actor: Actor,
  id: string,
): Promise<Outcome<{ name: string; email: string }>> {
  const first = await getEmployee(id)
  if (!first) return refuseNotFound()
  if (first.state === 'disabled') return refuse(ACTIVATION_MESSAGES.disabled)
  if (first.state === 'active') return refuse(ACTIVATION_MESSAGES.active)

  // Checked before anything is written; the admin's hourly count is only read first, so a resend
  // refused for being too soon does not use up the admin's allowance.
  const adminKey = `activation-resend:admin:${actor.id}`
  const hourly = await peek(adminKey, ACTIVATION_RESEND_LIMITS.admin)
  if (hourly.limited) return refuseLimited(hourly, ACTIVATION_MESSAGES.tooMany)
  const perEmployee = await hit(`activation-resend:employee:${id}`, ACTIVATION_RESEND_LIMITS.employee)
  if (perEmployee.limited) return refuseLimited(perEmployee, ACTIVATION_MESSAGES.tooSoon)
  const counted = await hit(adminKey, ACTIVATION_RESEND_LIMITS.admin)
  if (counted.limited) return refuseLimited(counted, ACTIVATION_MESSAGES.tooMany)

  return getDb().transaction(async (tx): Promise<Outcome<{ name: string; email: string }>> => {
    // Locked and read again: they may have activated or been disabled since the first look.
    const current = await lockEmployee(tx, id)
    if (!current) return refuseNotFound()
    if (current.disabledAt) return refuse(ACTIVATION_MESSAGES.disabled)
    if (current.hasPassword) return refuse(ACTIVATION_MESSAGES.active)
    const [context] = await queryRows<{
      brand_id: string | null
      scheme_name: string | null
      closes_at: Date | null
      time_zone: string | null
    }>(
      tx,
      sql`SELECT c.brand_id, s.name AS scheme_name, s.closes_at, s.time_zone
          FROM users u
          LEFT JOIN companies c ON c.id = u.company_id
          LEFT JOIN LATERAL (
            SELECT schemes.name, schemes.closes_at, schemes.time_zone
            FROM scheme_members m JOIN schemes ON schemes.id = m.scheme_id
            WHERE m.employee_id = u.id AND ${schemePhaseSql()} <> 'closed'
            ORDER BY schemes.closes_at, schemes.id LIMIT 1
          ) s ON true
          WHERE u.id = ${id}::uuid`,
    )
    await revokeActionCodes(tx, 'activate_account', id)
    const { code } = await createActionCode(tx, { kind: 'activate_account', userId: id })
    const name = current.name || current.email
    await enqueueEmail(tx, {
      to: current.email,
      template: 'activate_account',
      brandId: context?.brand_id ?? null,
      values: {
        link: actionLink('activate_account', code),
        recipientName: name,
        employeeName: name,
        schemeName: context?.scheme_name ?? '',
        dueDate: context?.closes_at
          ? formatDate(new Date(context.closes_at), context.time_zone ?? 'UTC')
          : '',
      },
      ...(context?.closes_at
        ? { dates: { dueDate: { at: new Date(context.closes_at), timeZone: context.time_zone ?? 'UTC' } } }
        : {}),
      entity: 'user',
      entityId: id,
    })
    await recordAudit(tx, actor, {
      action: 'employee.activation_resent',
      entity: 'user',
      entityId: id,
      details: { email: current.email },
    })
    return ok({ name, email: current.email })
  })
}
