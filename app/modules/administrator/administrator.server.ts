import { and, asc, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import { sessions, users } from '#db/schema/index'
import { escapeLike, keysetList, timestampKey, type Page } from '#app/lib/keyset-list.server'
import { refuseNotFound, ok, refuse, refuseField, type Actor, type Outcome } from '#app/lib/outcome'
import { PG_ERROR, refuseOnPgError } from '#app/lib/pg-error'
import { recordAudit } from '#app/modules/audit/audit.server'
import { createActionCode, revokeActionCodes } from '#app/modules/action-code/action-code.server'
import { actionLink } from '#app/modules/action-code/action-code.server'
import { hit, refuseLimited } from '#app/modules/rate-limit/rate-limit.server'
import { invalidateUserSessions } from '#app/modules/auth/session.server'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import type { AdminInviteInput, AdminListQuery, AdminState } from './schemas'
import { isUuid } from '#app/lib/ids'

/**
 * Administrators (DESIGN.md §7): invited by e-mail (they choose their own password from the link;
 * no admin ever sets another's), disabled and enabled, their sessions seen and ended. Two rules hold
 * under concurrency: nobody disables themself, and there is always one active admin — every
 * disable locks the active admins' rows first, so two admins disabling each other at once take
 * turns and the second finds itself the last one.
 */

export const ADMIN_PAGE_SIZE = 20

export const ADMIN_MESSAGES = {
  self: 'You cannot disable your own account. Ask another administrator.',
  last: 'This is the last active administrator, so it cannot be disabled. Invite or enable another one first.',
  actorGone: 'Your own account is no longer active.',
  cannotInvite:
    'This address cannot be invited as an administrator. Use an address that has no account here yet.',
  alreadyActive: 'This administrator has already chosen a password, so there is no invitation to send again.',
  disabled: 'This administrator is disabled. Enable them first.',
  tooMany: (seconds: number) =>
    `Too many invitations were sent just now. Try again in ${Math.ceil(seconds / 60)} minutes.`,
} as const

/** Invitations an admin may send (new ones and resends) per hour: each mails an address they typed. */
export const ADMIN_INVITE_LIMIT = { limit: 20, windowMs: 60 * 60 * 1000 }

const stateOf = (u: { disabledAt: Date | null; passwordHash: string | null }): AdminState =>
  u.disabledAt ? 'disabled' : u.passwordHash ? 'active' : 'invited'

const stateSql = sql<AdminState>`CASE WHEN ${users.disabledAt} IS NOT NULL THEN 'disabled'
  WHEN ${users.passwordHash} IS NULL THEN 'invited' ELSE 'active' END`

/** Who an administrator is, with the columns their state is read from (`stateOf`). */
const ADMIN_COLUMNS = {
  id: users.id,
  name: users.displayName,
  email: users.email,
  disabledAt: users.disabledAt,
  passwordHash: users.passwordHash,
}

/** The user with this id, when they are an administrator: any other user is not found. */
const isAdmin = (id: string) => and(eq(users.id, id), eq(users.role, 'admin'))

export type AdminListRow = {
  id: string
  name: string
  email: string
  state: AdminState
  sessionCount: number
  createdAt: string
}

// Subqueries name `users.id` in full: Drizzle leaves columns unqualified in a single-table select,
// and an unqualified "id" inside them would mean the sessions' own column.

/** One page of administrators with their state and live sessions, in one query. */
export async function listAdmins(query: AdminListQuery): Promise<Page<AdminListRow>> {
  const pattern = `%${escapeLike(query.q)}%`
  const columns = { name: users.displayName, created: users.createdAt, id: users.id }
  return keysetList(query, columns, ADMIN_PAGE_SIZE, ({ keyset, orderBy, limit }) =>
    getDb()
      .select({
        id: users.id,
        name: users.displayName,
        email: users.email,
        state: stateSql,
        sessionCount: sql<number>`(
          SELECT count(*) FROM sessions s WHERE s.user_id = users.id AND s.expires_at > now()
        )::int`.mapWith(Number),
        createdAt: timestampKey(users.createdAt),
      })
      .from(users)
      .where(
        and(
          eq(users.role, 'admin'),
          query.q ? or(ilike(users.displayName, pattern), ilike(users.email, pattern)) : undefined,
          keyset,
        ),
      )
      .orderBy(...orderBy)
      .limit(limit),
  )
}

export type AdminSession = {
  id: string
  createdAt: string
  lastSeenAt: string
  expiresAt: string
  ip: string | null
  userAgent: string | null
}

export type AdminDetail = {
  id: string
  name: string
  email: string
  state: AdminState
  createdAt: string
  sessions: AdminSession[]
}

/** One administrator and their live sessions (newest activity first); null for anything else. */
export async function getAdmin(id: string | null | undefined): Promise<AdminDetail | null> {
  if (!id || !isUuid(id)) return null
  const [row] = await getDb()
    .select({
      ...ADMIN_COLUMNS,
      createdAt: users.createdAt,
      sessions: sql<AdminSession[]>`coalesce((
        SELECT json_agg(json_build_object(
          'id', s.id, 'createdAt', s.created_at, 'lastSeenAt', s.last_seen_at, 'expiresAt', s.expires_at,
          'ip', s.ip, 'userAgent', s.user_agent) ORDER BY s.last_seen_at DESC)
        FROM (SELECT * FROM sessions s WHERE s.user_id = users.id AND s.expires_at > now()
              ORDER BY s.last_seen_at DESC LIMIT 50) s
      ), '[]'::json)`,
    })
    .from(users)
    .where(isAdmin(id))
  if (!row) return null
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    state: stateOf(row),
    createdAt: row.createdAt.toISOString(),
    sessions: (typeof row.sessions === 'string' ? JSON.parse(row.sessions) : row.sessions) as AdminSession[],
  }
}

async function queueInvitation(
  tx: Tx,
  actor: Actor & { name: string },
  admin: { id: string; name: string; email: string },
) {
  await revokeActionCodes(tx, 'activate_account', admin.id)
  const { code } = await createActionCode(tx, { kind: 'activate_account', userId: admin.id })
  await enqueueEmail(tx, {
    to: admin.email,
    template: 'admin_invite',
    values: {
      recipientName: admin.name,
      inviterName: actor.name,
      link: actionLink('activate_account', code),
    },
    entity: 'user',
    entityId: admin.id,
  })
}

async function inviteBudget(actor: Actor) {
  const state = await hit(`admin-invite:${actor.id}`, ADMIN_INVITE_LIMIT)
  return state.limited ? refuseLimited(state, ADMIN_MESSAGES.tooMany) : null
}

/**
 * Invites a new administrator: an account without a password, and an e-mail with a one-time link
 * to choose one. An address that already has an account (of any role) is refused with one neutral
 * message: the form must not tell who has an account here.
 */
export async function inviteAdmin(
  actor: Actor & { name: string },
  input: AdminInviteInput,
): Promise<Outcome<{ id: string }>> {
  const limited = await inviteBudget(actor)
  if (limited) return limited
  return refuseOnPgError(
    PG_ERROR.uniqueViolation,
    () => refuseField('email', ADMIN_MESSAGES.cannotInvite),
    () =>
      getDb().transaction(async (tx) => {
        const [created] = await tx
          .insert(users)
          .values({ email: input.email, displayName: input.name, role: 'admin' })
          .onConflictDoNothing()
          .returning({ id: users.id })
        if (!created) return refuseField('email', ADMIN_MESSAGES.cannotInvite)
        await queueInvitation(tx, actor, { id: created.id, name: input.name, email: input.email })
        await recordAudit(tx, actor, {
          action: 'admin.invited',
          entity: 'user',
          entityId: created.id,
          details: { email: input.email },
        })
        return ok({ id: created.id })
      }),
  )
}

/** Sends an invited administrator a fresh link (the older ones stop working). */
export async function resendAdminInvite(
  actor: Actor & { name: string },
  adminId: string,
): Promise<Outcome<{ email: string }>> {
  const limited = await inviteBudget(actor)
  if (limited) return limited
  return getDb().transaction(async (tx) => {
    const [admin] = await tx.select(ADMIN_COLUMNS).from(users).where(isAdmin(adminId)).for('update')
    if (!admin) return refuseNotFound()
    if (admin.disabledAt) return refuse(ADMIN_MESSAGES.disabled)
    if (admin.passwordHash) return refuse(ADMIN_MESSAGES.alreadyActive)
    await queueInvitation(tx, actor, admin)
    await recordAudit(tx, actor, {
      action: 'admin.invite_resent',
      entity: 'user',
      entityId: admin.id,
    })
    return ok({ email: admin.email })
  })
}

/**
 * Disables or enables an administrator. Disabling ends their sessions at once, and is refused for
 * yourself and for the last active administrator. The rows of every active admin are locked first
 * (in id order, the same for everyone, so two disables cannot deadlock): a concurrent disable waits,
 * then sees the committed result and counts again.
 */
export async function setAdminDisabled(
  actor: Actor,
  adminId: string,
  disabled: boolean,
): Promise<Outcome<{ name: string; changed: boolean }>> {
  return getDb().transaction(async (tx) => {
    const [target] = await tx
      .select({ id: users.id, name: users.displayName, email: users.email, disabledAt: users.disabledAt })
      .from(users)
      .where(isAdmin(adminId))
    if (!target) return refuseNotFound()
    const name = target.name || target.email
    if (!disabled) {
      const [updated] = await tx
        .update(users)
        .set({ disabledAt: null, updatedAt: sql`now()` })
        .where(and(eq(users.id, adminId), sql`${users.disabledAt} IS NOT NULL`))
        .returning({ id: users.id })
      if (updated)
        await recordAudit(tx, actor, {
          action: 'admin.enabled',
          entity: 'user',
          entityId: adminId,
        })
      return ok({ name, changed: Boolean(updated) })
    }
    if (adminId === actor.id) return refuse(ADMIN_MESSAGES.self)
    const active = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
      .orderBy(asc(users.id))
      .for('update')
    const ids = new Set(active.map((a) => a.id))
    if (!ids.has(actor.id)) return refuse(ADMIN_MESSAGES.actorGone)
    if (!ids.has(adminId)) return ok({ name, changed: false })
    // Invited admins without a password cannot sign in: only those with one keep the portal run.
    const [{ usable } = { usable: 0 }] = await tx
      .select({ usable: sql<number>`count(*)::int`.mapWith(Number) })
      .from(users)
      .where(
        and(
          eq(users.role, 'admin'),
          isNull(users.disabledAt),
          sql`${users.passwordHash} IS NOT NULL`,
          sql`${users.id} <> ${adminId}`,
        ),
      )
    if (usable < 1) return refuse(ADMIN_MESSAGES.last)
    await tx
      .update(users)
      .set({ disabledAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(users.id, adminId))
    await invalidateUserSessions(adminId, undefined, tx)
    await recordAudit(tx, actor, {
      action: 'admin.disabled',
      entity: 'user',
      entityId: adminId,
    })
    return ok({ name, changed: true })
  })
}

/** Ends one session of an administrator, or all of them (`sessionId` omitted). */
export async function endAdminSessions(
  actor: Actor,
  adminId: string,
  sessionId?: string,
): Promise<Outcome<{ ended: number }>> {
  return getDb().transaction(async (tx) => {
    const [admin] = await tx.select({ id: users.id }).from(users).where(isAdmin(adminId))
    if (!admin) return refuseNotFound()
    const ended = await tx
      .delete(sessions)
      .where(
        and(
          eq(sessions.userId, adminId),
          sessionId ? eq(sessions.id, sessionId) : undefined,
          gt(sessions.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: sessions.id })
    if (ended.length)
      await recordAudit(tx, actor, {
        action: 'admin.sessions_ended',
        entity: 'user',
        entityId: adminId,
        details: { count: ended.length },
      })
    return ok({ ended: ended.length })
  })
}

/** "End all sessions" on your own page: ends the others and keeps the one you are using. */
export async function endOtherAdminSessions(actor: Actor, adminId: string, keep: string) {
  const admin = await getAdmin(adminId)
  const others = admin?.sessions.filter((s) => s.id !== keep) ?? []
  let ended = 0
  for (const s of others) {
    const outcome = await endAdminSessions(actor, adminId, s.id)
    if (outcome.ok) ended += outcome.value.ended
  }
  return ok({ ended })
}
