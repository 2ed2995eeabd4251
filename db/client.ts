import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { sql, type SQL } from 'drizzle-orm'
import pg from 'pg'
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
  /** Name shown in pg_stat_activity. */
  applicationName?: string
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

/** Opens (once) the process's database. */
export async function openDatabase(options: DatabaseOptions): Promise<Handle> {
  if (g[KEY]) return g[KEY]
  const handle = options.url
    ? openPostgres(options.url, options.applicationName)
    : await openPglite(options.pgliteDir)
  g[KEY] = handle
  return handle
}

export async function closeDatabase() {
  const handle = g[KEY]
  if (!handle) return
  g[KEY] = undefined
  await handle.close()
}

function openPostgres(url: string, applicationName = 'panorama'): Handle {
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Server-side guard: no query may hold a connection for more than 15 s.
    statement_timeout: 15_000,
    application_name: applicationName,
  })
  // Without a listener, an idle client's error (a database restart) would crash the process.
  pool.on('error', (error) => {
    console.error(JSON.stringify({ level: 'error', msg: 'postgres pool error', error: error.message }))
  })
  const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db
  return { db, kind: 'postgres', pool, close: () => pool.end() }
}

async function openPglite(dir = './.data/pglite'): Promise<Handle> {
  let lockFile: string | undefined
  let dataDir: string | undefined
  if (dir !== 'memory://') {
    dataDir = path.resolve(dir)
    // PGlite does not create parent folders.
    fs.mkdirSync(path.dirname(dataDir), { recursive: true })
    lockFile = acquirePgliteLock(dataDir)
  }
  try {
    const pglite = dataDir ? new PGlite(dataDir) : new PGlite()
    await pglite.waitReady
    const db = drizzlePglite(pglite, { schema, casing: 'snake_case' }) as unknown as Db
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

/** Applies migrations/ in order. On Postgres an advisory lock keeps concurrent instances in line. */
export async function runMigrations(handle: Handle = getHandle()) {
  const migrationsFolder = path.join(projectRoot(), 'migrations')
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder })
    return
  }
  const client = await handle.pool!.connect()
  try {
    await client.query('SELECT pg_advisory_lock(7415926535)')
    await migratePg(drizzlePg(client, { casing: 'snake_case' }), { migrationsFolder })
  } finally {
    await client.query('SELECT pg_advisory_unlock(7415926535)').catch(() => {})
    client.release()
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
