import { and, eq, sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { assignments, companies, schemes, users } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import {
  consumeActionCode,
  createActionCode,
  findActionCode,
  MODE_OF_KIND,
  revokeActionCodes,
  type ActionCodeKind,
} from './action-codes.server'
import type { AuthErrorCode } from './errors'
import { hashPassword, verifyPassword } from './password.server'
import { hit, reset, SIGN_IN_LIMITS } from './rate-limit.server'
import { createSession, invalidateUserSessions } from './session.server'

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase()
}

export function actionLink(kind: ActionCodeKind, code: string) {
  const url = new URL('/verification', getEnv().APP_URL)
  url.searchParams.set('mode', MODE_OF_KIND[kind])
  url.searchParams.set('code', code)
  return url.toString()
}

type SignInResult =
  | {
      ok: true
      token: string
      expiresAt: Date
      user: { id: string; role: 'admin' | 'employee' | 'colleague' }
    }
  | { ok: false; code: AuthErrorCode; retryAfterSeconds?: number }

/**
 * Password sign-in. Unknown e-mail, wrong password, no password yet and a disabled account all
 * answer `auth/invalid-credential` after the same argon2 work, so nothing tells them apart.
 */
export async function signIn(input: {
  email: string
  password: string
  ip: string
  userAgent: string | null
}): Promise<SignInResult> {
  const email = normalizeEmail(input.email)
  const accountKey = `sign-in:account:${email}`
  const ipKey = `sign-in:ip:${input.ip}`
  // Counted before the (slow) password check, so a burst of parallel guesses cannot all slip in
  // under the limit; a successful sign-in clears the account's count.
  const [ipState, accountState] = await Promise.all([
    hit(ipKey, SIGN_IN_LIMITS.ip),
    hit(accountKey, SIGN_IN_LIMITS.account),
  ])
  if (ipState.limited || accountState.limited) {
    const retryAfterSeconds = Math.max(
      ipState.limited ? ipState.retryAfterSeconds : 0,
      accountState.limited ? accountState.retryAfterSeconds : 0,
    )
    return { ok: false, code: 'auth/too-many-requests', retryAfterSeconds }
  }
  const db = getDb()
  const [user] = await db
    .select({
      id: users.id,
      role: users.role,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
    })
    .from(users)
    .where(eq(users.email, email))
    .limit(1)
  const valid = await verifyPassword(user?.passwordHash, input.password)
  if (!user || !valid || user.disabledAt) return { ok: false, code: 'auth/invalid-credential' }
  await reset(accountKey)
  const { token, session } = await createSession(user.id, { ip: input.ip, userAgent: input.userAgent })
  return { ok: true, token, expiresAt: session.expiresAt, user: { id: user.id, role: user.role } }
}

/** Always answers the same; e-mails a reset link when an active password account exists. */
export async function requestPasswordReset(emailInput: string, ip: string) {
  const email = normalizeEmail(emailInput)
  const limited = await hit(`forgot:account:${email}`, { limit: 3, windowMs: 15 * 60 * 1000 })
  const ipLimited = await hit(`forgot:ip:${ip}`, { limit: 20, windowMs: 15 * 60 * 1000 })
  if (limited.limited || ipLimited.limited) return
  const db = getDb()
  const [user] = await db
    .select({ id: users.id, displayName: users.displayName, role: users.role, brandId: companies.brandId })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.email, email), sql`${users.disabledAt} IS NULL`, sql`${users.role} <> 'colleague'`))
    .limit(1)
  if (!user) return
  await db.transaction(async (tx) => {
    await revokeActionCodes(tx, 'reset_password', user.id)
    const { code } = await createActionCode(tx, { kind: 'reset_password', userId: user.id })
    await enqueueEmail(tx, {
      to: email,
      template: 'reset_password',
      brandId: user.brandId,
      values: { recipientName: user.displayName || email, link: actionLink('reset_password', code) },
      entity: 'user',
      entityId: user.id,
    })
    await recordAudit(tx, {
      actorId: user.id,
      action: 'auth.password_reset_requested',
      entity: 'user',
      entityId: user.id,
      ip,
    })
  })
}

export type CodeCheck =
  | { ok: true; email: string | null; displayName: string | null }
  | { ok: false; code: 'auth/expired-action-code' }

/** Whether the link behind a page is still good (without using it). */
export async function checkActionCode(kind: ActionCodeKind, code: unknown): Promise<CodeCheck> {
  const row = await findActionCode(kind, code)
  if (!row) return { ok: false, code: 'auth/expired-action-code' }
  if (!row.userId) return { ok: true, email: row.email, displayName: null }
  const [user] = await getDb()
    .select({ email: users.email, displayName: users.displayName, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1)
  if (!user || user.disabledAt) return { ok: false, code: 'auth/expired-action-code' }
  return { ok: true, email: user.email, displayName: user.displayName }
}

type PasswordResult =
  | { ok: true; token: string; expiresAt: Date; userId: string; role: 'admin' | 'employee' | 'colleague' }
  | { ok: false; code: 'auth/expired-action-code' }

/**
 * Reset or activation: uses the code, sets the password, verifies the address (the link proved
 * it), ends every other session of the user and signs them in with a new one.
 */
export async function setPasswordWithCode(
  kind: 'reset_password' | 'activate_account',
  code: unknown,
  password: string,
  meta: { ip: string; userAgent: string | null },
): Promise<PasswordResult> {
  const passwordHash = await hashPassword(password)
  return getDb().transaction(async (tx) => {
    const row = await consumeActionCode(kind, code, tx)
    if (!row?.userId) return { ok: false, code: 'auth/expired-action-code' } as const
    const [user] = await tx
      .update(users)
      .set({
        passwordHash,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(users.id, row.userId), sql`${users.disabledAt} IS NULL`))
      .returning({ id: users.id, role: users.role })
    if (!user) return { ok: false, code: 'auth/expired-action-code' } as const
    await invalidateUserSessions(user.id, undefined, tx)
    const { token, session } = await createSession(user.id, meta, tx)
    await recordAudit(tx, {
      actorId: user.id,
      action: kind === 'reset_password' ? 'auth.password_reset' : 'auth.account_activated',
      entity: 'user',
      entityId: user.id,
      ip: meta.ip,
    })
    return { ok: true, token, expiresAt: session.expiresAt, userId: user.id, role: user.role } as const
  })
}

type SetupResult =
  | { ok: true; token: string; expiresAt: Date; userId: string }
  | { ok: false; code: 'auth/expired-action-code' | 'auth/email-already-in-use' }

/** The one-time setup link creates the first admin (refused once any admin exists). */
export async function createFirstAdmin(
  code: unknown,
  input: { email: string; displayName: string; password: string },
  meta: { ip: string; userAgent: string | null },
): Promise<SetupResult> {
  const passwordHash = await hashPassword(input.password)
  const email = normalizeEmail(input.email)
  return getDb().transaction(async (tx) => {
    // Serialises concurrent set-ups on Postgres and PGlite alike.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7415926536)`)
    const [admins] = await queryRows<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM users WHERE role = 'admin'`,
    )
    if (Number(admins?.n) > 0) return { ok: false, code: 'auth/expired-action-code' } as const
    const row = await consumeActionCode('setup_admin', code, tx)
    if (!row) return { ok: false, code: 'auth/expired-action-code' } as const
    // The other instances' (or earlier starts') links are no longer needed.
    await revokeActionCodes(tx, 'setup_admin', null)
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1)
    if (existing) return { ok: false, code: 'auth/email-already-in-use' } as const
    const [user] = await tx
      .insert(users)
      .values({
        email,
        displayName: input.displayName,
        passwordHash,
        role: 'admin',
        emailVerifiedAt: new Date(),
      })
      .returning({ id: users.id })
    const { token, session } = await createSession(user!.id, meta, tx)
    await recordAudit(tx, {
      actorId: user!.id,
      action: 'admin.created_by_setup',
      entity: 'user',
      entityId: user!.id,
      ip: meta.ip,
    })
    return { ok: true, token, expiresAt: session.expiresAt, userId: user!.id } as const
  })
}

type InviteResult =
  | {
      ok: true
      token: string
      expiresAt: Date
      userId: string
      questionnaireId: string
      assignmentId: string
    }
  /** The respondent has an account of their own (an employee): they sign in with their password. */
  | { ok: true; signIn: true; questionnaireId: string; assignmentId: string }
  | { ok: false; code: 'auth/expired-action-code' }

/**
 * A colleague's invite link: valid until they submit or the scheme closes (it is not used up by
 * opening it, so they can come back from another device). Opens a session for the respondent.
 */
export async function acceptInvite(
  code: unknown,
  meta: { ip: string; userAgent: string | null },
): Promise<InviteResult> {
  const row = await findActionCode('colleague_invite', code)
  if (!row?.assignmentId) return { ok: false, code: 'auth/expired-action-code' }
  const db = getDb()
  const [assignment] = await db
    .select({
      id: assignments.id,
      respondentId: assignments.respondentId,
      questionnaireId: assignments.questionnaireId,
      status: assignments.status,
      schemeStatus: schemes.status,
      closesAt: schemes.closesAt,
      disabledAt: users.disabledAt,
      role: users.role,
    })
    .from(assignments)
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(users, eq(users.id, assignments.respondentId))
    .where(eq(assignments.id, row.assignmentId))
    .limit(1)
  if (
    !assignment ||
    assignment.disabledAt ||
    assignment.status === 'submitted' ||
    assignment.status === 'revoked' ||
    assignment.schemeStatus === 'closed' ||
    assignment.closesAt.getTime() <= Date.now()
  ) {
    return { ok: false, code: 'auth/expired-action-code' }
  }
  // The link is a colleague's only key, so it opens a colleague's session and nothing more: an
  // employee asked for feedback signs in with their own password (their account holds more).
  if (assignment.role !== 'colleague') {
    return {
      ok: true,
      signIn: true,
      questionnaireId: assignment.questionnaireId,
      assignmentId: assignment.id,
    }
  }
  const { token, session } = await createSession(assignment.respondentId, meta)
  // Following the e-mailed link proves the address.
  await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(eq(users.id, assignment.respondentId))
  return {
    ok: true,
    token,
    expiresAt: session.expiresAt,
    userId: assignment.respondentId,
    questionnaireId: assignment.questionnaireId,
    assignmentId: assignment.id,
  }
}

/** An e-mail change takes effect once the new address follows its link. */
export async function verifyEmailWithCode(code: unknown): Promise<{ ok: boolean }> {
  try {
    return await getDb().transaction(async (tx) => {
      const row = await consumeActionCode('verify_email', code, tx)
      if (!row?.userId) return { ok: false }
      const email = row.email ? normalizeEmail(row.email) : null
      if (email) {
        const [taken] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), sql`${users.id} <> ${row.userId}`))
          .limit(1)
        if (taken) return { ok: false }
      }
      const [updated] = await tx
        .update(users)
        .set({ ...(email ? { email } : {}), emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(users.id, row.userId), sql`${users.disabledAt} IS NULL`))
        .returning({ id: users.id })
      if (!updated) return { ok: false }
      await recordAudit(tx, {
        actorId: row.userId,
        action: 'auth.email_verified',
        entity: 'user',
        entityId: row.userId,
      })
      return { ok: true }
    })
  } catch (error) {
    // Two accounts confirming the same new address at once: the unique index decides, the loser
    // sees the expired-link message rather than an error page.
    if ((error as { cause?: { code?: string } }).cause?.code === '23505') return { ok: false }
    throw error
  }
}
