import { and, asc, eq, ilike, sql } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import { brands, companies } from '#db/schema/index'
import { recordAudit } from '#app/modules/audit/audit.server'
import { deleteFile, storeImage, type ImageType } from '#app/modules/file/file.server'
import { escapeLike, keysetList, timestampKey, type Page } from '#app/lib/keyset-list.server'
import type { Actor, Outcome, Refusal } from '#app/lib/outcome'
import { PG_ERROR, refuseOnPgError } from '#app/lib/pg-error'
import { nameTaken } from '#app/modules/unique-name/unique-name.server'
import type { BrandCreateInput, BrandListQuery, BrandUpdateInput } from './schemas'
import { isUuid } from '#app/lib/ids'
import { availableLanguages } from '#app/modules/i18n/i18n.server'
import { LANGUAGE_NOT_OFFERED } from '#app/modules/i18n/languages'

/**
 * Brands: every query and rule. Routes call these and never run SQL themselves. Changes run in a
 * transaction that also writes the audit row; rule failures come back as form messages (`ok: false`),
 * never as thrown errors, so a page can show them next to the field.
 */

export const BRAND_PAGE_SIZE = 20

/** A language the portal serves now: shipped, or previewed (ADR 050). */
const isOffered = (code: string) => (availableLanguages() as readonly string[]).includes(code)

// ---------------------------------------------------------------------------------------------
// The list: search, sort and keyset pagination in one query.

// A correlated count: one statement for the page, served by the index on companies.brand_id.
// Written out in full because Drizzle leaves columns unqualified in a single-table select, where
// "id" inside the subquery would mean companies.id.
const companyCount =
  sql<number>`(SELECT count(*) FROM companies c WHERE c.brand_id = brands.id)::int`.mapWith(Number)

export type BrandListRow = {
  id: string
  name: string
  logoFileId: string | null
  primaryColor: string
  accentColor: string
  createdAt: string
  companyCount: number
}

export async function listBrands(query: BrandListQuery): Promise<Page<BrandListRow>> {
  const columns = { name: brands.name, created: brands.createdAt, id: brands.id }
  return keysetList(query, columns, BRAND_PAGE_SIZE, ({ keyset, orderBy, limit }) =>
    getDb()
      .select({
        id: brands.id,
        name: brands.name,
        logoFileId: brands.logoFileId,
        primaryColor: brands.primaryColor,
        accentColor: brands.accentColor,
        createdAt: timestampKey(brands.createdAt),
        companyCount,
      })
      .from(brands)
      .where(and(query.q ? ilike(brands.name, `%${escapeLike(query.q)}%`) : undefined, keyset))
      .orderBy(...orderBy)
      .limit(limit),
  )
}

/** Every brand for a <select> (companies choose one), by name. */
export async function listBrandOptions() {
  return getDb()
    .select({ id: brands.id, name: brands.name })
    .from(brands)
    .orderBy(asc(brands.name), asc(brands.id))
    .limit(1000)
}

/** One brand for its edit page; null for an unknown or malformed id. */
export async function getBrand(id: string) {
  if (!isUuid(id)) return null
  const [row] = await getDb()
    .select({
      id: brands.id,
      name: brands.name,
      logoFileId: brands.logoFileId,
      primaryColor: brands.primaryColor,
      accentColor: brands.accentColor,
      senderName: brands.senderName,
      callbackUrl: brands.callbackUrl,
      contactEmail: brands.contactEmail,
      profileUrl: brands.profileUrl,
      defaultLanguage: brands.defaultLanguage,
      companyCount,
    })
    .from(brands)
    .where(eq(brands.id, id))
    .limit(1)
  return row ?? null
}

// ---------------------------------------------------------------------------------------------
// Changes.

const BRAND_NAMES = { table: brands, id: brands.id, name: brands.name, lock: 'brand-name' }

const nameTakenError = (name: string) => ({
  name: [`A brand called “${name}” already exists. Choose another name.`],
})

export async function createBrand(
  actor: Actor,
  input: Omit<BrandCreateInput, 'intent'>,
): Promise<Outcome<{ id: string }>> {
  return getDb().transaction(async (tx) => {
    if (await nameTaken(tx, BRAND_NAMES, input.name))
      return { ok: false, fieldErrors: nameTakenError(input.name) }
    const values = { name: input.name, primaryColor: input.primaryColor, accentColor: input.accentColor }
    const [row] = await tx.insert(brands).values(values).returning({ id: brands.id })
    await recordAudit(tx, actor, {
      action: 'brand.create',
      entity: 'brand',
      entityId: row!.id,
      details: values,
    })
    return { ok: true, value: { id: row!.id } }
  })
}

const BRAND_UNKNOWN: Refusal = { ok: false, notFound: true, formErrors: ['This brand does not exist.'] }
const BRAND_GONE: Refusal = { ok: false, notFound: true, formErrors: ['This brand no longer exists.'] }

/** The brand's row, locked until the transaction ends (a change or a deletion waits its turn); null when gone. */
async function lockBrand(tx: Tx, id: string) {
  const [row] = await tx.select().from(brands).where(eq(brands.id, id)).for('update')
  return row ?? null
}

export type BrandChanges = Omit<BrandUpdateInput, 'intent' | 'logo' | 'removeLogo'> & {
  /** A checked image (readImageUpload) to replace the logo with, or null to keep it. */
  logo: { bytes: Uint8Array; mime: ImageType } | null
  removeLogo: boolean
}

const EDITABLE = [
  'name',
  'primaryColor',
  'accentColor',
  'senderName',
  'callbackUrl',
  'contactEmail',
  'profileUrl',
  'defaultLanguage',
  'logoFileId',
] as const

export async function updateBrand(
  actor: Actor,
  id: string,
  input: BrandChanges,
): Promise<Outcome<{ id: string; changed: string[] }>> {
  if (!isUuid(id)) return BRAND_UNKNOWN
  return getDb().transaction(async (tx) => {
    const current = await lockBrand(tx, id)
    if (!current) return BRAND_GONE
    if (
      input.name.toLowerCase() !== current.name.toLowerCase() &&
      (await nameTaken(tx, BRAND_NAMES, input.name, id))
    ) {
      return { ok: false, fieldErrors: nameTakenError(input.name) }
    }

    const next = {
      name: input.name,
      primaryColor: input.primaryColor,
      accentColor: input.accentColor,
      senderName: input.senderName,
      callbackUrl: input.callbackUrl,
      contactEmail: input.contactEmail,
      profileUrl: input.profileUrl,
      defaultLanguage: input.defaultLanguage ?? current.defaultLanguage,
      logoFileId: current.logoFileId,
    }
    // Only a language the portal offers now (shipped, or previewed: ADR 050); an unchanged one stays.
    if (next.defaultLanguage !== current.defaultLanguage && !isOffered(next.defaultLanguage))
      return { ok: false, fieldErrors: { defaultLanguage: [LANGUAGE_NOT_OFFERED] } }
    if (input.logo) next.logoFileId = await storeImage(tx, input.logo, id)
    else if (input.removeLogo) next.logoFileId = null

    const changes: Record<string, { from: unknown; to: unknown }> = {}
    for (const key of EDITABLE) {
      if (current[key] !== next[key]) changes[key] = { from: current[key], to: next[key] }
    }
    if (!Object.keys(changes).length) return { ok: true, value: { id, changed: [] } }

    await tx
      .update(brands)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(brands.id, id))
    // The replaced logo's bytes go too: nothing else points at a brand's logo file.
    if (current.logoFileId && current.logoFileId !== next.logoFileId) await deleteFile(tx, current.logoFileId)
    await recordAudit(tx, actor, {
      action: 'brand.update',
      entity: 'brand',
      entityId: id,
      details: { changes },
    })
    return { ok: true, value: { id, changed: Object.keys(changes) } }
  })
}

function brandInUse(name: string | null, count: number | null) {
  const who = name ? `“${name}”` : 'This brand'
  const users =
    count === null
      ? 'is still used by at least one company'
      : `is used by ${count} ${count === 1 ? 'company' : 'companies'}`
  return `${who} ${users}, so it cannot be deleted. Move ${count === 1 ? 'that company' : 'those companies'} to another brand first.`
}

export async function deleteBrand(actor: Actor, id: string): Promise<Outcome<{ name: string }>> {
  if (!isUuid(id)) return BRAND_UNKNOWN
  // The foreign key is the last word: a company that slipped in still makes this a message, not a 500.
  return refuseOnPgError(
    PG_ERROR.foreignKeyViolation,
    () => ({ ok: false, formErrors: [brandInUse(null, null)] }),
    () =>
      getDb().transaction(async (tx): Promise<Outcome<{ name: string }>> => {
        // The row lock makes a concurrent "create company with this brand" wait for the outcome.
        const current = await lockBrand(tx, id)
        if (!current) return BRAND_GONE
        const [usage] = await tx
          .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
          .from(companies)
          .where(eq(companies.brandId, id))
        if (usage && usage.count > 0)
          return { ok: false, formErrors: [brandInUse(current.name, usage.count)] }

        await tx.delete(brands).where(eq(brands.id, id))
        if (current.logoFileId) await deleteFile(tx, current.logoFileId)
        await recordAudit(tx, actor, {
          action: 'brand.delete',
          entity: 'brand',
          entityId: id,
          details: {
            name: current.name,
            logoFileId: current.logoFileId,
            primaryColor: current.primaryColor,
            accentColor: current.accentColor,
          },
        })
        return { ok: true, value: { name: current.name } }
      }),
  )
}
