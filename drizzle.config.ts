import { defineConfig } from 'drizzle-kit'

// drizzle-kit only generates SQL from the schema; the app applies migrations itself at start-up
// (db/migrate.ts), on Postgres and on PGlite alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './migrations',
  casing: 'snake_case',
})
