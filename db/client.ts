import { AsyncLocalStorage } from 'node:async_hooks'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { sql, type Logger, type SQL } from 'drizzle-orm'
import pg from 'pg'
import { log } from '#app/lib/logger.server'
import * as schema from './schema/index'

export type Schema = typeof schema
/** The one database type the app codes against: node-postgres and PGlite both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>
/** A transaction or the database itself: domain functions take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db

export type DatabaseOptions = {
  /** Postgres URL; when absent the embedded PGlite is used. */
  url?: string
  /** PGlite data folder; 'memory://' for an in-memory database (tests). */
  pgliteDir?: string
  /**
   * An in-memory PGlite starts from this data folder (a dumpDataDir() tarball) instead of running
   * initdb: the test suite migrates once and every test file loads the result (0.5 s, not 3 s).
   */
  pgliteSnapshot?: Blob
  /** Name shown in pg_stat_activity. */
  applicationName?: string
  /** Postgres: the longest a query may run (statement_timeout); 15 s by default. */
  statementTimeoutMs?: number
}

type Handle = {
  db: Db
  kind: 'postgres' | 'pglite'
  pool?: pg.Pool
  pglite?: PGlite
  lockFile?: string
  close: () => Promise<void>
}

// One handle per process, kept on globalThis: the server build and the test files import this
// module through different bundles, and PGlite must never be opened twice on one folder.
const KEY = Symbol.for('panorama.db')
type GlobalWithDb = typeof globalThis & { [KEY]?: Handle }
const g = globalThis as GlobalWithDb

export function isDatabaseOpen() {
  return Boolean(g[KEY])
}

export function getHandle(): Handle {
  const handle = g[KEY]
  if (!handle) throw new Error('The database is not open: call openDatabase() at start-up')
  return handle
}

export function getDb(): Db {
  return getHandle().db
}

const prepared = new WeakMap<Db, Map<string, unknown>>()

/**
 * A statement built once per database handle (tests open several) under `name`, e.g. a Drizzle
 * `.prepare(name)` query that every request of a hot path runs: building the same select again per
 * request was a measurable part of a page's CPU (ADR 036). Only the statement is kept, never a
 * result. On Postgres a prepared query is also parsed and planned once per connection.
 */
export function preparedOnce<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = prepared.get(db)
  if (!byName) {
    byName = new Map()
    prepared.set(db, byName)
  }
  if (!byName.has(name)) byName.set(name, build(db))
  return byName.get(name) as T
}

/** Opens (once) the process's database. */
export async function openDatabase(options: DatabaseOptions): Promise<Handle> {
  if (g[KEY]) return g[KEY]
  const handle = options.url
    ? openPostgres(options.url, options.applicationName, options.statementTimeoutMs)
    : await openPglite(options.pgliteDir, options.pgliteSnapshot)
  g[KEY] = handle
  return handle
}

export async function closeDatabase() {
  const handle = g[KEY]
  stopOutageProbe()
  if (!handle) return
  g[KEY] = undefined
  await handle.close()
}

// ---- query counting (npm run bench, tests/integration/perf) ----

/** The statements run inside one `countQueriesIn` scope (a request, for the tests). */
export type QueryTally = { queries: number }
type QueryCounter = { total: number; scope: AsyncLocalStorage<QueryTally> }
// On globalThis for the same reason as the handle: the server build and the tests share one counter.
const COUNTER_KEY = Symbol.for('panorama.queryCounter')
type GlobalWithCounter = typeof globalThis & { [COUNTER_KEY]?: QueryCounter }

function queryCounter(): QueryCounter {
  const holder = globalThis as GlobalWithCounter
  return (holder[COUNTER_KEY] ??= { total: 0, scope: new AsyncLocalStorage<QueryTally>() })
}

/**
 * Off unless QUERY_COUNT=1 when the database opens: then Drizzle reports every statement here, so
 * the count is the same on both drivers. Transaction control is left out: PGlite sends its own
 * BEGIN/COMMIT outside Drizzle, node-postgres sends them through it.
 */
function countingLogger(): Logger | undefined {
  if (process.env.QUERY_COUNT !== '1') return undefined
  const counter = queryCounter()
  return {
    logQuery(query) {
      if (/^\s*(begin|commit|rollback|savepoint|release savepoint)\b/i.test(query)) return
      counter.total++
      const tally = counter.scope.getStore()
      if (tally) tally.queries++
    },
  }
}

// ---- statement timings (QUERY_COUNT=1 and QUERY_TIMINGS=<file>: the profiling of issue 17 §2) ----

/** Wall time per statement text, from the driver's call to its answer (queueing in PGlite included). */
export type StatementTiming = { sql: string; count: number; totalMs: number }
const TIMINGS_KEY = Symbol.for('panorama.queryTimings')
type GlobalWithTimings = typeof globalThis & { [TIMINGS_KEY]?: Map<string, StatementTiming> }

/** The timings gathered so far (empty unless QUERY_TIMINGS is set with QUERY_COUNT=1). */
export function statementTimings(): StatementTiming[] {
  return [...((globalThis as GlobalWithTimings)[TIMINGS_KEY]?.values() ?? [])]
}

function timingsEnabled() {
  return process.env.QUERY_COUNT === '1' && Boolean(process.env.QUERY_TIMINGS)
}

function timings(): Map<string, StatementTiming> {
  const holder = globalThis as GlobalWithTimings
  if (!holder[TIMINGS_KEY]) {
    const map = new Map<string, StatementTiming>()
    holder[TIMINGS_KEY] = map
    // Written when the process ends (SIGTERM lets server.mjs close): one JSON file, slowest first.
    process.once('exit', () => {
      const rows = [...map.values()].sort((a, b) => b.totalMs - a.totalMs)
      fs.writeFileSync(process.env.QUERY_TIMINGS!, JSON.stringify(rows, null, 2))
    })
  }
  return holder[TIMINGS_KEY]
}

/**
 * The driver object Drizzle is given, with its `query` timed (and, for PGlite's transactions and
 * the pool's checked-out clients, theirs too). Methods are bound to the real object: PGlite keeps
 * private fields a proxy could not reach.
 */
function timed<T extends object>(target: T): T {
  const map = timings()
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown
      if (typeof value !== 'function') return value
      if (key === 'query')
        return async (query: unknown, ...rest: unknown[]) => {
          const text = typeof query === 'string' ? query : String((query as { text?: string })?.text)
          const started = performance.now()
          try {
            return await (value as (...args: unknown[]) => Promise<unknown>).call(object, query, ...rest)
          } finally {
            const entry = map.get(text) ?? { sql: text, count: 0, totalMs: 0 }
            entry.count++
            entry.totalMs += performance.now() - started
            map.set(text, entry)
          }
        }
      if (key === 'transaction')
        return (fn: (tx: object) => unknown, ...rest: unknown[]) =>
          (value as (...args: unknown[]) => unknown).call(object, (tx: object) => fn(timed(tx)), ...rest)
      if (key === 'connect')
        return async (...args: unknown[]) =>
          timed(await (value as (...a: unknown[]) => Promise<object>).call(object, ...args))
      return (value as (...args: unknown[]) => unknown).bind(object)
    },
  })
}

/** Runs fn with its statements (and those of everything it starts) also counted into `tally`. */
export function countQueriesIn<T>(tally: QueryTally, fn: () => T): T {
  return queryCounter().scope.run(tally, fn)
}

/** Statements counted in this process since it started (0 unless QUERY_COUNT=1). */
export function totalQueries(): number {
  return queryCounter().total
}

function openPostgres(url: string, applicationName = 'panorama', statementTimeoutMs = 15_000): Handle {
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Server-side guard: no query may hold a connection for more than 15 s (migrations excepted).
    statement_timeout: statementTimeoutMs,
    application_name: applicationName,
  })
  // Without a listener, an idle client's error (a database restart) would crash the process. Losing
  // the database is logged once per outage, not once per pooled connection.
  pool.on('error', (error) => {
    if (!reportDatabaseFailure(error)) log.error('postgres pool error', { error: error.message })
  })
  const client = timingsEnabled() ? timed(pool) : pool
  const db = drizzlePg(client, { schema, casing: 'snake_case', logger: countingLogger() }) as unknown as Db
  return { db, kind: 'postgres', pool, close: () => pool.end() }
}

async function openPglite(dir = './.data/pglite', snapshot?: Blob): Promise<Handle> {
  let lockFile: string | undefined
  let dataDir: string | undefined
  if (dir !== 'memory://') {
    dataDir = path.resolve(dir)
    // PGlite does not create parent folders.
    fs.mkdirSync(path.dirname(dataDir), { recursive: true })
    lockFile = acquirePgliteLock(dataDir)
  }
  try {
    // pg_trgm serves the admin lists' name and e-mail search, as on Postgres (migration 0007).
    const pglite = new PGlite(dataDir ?? 'memory://', {
      extensions: { pg_trgm },
      ...(snapshot && !dataDir ? { loadDataDir: snapshot } : {}),
    })
    await pglite.waitReady
    const db = drizzlePglite(timingsEnabled() ? timed(pglite) : pglite, {
      schema,
      casing: 'snake_case',
      logger: countingLogger(),
    }) as unknown as Db
    return {
      db,
      kind: 'pglite',
      pglite,
      lockFile,
      close: async () => {
        await pglite.close()
        if (lockFile) releasePgliteLock(lockFile)
      },
    }
  } catch (error) {
    if (lockFile) releasePgliteLock(lockFile)
    throw error
  }
}

export class DatabaseLockedError extends Error {
  constructor(
    public readonly dir: string,
    public readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid}. ` +
        'PGlite allows one process per folder: stop that process first (a seed or migration ' +
        'beside a running server would lose its writes).',
    )
    this.name = 'DatabaseLockedError'
  }
}

/** The lock is a file beside the data folder holding the owner's pid; a dead owner's lock is taken over. */
export function pgliteLockPath(dataDir: string) {
  return `${path.resolve(dataDir)}.lock`
}

function acquirePgliteLock(dataDir: string): string {
  const lockFile = pgliteLockPath(dataDir)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' })
      return lockFile
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(fs.readFileSync(lockFile, 'utf8').trim())
      if (owner && owner !== process.pid && isAlive(owner)) throw new DatabaseLockedError(dataDir, owner)
      fs.rmSync(lockFile, { force: true })
    }
  }
  throw new Error(`Could not lock ${dataDir}`)
}

function releasePgliteLock(lockFile: string) {
  try {
    if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.rmSync(lockFile, { force: true })
  } catch {
    // already gone
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The project root (where package.json and migrations/ live), from this file or the server build. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'migrations')))
      return dir
    dir = path.dirname(dir)
  }
  return process.cwd()
}

const MIGRATION_LOCK = 7415926535

/**
 * Applies migrations/ in order. On Postgres an advisory lock keeps concurrent instances in line,
 * and the migration connection runs without the pool's statement_timeout: it would otherwise cap
 * both the wait for the lock (behind another instance's long migration) and every migration
 * statement, crashing start-up. The connection gets its timeout back before it returns to the pool.
 */
export async function runMigrations(
  handle: Handle = getHandle(),
  { migrationsFolder = path.join(projectRoot(), 'migrations') }: { migrationsFolder?: string } = {},
) {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder })
    return
  }
  const client = await handle.pool!.connect()
  let broken: Error | undefined
  try {
    await client.query('SET statement_timeout = 0')
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`)
    await migratePg(drizzlePg(client, { casing: 'snake_case' }), { migrationsFolder })
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {})
    // A connection that cannot be reset is discarded rather than handed out without a timeout.
    await client.query('RESET statement_timeout').catch((error: Error) => (broken = error))
    client.release(broken)
  }
}

/** Raw SQL rows, the same shape on node-postgres and PGlite (both answer `{ rows }`). */
export async function queryRows<T>(tx: Tx, query: SQL): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

/** true when the database answers a trivial query (readiness). */
export async function pingDatabase(timeoutMs = 2_000): Promise<boolean> {
  if (!isDatabaseOpen()) return false
  const ping = getDb()
    .execute(sql`select 1`)
    .then(() => true)
    .catch(() => false)
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref())
  return Promise.race([ping, timeout])
}

export { schema }

// ---------------------------------------------------------------------------------------------
// Outages. When Postgres cannot be reached every request fails the same way: that is one event
// for the log (when it started, when it ended), and the server answers 503 meanwhile without
// trying the database per request (app/server/app.ts). A probe finds out when it is back.

const OUTAGE_KEY = Symbol.for('panorama.db.outage')
type OutageState = { since: number; probe: NodeJS.Timeout; probing: boolean }
type GlobalWithOutage = typeof globalThis & { [OUTAGE_KEY]?: OutageState }
const go = globalThis as GlobalWithOutage

/** How often an outage probe asks the database whether it is back. */
export const OUTAGE_PROBE_MS = 1_000
/** What a 503 of an outage or a busy pool tells a client to wait (Retry-After). */
export const OUTAGE_RETRY_AFTER_SECONDS = 10

// Node's socket errors and Postgres's own "cannot serve you" states: class 08 (connection
// exception), admin/crash shutdown, starting up, too many connections.
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])
// node-postgres reports a lost or never-made connection with these messages and no code. (Not
// "timeout exceeded when trying to connect": that is pg-pool waiting for a busy pool's client, an
// overload of this process, not an outage.)
const UNREACHABLE_MESSAGES =
  /Connection terminated unexpectedly|Connection terminated due to connection timeout|Client has encountered a connection error/i

/**
 * Whether `error` means the database cannot be reached (as opposed to a query that failed). Drizzle
 * wraps driver errors, so the cause chain is followed.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, message, cause, errors } = current as {
      code?: unknown
      message?: unknown
      cause?: unknown
      errors?: unknown
    }
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true
    // Node reports a refused connection to every address of a host as an AggregateError.
    if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailableError(e))) return true
    current = cause
  }
  return false
}

/**
 * Whether `error` is pg-pool giving up waiting for a free client: this process is overloaded (every
 * connection busy for connectionTimeoutMillis), and the request may succeed if tried again later.
 */
export function isDatabaseBusyError(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { message, cause } = current as { message?: unknown; cause?: unknown }
    if (typeof message === 'string' && /timeout exceeded when trying to connect/i.test(message)) return true
    current = cause
  }
  return false
}

/** true while an outage is under way (from its first failure until the probe gets an answer). */
export function isDatabaseDown(): boolean {
  return Boolean(go[OUTAGE_KEY])
}

/**
 * Call with any database error. When it means the database cannot be reached, the outage is
 * logged (once: only its start), a probe starts watching for the end, and the answer is 'started'
 * (this call noticed it) or 'ongoing'; for any other error, false and nothing happens.
 */
export function reportDatabaseFailure(error: unknown): 'started' | 'ongoing' | false {
  if (!isDatabaseUnavailableError(error)) return false
  if (go[OUTAGE_KEY]) return 'ongoing'
  const state: OutageState = { since: Date.now(), probing: false, probe: setInterval(probe, OUTAGE_PROBE_MS) }
  state.probe.unref()
  go[OUTAGE_KEY] = state
  log.error('database unavailable: answering 503 until it is back', { error: describeCause(error) })
  return 'started'
}

function probe() {
  const state = go[OUTAGE_KEY]
  if (!state || state.probing) return
  state.probing = true
  void pingDatabase(OUTAGE_PROBE_MS * 2)
    .then((ok) => {
      if (!ok || go[OUTAGE_KEY] !== state) return
      stopOutageProbe()
      log.info('database available again', {
        downSince: new Date(state.since).toISOString(),
        downSeconds: Math.round((Date.now() - state.since) / 100) / 10,
      })
    })
    .finally(() => (state.probing = false))
}

function stopOutageProbe() {
  const state = go[OUTAGE_KEY]
  if (!state) return
  clearInterval(state.probe)
  go[OUTAGE_KEY] = undefined
}

function describeCause(error: unknown): string {
  let current: unknown = error
  // The driver's own words are the useful ones (Drizzle's wrapper repeats the whole query).
  while (current instanceof Error && current.cause instanceof Error) current = current.cause
  if (current instanceof Error) return current.message || current.name
  return String(current)
}
