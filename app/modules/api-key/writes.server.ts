import { and, asc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { getDb } from '#db/client'
import { brands, companies, users } from '#db/schema/index'
import type { Actor, Outcome, Refusal } from '#app/lib/outcome'
import { CompanyCreateSchema } from '#app/modules/company/schemas'
import {
  createCompany,
  getCompany as getCompanyRow,
  updateCompany,
} from '#app/modules/company/company.server'
import {
  createEmployee,
  disableEmployee,
  enableEmployee,
  getEmployee as getEmployeeDetail,
  updateEmployee,
} from '#app/modules/employee/employee.server'
import { EMPLOYEE_MESSAGES, EmployeeCreateSchema, type EmployeeInput } from '#app/modules/employee/schemas'
import { importEmployeeRows } from '#app/modules/employee/import.server'
import { ROW_PROBLEMS, type RowProblem } from '#app/modules/employee/import-schemas'
import type { ApiKeyGrant } from './api-key.server'
import type { ApiScope } from '#db/enums'
import { apiEndpoint, json, notFound, parseBody, parseQuery, problem, type ApiCall } from './api.server'
import { NoQuery } from './api-schemas'
import type {
  CompanyCreateBody,
  CompanyUpdateBody,
  EmployeeBulkBody,
  EmployeeCreateBody,
  EmployeeUpdateBody,
} from './api-schemas'
import { getCompany, getEmployee } from './resources.server'

/**
 * What the REST API writes (issue 21 §1, ADR 054 "Writes"): companies and employees, through the
 * back office's own domain functions — the same rules, messages, audit entries and session ends as
 * the admin pages and the CSV import — each answer mapped to the API's problems. A write acts as the
 * admin who created the key (the audit entry names the key too); a key restricted to a company
 * writes that company's employees only and creates no company.
 */

type Problem = { field: string; message: string }

/**
 * The admin a key's writes (and its audited export) act as; null when that admin was deleted (the
 * key can no longer write or export). Every audited act of the API goes through this one rule.
 */
export function actorOf(key: ApiKeyGrant, ip: string | null): Actor | null {
  return key.createdBy ? { id: key.createdBy, ip, apiKeyId: key.id } : null
}

/**
 * A write endpoint from end to end: apiEndpoint's checks of the key (401, 429, 403 without the
 * scope; the write scope's use audited), then the admin the key acts as (403 when that admin is
 * gone), no query string (400), and the JSON body read by `body` when the endpoint takes one (415,
 * 413, 400). One order for every write, so one bad request gets one answer whichever endpoint it is
 * sent to (ADR 054 "Writes").
 */
export function apiWrite<Body = undefined>(
  request: Request,
  context: { ip?: string },
  scope: ApiScope,
  options: { body?: z.ZodType<Body>; maxBytes?: number },
  run: (write: ApiCall & { actor: Actor; body: Body }) => Promise<Response>,
): Promise<Response> {
  return apiEndpoint(request, context, scope, async (call) => {
    const actor = actorOf(call.key, call.ip)
    if (!actor) return problem('forbidden', ORPHAN_KEY)
    const query = parseQuery(request, NoQuery)
    if (!query.ok) return query.response
    if (!options.body) return run({ ...call, actor, body: undefined as Body })
    const body = await parseBody(request, options.body, { maxBytes: options.maxBytes })
    if (!body.ok) return body.response
    return run({ ...call, actor, body: body.value })
  })
}

export const ORPHAN_KEY =
  'The administrator who created this key no longer exists, so it cannot write or export. Ask an administrator for a new key.'
export const RESTRICTED_ELSEWHERE = 'This key is restricted to another company.'

/** The domain's field names as the API spells them. */
const API_FIELD: Record<string, string> = {
  name: 'display_name',
  email: 'email',
  companyId: 'company_id',
  managerEmail: 'manager_id',
  department: 'department',
  jobTitle: 'job_title',
  brandId: 'brand_id',
}

function fieldProblems(fieldErrors: Record<string, string[] | undefined>, names = API_FIELD): Problem[] {
  return Object.entries(fieldErrors).flatMap(([field, messages]) =>
    (messages ?? []).map((message) => ({ field: names[field] ?? field, message })),
  )
}

/** A domain refusal as a problem: 404, 409 for `conflictField`'s messages, else 400 with the fields. */
function refusalProblem(refusal: Refusal, conflictField: string | null, names = API_FIELD): Response {
  if (refusal.notFound) return notFound()
  const errors = fieldProblems(refusal.fieldErrors ?? {}, names)
  const conflict = conflictField ? errors.filter((e) => e.field === conflictField) : []
  if (conflict.length) return problem('conflict', conflict.map((e) => e.message).join(' '))
  if (!errors.length && refusal.formErrors?.length) return problem('conflict', refusal.formErrors.join(' '))
  return problem('bad-request', 'Some fields are not valid.', {
    errors: [...errors, ...(refusal.formErrors ?? []).map((message) => ({ field: '', message }))],
  })
}

/** A Zod Mini parse's issues (the admin forms' schemas) as the API's field problems. */
function issuesOf(
  error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> },
  names: Record<string, string>,
) {
  return error.issues.map((issue) => ({
    field: names[String(issue.path[0])] ?? String(issue.path[0] ?? ''),
    message: issue.message,
  }))
}

const invalid = (errors: Problem[]) => problem('bad-request', 'Some fields are not valid.', { errors })

// ---------------------------------------------------------------------------------------------
// Companies.

const COMPANY_FIELD = { name: 'name', brandId: 'brand_id' }

/** The brand a new company takes when none is named: the install's only brand. */
async function onlyBrand(): Promise<string | null> {
  const rows = await getDb().select({ id: brands.id }).from(brands).orderBy(asc(brands.createdAt)).limit(2)
  return rows.length === 1 ? rows[0]!.id : null
}

export async function apiCreateCompany(
  actor: Actor,
  key: ApiKeyGrant,
  body: z.output<typeof CompanyCreateBody>,
): Promise<Response> {
  if (key.companyId) return problem('forbidden', 'A key restricted to a company cannot create companies.')
  const brandId = body.brand_id?.toLowerCase() ?? (await onlyBrand())
  if (!brandId)
    return invalid([
      { field: 'brand_id', message: 'Name the brand: this install has several (or none yet).' },
    ])
  const parsed = CompanyCreateSchema.safeParse({ intent: 'create', name: body.name, brandId })
  if (!parsed.success) return invalid(issuesOf(parsed.error, COMPANY_FIELD))
  const created = await createCompany(actor, { name: parsed.data.name, brandId })
  if (!created.ok) return refusalProblem(created, 'name', COMPANY_FIELD)
  return json(await getCompany(created.value.id), 201)
}

/** Renames a company (the only change the API makes to one); everything else stays as it is. */
export async function apiRenameCompany(
  actor: Actor,
  key: ApiKeyGrant,
  id: string,
  body: z.output<typeof CompanyUpdateBody>,
): Promise<Response> {
  if (key.companyId && key.companyId !== id) return problem('forbidden', RESTRICTED_ELSEWHERE)
  const current = await getCompanyRow(id)
  if (!current) return notFound()
  const parsed = CompanyCreateSchema.safeParse({
    intent: 'create',
    name: body.name,
    brandId: current.brandId,
  })
  if (!parsed.success) return invalid(issuesOf(parsed.error, COMPANY_FIELD))
  const updated = await updateCompany(actor, id, {
    name: parsed.data.name,
    brandId: current.brandId,
    feedbackRequestCap: current.feedbackRequestCap,
    erasureRaterAnswers: current.erasureRaterAnswers,
  })
  if (!updated.ok) return refusalProblem(updated, 'name', COMPANY_FIELD)
  const company = await getCompany(id)
  return company ? json(company) : notFound()
}

// ---------------------------------------------------------------------------------------------
// Employees.

/**
 * The manager's address for the domain (the back office names a manager by address), looked up by
 * id within the company: another company's employee, an admin or an unknown id is the domain's own
 * "no employee of this company" refusal.
 */
async function managerAddress(
  managerId: string | null | undefined,
  companyId: string,
): Promise<Outcome<string | null>> {
  if (!managerId) return { ok: true, value: null }
  const [row] = await getDb()
    .select({ email: users.email, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(eq(users.id, managerId.toLowerCase()), eq(users.role, 'employee'), eq(users.companyId, companyId)),
    )
    .limit(1)
  if (row) return { ok: true, value: row.email }
  const [company] = await getDb()
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId))
  return {
    ok: false,
    fieldErrors: { managerEmail: [EMPLOYEE_MESSAGES.managerUnknown(company?.name ?? 'this company')] },
  }
}

/**
 * An employee's fields checked by the admin form's own schema (name, address, department, job
 * title), as the API names them.
 */
function employeeInput(fields: {
  name: string
  email: string
  companyId: string
  department: string | null
  jobTitle: string | null
}): { ok: true; value: Omit<EmployeeInput, 'phone' | 'managerEmail'> } | { ok: false; response: Response } {
  const parsed = EmployeeCreateSchema.safeParse({
    intent: 'create',
    name: fields.name,
    email: fields.email,
    companyId: fields.companyId,
    department: fields.department ?? undefined,
    jobTitle: fields.jobTitle ?? undefined,
  })
  if (!parsed.success) return { ok: false, response: invalid(issuesOf(parsed.error, API_FIELD)) }
  const { name, email, companyId, department, jobTitle } = parsed.data
  return { ok: true, value: { name, email, companyId, department, jobTitle } }
}

/** The company a write is for: the body's, or the key's own; another than the key's is refused. */
function companyFor(
  key: ApiKeyGrant,
  asked: string | undefined,
): { ok: true; id: string } | { ok: false; response: Response } {
  const id = asked?.toLowerCase() ?? key.companyId
  if (!id)
    return {
      ok: false,
      response: invalid([{ field: 'company_id', message: 'Name the employee’s company.' }]),
    }
  if (key.companyId && id !== key.companyId)
    return { ok: false, response: problem('forbidden', RESTRICTED_ELSEWHERE) }
  return { ok: true, id }
}

/**
 * Adds an employee as the admin page does (createEmployee): invited (no password), no e-mail sent
 * — the activation e-mail goes out when a scheme they are in is launched, or from their page. An
 * address already an employee's, another company's or an administrator's is a 409.
 */
export async function apiCreateEmployee(
  actor: Actor,
  key: ApiKeyGrant,
  body: z.output<typeof EmployeeCreateBody>,
): Promise<Response> {
  const company = companyFor(key, body.company_id)
  if (!company.ok) return company.response
  const input = employeeInput({
    name: body.display_name,
    email: body.email,
    companyId: company.id,
    department: body.department ?? null,
    jobTitle: body.job_title ?? null,
  })
  if (!input.ok) return input.response
  const manager = await managerAddress(body.manager_id, company.id)
  if (!manager.ok) return refusalProblem(manager, null)
  const created = await createEmployee(actor, { ...input.value, phone: null, managerEmail: manager.value })
  if (!created.ok) return refusalProblem(created, 'email')
  return json(await getEmployee({ companyId: key.companyId }, created.value.id), 201)
}

/**
 * A partial update through updateEmployee: fields left out keep their value, null clears an
 * optional one (department, job title, manager). A restricted key's employee stays in its company.
 */
export async function apiUpdateEmployee(
  actor: Actor,
  key: ApiKeyGrant,
  id: string,
  body: z.output<typeof EmployeeUpdateBody>,
): Promise<Response> {
  const current = await getEmployeeDetail(id)
  if (!current || !current.companyId || (key.companyId && current.companyId !== key.companyId))
    return notFound()
  const company = companyFor(key, body.company_id ?? current.companyId)
  if (!company.ok) return company.response
  const input = employeeInput({
    name: body.display_name ?? current.name,
    email: body.email ?? current.email,
    companyId: company.id,
    department: body.department === undefined ? current.department : body.department,
    jobTitle: body.job_title === undefined ? current.jobTitle : body.job_title,
  })
  if (!input.ok) return input.response
  let managerEmail = current.manager?.email ?? null
  if (body.manager_id !== undefined) {
    const manager = await managerAddress(body.manager_id, company.id)
    if (!manager.ok) return refusalProblem(manager, null)
    managerEmail = manager.value
  } else if (company.id !== current.companyId) managerEmail = null
  const updated = await updateEmployee(actor, id, { ...input.value, phone: current.phone, managerEmail })
  if (!updated.ok) return refusalProblem(updated, 'email')
  const employee = await getEmployee({ companyId: key.companyId }, id)
  return employee ? json(employee) : notFound()
}

/**
 * Disables or enables an employee through the admin page's functions: disabling ends every session
 * they have, in the same transaction. Doing it twice changes nothing (and answers the same).
 */
export async function apiSetEmployeeEnabled(
  actor: Actor,
  key: ApiKeyGrant,
  id: string,
  enabled: boolean,
): Promise<Response> {
  const found = await getEmployee({ companyId: key.companyId }, id)
  if (!found) return notFound()
  const outcome = enabled ? await enableEmployee(actor, found.id) : await disableEmployee(actor, found.id)
  if (!outcome.ok) return refusalProblem(outcome, null)
  const employee = await getEmployee({ companyId: key.companyId }, id)
  return employee ? json(employee) : notFound()
}

// ---------------------------------------------------------------------------------------------
// The bulk upsert.

/** A row problem's field, by the CSV import's problem code. */
function problemField(code: RowProblem): string {
  if (code.startsWith('name_')) return 'display_name'
  if (code.startsWith('email_')) return 'email'
  if (code.startsWith('manager_')) return 'manager_email'
  if (code.startsWith('department_')) return 'department'
  if (code.startsWith('job_title_')) return 'job_title'
  return 'row'
}

/** A row problem's words: the import's, with "row N" (the index in `rows`) where it names another row. */
function problemMessage(code: RowProblem, duplicateOf: number | null, managerLine: number | null) {
  if (code === 'email_duplicate' && duplicateOf !== null)
    return `The e-mail address is also on row ${duplicateOf}, which is the one used.`
  if (code === 'manager_other_company' && managerLine !== null)
    return `The manager is on row ${managerLine}, with another company: a manager must work for the same company.`
  if (code === 'manager_has_problems' && managerLine !== null)
    return `The manager is on row ${managerLine}, which cannot be written: fix that row first.`
  if (code === 'not_utf8') return 'The row holds text that is not valid Unicode (a lone surrogate or a NUL).'
  return ROW_PROBLEMS[code] ?? code
}

/** Checks the company of a bulk upsert before anything is claimed or written (403, 400). */
export async function bulkCompany(
  key: ApiKeyGrant,
  asked: string | undefined,
): Promise<{ ok: true; company: { id: string; name: string } } | { ok: false; response: Response }> {
  const company = companyFor(key, asked)
  if (!company.ok) return company
  const [row] = await getDb()
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(eq(companies.id, company.id))
    .limit(1)
  if (!row)
    return { ok: false, response: invalid([{ field: 'company_id', message: EMPLOYEE_MESSAGES.companyGone }]) }
  return { ok: true, company: row }
}

/**
 * Upserts up to BULK_MAX_ROWS employees of one company by address (importEmployeeRows: the CSV
 * import's checks and statement). Each row with a problem is left out and reported; the others
 * are written. 200 with the counts and the problems.
 */
export async function apiBulkUpsert(
  actor: Actor,
  company: { id: string; name: string },
  body: z.output<typeof EmployeeBulkBody>,
): Promise<Response> {
  const outcome = await importEmployeeRows(
    actor,
    company,
    body.rows.map((row) => ({
      email: row.email,
      name: row.display_name,
      department: row.department ?? null,
      jobTitle: row.job_title ?? null,
      managerEmail: row.manager_email ?? null,
    })),
  )
  if (!outcome.ok) return refusalProblem(outcome, null)
  const { summary, problems } = outcome.value
  return json({
    created: summary.created,
    updated: summary.updated,
    unchanged: summary.unchanged,
    problems: problems.flatMap((p) =>
      p.codes.map((code) => ({
        row: p.row,
        field: problemField(code),
        message: problemMessage(code, p.duplicateOf, p.managerLine),
      })),
    ),
  })
}
