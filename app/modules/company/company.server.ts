import { and, eq, ilike, sql } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import { brands, companies } from '#db/schema/index'
import { plural } from '#app/lib/words'
import { recordAudit } from '#app/modules/audit/audit.server'
import { escapeLike, keysetList, timestampKey, type Page } from '#app/lib/keyset-list.server'
import { refuse, type Actor, type Outcome } from '#app/lib/outcome'
import { PG_ERROR, refuseOnPgError } from '#app/lib/pg-error'
import { nameTaken } from '#app/modules/unique-name/unique-name.server'
import type { CompanyInput, CompanyListQuery, CompanyUpdateInput } from './schemas'
import { isUuid } from '#app/lib/ids'
import { nearRequestCapSql, type NearCapPerson } from '#app/modules/invite/request-cap.server'

/**
 * Companies: every query and rule. A company belongs to one brand (its e-mails and pages use the
 * brand's look); employees and schemes belong to a company, which is why one that has either
 * cannot be deleted.
 */

export const COMPANY_PAGE_SIZE = 20

export type CompanyListRow = {
  id: string
  name: string
  brandId: string
  brandName: string
  createdAt: string
}

/** One page of companies with their brand's name, in one query. */
export async function listCompanies(query: CompanyListQuery): Promise<Page<CompanyListRow>> {
  const columns = { name: companies.name, created: companies.createdAt, id: companies.id }
  return keysetList(query, columns, COMPANY_PAGE_SIZE, ({ keyset, orderBy, limit }) =>
    getDb()
      .select({
        id: companies.id,
        name: companies.name,
        brandId: companies.brandId,
        brandName: brands.name,
        createdAt: timestampKey(companies.createdAt),
      })
      .from(companies)
      .innerJoin(brands, eq(brands.id, companies.brandId))
      .where(and(query.q ? ilike(companies.name, `%${escapeLike(query.q)}%`) : undefined, keyset))
      .orderBy(...orderBy)
      .limit(limit),
  )
}

// What references a company (the foreign keys that make deleting it impossible), counted per row.
// Written out in full: Drizzle leaves columns unqualified in a single-table select, and an
// unqualified "id" inside the subquery would mean the subquery's own table.
const employeeCount =
  sql<number>`(SELECT count(*) FROM users u WHERE u.company_id = companies.id)::int`.mapWith(Number)
const schemeCount =
  sql<number>`(SELECT count(*) FROM schemes s WHERE s.company_id = companies.id)::int`.mapWith(Number)

/**
 * One company with what stands in the way of deleting it; null for an unknown or malformed id. With
 * `nearCap` (its edit panel), also the people near its feedback-request cap, in the same statement.
 */
export async function getCompany(id: string | null | undefined, options: { nearCap?: boolean } = {}) {
  if (!id || !isUuid(id)) return null
  const [row] = await getDb()
    .select({
      id: companies.id,
      name: companies.name,
      brandId: companies.brandId,
      feedbackRequestCap: companies.feedbackRequestCap,
      erasureRaterAnswers: companies.erasureRaterAnswers,
      employeeCount,
      schemeCount,
      nearCap: options.nearCap
        ? nearRequestCapSql(sql`companies.id`, sql`companies.feedback_request_cap`)
        : sql<NearCapPerson[]>`NULL`,
    })
    .from(companies)
    .where(eq(companies.id, id))
    .limit(1)
  return row ?? null
}

/** Why a company cannot be deleted, in words an admin can act on. */
export function companyInUseMessage(
  name: string | null,
  employees: number | null,
  schemeCount: number | null,
) {
  const who = name ? `“${name}”` : 'This company'
  if (employees === null || schemeCount === null) {
    return `${who} still has employees or schemes, so it cannot be deleted. Move or remove them first.`
  }
  const parts = [
    employees ? plural(employees, 'employee', 'employees') : null,
    schemeCount ? plural(schemeCount, 'scheme', 'schemes') : null,
  ].filter(Boolean)
  return `${who} still has ${parts.join(' and ')}, so it cannot be deleted. Move or remove ${
    employees + schemeCount === 1 ? 'it' : 'them'
  } first.`
}

const COMPANY_NAMES = { table: companies, id: companies.id, name: companies.name, lock: 'company-name' }

/** The company's row, locked for this transaction; null when it no longer exists. */
async function lockCompany(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      name: companies.name,
      brandId: companies.brandId,
      feedbackRequestCap: companies.feedbackRequestCap,
      erasureRaterAnswers: companies.erasureRaterAnswers,
    })
    .from(companies)
    .where(eq(companies.id, id))
    .for('update')
  return row ?? null
}

async function brandName(tx: Tx, brandId: string) {
  const [row] = await tx.select({ name: brands.name }).from(brands).where(eq(brands.id, brandId)).limit(1)
  return row?.name ?? null
}

const errors = {
  nameTaken: (name: string) => ({
    name: [`A company called “${name}” already exists. Choose another name.`],
  }),
  brandGone: { brandId: ['That brand no longer exists. Choose another one.'] },
}

export async function createCompany(actor: Actor, input: CompanyInput): Promise<Outcome<{ id: string }>> {
  // The brand was deleted between the check and the insert.
  return refuseOnPgError(
    PG_ERROR.foreignKeyViolation,
    () => ({ ok: false, fieldErrors: errors.brandGone }),
    () =>
      getDb().transaction(async (tx): Promise<Outcome<{ id: string }>> => {
        const brand = await brandName(tx, input.brandId)
        if (brand === null) return { ok: false, fieldErrors: errors.brandGone }
        if (await nameTaken(tx, COMPANY_NAMES, input.name))
          return { ok: false, fieldErrors: errors.nameTaken(input.name) }
        const [row] = await tx
          .insert(companies)
          .values({ name: input.name, brandId: input.brandId })
          .returning({ id: companies.id })
        await recordAudit(tx, actor, {
          action: 'company.create',
          entity: 'company',
          entityId: row!.id,
          details: { name: input.name, brandId: input.brandId, brandName: brand },
        })
        return { ok: true, value: { id: row!.id } }
      }),
  )
}

export async function updateCompany(
  actor: Actor,
  id: string,
  input: CompanyUpdateInput,
): Promise<Outcome<{ id: string; changed: string[] }>> {
  return refuseOnPgError(
    PG_ERROR.foreignKeyViolation,
    () => ({ ok: false, fieldErrors: errors.brandGone }),
    () =>
      getDb().transaction(async (tx): Promise<Outcome<{ id: string; changed: string[] }>> => {
        const current = await lockCompany(tx, id)
        if (!current) return refuse('This company no longer exists.')
        const changes: Record<string, { from: unknown; to: unknown }> = {}
        if (current.name !== input.name) {
          if (
            input.name.toLowerCase() !== current.name.toLowerCase() &&
            (await nameTaken(tx, COMPANY_NAMES, input.name, id))
          ) {
            return { ok: false, fieldErrors: errors.nameTaken(input.name) }
          }
          changes.name = { from: current.name, to: input.name }
        }
        if (current.brandId !== input.brandId) {
          if ((await brandName(tx, input.brandId)) === null)
            return { ok: false, fieldErrors: errors.brandGone }
          changes.brandId = { from: current.brandId, to: input.brandId }
        }
        if (current.feedbackRequestCap !== input.feedbackRequestCap)
          changes.feedbackRequestCap = { from: current.feedbackRequestCap, to: input.feedbackRequestCap }
        const erasureRaterAnswers = input.erasureRaterAnswers ?? current.erasureRaterAnswers
        if (current.erasureRaterAnswers !== erasureRaterAnswers)
          changes.erasureRaterAnswers = { from: current.erasureRaterAnswers, to: erasureRaterAnswers }
        if (!Object.keys(changes).length) return { ok: true, value: { id, changed: [] } }
        await tx
          .update(companies)
          .set({
            name: input.name,
            brandId: input.brandId,
            feedbackRequestCap: input.feedbackRequestCap,
            erasureRaterAnswers,
            updatedAt: new Date(),
          })
          .where(eq(companies.id, id))
        await recordAudit(tx, actor, {
          action: 'company.update',
          entity: 'company',
          entityId: id,
          details: { changes },
        })
        return { ok: true, value: { id, changed: Object.keys(changes) } }
      }),
  )
}

export async function deleteCompany(actor: Actor, id: string): Promise<Outcome<{ name: string }>> {
  // An employee or scheme added meanwhile: the foreign key refuses, the admin gets words.
  return refuseOnPgError(
    PG_ERROR.foreignKeyViolation,
    () => ({ ok: false, formErrors: [companyInUseMessage(null, null, null)] }),
    () =>
      getDb().transaction(async (tx): Promise<Outcome<{ name: string }>> => {
        const current = await lockCompany(tx, id)
        if (!current) return refuse('This company no longer exists.')
        const [usage] = await tx
          .select({
            employees: employeeCount,
            schemes: schemeCount,
          })
          .from(companies)
          .where(eq(companies.id, id))
        if (usage && (usage.employees > 0 || usage.schemes > 0)) {
          return {
            ok: false,
            formErrors: [companyInUseMessage(current.name, usage.employees, usage.schemes)],
          }
        }
        await tx.delete(companies).where(eq(companies.id, id))
        await recordAudit(tx, actor, {
          action: 'company.delete',
          entity: 'company',
          entityId: id,
          details: { name: current.name, brandId: current.brandId },
        })
        return { ok: true, value: { name: current.name } }
      }),
  )
}
