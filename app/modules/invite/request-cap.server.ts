import { eq, sql, type SQL } from 'drizzle-orm'
import type { Tx } from '#db/client'
import { ASSIGNMENT_STATUSES } from '#db/enums'
import { companies, schemes } from '#db/schema/index'
import { assignmentPhaseSql } from '#app/modules/scheme/state'

/**
 * The rater fatigue cap (issue 18 §4, ADR 038): a company's `feedback_request_cap` bounds how many
 * open feedback requests one person may hold at once, across every scheme of every company. An open
 * request is a rater assignment (relationship other than self) that is neither submitted nor
 * revoked and whose round is not closed by the one phase rule (app/modules/scheme/state: the
 * scheme's phase, or a round ended early by a release).
 *
 * Every path that adds a request to a person (today the invitation, tomorrow the nomination's
 * approval) asks `atRequestCap` inside its transaction, before it writes the assignment.
 */

/** Neutral on purpose: it names no programme, no count and not the cap. */
export const REQUEST_CAP_MESSAGE =
  'This person has been asked for a lot of feedback recently; choose someone else.'

/** The statuses of a request still waiting for an answer (all but submitted and revoked). */
export const OPEN_REQUEST_STATUSES = ASSIGNMENT_STATUSES.filter((s) => s !== 'submitted' && s !== 'revoked')

const openStatusList = sql.join(
  OPEN_REQUEST_STATUSES.map((s) => sql`${s}`),
  sql`, `,
)

/**
 * A WHERE term on `assignments a JOIN schemes s`: the assignment is an open feedback request.
 * Shared by the check and the admin's near-cap list, so the two never count differently.
 */
export function openRequestSql(on: { assignment: string; scheme: string }) {
  const a = sql.identifier(on.assignment)
  return sql`(${a}.relationship <> 'self' AND ${a}.status IN (${openStatusList})
    AND ${assignmentPhaseSql(undefined, on)} <> 'closed')`
}

/**
 * Takes the person's request lock until the transaction ends: every check-then-add of a request for
 * this person queues here, so two invitations for the last slot cannot both count the slot free.
 * A separate statement before the count on purpose: under READ COMMITTED a statement's snapshot is
 * taken when it starts, so a count in the same statement as the wait would miss what the holder
 * committed meanwhile.
 *
 * Lock order: callers hold the inviting employee's scheme membership first and take this second
 * (one person's lock at a time), so no two transactions wait on each other in opposite orders.
 */
export async function lockRequestsOf(tx: Tx, respondentId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`feedback-requests:${respondentId}`}))`)
}

/**
 * True when the person may not be asked for more feedback by a scheme of `schemeId`'s company:
 * they already hold at least that company's cap of open requests. Locks first (see
 * `lockRequestsOf`), then one statement that reads the person's assignments through the
 * (respondent_id, status) index and the scheme's company's cap.
 */
export async function atRequestCap(
  tx: Tx,
  input: { respondentId: string; schemeId: string },
  /**
   * `false` for a check that adds no request (a nomination put on a list, ADR 042: checked again,
   * locked, at approval). It then takes no person lock, so a caller checking several people in the
   * order they were typed holds no locks another caller could take in the opposite order.
   */
  { lock = true }: { lock?: boolean } = {},
) {
  if (lock) await lockRequestsOf(tx, input.respondentId)
  const [row] = await tx
    .select({
      atCap: sql<boolean>`(
        SELECT count(*) FROM assignments a JOIN schemes s ON s.id = a.scheme_id
        WHERE a.respondent_id = ${input.respondentId} AND ${openRequestSql({ assignment: 'a', scheme: 's' })}
      ) >= ${companies.feedbackRequestCap}`,
    })
    .from(schemes)
    .innerJoin(companies, eq(companies.id, schemes.companyId))
    .where(eq(schemes.id, input.schemeId))
  return row?.atCap === true
}

/** The most people the admin's near-cap list shows (the busiest first). */
export const NEAR_CAP_SHOWN = 50

export type NearCapPerson = { id: string; name: string; email: string; open: number }

/**
 * The admin's "who is near the cap" for one company, as a JSON column to fold into the query that
 * reads the company (`company` and `cap` are that query's columns): the people in the company's
 * context — its employees, and everyone with an open request in one of its schemes — whose open
 * requests across all companies reach `cap - 1` (at least one), with their count; the busiest
 * first, at most NEAR_CAP_SHOWN.
 *
 * Shaped for the planner (checked on a million assignments): the context first, through users'
 * company index and the assignments' scheme index; then each person's open requests counted through
 * the (respondent_id, status) index, as the check counts them; names read by primary key only for
 * the people kept. Written as plain joins, Postgres read the whole users table to name them.
 */
export function nearRequestCapSql(company: SQL, cap: SQL): SQL<NearCapPerson[]> {
  return sql<NearCapPerson[]>`(
    WITH context AS MATERIALIZED (
      SELECT e.id FROM users e WHERE e.company_id = ${company}
      UNION
      SELECT r.respondent_id FROM assignments r JOIN schemes rs ON rs.id = r.scheme_id
      WHERE rs.company_id = ${company} AND ${openRequestSql({ assignment: 'r', scheme: 'rs' })}
    ),
    near AS MATERIALIZED (
      SELECT context.id, o.open FROM context CROSS JOIN LATERAL (
        SELECT count(*)::int AS open FROM assignments a JOIN schemes s ON s.id = a.scheme_id
        WHERE a.respondent_id = context.id AND ${openRequestSql({ assignment: 'a', scheme: 's' })}
      ) o
      WHERE o.open >= greatest(${cap} - 1, 1)
    )
    SELECT coalesce(json_agg(json_build_object('id', n.id, 'name', n.name, 'email', n.email, 'open', n.open)
      ORDER BY n.open DESC, lower(n.name), n.id), '[]'::json)
    FROM (
      SELECT * FROM (
        SELECT near.id, near.open,
          (SELECT coalesce(nullif(u.display_name, ''), u.email) FROM users u WHERE u.id = near.id) AS name,
          (SELECT u.email FROM users u WHERE u.id = near.id) AS email
        FROM near
      ) named
      ORDER BY named.open DESC, lower(named.name), named.id
      LIMIT ${NEAR_CAP_SHOWN}
    ) n
  )`
}
