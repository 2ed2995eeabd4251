import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import { and, eq, gt, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm'
import { getDb, preparedOnce, type Db, type Tx } from '#db/client'
import { brands, companies, secondFactorChallenges, sessions, totpCredentials, users } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import { hashSecret } from '#app/lib/secret-hash.server'
import { currentLoadContext } from '#app/lib/request-scope.server'
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
  /** A confirmed TOTP authenticator (ADR 048). */
  totpEnabled: boolean
  /** Their own language (ADR 050), null when they chose none. */
  language?: string | null
  /** Their company's brand's default language; null for those without a company (admins, colleagues). */
  brandLanguage?: string | null
}

/** How a session was opened: through an identity provider (`sso`), or not (ADR 048). */
export type SignInMethod = 'password' | 'sso'

export type Session = {
  id: string
  userId: string
  createdAt: Date
  expiresAt: Date
  signInMethod: SignInMethod
}
export type SessionResult = { session: Session; user: SessionUser; token: string; renewed: boolean }

function randomPart() {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

// Both halves of a token are lower-case base32; anything else (a NUL byte, a quote) never reaches SQL.
const TOKEN_PART = /^[a-z2-7]{1,64}$/

/** A new `id.secret` pair (the second-factor challenge's cookie is made the same way). */
export function newToken() {
  return { id: randomPart(), secret: randomPart() }
}

/** The id and secret of a well-formed `id.secret` token, else null. */
export function tokenParts(token: string | null | undefined): { id: string; secret: string } | null {
  if (!token) return null
  const parts = token.split('.')
  if (parts.length !== 2 || !TOKEN_PART.test(parts[0]!) || !TOKEN_PART.test(parts[1]!)) return null
  return { id: parts[0]!, secret: parts[1]! }
}

/** Whether a secret matches its stored SHA-256, in constant time. */
export function secretMatches(secret: string, storedHash: string) {
  const given = new TextEncoder().encode(hashSecret(secret))
  const stored = new TextEncoder().encode(storedHash)
  return given.length === stored.length && constantTimeEqual(given, stored)
}

/** The session id part of a well-formed `id.secret` token, else null. */
export function sessionIdOf(token: string | null | undefined): string | null {
  if (!token) return null
  const parts = token.split('.')
  return parts.length === 2 && TOKEN_PART.test(parts[0]!) ? parts[0]! : null
}

/** A new session for a user: returns the token (`id.secret`) for the cookie. */
export async function createSession(
  userId: string,
  meta: { ip?: string | null; userAgent?: string | null; method?: SignInMethod } = {},
  tx: Tx = getDb(),
): Promise<{ token: string; session: Session }> {
  const { id, secret } = newToken()
  const now = new Date()
  const session = {
    id,
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    signInMethod: meta.method ?? 'password',
  }
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
 * The session read, built once per database handle (preparedOnce, ADR 036): every signed-in
 * request runs it. The checks that follow it (secret, expiry, disabled user, renewal) are the same
 * on every read.
 */
function prepareSessionRead(db: Db) {
  return (
    db
      .select({
        id: sessions.id,
        secretHash: sessions.secretHash,
        userId: sessions.userId,
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
        signInMethod: sessions.signInMethod,
        email: users.email,
        emailVerifiedAt: users.emailVerifiedAt,
        displayName: users.displayName,
        photoFileId: users.photoFileId,
        phone: users.phone,
        role: users.role,
        companyId: users.companyId,
        passwordHash: users.passwordHash,
        disabledAt: users.disabledAt,
        totpConfirmedAt: totpCredentials.confirmedAt,
        language: users.language,
        brandLanguage: brands.defaultLanguage,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      // The language rule's inputs (ADR 050) come with the session: no statement of their own. One
      // company and one brand per user at most.
      .leftJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(brands, eq(brands.id, companies.brandId))
      // One row per user at most (its primary key): the read stays one statement.
      .leftJoin(
        totpCredentials,
        and(eq(totpCredentials.userId, users.id), isNotNull(totpCredentials.confirmedAt)),
      )
      .where(eq(sessions.id, sql.placeholder('id')))
      .limit(1)
      .prepare('session_read')
  )
}

const sessionRead = (db: Db) => preparedOnce(db, 'session_read', prepareSessionRead)

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
  const [row] = await sessionRead(db).execute({ id })
  if (!row) return null
  if (!secretMatches(secret, row.secretHash)) return null
  const now = Date.now()
  if (row.expiresAt.getTime() <= now || row.disabledAt) {
    await db.delete(sessions).where(eq(sessions.id, id))
    return null
  }
  let expiresAt = row.expiresAt
  let renewed = false
  const next = renew ? renewalOf(row, now) : null
  if (next) {
    await db
      .update(sessions)
      .set({ expiresAt: next, lastSeenAt: new Date(now) })
      .where(and(eq(sessions.id, id), lt(sessions.expiresAt, next)))
    expiresAt = next
    renewed = true
  }
  return {
    token,
    renewed,
    session: {
      id: row.id,
      userId: row.userId,
      createdAt: row.createdAt,
      expiresAt,
      signInMethod: row.signInMethod === 'sso' ? 'sso' : 'password',
    },
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
      totpEnabled: Boolean(row.totpConfirmedAt),
      language: row.language,
      brandLanguage: row.brandLanguage,
    },
  }
}

/** The new expiry of a session past half its life (never beyond the absolute cap), else null. */
function renewalOf(session: Pick<Session, 'createdAt' | 'expiresAt'>, now: number): Date | null {
  if (session.expiresAt.getTime() - now >= SESSION_RENEW_BEFORE_MS) return null
  const cap = session.createdAt.getTime() + SESSION_ABSOLUTE_MS
  const next = new Date(Math.min(now + SESSION_TTL_MS, cap))
  return next.getTime() > session.expiresAt.getTime() ? next : null
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
  await db.delete(secondFactorChallenges).where(lt(secondFactorChallenges.expiresAt, sql`now()`))
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

/**
 * The session read of one request, shared by its root loader, its route loaders and their guards.
 * React Router hands each of them a Request object of its own, so the read is remembered on the
 * request's load context (lib/request-scope.server.ts), and per phase: the loaders that run after an
 * action in the same request (a form posted without JavaScript) read again, as the action may have
 * changed the user or ended the session. Outside a request scope, per Request object.
 */
type SessionRead = { phase: string; renew: boolean; pending: Promise<SessionResult | null> }
const reads = new WeakMap<object, SessionRead>()

function readsKey(request: Request): object {
  return currentLoadContext() ?? request
}

/** Loaders run on GET (and HEAD); an action on anything else. */
function phaseOf(request: Request) {
  return request.method === 'GET' || request.method === 'HEAD' ? 'loaders' : 'action'
}

function remembered(request: Request): SessionRead | undefined {
  const read = reads.get(readsKey(request))
  return read?.phase === phaseOf(request) ? read : undefined
}

function remember(request: Request, renew: boolean, pending: Promise<SessionResult | null>) {
  reads.set(readsKey(request), { phase: phaseOf(request), renew, pending })
  return pending
}

/**
 * The server printing a page for a signed-in viewer (ADR 046): the viewer it put in the load
 * context, for exactly the path it renders (any other request of that render is anonymous);
 * undefined for every request from outside, whose load context never carries one.
 */
function renderedFor(request: Request): SessionResult | null | undefined {
  const render = currentLoadContext()?.renderAs
  if (!render) return undefined
  return new URL(request.url).pathname === render.path ? render.session : null
}

/** The signed-in session of a request, or null. Never renews (the root loader does that). */
export function getRequestSession(request: Request): Promise<SessionResult | null> {
  const rendered = renderedFor(request)
  if (rendered !== undefined) return Promise.resolve(rendered)
  return (
    remembered(request)?.pending ?? remember(request, false, validateSessionToken(readSessionToken(request)))
  )
}

/**
 * Like {@link getRequestSession}, extending a session past half its life; the request's other
 * loaders then see the renewed session. The root loader calls it first, so one read serves them all.
 */
export function getRenewedRequestSession(request: Request): Promise<SessionResult | null> {
  const rendered = renderedFor(request)
  if (rendered !== undefined) return Promise.resolve(rendered)
  const earlier = remembered(request)
  if (earlier?.renew) return earlier.pending
  if (!earlier)
    return remember(request, true, validateSessionToken(readSessionToken(request), { renew: true }))
  // A read without renewal came first: read again only when there is something to renew.
  return remember(
    request,
    true,
    earlier.pending.then((result) =>
      result && renewalOf(result.session, Date.now())
        ? validateSessionToken(result.token, { renew: true })
        : result,
    ),
  )
}

export function isUserActive(disabledAt: Date | null) {
  return disabledAt === null
}

export const activeUserCondition = isNull(users.disabledAt)
