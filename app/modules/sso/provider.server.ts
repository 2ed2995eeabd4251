import { and, asc, eq, ilike, inArray, sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { identityProviderCompanies, identityProviderDomains, identityProviders } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import { isUuid } from '#app/lib/ids'
import { emailDomainOf } from '#app/lib/identity-provider-values'
import { escapeLike, keysetList, timestampKey, type Page } from '#app/lib/keyset-list.server'
import type { Actor, Outcome, Refusal } from '#app/lib/outcome'
import { PG_ERROR, pgErrorCode } from '#app/lib/pg-error'
import { decryptSecret, encryptSecret, SecretBoxError } from '#app/lib/secret-box.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { nameTaken } from '#app/modules/unique-name/unique-name.server'
import type { ProviderInput, ProviderListQuery } from './schemas'

/**
 * Identity providers (issue 20 §1, ADR 049): the OpenID providers an admin set up — every query and
 * rule — and the one set by variables (OIDC_*). Client secrets are sealed with SECRET_KEY
 * (app/lib/secret-box.server.ts) and never read back out to a page.
 */

/** The associated data a client secret is sealed with: it opens only in this column. */
export const SECRET_CONTEXT = 'identity_providers.client_secret'

export const PROVIDER_PAGE_SIZE = 20

/** Companies the form offers as checkboxes (the employee list's select offers as many). */
const COMPANY_OPTION_LIMIT = 1000

/** A provider as the sign-in uses it: `id` null for the one set by variables. */
export type IdentityProviderSettings = {
  id: string | null
  name: string
  issuer: string
  clientId: string
  clientSecret: string
  scopes: string[]
  domains: string[]
  allowPassword: boolean
  jitCompanyId: string | null
  /** Changes whenever the provider does: a cached discovery of its old settings is not used. */
  version: string
}

/** Whether any provider is set up: the sign-in page then asks for the address first. */
export async function identityProvidersExist(): Promise<boolean> {
  if (getEnv().oidcProvider) return true
  const [row] = await queryRows<{ found: boolean }>(
    getDb(),
    sql`SELECT EXISTS (SELECT 1 FROM identity_providers) AS found`,
  )
  return Boolean(row?.found)
}

/**
 * The provider that signs in this address's domain (by the domain only: nothing about any account
 * is read), with its name for the page; null when none does. The provider set by variables wins a
 * domain both claim (the form refuses such a domain, but a variable may be set later).
 */
export async function providerForEmail(email: string): Promise<{ id: string | null; name: string } | null> {
  const domain = emailDomainOf(email)
  const env = getEnv().oidcProvider
  if (env?.domains.includes(domain)) return { id: null, name: env.name }
  const [row] = await getDb()
    .select({ id: identityProviders.id, name: identityProviders.name })
    .from(identityProviderDomains)
    .innerJoin(identityProviders, eq(identityProviders.id, identityProviderDomains.providerId))
    .where(eq(identityProviderDomains.domain, domain))
    .limit(1)
  return row ?? null
}

export type SettingsResult =
  { ok: true; provider: IdentityProviderSettings } | { ok: false; reason: 'gone' | 'secret-unreadable' }

/**
 * Everything the sign-in needs of one provider (`null`: the one set by variables), its secret
 * opened. `gone` when it was deleted (or the variables removed); `secret-unreadable` when its secret
 * was sealed with another SECRET_KEY.
 */
export async function providerSettings(id: string | null): Promise<SettingsResult> {
  if (id === null) {
    const env = getEnv().oidcProvider
    if (!env) return { ok: false, reason: 'gone' }
    return {
      ok: true,
      provider: { id: null, ...env, jitCompanyId: null, version: `env:${env.issuer}:${env.clientId}` },
    }
  }
  if (!isUuid(id)) return { ok: false, reason: 'gone' }
  const [row] = await getDb()
    .select({
      id: identityProviders.id,
      name: identityProviders.name,
      issuer: identityProviders.issuer,
      clientId: identityProviders.clientId,
      clientSecretSealed: identityProviders.clientSecretSealed,
      scopes: identityProviders.scopes,
      allowPassword: identityProviders.allowPassword,
      jitCompanyId: identityProviders.jitCompanyId,
      version: timestampKey(identityProviders.updatedAt),
      domains: sql<
        string[]
      >`coalesce((SELECT array_agg(d.domain ORDER BY d.domain) FROM identity_provider_domains d WHERE d.provider_id = identity_providers.id), '{}')`,
    })
    .from(identityProviders)
    .where(eq(identityProviders.id, id))
    .limit(1)
  if (!row) return { ok: false, reason: 'gone' }
  let clientSecret: string
  try {
    clientSecret = decryptSecret(row.clientSecretSealed, SECRET_CONTEXT)
  } catch (error) {
    if (error instanceof SecretBoxError) return { ok: false, reason: 'secret-unreadable' }
    throw error
  }
  const { clientSecretSealed: _sealed, scopes, ...rest } = row
  return {
    ok: true,
    provider: {
      ...rest,
      clientSecret,
      scopes: scopes.split(/\s+/).filter(Boolean),
      version: `${row.id}:${row.version}`,
    },
  }
}

/** The install-wide provider set by variables, as the back office shows it (never its secret). */
export function environmentProvider() {
  const env = getEnv().oidcProvider
  return env
    ? {
        name: env.name,
        issuer: env.issuer,
        clientId: env.clientId,
        scopes: env.scopes.join(' '),
        domains: env.domains,
        allowPassword: env.allowPassword,
      }
    : null
}

// ---------------------------------------------------------------------------------------------
// The back office: the list, one provider, its changes.

export type ProviderListRow = {
  id: string
  name: string
  issuer: string
  domains: string[]
  companyCount: number
  allowPassword: boolean
  createdAt: string
}

// Correlated subqueries: one statement for the page, served by the indexes on provider_id.
// Written out in full: Drizzle leaves a single-table select's columns unqualified.
const domainList = sql<
  string[]
>`coalesce((SELECT array_agg(d.domain ORDER BY d.domain) FROM identity_provider_domains d WHERE d.provider_id = identity_providers.id), '{}')`
const companyCount =
  sql<number>`(SELECT count(*) FROM identity_provider_companies c WHERE c.provider_id = identity_providers.id)::int`.mapWith(
    Number,
  )

export async function listIdentityProviders(query: ProviderListQuery): Promise<Page<ProviderListRow>> {
  const columns = {
    name: identityProviders.name,
    created: identityProviders.createdAt,
    id: identityProviders.id,
  }
  return keysetList(query, columns, PROVIDER_PAGE_SIZE, ({ keyset, orderBy, limit }) =>
    getDb()
      .select({
        id: identityProviders.id,
        name: identityProviders.name,
        issuer: identityProviders.issuer,
        domains: domainList,
        companyCount,
        allowPassword: identityProviders.allowPassword,
        createdAt: timestampKey(identityProviders.createdAt),
      })
      .from(identityProviders)
      .where(and(query.q ? ilike(identityProviders.name, `%${escapeLike(query.q)}%`) : undefined, keyset))
      .orderBy(...orderBy)
      .limit(limit),
  )
}

/**
 * One provider for its page, with its domains, its companies' ids, how many accounts are linked to
 * its issuer and the companies the form offers — one statement; null for an unknown or malformed id.
 * Never the secret.
 */
export async function getIdentityProvider(id: string) {
  if (!isUuid(id)) return null
  const [row] = await getDb()
    .select({
      id: identityProviders.id,
      name: identityProviders.name,
      issuer: identityProviders.issuer,
      clientId: identityProviders.clientId,
      scopes: identityProviders.scopes,
      allowPassword: identityProviders.allowPassword,
      jitCompanyId: identityProviders.jitCompanyId,
      domains: domainList,
      companyIds: sql<
        string[]
      >`coalesce((SELECT array_agg(c.company_id::text) FROM identity_provider_companies c WHERE c.provider_id = identity_providers.id), '{}')`,
      linkedAccounts:
        sql<number>`(SELECT count(*) FROM user_identities u WHERE u.issuer = identity_providers.issuer)::int`.mapWith(
          Number,
        ),
      companyOptions: companyOptionsSql,
    })
    .from(identityProviders)
    .where(eq(identityProviders.id, id))
    .limit(1)
  return row ? { ...row, companyOptions: row.companyOptions ?? [] } : null
}

/** Whether a provider with this id exists (its page's actions answer 404 otherwise). */
export async function identityProviderExists(id: string) {
  if (!isUuid(id)) return false
  const [row] = await getDb()
    .select({ id: identityProviders.id })
    .from(identityProviders)
    .where(eq(identityProviders.id, id))
    .limit(1)
  return Boolean(row)
}

export type CompanyOption = { id: string; name: string }

const companyOptionsSql = sql<
  CompanyOption[] | null
>`(SELECT json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY lower(c.name), c.id)
  FROM (SELECT id, name FROM companies ORDER BY lower(name), id LIMIT ${COMPANY_OPTION_LIMIT}) c)`

/** The companies the create form offers, in one statement. */
export async function providerCompanyOptions(): Promise<CompanyOption[]> {
  const [row] = await queryRows<{ companies: CompanyOption[] | null }>(
    getDb(),
    sql`SELECT ${companyOptionsSql} AS companies`,
  )
  return row?.companies ?? []
}

const PROVIDER_NAMES = {
  table: identityProviders,
  id: identityProviders.id,
  name: identityProviders.name,
  lock: 'identity-provider-name',
}

const nameTakenError = (name: string) => ({
  name: [`A provider called “${name}” already exists. Choose another name.`],
})

const PROVIDER_UNKNOWN: Refusal = { ok: false, notFound: true, formErrors: ['This provider does not exist.'] }
const PROVIDER_GONE: Refusal = { ok: false, notFound: true, formErrors: ['This provider no longer exists.'] }
const COMPANY_GONE: Refusal = {
  ok: false,
  fieldErrors: {
    companyIds: ['One of the companies ticked no longer exists. Reload the page and try again.'],
  },
}

/**
 * The domains another provider already signs in (a domain goes to one provider: that is how the
 * sign-in page knows where to send an address), as a field message; null when none is taken. The
 * advisory lock makes two saves claiming one domain take turns; the primary key has the last word.
 */
async function domainsTaken(tx: Tx, domains: string[], exceptId?: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('identity-provider-domains'))`)
  const env = getEnv().oidcProvider
  const byEnv = env ? domains.filter((d) => env.domains.includes(d)) : []
  if (byEnv.length)
    return {
      domains: [
        `${byEnv.join(', ')} ${byEnv.length === 1 ? 'is' : 'are'} signed in by the provider set in the server’s configuration (OIDC_DOMAINS).`,
      ],
    }
  const taken = await tx
    .select({ domain: identityProviderDomains.domain, name: identityProviders.name })
    .from(identityProviderDomains)
    .innerJoin(identityProviders, eq(identityProviders.id, identityProviderDomains.providerId))
    .where(
      and(
        inArray(identityProviderDomains.domain, domains),
        exceptId ? sql`${identityProviderDomains.providerId} <> ${exceptId}` : undefined,
      ),
    )
    .orderBy(asc(identityProviderDomains.domain))
  if (!taken.length) return null
  return {
    domains: taken.map(
      (t) => `${t.domain} is already signed in by “${t.name}”. A domain can have one provider.`,
    ),
  }
}

/** The settings as the audit log records them: never the secret. */
const auditable = (input: ProviderInput) => ({
  name: input.name,
  issuer: input.issuer,
  clientId: input.clientId,
  scopes: input.scopes.join(' '),
  domains: input.domains,
  companyIds: input.companyIds,
  allowPassword: input.allowPassword,
  jitCompanyId: input.jitCompanyId,
})

/** A constraint a concurrent change won (a company deleted, a domain claimed): words, not a 500. */
async function refusingRaces<T>(run: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
  try {
    return await run()
  } catch (error) {
    const code = pgErrorCode(error)
    if (code === PG_ERROR.foreignKeyViolation) return COMPANY_GONE
    if (code === PG_ERROR.uniqueViolation)
      return {
        ok: false,
        formErrors: ['Another change was saved at the same time. Reload the page and try again.'],
      }
    throw error
  }
}

async function writeMembers(tx: Tx, id: string, input: Pick<ProviderInput, 'domains' | 'companyIds'>) {
  await tx.delete(identityProviderDomains).where(eq(identityProviderDomains.providerId, id))
  await tx.delete(identityProviderCompanies).where(eq(identityProviderCompanies.providerId, id))
  await tx.insert(identityProviderDomains).values(input.domains.map((domain) => ({ domain, providerId: id })))
  if (input.companyIds.length)
    await tx
      .insert(identityProviderCompanies)
      .values(input.companyIds.map((companyId) => ({ providerId: id, companyId })))
}

/** A secret sealed for its column, or the refusal of a server that has no SECRET_KEY. */
function seal(secret: string): { ok: true; sealed: string } | Refusal {
  try {
    return { ok: true, sealed: encryptSecret(secret, SECRET_CONTEXT) }
  } catch (error) {
    if (error instanceof SecretBoxError) return { ok: false, formErrors: [error.message] }
    throw error
  }
}

export async function createIdentityProvider(
  actor: Actor,
  input: ProviderInput & { clientSecret: string },
): Promise<Outcome<{ id: string }>> {
  const secret = seal(input.clientSecret)
  if (!secret.ok) return secret
  return refusingRaces(() =>
    getDb().transaction(async (tx): Promise<Outcome<{ id: string }>> => {
      if (await nameTaken(tx, PROVIDER_NAMES, input.name))
        return { ok: false, fieldErrors: nameTakenError(input.name) }
      const taken = await domainsTaken(tx, input.domains)
      if (taken) return { ok: false, fieldErrors: taken }
      const [row] = await tx
        .insert(identityProviders)
        .values({
          name: input.name,
          issuer: input.issuer,
          clientId: input.clientId,
          clientSecretSealed: secret.sealed,
          scopes: input.scopes.join(' '),
          allowPassword: input.allowPassword,
          jitCompanyId: input.jitCompanyId,
        })
        .returning({ id: identityProviders.id })
      await writeMembers(tx, row!.id, input)
      await recordAudit(tx, actor, {
        action: 'identity_provider.create',
        entity: 'identity_provider',
        entityId: row!.id,
        details: auditable(input),
      })
      return { ok: true, value: { id: row!.id } }
    }),
  )
}

/** The provider's row, locked until the transaction ends; null when gone. */
async function lockProvider(tx: Tx, id: string) {
  const [row] = await tx.select().from(identityProviders).where(eq(identityProviders.id, id)).for('update')
  if (!row) return null
  const [members] = await queryRows<{ domains: string[]; company_ids: string[] }>(
    tx,
    sql`SELECT
      coalesce((SELECT array_agg(domain ORDER BY domain) FROM identity_provider_domains WHERE provider_id = ${id}), '{}') AS domains,
      coalesce((SELECT array_agg(company_id::text ORDER BY company_id) FROM identity_provider_companies WHERE provider_id = ${id}), '{}') AS company_ids`,
  )
  return { ...row, domains: members?.domains ?? [], companyIds: members?.company_ids ?? [] }
}

const sameList = (a: string[], b: string[]) => [...a].sort().join(' ') === [...b].sort().join(' ')

export async function updateIdentityProvider(
  actor: Actor,
  id: string,
  input: ProviderInput,
): Promise<Outcome<{ id: string; changed: string[] }>> {
  if (!isUuid(id)) return PROVIDER_UNKNOWN
  const secret = input.clientSecret ? seal(input.clientSecret) : null
  if (secret && !secret.ok) return secret
  return refusingRaces(() =>
    getDb().transaction(async (tx): Promise<Outcome<{ id: string; changed: string[] }>> => {
      const current = await lockProvider(tx, id)
      if (!current) return PROVIDER_GONE
      if (
        input.name.toLowerCase() !== current.name.toLowerCase() &&
        (await nameTaken(tx, PROVIDER_NAMES, input.name, id))
      )
        return { ok: false, fieldErrors: nameTakenError(input.name) }
      const taken = await domainsTaken(tx, input.domains, id)
      if (taken) return { ok: false, fieldErrors: taken }

      const before = {
        name: current.name,
        issuer: current.issuer,
        clientId: current.clientId,
        scopes: current.scopes,
        allowPassword: current.allowPassword,
        jitCompanyId: current.jitCompanyId,
      }
      const after = { ...auditable(input) }
      const changes: Record<string, { from: unknown; to: unknown }> = {}
      for (const key of Object.keys(before) as Array<keyof typeof before>)
        if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] }
      if (!sameList(current.domains, input.domains))
        changes.domains = { from: current.domains, to: input.domains }
      if (!sameList(current.companyIds, input.companyIds))
        changes.companyIds = { from: current.companyIds, to: input.companyIds }
      // Only that it was replaced: the audit log never holds a secret, sealed or not.
      if (input.clientSecret) changes.clientSecret = { from: 'hidden', to: 'replaced' }
      if (!Object.keys(changes).length) return { ok: true, value: { id, changed: [] } }

      await tx
        .update(identityProviders)
        .set({
          name: input.name,
          issuer: input.issuer,
          clientId: input.clientId,
          ...(input.clientSecret
            ? { clientSecretSealed: encryptSecret(input.clientSecret, SECRET_CONTEXT) }
            : {}),
          scopes: input.scopes.join(' '),
          allowPassword: input.allowPassword,
          jitCompanyId: input.jitCompanyId,
          updatedAt: sql`clock_timestamp()`,
        })
        .where(eq(identityProviders.id, id))
      if (changes.domains || changes.companyIds) await writeMembers(tx, id, input)
      await recordAudit(tx, actor, {
        action: 'identity_provider.update',
        entity: 'identity_provider',
        entityId: id,
        details: { changes },
      })
      return { ok: true, value: { id, changed: Object.keys(changes) } }
    }),
  )
}

/**
 * Deletes a provider: its domains go back to the password form, sign-ins on their way through it
 * fail with a clear page. The subjects linked to its issuer stay (a provider set up again with the
 * same issuer finds them).
 */
export async function deleteIdentityProvider(actor: Actor, id: string): Promise<Outcome<{ name: string }>> {
  if (!isUuid(id)) return PROVIDER_UNKNOWN
  return getDb().transaction(async (tx): Promise<Outcome<{ name: string }>> => {
    const current = await lockProvider(tx, id)
    if (!current) return PROVIDER_GONE
    await tx.delete(identityProviders).where(eq(identityProviders.id, id))
    await recordAudit(tx, actor, {
      action: 'identity_provider.delete',
      entity: 'identity_provider',
      entityId: id,
      details: {
        name: current.name,
        issuer: current.issuer,
        clientId: current.clientId,
        domains: current.domains,
        companyIds: current.companyIds,
      },
    })
    return { ok: true, value: { name: current.name } }
  })
}
