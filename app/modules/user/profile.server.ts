import type { Outcome } from '#app/lib/outcome'
import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm'
import { getDb } from '#db/client'
import { actionCodes, brands, companies, users } from '#db/schema/index'
import { recordAudit } from '#app/modules/audit/audit.server'
import { createActionCode, revokeActionCodes } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { AUTH_ERROR_MESSAGES } from '#app/modules/auth/errors'
import { BRAND_LOOK_COLUMNS, brandLookOf } from '#app/modules/brand/look.server'
import { hashPassword } from '#app/modules/auth/password.server'
import { checkCurrentPassword, refusedPassword } from '#app/modules/auth/current-password.server'
import { hit, refuseLimited, type RateLimitRule } from '#app/modules/rate-limit/rate-limit.server'
import { invalidateUserSessions } from '#app/modules/auth/session.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { deleteFile, storeImage, type ImageType } from '#app/modules/file/file.server'
import type { ChangeEmailInput, ProfileInput } from './profile-schemas'

/**
 * A signed-in person's own profile: name, phone, photo, password and e-mail address. Every change
 * runs in one transaction with its audit row; refusals come back as form messages (`ok: false`) so the
 * page shows them beside the field, never as thrown errors.
 */

/** Who is acting: the user, the session they act from (it survives a password change) and their address. */
export type ProfileActor = { id: string; sessionId: string; ip?: string | null }

export type { Outcome }

// The current password's check and its limit are the auth module's (the second factor asks for it too).
export { CURRENT_PASSWORD_LIMIT, WRONG_CURRENT_PASSWORD } from '#app/modules/auth/current-password.server'

/**
 * E-mail change requests (with the right password) per account: each one mails an address the user
 * typed, so the form must not become a way to send our mail to anyone, nor to test many addresses
 * for an account.
 */
export const EMAIL_CHANGE_LIMIT: RateLimitRule = { limit: 5, windowMs: 60 * 60 * 1000 }

export const SAME_EMAIL = 'That is already your e-mail address.'
export const EMAIL_TAKEN = AUTH_ERROR_MESSAGES['auth/email-already-in-use']
export const TOO_MANY = AUTH_ERROR_MESSAGES['auth/too-many-requests']

const emailChangeKey = (userId: string) => `profile:email-change:${userId}`

export type Profile = NonNullable<Awaited<ReturnType<typeof getProfile>>>

/** What the page shows: two queries whatever the profile holds. */
export async function getProfile(userId: string) {
  const db = getDb()
  const [[user], [pending]] = await Promise.all([
    db
      .select({
        email: users.email,
        displayName: users.displayName,
        phone: users.phone,
        photoFileId: users.photoFileId,
        language: users.language,
        // The brand of the employee's company: the page is theirs, not one programme's.
        ...BRAND_LOOK_COLUMNS,
      })
      .from(users)
      .leftJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(brands, eq(brands.id, companies.brandId))
      .where(eq(users.id, userId))
      .limit(1),
    db
      .select({ email: actionCodes.email, expiresAt: actionCodes.expiresAt })
      .from(actionCodes)
      .where(
        and(
          eq(actionCodes.userId, userId),
          eq(actionCodes.kind, 'verify_email'),
          isNotNull(actionCodes.email),
          isNull(actionCodes.usedAt),
          gt(actionCodes.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(actionCodes.createdAt))
      .limit(1),
  ])
  if (!user) return null
  return {
    email: user.email,
    displayName: user.displayName,
    phone: user.phone,
    photoFileId: user.photoFileId,
    language: user.language,
    brand: brandLookOf(user),
    pendingEmail:
      pending?.email && pending.email !== user.email
        ? { email: pending.email, expiresAt: pending.expiresAt.toISOString() }
        : null,
  }
}

/** Name and phone. `changed` is empty when the form held what was already saved. */
export async function updateProfile(
  actor: ProfileActor,
  input: Omit<ProfileInput, 'intent'>,
): Promise<Outcome<{ changed: string[] }>> {
  return getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({ displayName: users.displayName, phone: users.phone })
      .from(users)
      .where(eq(users.id, actor.id))
      .for('update')
    if (!current) return { ok: false, formErrors: ['Your account no longer exists.'] }
    const next = { displayName: input.displayName, phone: input.phone }
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    for (const key of ['displayName', 'phone'] as const) {
      if (current[key] !== next[key]) changes[key] = { from: current[key], to: next[key] }
    }
    if (!Object.keys(changes).length) return { ok: true, value: { changed: [] } }
    await tx
      .update(users)
      .set({ ...next, updatedAt: sql`now()` })
      .where(eq(users.id, actor.id))
    await recordAudit(tx, actor, {
      action: 'user.profile_updated',
      entity: 'user',
      entityId: actor.id,
      details: { changes },
    })
    return { ok: true, value: { changed: Object.keys(changes) } }
  })
}

/**
 * The person's language (ADR 050), null for "use the default". The caller has checked that it is
 * offered; the column's check constraint holds it to the known languages.
 */
export async function updateLanguage(
  actor: ProfileActor,
  language: string | null,
): Promise<Outcome<{ changed: boolean }>> {
  return getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({ language: users.language })
      .from(users)
      .where(eq(users.id, actor.id))
      .for('update')
    if (!current) return { ok: false, formErrors: ['Your account no longer exists.'] }
    if (current.language === language) return { ok: true, value: { changed: false } }
    await tx
      .update(users)
      .set({ language, updatedAt: sql`now()` })
      .where(eq(users.id, actor.id))
    await recordAudit(tx, actor, {
      action: 'user.language_changed',
      entity: 'user',
      entityId: actor.id,
      details: { changes: { language: { from: current.language, to: language } } },
    })
    return { ok: true, value: { changed: true } }
  })
}

/**
 * A new photo (already checked by content: file.server.ts readImageUpload) or removal. The old file
 * row goes in the same transaction: nothing else points at a person's photo.
 */
export async function updatePhoto(
  actor: ProfileActor,
  input: { image: { bytes: Uint8Array; mime: ImageType } } | { remove: true },
): Promise<Outcome<{ photoFileId: string | null; changed: boolean }>> {
  return getDb().transaction(async (tx) => {
    const [current] = await tx
      .select({ photoFileId: users.photoFileId })
      .from(users)
      .where(eq(users.id, actor.id))
      .for('update')
    if (!current) return { ok: false, formErrors: ['Your account no longer exists.'] }
    if ('remove' in input && !current.photoFileId) {
      return { ok: true, value: { photoFileId: null, changed: false } }
    }
    const next = 'image' in input ? await storeImage(tx, input.image, actor.id) : null
    await tx
      .update(users)
      .set({ photoFileId: next, updatedAt: sql`now()` })
      .where(eq(users.id, actor.id))
    if (current.photoFileId) await deleteFile(tx, current.photoFileId)
    await recordAudit(tx, actor, {
      action: next ? 'user.photo_updated' : 'user.photo_removed',
      entity: 'user',
      entityId: actor.id,
      details: { from: current.photoFileId, to: next },
    })
    return { ok: true, value: { photoFileId: next, changed: true } }
  })
}

/** A new password under the policy; every other session of the user ends, this one stays. */
export async function changePassword(
  actor: ProfileActor,
  input: { currentPassword: string; newPassword: string },
): Promise<Outcome<null>> {
  const check = await checkCurrentPassword(actor.id, input.currentPassword)
  if (!check.ok) return refusedPassword(check)
  // argon2 outside the transaction: it takes a while and needs no row lock.
  const passwordHash = await hashPassword(input.newPassword)
  return getDb().transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(users.id, actor.id))
    await invalidateUserSessions(actor.id, actor.sessionId, tx)
    await recordAudit(tx, actor, {
      action: 'user.password_changed',
      entity: 'user',
      entityId: actor.id,
      details: { otherSessionsEnded: true },
    })
    return { ok: true, value: null } as const
  })
}

/**
 * An e-mail change waits for the new address to prove itself: a `verify_email` code carrying the
 * address and its e-mail to that address are written together; `verifyEmailWithCode` (auth.server.ts,
 * behind /verification?mode=verifyEmail) applies it and checks again that no one took the address
 * meanwhile. A newer request voids the older link, so only the latest address can win.
 *
 * An address another account uses is refused in so many words. Saying "we sent a link" either way
 * would hide whether the address has an account, but here that hiding buys little and costs a lot:
 * only a signed-in employee reaches this form, each probe needs their current password (wrong ones
 * are rate-limited) and counts against EMAIL_CHANGE_LIMIT, while the person would otherwise wait for
 * a link that can never work with no idea why.
 */
export async function requestEmailChange(
  actor: ProfileActor,
  input: Omit<ChangeEmailInput, 'intent'>,
): Promise<Outcome<{ email: string }>> {
  const db = getDb()
  const [user] = await db
    .select({ email: users.email, displayName: users.displayName, brandId: companies.brandId })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, actor.id))
    .limit(1)
  if (!user) return { ok: false, formErrors: ['Your account no longer exists.'] }
  if (user.email === input.newEmail) {
    return { ok: false, fieldErrors: { newEmail: [SAME_EMAIL] } }
  }
  const check = await checkCurrentPassword(actor.id, input.currentPassword)
  if (!check.ok) return refusedPassword(check)
  const budget = await hit(emailChangeKey(actor.id), EMAIL_CHANGE_LIMIT)
  if (budget.limited) return refuseLimited(budget, () => TOO_MANY)
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, input.newEmail))
      .limit(1)
    if (taken) return { ok: false, fieldErrors: { newEmail: [EMAIL_TAKEN] } } as const
    await revokeActionCodes(tx, 'verify_email', actor.id)
    const { code } = await createActionCode(tx, {
      kind: 'verify_email',
      userId: actor.id,
      email: input.newEmail,
    })
    await enqueueEmail(tx, {
      to: input.newEmail,
      template: 'verify_email',
      brandId: user.brandId,
      values: { recipientName: user.displayName || input.newEmail, link: actionLink('verify_email', code) },
      entity: 'user',
      entityId: actor.id,
    })
    await recordAudit(tx, actor, {
      action: 'user.email_change_requested',
      entity: 'user',
      entityId: actor.id,
      details: { from: user.email, to: input.newEmail },
    })
    return { ok: true, value: { email: input.newEmail } } as const
  })
}
