import { and, asc, eq, inArray } from 'drizzle-orm'
import { redirect } from 'react-router'
import { getDb } from '#db/client'
import { assignments } from '#db/schema/index'
import { ROLE_HOME, type Role } from './permissions'
import { mustSetUpSecondFactor, SECOND_FACTOR_SETUP_PATH } from './second-factor.server'
import { getRequestSession, type SessionResult, type SessionUser } from './session.server'

/**
 * The spec's two route checks. Guards are the first line of every loader and action; they throw
 * (a redirect) and return the session so callers need not look it up again.
 */

/**
 * `auth`: signed in and in one of the roles, else /sign-in?redirectTo=… or the role's own home. An
 * admin who must set up a second factor and has none (ADR 048) is sent to their profile from every
 * page but the one that sets it up (`settingUpSecondFactor`).
 */
export async function requireUser(
  request: Request,
  { roles, settingUpSecondFactor = false }: { roles: readonly Role[]; settingUpSecondFactor?: boolean },
): Promise<SessionResult> {
  const result = await getRequestSession(request)
  if (!result) {
    const url = new URL(request.url)
    const redirectTo = url.pathname + url.search
    throw redirect(`/sign-in?${new URLSearchParams({ redirectTo })}`)
  }
  if (!roles.includes(result.user.role)) throw redirect(await homeFor(result.user))
  if (!settingUpSecondFactor && mustSetUpSecondFactor(result)) throw redirect(SECOND_FACTOR_SETUP_PATH)
  return result
}

/** `logged-out`: signed-in visitors go to their home. */
export async function requireAnonymous(request: Request): Promise<void> {
  const result = await getRequestSession(request)
  if (result) throw redirect(await homeFor(result.user))
}

/** A role's home; a colleague's is their first open assignment, else the thank-you page. */
export async function homeFor(user: Pick<SessionUser, 'id' | 'role'>): Promise<string> {
  if (user.role !== 'colleague') return ROLE_HOME[user.role]
  const [open] = await getDb()
    .select({ id: assignments.id })
    .from(assignments)
    .where(
      and(eq(assignments.respondentId, user.id), inArray(assignments.status, ['pending', 'in_progress'])),
    )
    .orderBy(asc(assignments.createdAt))
    .limit(1)
  return open ? `/assignment/${open.id}` : ROLE_HOME.colleague
}

/** 404 as a thrown Response: "not found" and "not yours" must look the same. */
export function notFound(message = 'Page Not Found'): never {
  throw new Response(message, { status: 404, statusText: 'Not Found' })
}
