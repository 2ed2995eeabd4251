// `npm run db:migrate`: applies migrations/ to DATABASE_URL, or to the embedded PGlite folder.
// The server also does this at start-up; this is for deploy pipelines that migrate first.
import { closeDatabase, DatabaseLockedError, openDatabase, runMigrations } from './client'

const url = process.env.DATABASE_URL || undefined
try {
  const handle = await openDatabase({ url, pgliteDir: process.env.PGLITE_DIR ?? './.data/pglite' })
  await runMigrations(handle)
  console.log(`migrations applied (${handle.kind})`)
  await closeDatabase()
} catch (error) {
  console.error(error instanceof DatabaseLockedError ? error.message : error)
  process.exit(1)
}
