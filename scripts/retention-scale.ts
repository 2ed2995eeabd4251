/**
 * `npm run retention:scale`: retention (issue 21 §3, ADR 058) measured on `npm run seed:scale` data.
 * Sets retention on the scale companies (half delete, half anonymise; audit entries kept 12 months;
 * accounts on the first two companies only, since each erasure is a whole ADR 056 transaction),
 * reads the plans of the dry run's statements (no sequential scan of a big table), runs the dry run,
 * then a pass and a second pass with a clock a year and a day after the last scheme closed, and
 * prints rows, transactions (batches), time and the longest single transaction.
 *
 * Postgres only, and destructive (it deletes and anonymises the scale data): use a database of its own.
 *   DATABASE_URL=postgres://…/panorama_ret_scale npm run retention:scale [-- --companies 10 --batch 500]
 */
import { sql } from 'drizzle-orm'
import { closeDatabase, getDb, openDatabase, queryRows, runMigrations } from '../db/client'
import {
  previewRetention,
  retentionPolicies,
  runCompanyRetention,
  withRetentionLock,
  type PassResult,
} from '../app/modules/retention/retention.server'
import { retentionDueAt } from '../app/modules/retention/rules'
import { planOf, recordStatements, scansOf } from '../tests/support/query-plans'

function option(name: string, fallback: number) {
  const i = process.argv.indexOf(`--${name}`)
  const value = i > 0 ? Number(process.argv[i + 1]) : fallback
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`--${name} takes a whole number above 0.`)
    process.exit(2)
  }
  return value
}

const BIG_TABLES = [
  'answers',
  'audit_log',
  'assignments',
  'responses',
  'users',
  'email_outbox',
  'report_release_answers',
]
const MONTHS = 12

/** The report goes to stdout (console.log is kept out of the code base by the linter). */
const print = (line = '') => process.stdout.write(`${line}\n`)
const ms = (n: number) => `${n.toFixed(0)} ms`
const s = (n: number) => `${(n / 1000).toFixed(1)} s`

async function main() {
  const url = process.env.DATABASE_URL
  if (!url) {
    console.error('Set DATABASE_URL to the seed:scale database (Postgres).')
    process.exit(2)
  }
  const companies = option('companies', 50)
  const batchSize = option('batch', 500)
  const accountsPerPass = option('accounts-per-pass', 10)
  const handle = await openDatabase({ url, applicationName: 'panorama-retention-scale' })
  await runMigrations(handle)
  const db = getDb()

  const chosen = await queryRows<{ id: string; name: string }>(
    db,
    sql`SELECT id, name FROM companies ORDER BY name LIMIT ${companies}`,
  )
  const [{ last } = { last: null }] = await queryRows<{ last: Date | string | null }>(
    db,
    sql`SELECT max(coalesce(closed_at, closes_at)) AS last FROM schemes WHERE status = 'closed'`,
  )
  if (!last) throw new Error('No closed scheme: run npm run seed:scale first.')
  const now = new Date(retentionDueAt(new Date(last), MONTHS).getTime() + 24 * 60 * 60 * 1000)
  for (const [i, company] of chosen.entries())
    await db.execute(
      sql`UPDATE companies SET retention_answers_months = ${MONTHS},
            retention_answers_mode = ${i % 2 === 0 ? 'delete' : 'anonymise'},
            retention_accounts_months = ${i < 2 ? MONTHS : null}, retention_audit_months = ${MONTHS}
          WHERE id = ${company.id}::uuid`,
    )
  await db.execute(sql`ANALYZE companies`)
  await db.execute(sql`ANALYZE schemes`)
  const policies = (await retentionPolicies()).filter((p) => chosen.some((c) => c.id === p.companyId))
  print(
    `retention:scale on ${chosen.length} companies, clock ${now.toISOString()}, batches of ${batchSize}, ` +
      `at most ${accountsPerPass} accounts per company per pass`,
  )

  // The dry run's statements, planned on the real volumes.
  const { statements } = await recordStatements(() => previewRetention(policies[0]!, now))
  const seq: string[] = []
  for (const statement of statements)
    for (const scan of scansOf(await planOf(statement)))
      if (scan.type === 'Seq Scan' && BIG_TABLES.includes(scan.table)) seq.push(scan.table)
  print(
    `plans: ${statements.length} dry-run statements, sequential scans of big tables: ${seq.length ? seq.join(', ') : 'none'}`,
  )

  let started = performance.now()
  const totals = { schemes: 0, answers: 0, snapshots: 0, accounts: 0, auditEntries: 0 }
  for (const policy of policies) {
    const preview = await previewRetention(policy, now)
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += preview[key]
  }
  print(`dry run: ${s(performance.now() - started)}; ${JSON.stringify(totals)}`)

  const durations: number[] = []
  const pass = async (label: string) => {
    started = performance.now()
    const results =
      (await withRetentionLock(async () => {
        const out: PassResult[] = []
        for (const policy of policies)
          out.push(
            await runCompanyRetention(policy, now, {
              batchSize,
              accountsPerPass,
              onTransaction: (t) => durations.push(t),
            }),
          )
        return out
      })) ?? []
    const elapsed = performance.now() - started
    const sum = (key: keyof typeof totals | 'transactions') => results.reduce((n, r) => n + r[key], 0)
    const longest = Math.max(0, ...results.map((r) => r.longestMs))
    print(
      `${label}: ${s(elapsed)}; schemes ${sum('schemes')}, answers ${sum('answers')}, snapshots ${sum('snapshots')}, ` +
        `accounts ${sum('accounts')}, audit entries ${sum('auditEntries')}; ${sum('transactions')} transactions, ` +
        `longest ${ms(longest)}`,
    )
    return results
  }
  await pass('pass')
  const sorted = [...durations].sort((a, b) => a - b)
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  print(
    `transactions: ${sorted.length}, median ${ms(p(0.5))}, p95 ${ms(p(0.95))}, p99 ${ms(p(0.99))}, max ${ms(p(1))}`,
  )
  durations.length = 0
  await pass('second pass')
  await closeDatabase()
}

main().catch(async (error: unknown) => {
  console.error(error)
  await closeDatabase().catch(() => {})
  process.exit(1)
})
