import { sql, type SQL } from 'drizzle-orm'
import { getDb, getHandle, queryRows, type Tx } from '#db/client'
import type { RetentionAnswerMode } from '#db/enums'
import { getEnv } from '#app/config/env.server'
import { log } from '#app/lib/logger.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { eraseLockedPerson, lockPersonToErase } from '#app/modules/employee/erasure.server'
import { pseudonymisedAuditEntry, retentionCutoff } from './rules'

/**
 * Retention (issue 21 §3, ADR 058): what each company keeps, for how long, and the pass that
 * applies it. One rule per concept — `dueSchemes`, `dueAccounts`, `dueAuditEntries` — read by the
 * dry run and by the pass alike, so what the page announces is what the pass does. Every date is
 * computed from the `now` the caller hands in (the worker's clock, a test's), never read here.
 *
 * The pass changes rows in batches (`batchSize` rows per transaction, each transaction short: one
 * statement picks the rows by index and changes them), so no reader or writer waits long behind it,
 * and a pass stopped halfway leaves whole batches that the next pass continues from.
 */

export const RETENTION_BATCH_SIZE = 500
/** An account is erased in a transaction of its own (all of ADR 056); at most this many per pass. */
export const RETENTION_ACCOUNTS_PER_PASS = 200
export const RETENTION_POLL_MS = 60 * 60 * 1000
/** The advisory lock that lets one app instance at a time run a pass. */
export const RETENTION_LOCK = 7_415_926_536

export type RetentionPolicy = {
  companyId: string
  answersMonths: number | null
  answersMode: RetentionAnswerMode
  accountsMonths: number | null
  auditMonths: number | null
}

export type RetentionCounts = {
  /** Schemes whose answers were (would be) anonymised or deleted. */
  schemes: number
  /** Answers deleted (`delete`: all of the schemes'; `anonymise`: the colleagues'). */
  answers: number
  /** Report snapshots (releases) deleted or anonymised. */
  snapshots: number
  /** Accounts erased. */
  accounts: number
  /** Audit entries pseudonymised. */
  auditEntries: number
}

export const NO_COUNTS: RetentionCounts = {
  schemes: 0,
  answers: 0,
  snapshots: 0,
  accounts: 0,
  auditEntries: 0,
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`
const countOf = async (tx: Tx, statement: SQL) =>
  Number((await queryRows<{ n: number | string }>(tx, statement))[0]?.n ?? 0)

/** The companies whose retention is set, with their policy (a few rows: one per company). */
export async function retentionPolicies(db: Tx = getDb(), companyId?: string): Promise<RetentionPolicy[]> {
  return queryRows<RetentionPolicy>(
    db,
    sql`SELECT id AS "companyId", retention_answers_months AS "answersMonths",
          retention_answers_mode AS "answersMode", retention_accounts_months AS "accountsMonths",
          retention_audit_months AS "auditMonths"
        FROM companies
        WHERE (retention_answers_months IS NOT NULL OR retention_accounts_months IS NOT NULL
          OR retention_audit_months IS NOT NULL)
          ${companyId ? sql`AND id = ${companyId}::uuid` : sql``}
        ORDER BY id`,
  )
}

// ---------------------------------------------------------------------------------------------
// The rules: what is due.

/**
 * Schemes due for retention: of the company, closed at or before the cutoff (N months before now;
 * `closes_at` stands for `closed_at` in a scheme closed before that was kept), not yet retained and
 * not on legal hold. Read through schemes_retention_due_index.
 */
function dueSchemeFilter(policy: RetentionPolicy, now: Date): SQL | null {
  if (policy.answersMonths === null) return null
  return sql`s.company_id = ${policy.companyId}::uuid AND s.status = 'closed'
    AND s.retention_applied_at IS NULL AND s.legal_hold_at IS NULL
    AND coalesce(s.closed_at, s.closes_at) <= ${at(retentionCutoff(now, policy.answersMonths))}`
}

export type DueScheme = { id: string; name: string; closedAt: string; answers: number; snapshots: number }

/**
 * The schemes the next pass would retain, with how many answers and snapshots each would lose
 * under the company's mode (the pass counts the same rows as it changes them).
 */
export async function dueSchemes(policy: RetentionPolicy, now: Date, db: Tx = getDb()): Promise<DueScheme[]> {
  const filter = dueSchemeFilter(policy, now)
  if (!filter) return []
  const rater = policy.answersMode === 'anonymise' ? sql`AND a.relationship <> 'self'` : sql``
  const rows = await queryRows<DueScheme & { closedAt: Date | string }>(
    db,
    sql`SELECT s.id, s.name, coalesce(s.closed_at, s.closes_at) AS "closedAt",
          (SELECT count(*) FROM assignments a
            CROSS JOIN LATERAL (SELECT r.id FROM responses r WHERE r.assignment_id = a.id LIMIT 1) r
            JOIN answers an ON an.response_id = r.id WHERE a.scheme_id = s.id ${rater})::int AS answers,
          (SELECT count(*) FROM report_releases rr WHERE rr.scheme_id = s.id)::int AS snapshots
        FROM schemes s WHERE ${filter}
        ORDER BY coalesce(s.closed_at, s.closes_at), s.id`,
  )
  return rows.map((r) => ({
    ...r,
    closedAt: new Date(r.closedAt).toISOString(),
    answers: Number(r.answers),
    snapshots: Number(r.snapshots),
  }))
}

/**
 * Accounts due for erasure: the company's employees not erased yet who were disabled at or before
 * the cutoff, or never activated (no password, no organisation sign-in) and invited at or before
 * it — unless they are in a scheme still running, or in (or rating in) a scheme on legal hold.
 */
function dueAccountFilter(policy: RetentionPolicy, now: Date): SQL | null {
  if (policy.accountsMonths === null) return null
  const cutoff = at(retentionCutoff(now, policy.accountsMonths))
  return sql`u.company_id = ${policy.companyId}::uuid AND u.role = 'employee' AND u.erased_at IS NULL
    AND ((u.disabled_at IS NOT NULL AND u.disabled_at <= ${cutoff})
      OR (u.disabled_at IS NULL AND u.password_hash IS NULL AND u.created_at <= ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM user_identities i WHERE i.user_id = u.id)))
    AND NOT EXISTS (SELECT 1 FROM scheme_members m JOIN schemes s ON s.id = m.scheme_id
      WHERE m.employee_id = u.id AND (s.status <> 'closed' OR s.legal_hold_at IS NOT NULL))
    AND NOT EXISTS (SELECT 1 FROM assignments a JOIN schemes s ON s.id = a.scheme_id
      WHERE a.respondent_id = u.id AND s.legal_hold_at IS NOT NULL)`
}

export async function dueAccounts(
  policy: RetentionPolicy,
  now: Date,
  db: Tx = getDb(),
  limit?: number,
): Promise<string[]> {
  const filter = dueAccountFilter(policy, now)
  if (!filter) return []
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT u.id FROM users u WHERE ${filter} ORDER BY u.id ${limit ? sql`LIMIT ${limit}` : sql``}`,
  )
  return rows.map((r) => r.id)
}

/**
 * Audit entries due for pseudonymisation: written at or before the cutoff, not pseudonymised yet,
 * and about the company — the company itself, its schemes (not on legal hold) and their
 * assignments and responses, its people — or made by one of its people about anything else. Each
 * branch walks an index ((entity, entity_id) or actor_id) from the company's own rows.
 */
function dueAuditIds(policy: RetentionPolicy, now: Date): SQL | null {
  if (policy.auditMonths === null) return null
  const c = sql`${policy.companyId}::uuid`
  // An entry about a scheme on legal hold, or one of its assignments or responses, waits: the
  // branches that read those entities go through the company's schemes that are not held.
  const due = sql`AND a.at <= ${at(retentionCutoff(now, policy.auditMonths))} AND a.pseudonymised_at IS NULL`
  // The branches are disjoint (the last takes the people's entries about anything else: an entry
  // about another company's scheme waits for that company's period), so UNION ALL: the pass takes
  // the first rows the branches find, and its LIMIT stops the scan there.
  // OFFSET 0 fences each lookup: a lateral lookup through its index per row of the company's own
  // (few) rows, never a hash join that reads the big table whole.
  return sql`
    SELECT a.id FROM audit_log a WHERE a.entity = 'company' AND a.entity_id = ${policy.companyId} ${due}
    UNION ALL SELECT a.id FROM schemes s CROSS JOIN LATERAL (SELECT a.id FROM audit_log a
        WHERE a.entity = 'scheme' AND a.entity_id = s.id::text ${due} OFFSET 0) a
      WHERE s.company_id = ${c} AND s.legal_hold_at IS NULL
    UNION ALL SELECT a.id FROM schemes s
      CROSS JOIN LATERAL (SELECT x.id FROM assignments x WHERE x.scheme_id = s.id OFFSET 0) x
      CROSS JOIN LATERAL (SELECT a.id FROM audit_log a
        WHERE a.entity = 'assignment' AND a.entity_id = x.id::text ${due} OFFSET 0) a
      WHERE s.company_id = ${c} AND s.legal_hold_at IS NULL
    UNION ALL SELECT a.id FROM schemes s
      CROSS JOIN LATERAL (SELECT x.id FROM assignments x WHERE x.scheme_id = s.id OFFSET 0) x
      CROSS JOIN LATERAL (SELECT r.id FROM responses r WHERE r.assignment_id = x.id LIMIT 1) r
      CROSS JOIN LATERAL (SELECT a.id FROM audit_log a
        WHERE a.entity = 'response' AND a.entity_id = r.id::text ${due} OFFSET 0) a
      WHERE s.company_id = ${c} AND s.legal_hold_at IS NULL
    UNION ALL SELECT a.id FROM users u CROSS JOIN LATERAL (SELECT a.id FROM audit_log a
        WHERE a.entity = 'user' AND a.entity_id = u.id::text ${due} OFFSET 0) a
      WHERE u.company_id = ${c}
    UNION ALL SELECT a.id FROM users u CROSS JOIN LATERAL (SELECT a.id FROM audit_log a
        WHERE a.actor_id = u.id AND a.entity NOT IN ('company', 'scheme', 'assignment', 'response', 'user')
          ${due} OFFSET 0) a
      WHERE u.company_id = ${c}`
}

export async function dueAuditEntryCount(policy: RetentionPolicy, now: Date, db: Tx = getDb()) {
  const ids = dueAuditIds(policy, now)
  return ids ? countOf(db, sql`SELECT count(DISTINCT id)::int AS n FROM (${ids}) due`) : 0
}

// ---------------------------------------------------------------------------------------------
// The dry run.

export type RetentionPreview = RetentionCounts & { dueSchemes: DueScheme[] }

/** What the next pass would do for one company at `now`, changing nothing. */
export async function previewRetention(
  policy: RetentionPolicy,
  now: Date,
  db: Tx = getDb(),
): Promise<RetentionPreview> {
  const [schemes, accounts, auditEntries] = await Promise.all([
    dueSchemes(policy, now, db),
    dueAccounts(policy, now, db),
    dueAuditEntryCount(policy, now, db),
  ])
  return {
    dueSchemes: schemes,
    schemes: schemes.length,
    answers: schemes.reduce((n, s) => n + s.answers, 0),
    snapshots: schemes.reduce((n, s) => n + s.snapshots, 0),
    accounts: Math.min(accounts.length, RETENTION_ACCOUNTS_PER_PASS),
    auditEntries,
  }
}

// ---------------------------------------------------------------------------------------------
// The pass.

export type PassStats = {
  /** Transactions that changed (or looked for) rows. */
  transactions: number
  /** The longest single transaction, in milliseconds. */
  longestMs: number
}

export type PassOptions = {
  batchSize?: number
  accountsPerPass?: number
  /** Told each transaction's duration (the scale script's measure). */
  onTransaction?: (ms: number) => void
}

type Batches = PassStats & { size: number; onTransaction?: (ms: number) => void }

/**
 * Runs `step` in transactions of its own until a batch comes back smaller than the batch size;
 * answers the rows it counted. A step answers `{ rows, counted }`: rows picked (what decides whether
 * to go on) and rows to count (answers behind the assignments, say).
 */
async function inBatches(
  batches: Batches,
  step: (tx: Tx, limit: number) => Promise<number | { rows: number; counted: number } | null>,
): Promise<number> {
  let total = 0
  for (;;) {
    const started = performance.now()
    const result = await getDb().transaction((tx) => step(tx, batches.size))
    const ms = performance.now() - started
    batches.transactions++
    batches.longestMs = Math.max(batches.longestMs, ms)
    batches.onTransaction?.(ms)
    // null: the step found its scheme put on legal hold (or gone) meanwhile: stop.
    if (result === null) return total
    const { rows, counted } = typeof result === 'number' ? { rows: result, counted: result } : result
    total += counted
    if (rows < batches.size) return total
  }
}

/** The scheme still due (not put on hold since it was picked); locks it against a hold for the batch. */
async function stillDue(tx: Tx, schemeId: string) {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM schemes WHERE id = ${schemeId}::uuid AND legal_hold_at IS NULL
          AND retention_applied_at IS NULL FOR SHARE`,
  )
  return rows.length > 0
}

/** Retains one scheme in batches; answers the answers and snapshots counted, or null when held meanwhile. */
async function retainScheme(
  batches: Batches,
  scheme: DueScheme,
  mode: RetentionAnswerMode,
  now: Date,
): Promise<{ answers: number; snapshots: number } | null> {
  const s = sql`${scheme.id}::uuid`
  const raterOnly = mode === 'anonymise' ? sql`AND a.relationship <> 'self'` : sql``
  let held = false
  const guarded =
    (step: (tx: Tx, limit: number) => Promise<number | { rows: number; counted: number }>) =>
    async (tx: Tx, limit: number) => {
      if (!(await stillDue(tx, scheme.id))) {
        held = true
        return null
      }
      return step(tx, limit)
    }

  /** A batch: the rows `picked` selects (at most the batch's size) deleted from `table`. */
  const deleting = (table: string, picked: SQL) =>
    guarded((tx, limit) =>
      countOf(
        tx,
        sql`WITH picked AS MATERIALIZED (${picked} LIMIT ${limit}),
            gone AS (DELETE FROM ${sql.raw(table)} WHERE id IN (SELECT id FROM picked) RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
      ),
    )
  /** A batch: the rows `picked` selects changed by `set` in `table`. */
  const changing = (table: string, set: SQL, picked: SQL) =>
    guarded((tx, limit) =>
      countOf(
        tx,
        sql`WITH picked AS MATERIALIZED (${picked} LIMIT ${limit}),
            done AS (UPDATE ${sql.raw(table)} SET ${set} WHERE id IN (SELECT id FROM picked) RETURNING 1)
            SELECT count(*)::int AS n FROM done`,
      ),
    )
  /** The scheme's release rows of `table` (answers or responses) that `where` picks. */
  const releaseRows = (table: string, where: SQL = sql``) =>
    sql`SELECT x.id FROM report_releases rr
      CROSS JOIN LATERAL (SELECT x.id FROM ${sql.raw(table)} x WHERE x.release_id = rr.id ${where} OFFSET 0) x
      WHERE rr.scheme_id = ${s}`

  // 1. The answers (all of them, or the colleagues'), a batch of rows at a time.
  const answers = await inBatches(
    batches,
    deleting(
      'answers',
      sql`SELECT an.id FROM assignments a
        CROSS JOIN LATERAL (SELECT r.id FROM responses r WHERE r.assignment_id = a.id LIMIT 1) r
        JOIN answers an ON an.response_id = r.id
        WHERE a.scheme_id = ${s} ${raterOnly}`,
    ),
  )
  if (held) return null
  // 2. Their assignments (the link between rater and subject; responses and plans go with them),
  //    and the lists of raters that name the colleagues.
  //    The audit entries about them and their responses lose their personal data with them, whatever
  //    their age: once the assignment is gone nothing would tie them to this company any more.
  await inBatches(
    batches,
    guarded(async (tx, limit) => {
      const picked = (
        await queryRows<{ id: string }>(
          tx,
          sql`SELECT a.id FROM assignments a WHERE a.scheme_id = ${s} ${raterOnly} LIMIT ${limit}`,
        )
      ).map((r) => r.id)
      if (!picked.length) return 0
      const list = sql`${`{${picked.join(',')}}`}::uuid[]`
      const entries = await queryRows<{ id: string }>(
        tx,
        sql`SELECT e.id FROM audit_log e WHERE e.entity = 'assignment' AND e.entity_id = ANY(${list}::text[])
            UNION ALL
            SELECT e.id FROM responses r JOIN audit_log e ON e.entity = 'response' AND e.entity_id = r.id::text
            WHERE r.assignment_id = ANY(${list})`,
      )
      await pseudonymiseEntries(
        tx,
        entries.map((e) => e.id),
        now,
      )
      return countOf(
        tx,
        sql`WITH gone AS (DELETE FROM assignments WHERE id = ANY(${list}) RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
      )
    }),
  )
  if (held) return null
  await inBatches(batches, deleting('nominees', sql`SELECT id FROM nominees WHERE scheme_id = ${s}`))
  if (held) return null

  // 3. The report snapshots: deleted, or kept without comments and without the copies' sources.
  let snapshots = 0
  if (mode === 'delete') {
    await inBatches(batches, deleting('report_release_answers', releaseRows('report_release_answers')))
    if (held) return null
    snapshots = await inBatches(
      batches,
      deleting('report_releases', sql`SELECT id FROM report_releases WHERE scheme_id = ${s}`),
    )
  } else {
    await inBatches(
      batches,
      changing(
        'report_release_answers',
        sql`text_value = NULL, source_answer_id = id`,
        releaseRows(
          'report_release_answers',
          sql`AND (x.text_value IS NOT NULL OR x.source_answer_id <> x.id)`,
        ),
      ),
    )
    if (held) return null
    await inBatches(
      batches,
      changing(
        'report_release_responses',
        sql`source_response_id = NULL`,
        releaseRows('report_release_responses', sql`AND x.source_response_id IS NOT NULL`),
      ),
    )
    if (held) return null
    await inBatches(
      batches,
      changing(
        'report_releases',
        sql`colleague_figures = jsonb_set(colleague_figures, '{comments}', '[]'::jsonb)`,
        sql`SELECT id FROM report_releases WHERE scheme_id = ${s}
          AND jsonb_typeof(colleague_figures->'comments') = 'array'
          AND jsonb_array_length(colleague_figures->'comments') > 0`,
      ),
    )
  }
  if (held) return null

  // 4. The scheme says what happened to it (and is never due again); under `anonymise` every
  //    snapshot it keeps counts as anonymised.
  await getDb().transaction(async (tx) => {
    await tx.execute(
      sql`UPDATE schemes SET retention_applied_at = ${at(now)}, retention_mode = ${mode}
          WHERE id = ${s} AND retention_applied_at IS NULL`,
    )
    if (mode === 'anonymise')
      snapshots = await countOf(
        tx,
        sql`SELECT count(*)::int AS n FROM report_releases WHERE scheme_id = ${s}`,
      )
  })
  batches.transactions++
  return { answers, snapshots }
}

/** Erases the company's due accounts, one transaction each (ADR 056's erasure, actor: retention). */
async function eraseDueAccounts(batches: Batches, policy: RetentionPolicy, now: Date, max: number) {
  const ids = await dueAccounts(policy, now, getDb(), max)
  let erased = 0
  for (const id of ids) {
    const started = performance.now()
    const done = await getDb().transaction(async (tx) => {
      // Checked again under the lock: a hold placed or an activation since the list was read.
      const [still] = await queryRows<{ id: string }>(
        tx,
        sql`SELECT u.id FROM users u WHERE u.id = ${id}::uuid AND ${dueAccountFilter(policy, now)!}`,
      )
      const person = still ? await lockPersonToErase(tx, id) : null
      if (!person) return false
      await eraseLockedPerson(tx, null, person, { by: 'retention', companyId: policy.companyId }, 'indexed')
      return true
    })
    const ms = performance.now() - started
    batches.transactions++
    batches.longestMs = Math.max(batches.longestMs, ms)
    batches.onTransaction?.(ms)
    if (done) erased++
  }
  return erased
}

/**
 * Pseudonymises the audit entries `ids` that are not yet (the rules.ts transformation, in this
 * transaction); answers how many changed.
 */
async function pseudonymiseEntries(tx: Tx, ids: readonly string[], now: Date): Promise<number> {
  if (!ids.length) return 0
  const rows = await queryRows<{
    id: string
    actor_id: string | null
    ip: string | null
    details: Record<string, unknown> | string | null
  }>(
    tx,
    sql`SELECT a.id, a.actor_id, a.ip, a.details FROM audit_log a
        WHERE a.id = ANY(${`{${[...new Set(ids)].join(',')}}`}::uuid[]) AND a.pseudonymised_at IS NULL
        FOR UPDATE`,
  )
  if (!rows.length) return 0
  const secret = getEnv().SESSION_SECRET
  const changed = rows.map((r) => {
    const details =
      typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details
    return {
      id: r.id,
      details: pseudonymisedAuditEntry({ actorId: r.actor_id, ip: r.ip, details }, secret).details,
    }
  })
  await tx.execute(
    sql`UPDATE audit_log a SET actor_id = NULL, ip = NULL, details = v.details, pseudonymised_at = ${at(now)}
        FROM jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) AS v(id uuid, details jsonb)
        WHERE a.id = v.id`,
  )
  return rows.length
}

/** Pseudonymises the company's due audit entries, `batchSize` entries per transaction. */
async function pseudonymiseDueAudit(batches: Batches, policy: RetentionPolicy, now: Date) {
  const ids = dueAuditIds(policy, now)
  if (!ids) return 0
  return inBatches(batches, async (tx, limit) => {
    const picked = (await queryRows<{ id: string }>(tx, sql`SELECT id FROM (${ids}) due LIMIT ${limit}`)).map(
      (r) => r.id,
    )
    if (!picked.length) return 0
    // Picked decides whether to go on; changed counts.
    return { rows: picked.length, counted: await pseudonymiseEntries(tx, picked, now) }
  })
}

export type PassResult = RetentionCounts & PassStats & { companyId: string; schemeNames: string[] }

/**
 * One company's pass at `now`: the due audit entries, then the due schemes' answers and snapshots,
 * then the due accounts (the entries the pass itself writes about erasures wait their own period).
 * Records what it did on the company (its "last pass") and, when it did anything, in an audit entry
 * with the counts.
 */
export async function runCompanyRetention(
  policy: RetentionPolicy,
  now: Date,
  options: PassOptions = {},
): Promise<PassResult> {
  const batches: Batches = {
    transactions: 0,
    longestMs: 0,
    size: options.batchSize ?? RETENTION_BATCH_SIZE,
    onTransaction: options.onTransaction,
  }
  const counts: RetentionCounts = { ...NO_COUNTS }
  const schemeNames: string[] = []
  // Audit entries first: those due now are counted here, as the dry run counts them, before the
  // schemes' step pseudonymises (uncounted) the younger entries about the assignments it removes.
  counts.auditEntries = await pseudonymiseDueAudit(batches, policy, now)
  for (const scheme of await dueSchemes(policy, now)) {
    const done = await retainScheme(batches, scheme, policy.answersMode, now)
    if (!done) continue
    counts.schemes++
    counts.answers += done.answers
    counts.snapshots += done.snapshots
    schemeNames.push(scheme.name)
  }
  counts.accounts = await eraseDueAccounts(
    batches,
    policy,
    now,
    options.accountsPerPass ?? RETENTION_ACCOUNTS_PER_PASS,
  )

  const didSomething = Object.values(counts).some((n) => n > 0)
  await getDb().transaction(async (tx) => {
    await tx.execute(
      sql`UPDATE companies SET retention_last_pass_at = ${at(now)},
            retention_last_pass = ${JSON.stringify({ ...counts, transactions: batches.transactions })}::jsonb
          WHERE id = ${policy.companyId}::uuid`,
    )
    if (didSomething)
      await recordAudit(tx, {
        actorId: null,
        action: 'retention.pass',
        entity: 'company',
        entityId: policy.companyId,
        details: {
          ...counts,
          mode: policy.answersMode,
          schemes: schemeNames,
          transactions: batches.transactions,
        },
      })
  })
  if (didSomething) log.info('retention pass', { companyId: policy.companyId, ...counts })
  return {
    companyId: policy.companyId,
    ...counts,
    schemeNames,
    transactions: batches.transactions,
    longestMs: batches.longestMs,
  }
}

/** Every company's pass (the worker's round), one company after another. */
export async function runRetentionPass(now: Date, options: PassOptions = {}): Promise<PassResult[]> {
  const results: PassResult[] = []
  for (const policy of await retentionPolicies())
    results.push(await runCompanyRetention(policy, now, options))
  return results
}

/**
 * Runs `fn` only if no other app instance holds the retention lock (Postgres: a session advisory
 * lock on a connection of its own for the whole pass; the embedded PGlite serves one process, so
 * there is nobody to exclude). Answers null when another instance is running a pass.
 */
export async function withRetentionLock<T>(fn: () => Promise<T>): Promise<T | null> {
  const handle = getHandle()
  if (handle.kind === 'pglite' || !handle.pool) return fn()
  const client = await handle.pool.connect()
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(${RETENTION_LOCK}) AS locked`,
    )
    if (!rows[0]?.locked) return null
    try {
      return await fn()
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${RETENTION_LOCK})`)
    }
  } finally {
    client.release()
  }
}
