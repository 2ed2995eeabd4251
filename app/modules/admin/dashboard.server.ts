import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'

/** The dashboard's counts, in one statement. */
export async function getDashboardCounts() {
  const [row] = await queryRows<Record<string, number | string>>(
    getDb(),
    sql`
    SELECT
      (SELECT count(*) FROM companies)::int AS companies,
      (SELECT count(*) FROM brands)::int AS brands,
      (SELECT count(*) FROM users WHERE role = 'employee' AND disabled_at IS NULL)::int AS employees,
      (SELECT count(*) FROM schemes WHERE status = 'open')::int AS open_schemes,
      (SELECT count(*) FROM assignments WHERE status = 'submitted')::int AS submitted,
      (SELECT count(*) FROM email_outbox WHERE status IN ('queued', 'sending'))::int AS queued_emails,
      (SELECT count(*) FROM email_outbox WHERE status = 'failed')::int AS failed_emails`,
  )
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])) as Record<
    'companies' | 'brands' | 'employees' | 'open_schemes' | 'submitted' | 'queued_emails' | 'failed_emails',
    number
  >
}
