import crypto from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'
import { closeDatabase, getDb, openDatabase } from '#db/client'
import { withDatabase } from './global-setup'

/**
 * Gives the calling test file a database of its own, migrated and empty: a copy of the template on
 * Postgres, or an in-memory PGlite. Returns a getter for the Drizzle handle.
 */
export function useTestDatabase() {
  let dropDatabase: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const target = inject('testDatabase')
    if (target.kind === 'pglite') {
      const pgliteSnapshot = new Blob([fs.readFileSync(target.snapshot)])
      await openDatabase({ pgliteDir: 'memory://', pgliteSnapshot })
      return
    }
    const name = `panorama_t_${target.template.split('_').pop()}_${crypto.randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: target.url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${target.template}`)
    await admin.end()
    process.env.DATABASE_URL = withDatabase(target.url, name)
    await openDatabase({ url: process.env.DATABASE_URL })
    dropDatabase = async () => {
      const a = new pg.Client({ connectionString: target.url })
      await a.connect()
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await a.end()
    }
  })
  afterAll(async () => {
    await closeDatabase()
    await dropDatabase?.()
  })
  return () => getDb()
}
