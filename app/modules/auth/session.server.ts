import { sha256 } from '@oslojs/crypto/sha2'
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import { sessions, users } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import type { Role } from './permissions'

/** Lucia-guide sessions (see ADR 004). */
export const SESSION_COOKIE = '__session'
const DAY = 24 * 60 * 60 * 1000
export const SESSION_TTL_MS = 30 * DAY
/** Past half its life, a used session is extended to a fresh 30 days… */
export const SESSION_RENEW_BEFORE_MS = SESSION_TTL_MS / 2
/** …but never beyond this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 90 * DAY

export type SessionUser = {
  id: string
  email: string
  emailVerified: boolean
  displayName: string
  photoFileId: string | null
  phone: string | null
  role: Role
  companyId: string | null
  hasPassword: boolean
}

export type Session = { id: string; userId: string; createdAt: Date; expiresAt: Date }
export type SessionResult = { session: Session; user: SessionUser; token: string; renewed: boolean }

function randomPart() {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

// Both halves of a token are lower-case base32; anything else (a NUL byte, a quote) never reaches SQL.
const TOKEN_PART = /^[a-z2-7]{1,64}$/

/** The session id part of a well-formed `id.secret` token, else null. */
export function sessionIdOf(token: string | null | undefined): string | null {
  if (!token) return null
  const parts = token.split('.')
  return parts.length === 2 && TOKEN_PART.test(parts[0]!) ? parts[0]! : null
}

export function hashSecret(secret: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)))
}

/** A new session for a user: returns the token (`id.secret`) for the cookie. */
export async function createSession(
  userId: string,
  meta: { ip?: string | null; userAgent?: string | null } = {},
  tx: Tx = getDb(),
): Promise<{ token: string; session: Session }> {
  const id = randomPart()
  const secret = randomPart()
  const now = new Date()
  const session = { id, userId, createdAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) }
  await tx.insert(sessions).values({
    ...session,
    secretHash: hashSecret(secret),
    lastSeenAt: now,
    ip: meta.ip?.slice(0, 64) ?? null,
    userAgent: meta.userAgent?.slice(0, 256) ?? null,
  })
  return { token: `${id}.${secret}`, session }
}

/**
 * Checks a token against the live session row. With `renew`, a session past half its life is
 * extended (up to the absolute cap); `renewed` tells the caller to re-set the cookie.
 */
export async function validateSessionToken(
  token: string | null | undefined,
  { renew = false }: { renew?: boolean } = {},
): Promise<SessionResult | null> {
  if (!token) return null
  const id = sessionIdOf(token)
  const secret = token.split('.')[1]
  if (!id || !secret || !TOKEN_PART.test(secret)) return null
  const db = getDb()
  const [row] = await db
    .select({
      id: sessions.id,
      secretHash: sessions.secretHash,
      userId: sessions.userId,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      displayName: users.displayName,
      photoFileId: users.photoFileId,
      phone: users.phone,
      role: users.role,
      companyId: users.companyId,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1)
  if (!row) return null
  const given = new TextEncoder().encode(hashSecret(secret))
  const stored = new TextEncoder().encode(row.secretHash)
  if (given.length !== stored.length || !constantTimeEqual(given, stored)) return null
  const now = Date.now()
  if (row.expiresAt.getTime() <= now || row.disabledAt) {
    await db.delete(sessions).where(eq(sessions.id, id))
    return null
  }
  let expiresAt = row.expiresAt
  let renewed = false
  if (renew && expiresAt.getTime() - now < SESSION_RENEW_BEFORE_MS) {
    const cap = row.createdAt.getTime() + SESSION_ABSOLUTE_MS
    const next = new Date(Math.min(now + SESSION_TTL_MS, cap))
    if (next.getTime() > expiresAt.getTime()) {
      await db
        .update(sessions)
        .set({ expiresAt: next, lastSeenAt: new Date(now) })
        .where(and(eq(sessions.id, id), lt(sessions.expiresAt, next)))
      expiresAt = next
      renewed = true
    }
  }
  return {
    token,
    renewed,
    session: { id: row.id, userId: row.userId, createdAt: row.createdAt, expiresAt },
    user: {
      id: row.userId,
      email: row.email,
      emailVerified: Boolean(row.emailVerifiedAt),
      displayName: row.displayName,
      photoFileId: row.photoFileId,
      phone: row.phone,
      role: row.role,
      companyId: row.companyId,
      hasPassword: Boolean(row.passwordHash),
    },
  }
}

export async function invalidateSession(sessionId: string, tx: Tx = getDb()) {
  await tx.delete(sessions).where(eq(sessions.id, sessionId))
}

/** Ends every session of a user, but the one named (the caller's own, when it should survive). */
export async function invalidateUserSessions(userId: string, exceptSessionId?: string, tx: Tx = getDb()) {
  await tx
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId))
        : eq(sessions.userId, userId),
    )
}

/**
 * Housekeeping for tables that only grow: expired sessions, and rate-limit windows long past (the
 * longest window is a day). Run by the periodic worker.
 */
export async function pruneExpired() {
  const db = getDb()
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`))
  await db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - interval '2 days'`)
}

export async function countLiveSessions(userId: string) {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
  return Number(row?.n ?? 0)
}

// ---- cookie ----

export function readSessionToken(request: Request): string | null {
  const header = request.headers.get('Cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === SESSION_COOKIE) {
      try {
        return decodeURIComponent(rest.join('='))
      } catch {
        return null
      }
    }
  }
  return null
}

export function sessionCookie(token: string, expiresAt: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000))
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAge}`,
    `Expires=${expiresAt.toUTCString()}`,
    ...(getEnv().secure ? ['Secure'] : []),
  ].join('; ')
}

export function clearSessionCookie(): string {
  return [
    `${SESSION_COOKIE}=`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    'Max-Age=0',
    'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    ...(getEnv().secure ? ['Secure'] : []),
  ].join('; ')
}

// Loaders of one request share the Request object: validate the cookie once per request.
const perRequest = new WeakMap<Request, Promise<SessionResult | null>>()

/** The signed-in session of a request, or null. Never renews (the root loader does that). */
export function getRequestSession(request: Request): Promise<SessionResult | null> {
  let pending = perRequest.get(request)
  if (!pending) {
    pending = validateSessionToken(readSessionToken(request))
    perRequest.set(request, pending)
  }
  return pending
}

/** Like {@link getRequestSession}, extending a session past half its life. */
export function getRenewedRequestSession(request: Request): Promise<SessionResult | null> {
  const pending = validateSessionToken(readSessionToken(request), { renew: true })
  perRequest.set(request, pending)
  return pending
}

export function isUserActive(disabledAt: Date | null) {
  return disabledAt === null
}

export const activeUserCondition = isNull(users.disabledAt)
