import { eq, sql } from 'drizzle-orm'
import { getDb } from '#db/client'
import { assignments, brands, companies, schemes, users } from '#db/schema/index'
import type { BrandLook } from '#app/components/brand-look'
import { findActionCodeRecord } from '#app/modules/action-code/action-code.server'
import type { Role } from '#app/modules/auth/permissions'
import { createSession, invalidateSession } from '#app/modules/auth/session.server'
import { BRAND_LOOK_COLUMNS, brandLookOf } from '#app/modules/brand/look.server'
import { schemePhase } from '#app/modules/scheme/state'

/**
 * A colleague's invite link (ADR 005, 007): what it leads to, and its exchange for a colleague
 * session on the interstitial's POST. The invitation domain, above identity: it uses sessions and
 * action codes, and the scheme's one open rule.
 */

export type InviteCheck =
  | {
      ok: true
      assignmentId: string
      questionnaireId: string
      respondentId: string
      respondentRole: Role
      /** Whose feedback it is: the button says "… giving feedback on <subjectName>". */
      subjectName: string
      /** The programme's brand: the invitation's landing and its sign-in step wear it. */
      brandId: string
      brand: BrandLook | null
    }
  /**
   * `submitted`: the link did its job (the answers are in); else it expired or was withdrawn.
   * `brand`: the programme's, when the link still leads to its assignment (the page wears it).
   */
  | {
      ok: false
      code: 'auth/expired-action-code'
      submitted: boolean
      brand: BrandLook | null
      /**
       * A used link whose answers are in, while the round is still open: whose they are, so that
       * their respondent (signed in) may be offered "I need to change my answers" (ADR 039). Never
       * handed to a page as it is.
       */
      answered?: { assignmentId: string; respondentId: string }
    }

const expiredInvite = (
  submitted = false,
  brand: BrandLook | null = null,
  answered?: { assignmentId: string; respondentId: string },
) =>
  ({
    ok: false,
    code: 'auth/expired-action-code',
    submitted,
    brand,
    ...(answered ? { answered } : {}),
  }) as const

/**
 * What a colleague's invite link leads to, without using it. A link is valid until the answers are
 * in or the scheme closes (it is not used up by opening it, so they can come back from another
 * device). Once the answers are in, any link of that assignment says so, used up or not.
 */
export async function checkInvite(code: unknown): Promise<InviteCheck> {
  const row = await findActionCodeRecord('colleague_invite', code)
  if (!row?.assignmentId) return expiredInvite()
  const [assignment] = await getDb()
    .select({
      id: assignments.id,
      respondentId: assignments.respondentId,
      questionnaireId: assignments.questionnaireId,
      status: assignments.status,
      schemeStatus: schemes.status,
      opensAt: schemes.opensAt,
      closesAt: schemes.closesAt,
      roundEndedAt: assignments.closedAt,
      disabledAt: users.disabledAt,
      role: users.role,
      subjectName: sql<string>`(
        SELECT coalesce(nullif(s.display_name, ''), s.email) FROM users s WHERE s.id = ${assignments.subjectId}
      )`,
      brandId: brands.id,
      ...BRAND_LOOK_COLUMNS,
    })
    .from(assignments)
    .innerJoin(schemes, eq(schemes.id, assignments.schemeId))
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .innerJoin(brands, eq(brands.id, companies.brandId))
    .innerJoin(users, eq(users.id, assignments.respondentId))
    .where(eq(assignments.id, row.assignmentId))
    .limit(1)
  if (!assignment) return expiredInvite()
  // Whatever became of the link, its page wears the programme's brand (nothing else of the assignment).
  const brand = brandLookOf(assignment)
  if (assignment.disabledAt) return expiredInvite(false, brand)
  const phase = schemePhase({
    status: assignment.schemeStatus,
    opensAt: assignment.opensAt,
    closesAt: assignment.closesAt,
    roundEndedAt: assignment.roundEndedAt,
  })
  if (assignment.status === 'submitted')
    return expiredInvite(
      true,
      brand,
      phase === 'open' ? { assignmentId: assignment.id, respondentId: assignment.respondentId } : undefined,
    )
  if (
    row.usedAt ||
    row.expiresAt.getTime() <= Date.now() ||
    assignment.status === 'revoked' ||
    phase === 'closed'
  ) {
    return expiredInvite(false, brand)
  }
  return {
    ok: true,
    assignmentId: assignment.id,
    questionnaireId: assignment.questionnaireId,
    respondentId: assignment.respondentId,
    respondentRole: assignment.role,
    subjectName: assignment.subjectName,
    brandId: assignment.brandId,
    brand,
  }
}

type InviteResult =
  /** A new colleague session. */
  | {
      ok: true
      token: string
      expiresAt: Date
      userId: string
      questionnaireId: string
      assignmentId: string
    }
  /** The browser is already signed in as the respondent: that session carries on. */
  | { ok: true; reused: true; questionnaireId: string; assignmentId: string }
  /** The respondent has an account of their own (an employee): they sign in with their password. */
  | { ok: true; signIn: true; questionnaireId: string; assignmentId: string; brandId: string }
  | { ok: false; code: 'auth/expired-action-code'; submitted: boolean; brand: BrandLook | null }

/**
 * A colleague's invite link, exchanged on the interstitial's POST (ADR 007): opens a session for
 * the respondent, or carries on with the one this browser already has for them, so opening the link
 * again does not pile up session rows. A browser signed in as someone else is signed out of that
 * session first (the cookie is about to be replaced).
 */
export async function acceptInvite(
  code: unknown,
  meta: { ip: string; userAgent: string | null },
  current: { userId: string; sessionId: string } | null = null,
): Promise<InviteResult> {
  const check = await checkInvite(code)
  if (!check.ok) return check
  const { questionnaireId, assignmentId, respondentId } = check
  if (current?.userId === respondentId) return { ok: true, reused: true, questionnaireId, assignmentId }
  // The link is a colleague's only key, so it opens a colleague's session and nothing more: an
  // employee asked for feedback signs in with their own password (their account holds more).
  if (check.respondentRole !== 'colleague')
    return { ok: true, signIn: true, questionnaireId, assignmentId, brandId: check.brandId }
  const db = getDb()
  const { token, session } = await db.transaction(async (tx) => {
    if (current) await invalidateSession(current.sessionId, tx)
    const created = await createSession(respondentId, meta, tx)
    // Following the e-mailed link proves the address.
    await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, respondentId))
    return created
  })
  return {
    ok: true,
    token,
    expiresAt: session.expiresAt,
    userId: respondentId,
    questionnaireId,
    assignmentId,
  }
}
