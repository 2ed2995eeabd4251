import { sql, type SQL } from 'drizzle-orm'
import { schemes } from '#db/schema/index'
import type { SchemeStatus } from '#db/enums'

/**
 * The one rule for "is this scheme open?" (DESIGN.md §7): a scheme is open while its status is
 * `open` and `opens_at ≤ now < closes_at`. Before `opens_at` a launched scheme is upcoming (its
 * people see it, nobody answers or invites yet); from `closes_at`, or once closed by an admin, it is
 * closed; a draft is still being set up.
 *
 * The phase of one assignment is the scheme's, except that a colleague's round ended early by a
 * release (assignments.closed_at, ADR 022) is closed: `roundEndedAt` in JavaScript,
 * `assignmentPhaseSql` / `assignmentOpenSql` in SQL. Invites, answering, the home page, the
 * dashboard, invitation links and reminders all ask this module, in JavaScript or in SQL, and so
 * never disagree.
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

/**
 * One respondent's deadline: their own due date when it comes before the scheme closes, else the
 * close (`deadlineSql` is the same rule in SQL, for sorting).
 */
export function deadlineOf(row: { dueAt: Date | null; closesAt: Date }): Date {
  return row.dueAt && row.dueAt < row.closesAt ? row.dueAt : row.closesAt
}

/** `now` as SQL: the database's clock unless a time is given (tests, a page computed at one instant). */
const at = (now?: Date): SQL => (now ? sql`${now.toISOString()}::timestamptz` : sql`now()`)

/**
 * The tables a query names the rule's columns by: `schemes` (the Drizzle table) unless the query
 * aliases it (`s`), and, for one assignment's phase, the alias of `assignments` (default `assignments`).
 */
export type PhaseTables = { scheme?: string; assignment?: string }

function columns(on: PhaseTables = {}) {
  const s = on.scheme === undefined ? null : sql.identifier(on.scheme)
  const a = sql.identifier(on.assignment ?? 'assignments')
  return {
    status: s ? sql`${s}.status` : sql`${schemes.status}`,
    opensAt: s ? sql`${s}.opens_at` : sql`${schemes.opensAt}`,
    closesAt: s ? sql`${s}.closes_at` : sql`${schemes.closesAt}`,
    roundEndedAt: sql`${a}.closed_at`,
    dueAt: sql`${a}.due_at`,
  }
}

/** `deadlineOf` as SQL, on the query's assignment and scheme. */
export function deadlineSql(on?: PhaseTables): SQL {
  const c = columns(on)
  return sql`least(coalesce(${c.dueAt}, ${c.closesAt}), ${c.closesAt})`
}

/** The same rule as a WHERE term on `schemes`. */
export function schemeOpenSql(now?: Date, on?: PhaseTables): SQL {
  const c = columns(on)
  return sql`(${c.status} = 'open' AND ${c.opensAt} <= ${at(now)} AND ${c.closesAt} > ${at(now)})`
}

/** The same rule as a value: 'draft' | 'upcoming' | 'open' | 'closed'. */
export function schemePhaseSql(now?: Date, on?: PhaseTables): SQL<SchemePhase> {
  const c = columns(on)
  return sql<SchemePhase>`CASE
    WHEN ${c.status} = 'closed' OR ${c.closesAt} <= ${at(now)} THEN 'closed'
    WHEN ${c.status} = 'draft' THEN 'draft'
    WHEN ${c.opensAt} > ${at(now)} THEN 'upcoming'
    ELSE 'open' END`
}

/**
 * One assignment's phase in SQL, as `schemePhase` with `roundEndedAt` in JavaScript: its scheme's
 * phase, except that a round ended by a release (assignments.closed_at) is closed.
 */
export function assignmentPhaseSql(now?: Date, on?: PhaseTables): SQL<SchemePhase> {
  return sql<SchemePhase>`(CASE WHEN ${columns(on).roundEndedAt} IS NOT NULL THEN 'closed' ELSE ${schemePhaseSql(now, on)} END)`
}

/** The assignment's half of the rule: its round has not ended early (a query that splits the halves). */
export function roundOpenSql(on?: PhaseTables): SQL {
  return sql`${columns(on).roundEndedAt} IS NULL`
}

/** One assignment is open for answering: its scheme is open and its round has not ended early. */
export function assignmentOpenSql(now?: Date, on?: PhaseTables): SQL {
  return sql`(${schemeOpenSql(now, on)} AND ${roundOpenSql(on)})`
}
