import crypto from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import type { Relationship } from '#db/enums'
import { actionCodes } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import { hashSecret } from '#app/lib/secret-hash.server'

/** One-time codes behind e-mailed links: random, stored as SHA-256, single use, expiring. */
export type ActionCodeKind = (typeof actionCodes.$inferSelect)['kind']

const HOUR = 60 * 60 * 1000
export const ACTION_CODE_TTL_MS: Record<ActionCodeKind, number> = {
  reset_password: 1 * HOUR,
  verify_email: 24 * HOUR,
  activate_account: 7 * 24 * HOUR,
  setup_admin: 24 * HOUR,
  // Colleague invites normally live until the scheme closes; callers pass that date.
  colleague_invite: 60 * 24 * HOUR,
  // A way in while the sign-in limits hold a new browser back (ADR 007): short, as it signs in at once.
  sign_in_link: 15 * 60 * 1000,
}

/** The URL `mode` of each kind (the spec's e-mail action handler). */
export const MODE_OF_KIND: Record<ActionCodeKind, string> = {
  verify_email: 'verifyEmail',
  reset_password: 'resetPassword',
  activate_account: 'activate',
  colleague_invite: 'invite',
  setup_admin: 'setup',
  sign_in_link: 'signIn',
}
export const KIND_OF_MODE: Record<string, ActionCodeKind> = Object.fromEntries(
  Object.entries(MODE_OF_KIND).map(([kind, mode]) => [mode, kind as ActionCodeKind]),
)

export type ActionCode = typeof actionCodes.$inferSelect

export async function createActionCode(
  tx: Tx,
  input: {
    kind: ActionCodeKind
    userId?: string | null
    assignmentId?: string | null
    email?: string | null
    expiresAt?: Date
  },
): Promise<{ code: string; row: ActionCode }> {
  const code = crypto.randomBytes(24).toString('base64url')
  const [row] = await tx
    .insert(actionCodes)
    .values({
      kind: input.kind,
      codeHash: hashSecret(code),
      userId: input.userId ?? null,
      assignmentId: input.assignmentId ?? null,
      email: input.email ?? null,
      expiresAt: input.expiresAt ?? new Date(Date.now() + ACTION_CODE_TTL_MS[input.kind]),
    })
    .returning()
  return { code, row: row! }
}

/**
 * Many codes in few statements (a programme's launch activates a whole company): the codes come
 * back in the order of `inputs`. Same storage as createActionCode.
 */
export async function createActionCodes(
  tx: Tx,
  kind: ActionCodeKind,
  inputs: Array<{ userId: string; expiresAt?: Date }>,
): Promise<string[]> {
  const codes = inputs.map(() => crypto.randomBytes(24).toString('base64url'))
  const rows = inputs.map((input, i) => ({
    kind,
    codeHash: hashSecret(codes[i]!),
    userId: input.userId,
    expiresAt: input.expiresAt ?? new Date(Date.now() + ACTION_CODE_TTL_MS[kind]),
  }))
  for (let i = 0; i < rows.length; i += 500) await tx.insert(actionCodes).values(rows.slice(i, i + 500))
  return codes
}

/** Ends the unused codes of a kind for a user (a new reset link makes older ones void). */
export async function revokeActionCodes(tx: Tx, kind: ActionCodeKind, userId: string | null) {
  await tx
    .update(actionCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(actionCodes.kind, kind),
        userId === null ? isNull(actionCodes.userId) : eq(actionCodes.userId, userId),
        isNull(actionCodes.usedAt),
      ),
    )
}

/** Ends every unused invite code of an assignment: an older e-mail's link stops working. */
export async function voidInviteCodes(tx: Tx, assignmentId: string) {
  await tx
    .update(actionCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(actionCodes.kind, 'colleague_invite'),
        eq(actionCodes.assignmentId, assignmentId),
        isNull(actionCodes.usedAt),
      ),
    )
}

function isWellFormed(code: unknown): code is string {
  return typeof code === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(code)
}

/** The code of that kind, whatever its state. */
const isCode = (kind: ActionCodeKind, code: string) =>
  and(eq(actionCodes.codeHash, hashSecret(code)), eq(actionCodes.kind, kind))

/** The code of that kind, unused and not expired. */
const isLive = (kind: ActionCodeKind, code: string) =>
  and(isCode(kind, code), isNull(actionCodes.usedAt), gt(actionCodes.expiresAt, sql`now()`))

/** The live code, without using it (to show the form behind a link). */
export async function findActionCode(kind: ActionCodeKind, code: unknown, tx: Tx = getDb()) {
  if (!isWellFormed(code)) return null
  const [row] = await tx.select().from(actionCodes).where(isLive(kind, code)).limit(1)
  return row ?? null
}

/** The code's row whatever its state (used, expired): to say what became of the link. */
export async function findActionCodeRecord(kind: ActionCodeKind, code: unknown, tx: Tx = getDb()) {
  if (!isWellFormed(code)) return null
  const [row] = await tx.select().from(actionCodes).where(isCode(kind, code)).limit(1)
  return row ?? null
}

/** Uses a code once: of two concurrent callers only one gets the row. */
export async function consumeActionCode(kind: ActionCodeKind, code: unknown, tx: Tx = getDb()) {
  if (!isWellFormed(code)) return null
  const [row] = await tx
    .update(actionCodes)
    .set({ usedAt: sql`now()` })
    .where(isLive(kind, code))
    .returning()
  return row ?? null
}

/** The e-mail link that carries a code: /verification?mode=…&code=… on the portal's address. */
export function actionLink(kind: ActionCodeKind, code: string) {
  const url = new URL('/verification', getEnv().APP_URL)
  url.searchParams.set('mode', MODE_OF_KIND[kind])
  url.searchParams.set('code', code)
  return url.toString()
}

/**
 * The link in an e-mail that brings a respondent back to their assignment. An employee signs in as
 * usual, so theirs opens the self-assessment and never expires; a colleague signs in through a
 * fresh invite code that lives until the scheme closes (earlier ones keep working until they submit).
 */
export async function respondentLink(
  tx: Tx,
  to: { assignmentId: string; relationship: Relationship; respondentId: string; closesAt: Date },
): Promise<{ link: string; linkExpiresAt: Date | null }> {
  if (to.relationship === 'self')
    return {
      link: new URL(`/assignment/${to.assignmentId}`, getEnv().APP_URL).toString(),
      linkExpiresAt: null,
    }
  const { code } = await createActionCode(tx, {
    kind: 'colleague_invite',
    userId: to.respondentId,
    assignmentId: to.assignmentId,
    expiresAt: to.closesAt,
  })
  return { link: actionLink('colleague_invite', code), linkExpiresAt: to.closesAt }
}
