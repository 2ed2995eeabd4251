import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import pg from 'pg'
import { closeDatabase, getHandle, openDatabase, runMigrations } from '../../db/client'

/**
 * Picks the database the integration tests run on:
 *  1. TEST_DATABASE_URL (a real Postgres; .ci/run sets it to the machine's server), else
 *  2. a Postgres started with testcontainers where a Docker engine answers, else
 *  3. PGlite in memory, one per test file.
 * Either way the migrations run once, here: on Postgres to a template database that every test file
 * copies (CREATE DATABASE … TEMPLATE), so files run in parallel without seeing each other's rows; on
 * PGlite to an in-memory database dumped to a file that every test file loads (its own copy, without
 * initdb and migrations: about 0.6 s a file instead of 4 s).
 */
export default async function setup(project: TestProject) {
  let url = process.env.TEST_DATABASE_URL
  let stopContainer: (() => Promise<unknown>) | undefined
  if (!url && process.env.TEST_DATABASE !== 'pglite') {
    const started = await startContainer()
    if (started) {
      url = started.url
      stopContainer = started.stop
    }
  }
  if (!url) {
    const snapshot = await migratedPgliteSnapshot()
    project.provide('testDatabase', { kind: 'pglite', snapshot })
    return () => fs.rmSync(path.dirname(snapshot), { recursive: true, force: true })
  }
  const template = `panorama_tpl_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${template}`)
  await admin.query(`CREATE DATABASE ${template}`)
  const templateUrl = withDatabase(url, template)
  await openDatabase({ url: templateUrl })
  await runMigrations()
  await closeDatabase()
  project.provide('testDatabase', { kind: 'postgres', url, template })
  return async () => {
    const rows = await admin.query(
      `SELECT datname FROM pg_database WHERE datname LIKE 'panorama_t_${process.pid}_%'`,
    )
    for (const row of rows.rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`)
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)
    await admin.end()
    await stopContainer?.()
  }
}

/** An in-memory PGlite with every migration applied, as a data-folder tarball in a temporary file. */
async function migratedPgliteSnapshot() {
  await openDatabase({ pgliteDir: 'memory://' })
  await runMigrations()
  const tarball = await getHandle().pglite!.dumpDataDir('none')
  await closeDatabase()
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-pglite-')), 'migrated.tar')
  fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()))
  return file
}

export function withDatabase(url: string, database: string) {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

async function startContainer(): Promise<{ url: string; stop: () => Promise<unknown> } | undefined> {
  // testcontainers is optional (there is no Docker engine on the project's machines); when it is
  // installed and an engine answers, the suite runs on a throwaway Postgres.
  try {
    const moduleName = '@testcontainers/postgresql'
    const mod = (await import(/* @vite-ignore */ moduleName)) as {
      PostgreSqlContainer: new (image: string) => {
        start(): Promise<{ getConnectionUri(): string; stop(): Promise<unknown> }>
      }
    }
    const container = await new mod.PostgreSqlContainer('postgres:15-alpine').start()
    return { url: container.getConnectionUri(), stop: () => container.stop() }
  } catch {
    return undefined
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { kind: 'pglite'; snapshot: string } | { kind: 'postgres'; url: string; template: string }
  }
}
