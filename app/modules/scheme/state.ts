import { sql, type SQL } from 'drizzle-orm'
import { schemes } from '#db/schema/index'
import type { SchemeStatus } from '#db/enums'

/**
 * The one rule for "is this scheme open?" (DESIGN.md §7): a scheme is open while its status is
 * `open` and `opens_at ≤ now < closes_at`. Before `opens_at` a launched scheme is upcoming (its
 * people see it, nobody answers or invites yet); from `closes_at`, or once closed by an admin, it is
 * closed; a draft is still being set up. Invites, answering, the home page, invitation links and
 * reminders all ask this module, in JavaScript or in SQL, and so never disagree.
 */
export type SchemePhase = 'draft' | 'upcoming' | 'open' | 'closed'

export type SchemeTimes = {
  status: SchemeStatus
  opensAt: Date
  closesAt: Date
  /**
   * For one colleague's assignment: when its round ended early because the subject's report was
   * released (assignments.closed_at, ADR 022). Such an assignment is closed, whatever the scheme.
   */
  roundEndedAt?: Date | null
}

export function schemePhase(scheme: SchemeTimes, now: Date = new Date()): SchemePhase {
  if (scheme.roundEndedAt) return 'closed'
  if (scheme.status === 'closed' || scheme.closesAt.getTime() <= now.getTime()) return 'closed'
  if (scheme.status === 'draft') return 'draft'
  return scheme.opensAt.getTime() > now.getTime() ? 'upcoming' : 'open'
}

export function isSchemeOpen(scheme: SchemeTimes, now: Date = new Date()) {
  return schemePhase(scheme, now) === 'open'
}

/** `now` as SQL: the database's clock unless a time is given (tests, a page computed at one instant). */
const at = (now?: Date): SQL => (now ? sql`${now.toISOString()}::timestamptz` : sql`now()`)

/** The same rule as a WHERE term on `schemes`. */
export function schemeOpenSql(now?: Date): SQL {
  return sql`(${schemes.status} = 'open' AND ${schemes.opensAt} <= ${at(now)} AND ${schemes.closesAt} > ${at(now)})`
}

/** The same rule as a value: 'draft' | 'upcoming' | 'open' | 'closed'. */
export function schemePhaseSql(now?: Date): SQL<SchemePhase> {
  return sql<SchemePhase>`CASE
    WHEN ${schemes.status} = 'closed' OR ${schemes.closesAt} <= ${at(now)} THEN 'closed'
    WHEN ${schemes.status} = 'draft' THEN 'draft'
    WHEN ${schemes.opensAt} > ${at(now)} THEN 'upcoming'
    ELSE 'open' END`
}
