import type { Role } from '#db/enums'
import { and, eq, sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { brands, companies, totpCredentials, users } from '#db/schema/index'
import { runInBackground } from '#app/lib/background.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { reportServerError } from '#app/modules/monitoring/sentry.server'
import {
  actionLink,
  consumeActionCode,
  createActionCode,
  findActionCode,
  findActionCodeRecord,
  revokeActionCodes,
  type ActionCodeKind,
} from '#app/modules/action-code/action-code.server'
import type { BrandLook } from '#app/components/brand-look'
import { BRAND_LOOK_COLUMNS, brandLookOf } from '#app/modules/brand/look.server'
import type { AuthErrorCode } from './errors'
import { hashPassword, verifyPassword } from './password.server'
import type { TrustedDevice } from './device.server'
import {
  hit,
  refund,
  reset,
  resetPrefix,
  SIGN_IN_LIMITS,
  SIGN_IN_LINK_LIMITS,
  takeTurn,
} from '#app/modules/rate-limit/rate-limit.server'
import { invalidateSession, invalidateUserSessions } from './session.server'
import { passwordAllowedSql } from './password-policy.server'
import { openSignIn, type OpenedSignIn } from './second-factor.server'

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase()
}

type SignInResult =
  | {
      ok: true
      /** The session, or the second step's challenge (ADR 048): /sign-in/second-factor. */
      opened: OpenedSignIn
      user: { id: string; role: Role }
    }
  | { ok: false; code: AuthErrorCode; retryAfterSeconds?: number }

const signInKeys = (email: string, ip: string, device: TrustedDevice | null) => ({
  address: `sign-in:address:${ip}`,
  // A space cannot be part of an e-mail address: every pair of one account shares this prefix.
  pair: `sign-in:pair:${email} ${ip}`,
  pairPrefix: `sign-in:pair:${email} `,
  account: `sign-in:account:${email}`,
  device: `sign-in:device:${device?.id ?? ''}`,
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const tooMany = (retryAfterSeconds: number): SignInResult => ({
  ok: false,
  code: 'auth/too-many-requests',
  retryAfterSeconds,
})

/**
 * Password sign-in. Unknown e-mail, wrong password, no password yet and a disabled account all
 * answer `auth/invalid-credential` after the same argon2 work, so nothing tells them apart.
 *
 * Limits (ADR 007, SIGN_IN_LIMITS) count failures only, and every counter is taken before the slow
 * password check, so a burst of parallel guesses cannot all slip in under a limit; a success (or a
 * refusal by another limit) gives back what it took.
 */
export async function signIn(input: {
  email: string
  password: string
  ip: string
  userAgent: string | null
  /** The browser's device cookie, if any (device.server.ts). */
  device?: TrustedDevice | null
}): Promise<SignInResult> {
  const email = normalizeEmail(input.email)
  const [user] = await getDb()
    .select({
      id: users.id,
      role: users.role,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
      // Employees of a company that signs in through its identity provider only (ADR 049).
      passwordAllowed: passwordAllowedSql(),
      totpEnabled: sql<boolean>`${totpCredentials.confirmedAt} IS NOT NULL`,
    })
    .from(users)
    // Whether a second factor is due (ADR 048), read with the user: one statement, as before.
    .leftJoin(totpCredentials, eq(totpCredentials.userId, users.id))
    .where(eq(users.email, email))
    .limit(1)
  const trusted = Boolean(user && input.device && input.device.uid === user.id)
  const keys = signInKeys(email, input.ip, input.device ?? null)

  if (trusted) {
    // A browser this account signed in from: only its own failures count against it.
    const state = await hit(keys.device, SIGN_IN_LIMITS.device)
    if (state.limited) {
      await refund(keys.device)
      return tooMany(state.retryAfterSeconds)
    }
  } else {
    const [address, pair] = await Promise.all([
      hit(keys.address, SIGN_IN_LIMITS.address),
      hit(keys.pair, SIGN_IN_LIMITS.pair),
    ])
    if (address.limited || pair.limited) {
      await Promise.all([refund(keys.address), refund(keys.pair)])
      return tooMany(
        Math.max(address.limited ? address.retryAfterSeconds : 0, pair.limited ? pair.retryAfterSeconds : 0),
      )
    }
    // Other addresses' failures slow the account down (a growing wait), they never lock it.
    const turn = await takeTurn(keys.account, SIGN_IN_LIMITS.account)
    if (!turn.admitted) {
      await Promise.all([refund(keys.address), refund(keys.pair)])
      return tooMany(turn.retryAfterSeconds)
    }
    if (turn.waitMs > 0) await sleep(turn.waitMs)
  }

  const valid = await verifyPassword(user?.passwordHash, input.password)
  if (!user || !valid || user.disabledAt) return { ok: false, code: 'auth/invalid-credential' }
  if (trusted) await reset(keys.device)
  else await Promise.all([refund(keys.address), reset(keys.pair), reset(keys.account)])
  // The right password, but this account signs in through its organisation's provider: said only
  // now, so it tells nothing to someone guessing (and the counters treat it as no failure).
  if (!user.passwordAllowed) return { ok: false, code: 'auth/sso-required' }
  const opened = await openSignIn(getDb(), user, { ip: input.ip, userAgent: input.userAgent })
  return { ok: true, opened, user: { id: user.id, role: user.role } }
}

/** A new password proves the owner: the account's failures and its address pairs are forgotten. */
async function forgiveSignInFailures(email: string) {
  const keys = signInKeys(email, '', null)
  await Promise.all([reset(keys.account), resetPrefix(keys.pairPrefix)])
}

/**
 * Always answers the same, in the same time: the counters are the same work for every address,
 * and whether an account exists is looked up only once the answer has gone (`after`: the load
 * context's `responseSent`), so neither the words nor the timing of the answer tell a known
 * address from an unknown one.
 */
export async function requestPasswordReset(
  emailInput: string,
  ip: string,
  options: { after?: Promise<unknown> } = {},
) {
  const email = normalizeEmail(emailInput)
  const limited = await hit(`forgot:account:${email}`, { limit: 3, windowMs: 15 * 60 * 1000 })
  const ipLimited = await hit(`forgot:ip:${ip}`, { limit: 20, windowMs: 15 * 60 * 1000 })
  if (limited.limited || ipLimited.limited) return
  runInBackground('password reset e-mail', () => sendPasswordReset(email, ip), {
    after: options.after,
    // Reported without the address or the link (describeFailure): a lost e-mail must be seen.
    onFailure: (failure) =>
      reportServerError(new Error(`password reset e-mail failed: ${failure.code ?? failure.name}`)),
  })
}

/**
 * The enabled employee or admin with this address, with what their e-mails need (colleagues have
 * their invite links and no password), else undefined. Not an account that signs in through its
 * organisation's provider only (ADR 049): a reset or a sign-in link would be a way round it.
 */
async function mailableAccount(email: string) {
  const [user] = await getDb()
    .select({
      id: users.id,
      displayName: users.displayName,
      brandId: companies.brandId,
      hasPassword: sql<boolean>`${users.passwordHash} IS NOT NULL`,
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        eq(users.email, email),
        sql`${users.disabledAt} IS NULL`,
        sql`${users.role} <> 'colleague'`,
        passwordAllowedSql(),
      ),
    )
    .limit(1)
  return user
}

/** E-mails a reset link when an active password account has this address (else nothing). */
async function sendPasswordReset(email: string, ip: string) {
  const user = await mailableAccount(email)
  if (!user) return
  await mailActionLink('reset_password', user, email, ip, 'auth.password_reset_requested')
}

/**
 * "E-mail me a one-time sign-in link" (ADR 007): the way in for a new browser while an attack on the
 * account holds it back. Answers like requestPasswordReset: the counters are the same work for every
 * address, and the account is looked up only once the answer has gone.
 */
export async function requestSignInLink(
  emailInput: string,
  ip: string,
  options: { after?: Promise<unknown> } = {},
) {
  const email = normalizeEmail(emailInput)
  if ((await hit(`sign-in-link:address:${ip}`, SIGN_IN_LINK_LIMITS.address)).limited) return
  if ((await hit(`sign-in-link:account:${email}`, SIGN_IN_LINK_LIMITS.account)).limited) return
  if ((await hit(`sign-in-link:account-day:${email}`, SIGN_IN_LINK_LIMITS.accountDaily)).limited) return
  runInBackground('sign-in link e-mail', () => sendSignInLink(email, ip), {
    after: options.after,
    // Reported without the address or the link (describeFailure): a lost e-mail must be seen.
    onFailure: (failure) =>
      reportServerError(new Error(`sign-in link e-mail failed: ${failure.code ?? failure.name}`)),
  })
}

/**
 * E-mails a sign-in link when an enabled employee or admin who has a password has this address. An
 * account without a password was never able to sign in: its way in is its activation link (or a
 * reset, which sets one), not a session without one.
 */
async function sendSignInLink(email: string, ip: string) {
  const user = await mailableAccount(email)
  if (!user?.hasPassword) return
  await mailActionLink('sign_in_link', user, email, ip, 'auth.sign_in_link_requested')
}

/**
 * A new link of this kind for the account, e-mailed and audited. Only the newest link works: an
 * older one still lying in the inbox is void. One transaction: a retry after a failure starts from
 * scratch (no half-made code or e-mail).
 */
async function mailActionLink(
  kind: 'reset_password' | 'sign_in_link',
  user: NonNullable<Awaited<ReturnType<typeof mailableAccount>>>,
  email: string,
  ip: string,
  action: string,
) {
  await getDb().transaction(async (tx) => {
    await revokeActionCodes(tx, kind, user.id)
    const { code } = await createActionCode(tx, { kind, userId: user.id })
    await enqueueEmail(tx, {
      to: email,
      template: kind,
      brandId: user.brandId,
      values: { recipientName: user.displayName || email, link: actionLink(kind, code) },
      entity: 'user',
      entityId: user.id,
    })
    await recordAudit(tx, { id: user.id, ip }, { action, entity: 'user', entityId: user.id })
  })
}

type LinkSignInResult =
  | {
      ok: true
      userId: string
      role: Role
      /**
       * The new session or the second step's challenge (ADR 048); null when the browser's live
       * session already belongs to this user.
       */
      opened: OpenedSignIn | null
    }
  | { ok: false; code: 'auth/expired-action-code' }

/**
 * A sign-in link, exchanged on the POST of the page behind it (never its GET, ADR 005/007): uses the
 * code, and signs its user in with a normal session. The caller trusts the browser (device cookie),
 * so the limits for unknown browsers no longer hold it back. The account's failures are not
 * forgiven, unlike after a new password: the owner's browser no longer needs that, and forgiving
 * would hand an ongoing attack a fresh start. A browser signed in as someone else is signed out of
 * that session (its cookie is about to be replaced); one signed in as this user keeps its session.
 */
export async function signInWithLink(
  code: unknown,
  meta: { ip: string; userAgent: string | null },
  current: { userId: string; sessionId: string } | null = null,
): Promise<LinkSignInResult> {
  return getDb().transaction(async (tx) => {
    const row = await consumeActionCode('sign_in_link', code, tx)
    if (!row?.userId) return { ok: false, code: 'auth/expired-action-code' } as const
    // Following the e-mailed link proves the address.
    const [user] = await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(
        and(
          eq(users.id, row.userId),
          sql`${users.disabledAt} IS NULL`,
          sql`${users.role} <> 'colleague'`,
          sql`${users.passwordHash} IS NOT NULL`,
        ),
      )
      .returning({ id: users.id, role: users.role })
    if (!user) return { ok: false, code: 'auth/expired-action-code' } as const
    let opened: OpenedSignIn | null = null
    if (current?.userId !== user.id) {
      if (current) await invalidateSession(current.sessionId, tx)
      opened = await openSignIn(tx, user, meta)
    }
    await recordAudit(
      tx,
      { id: user.id, ip: meta.ip },
      {
        action: 'auth.signed_in_with_link',
        entity: 'user',
        entityId: user.id,
      },
    )
    return { ok: true, userId: user.id, role: user.role, opened } as const
  })
}

export type CodeCheck =
  | {
      ok: true
      email: string | null
      displayName: string | null
      /** verify_email: the address waiting to be confirmed. */
      newEmail: string | null
    }
  | { ok: false; code: 'auth/expired-action-code' }

/** Whether the link behind a page is still good (without using it). */
export async function checkActionCode(kind: ActionCodeKind, code: unknown): Promise<CodeCheck> {
  const row = await findActionCode(kind, code)
  if (!row) return { ok: false, code: 'auth/expired-action-code' }
  if (!row.userId) return { ok: true, email: row.email, displayName: null, newEmail: null }
  const [user] = await getDb()
    .select({ email: users.email, displayName: users.displayName, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1)
  if (!user || user.disabledAt) return { ok: false, code: 'auth/expired-action-code' }
  return { ok: true, email: user.email, displayName: user.displayName, newEmail: row.email }
}

/**
 * The brand whose programme an activation link belongs to (the employee's company's), whatever
 * became of the link — live, used or expired — so that its page wears that brand (issue 15, B10).
 * Only the look: nothing about the account. Null for an unknown code or an employee without a brand.
 */
export async function brandOfActivationCode(code: unknown): Promise<BrandLook | null> {
  const row = await findActionCodeRecord('activate_account', code)
  if (!row?.userId) return null
  const [brand] = await getDb()
    .select(BRAND_LOOK_COLUMNS)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(brands, eq(brands.id, companies.brandId))
    .where(eq(users.id, row.userId))
    .limit(1)
  return brandLookOf(brand)
}

type PasswordResult =
  | { ok: true; opened: OpenedSignIn; userId: string; role: Role }
  | { ok: false; code: 'auth/expired-action-code' | 'auth/sso-required' }

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
  // An account that signs in through its organisation's provider only gets no password, and no
  // session this way (ADR 049); the link is left unused, so it still works if that changes.
  if (!(await passwordAllowedForCode(kind, code))) return { ok: false, code: 'auth/sso-required' }
  const passwordHash = await hashPassword(password)
  const result = await getDb().transaction(async (tx) => {
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
      .returning({ id: users.id, role: users.role, email: users.email })
    if (!user) return { ok: false, code: 'auth/expired-action-code' } as const
    await invalidateUserSessions(user.id, undefined, tx)
    // A link proves the inbox, not the authenticator: a second factor is still asked (ADR 048).
    const opened = await openSignIn(tx, user, meta)
    await recordAudit(
      tx,
      { id: user.id, ip: meta.ip },
      {
        action: kind === 'reset_password' ? 'auth.password_reset' : 'auth.account_activated',
        entity: 'user',
        entityId: user.id,
      },
    )
    return { ok: true, opened, userId: user.id, role: user.role, email: user.email } as const
  })
  if (!result.ok) return result
  // Locked out of one address by someone's guesses, or by one's own? A new password lifts it.
  await forgiveSignInFailures(result.email)
  return { ok: true, opened: result.opened, userId: result.userId, role: result.role }
}

/** false when the live link's account may not use a password (ADR 049); true otherwise. */
async function passwordAllowedForCode(kind: ActionCodeKind, code: unknown) {
  const row = await findActionCode(kind, code)
  if (!row?.userId) return true
  const [user] = await getDb()
    .select({ passwordAllowed: passwordAllowedSql() })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1)
  return user?.passwordAllowed !== false
}

/** The advisory lock that serialises creating the first admin (setup link and ADMIN_EMAIL alike). */
export const SETUP_LOCK = 7415926536

type SetupResult =
  | { ok: true; opened: OpenedSignIn; userId: string }
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
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`)
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
    // The first admin too sets up an authenticator first when the install requires one (ADR 048).
    const opened = await openSignIn(tx, { id: user!.id, role: 'admin' }, meta)
    await recordAudit(
      tx,
      { id: user!.id, ip: meta.ip },
      {
        action: 'admin.created_by_setup',
        entity: 'user',
        entityId: user!.id,
      },
    )
    return { ok: true, opened, userId: user!.id } as const
  })
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
      await recordAudit(
        tx,
        { id: row.userId },
        {
          action: 'auth.email_verified',
          entity: 'user',
          entityId: row.userId,
        },
      )
      return { ok: true }
    })
  } catch (error) {
    // Two accounts confirming the same new address at once: the unique index decides, the loser
    // sees the expired-link message rather than an error page.
    if ((error as { cause?: { code?: string } }).cause?.code === '23505') return { ok: false }
    throw error
  }
}
