import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import { TALLY_CTE, tallyOf } from '#app/modules/tally/tally.server'
import { schemeOpenSql } from '#app/modules/scheme/state'

/**
 * The dashboard's counts, in one statement, each exact and none costing more with more data:
 * companies, brands and schemes are counted directly (tens to a thousand rows, the open schemes
 * through the (status, closes_at) index); employees, submissions and e-mails, which grow with every
 * employee and every campaign, come from the tallies the database keeps (ADR 010).
 */
export async function getDashboardCounts() {
  const [row] = await queryRows<Record<string, number | string | null>>(
    getDb(),
    sql`
    WITH ${TALLY_CTE}
    SELECT
      (SELECT count(*) FROM companies)::int AS companies,
      (SELECT count(*) FROM brands)::int AS brands,
      ${tallyOf('employees')}::int AS employees,
      ${tallyOf('active_employees')}::int AS active_employees,
      -- Open by the one rule (scheme/state.ts): launched, opened and not yet past its close.
      (SELECT count(*) FROM schemes WHERE ${schemeOpenSql()})::int AS open_schemes,
      -- Launched and not yet closed by the clock or an admin (upcoming and overdue ones too): what
      -- the running-programmes list says it picks its soonest-closing ones from.
      (SELECT count(*) FROM schemes WHERE status = 'open')::int AS launched_schemes,
      ${tallyOf('submitted')}::int AS submitted,
      ${tallyOf('queued_emails')}::int AS queued_emails,
      ${tallyOf('failed_emails')}::int AS failed_emails,
      -- Respondents waiting for an answer to their reopen request (ADR 039): the partial index, few rows.
      (SELECT count(*) FROM responses WHERE reopen_requested_at IS NOT NULL)::int AS reopen_requests,
      -- Nomination lists waiting for an administrator's approval (ADR 042: no manager approves them),
      -- and the scheme of the oldest: the partial index of submitted lists by approver, few rows.
      (SELECT count(*) FROM scheme_members
        WHERE nomination_status = 'submitted' AND nomination_approver_id IS NULL)::int AS nominations_waiting,
      (SELECT scheme_id FROM scheme_members
        WHERE nomination_status = 'submitted' AND nomination_approver_id IS NULL
        ORDER BY nomination_submitted_at LIMIT 1) AS nominations_waiting_scheme`,
  )
  const { nominations_waiting_scheme: firstScheme, ...counts } = row!
  return {
    ...(Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])) as DashboardCounts),
    /** The scheme whose list has waited longest for an administrator (its page has the queue); null: none. */
    nominationsWaitingScheme: firstScheme ? String(firstScheme) : null,
  }
}

type DashboardCounts = Record<
  | 'companies'
  | 'brands'
  | 'employees'
  | 'active_employees'
  | 'open_schemes'
  | 'launched_schemes'
  | 'submitted'
  | 'queued_emails'
  | 'failed_emails'
  | 'reopen_requests'
  | 'nominations_waiting',
  number
>
