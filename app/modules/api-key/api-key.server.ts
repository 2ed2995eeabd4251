import { randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm'
import { getDb } from '#db/client'
import { apiKeys, companies } from '#db/schema/index'
import type { ApiScope } from '#db/enums'
import { isUuid } from '#app/lib/ids'
import { ok, refuseField, refuseNotFound, type Actor, type Outcome } from '#app/lib/outcome'
import { hashSecret } from '#app/lib/secret-hash.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { API_KEY_MESSAGES, type ApiKeyInput } from './schemas'

/**
 * API keys (issue 21 §1, ADR 054): created by an admin and shown once; the database keeps only the
 * SHA-256 of the whole key, its first characters (to tell keys apart) and what it may do. A key is
 * `pnr_` + 8 characters (the prefix) + `_` + 43 characters of randomness (32 bytes, base64url).
 */

export const KEY_PREFIX = 'pnr_'
/** The most keys the admin page lists (a handful per HR system; newest first). */
export const API_KEY_LIST_LIMIT = 500
/** last_used_at and last_used_ip are written at most this often per key. */
export const LAST_USED_EVERY_SECONDS = 60

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789'

function newKey() {
  const bytes = randomBytes(8)
  const prefix = KEY_PREFIX + Array.from(bytes, (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')
  return { prefix, key: `${prefix}_${randomBytes(32).toString('base64url')}` }
}

/** Creates a key; its value is in the answer and nowhere else. Audited without the key. */
export async function createApiKey(
  actor: Actor,
  input: ApiKeyInput,
): Promise<Outcome<{ id: string; key: string; prefix: string }>> {
  const { prefix, key } = newKey()
  return getDb().transaction(async (tx) => {
    if (input.companyId) {
      const [company] = await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.id, input.companyId))
        .for('key share')
      if (!company) return refuseField('companyId', API_KEY_MESSAGES.companyGone)
    }
    const [row] = await tx
      .insert(apiKeys)
      .values({
        name: input.name,
        prefix,
        secretHash: hashSecret(key),
        scopes: [...new Set(input.scopes)].sort(),
        companyId: input.companyId,
        requestsPerMinute: input.requestsPerMinute ?? 600,
        expiresAt:
          input.expiresInDays === null ? null : sql`now() + make_interval(days => ${input.expiresInDays})`,
        createdBy: actor.id,
      })
      .returning({ id: apiKeys.id })
    await recordAudit(tx, actor, {
      action: 'api_key.create',
      entity: 'api_key',
      entityId: row!.id,
      details: {
        name: input.name,
        prefix,
        scopes: input.scopes,
        companyId: input.companyId,
        expiresInDays: input.expiresInDays,
      },
    })
    return ok({ id: row!.id, key, prefix })
  })
}

/** Revokes a key at once (its next request answers 401). Revoking a revoked key changes nothing. */
export async function revokeApiKey(
  actor: Actor,
  id: string,
): Promise<Outcome<{ name: string; changed: boolean }>> {
  if (!isUuid(id)) return refuseNotFound()
  return getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({ name: apiKeys.name, revokedAt: apiKeys.revokedAt, prefix: apiKeys.prefix })
      .from(apiKeys)
      .where(eq(apiKeys.id, id))
      .for('update')
    if (!current) return refuseNotFound()
    if (current.revokedAt) return ok({ name: current.name, changed: false })
    await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(eq(apiKeys.id, id))
    await recordAudit(tx, actor, {
      action: 'api_key.revoke',
      entity: 'api_key',
      entityId: id,
      details: { name: current.name, prefix: current.prefix },
    })
    return ok({ name: current.name, changed: true })
  })
}

export type ApiKeyStatus = 'active' | 'expired' | 'revoked'

export type ApiKeyListRow = {
  id: string
  name: string
  prefix: string
  scopes: string[]
  companyId: string | null
  companyName: string | null
  expiresAt: string | null
  lastUsedAt: string | null
  lastUsedIp: string | null
  createdAt: string
  status: ApiKeyStatus
}

const statusSql = sql<ApiKeyStatus>`CASE
  WHEN ${apiKeys.revokedAt} IS NOT NULL THEN 'revoked'
  WHEN ${apiKeys.expiresAt} IS NOT NULL AND ${apiKeys.expiresAt} <= now() THEN 'expired'
  ELSE 'active' END`

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())

/** The admin page's list: every key, newest first (one statement), and the companies the form offers. */
export async function listApiKeys(): Promise<ApiKeyListRow[]> {
  const rows = await getDb()
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      companyId: apiKeys.companyId,
      companyName: companies.name,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      lastUsedIp: apiKeys.lastUsedIp,
      createdAt: apiKeys.createdAt,
      status: statusSql,
    })
    .from(apiKeys)
    .leftJoin(companies, eq(companies.id, apiKeys.companyId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(API_KEY_LIST_LIMIT)
  return rows.map((r) => ({
    ...r,
    expiresAt: iso(r.expiresAt),
    lastUsedAt: iso(r.lastUsedAt),
    createdAt: iso(r.createdAt)!,
  }))
}

/** The key a request presents, as the API checks it: who may do what, and whether it still may. */
export type ApiKeyGrant = {
  id: string
  scopes: ApiScope[]
  companyId: string | null
  requestsPerMinute: number
  /** The admin who created the key: a write through it acts as them (null when they were deleted). */
  createdBy: string | null
}

export type KeyCheck =
  { ok: true; key: ApiKeyGrant } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' }

/** Looks a presented key up by its hash (one indexed statement); never compares the key itself. */
export async function checkApiKey(presented: string): Promise<KeyCheck> {
  if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return { ok: false, reason: 'unknown' }
  const [row] = await getDb()
    .select({
      id: apiKeys.id,
      scopes: apiKeys.scopes,
      companyId: apiKeys.companyId,
      requestsPerMinute: apiKeys.requestsPerMinute,
      createdBy: apiKeys.createdBy,
      status: statusSql,
    })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, hashSecret(presented)))
    .limit(1)
  if (!row) return { ok: false, reason: 'unknown' }
  if (row.status !== 'active') return { ok: false, reason: row.status }
  const { status: _status, ...key } = row
  return { ok: true, key: { ...key, scopes: key.scopes as ApiScope[] } }
}

/**
 * Notes when and from where a key was last used: one UPDATE that writes only when the last note is
 * older than a minute, so a busy key does not write on every request.
 */
export async function noteKeyUse(id: string, ip: string | null) {
  await getDb()
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()`, lastUsedIp: ip })
    .where(
      and(
        eq(apiKeys.id, id),
        or(
          isNull(apiKeys.lastUsedAt),
          sql`${apiKeys.lastUsedAt} <= now() - make_interval(secs => ${LAST_USED_EVERY_SECONDS})`,
        ),
      ),
    )
}
