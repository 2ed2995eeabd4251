import os from 'node:os'
import { defineConfig } from 'vitest/config'

// Kept apart from vite.config.ts: the React Router plugin must not run under Vitest.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['./tests/support/global-setup.ts'],
    setupFiles: ['./tests/support/setup-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // On Postgres most files spend their time waiting (on the server, a child process, a lease
    // running out), not computing: Vitest's default of one worker less than the cores ran them one at
    // a time on the project's 2-core machines with the CPU idle. Three at once: a quarter of the suite
    // (28 files) took 336 s instead of 512 s (median of 2 paired runs on a loaded machine). On PGlite
    // the database runs inside each worker and the files compute: one per core. Since every file
    // loads a migrated data folder instead of running initdb and the migrations (global-setup.ts),
    // two at once took 187 s instead of 237 s for the admin and journey files (34, on an idle
    // machine). VITEST_MAX_WORKERS overrides both.
    maxWorkers: process.env.TEST_DATABASE_URL
      ? Math.max(3, os.availableParallelism())
      : Math.max(2, os.availableParallelism()),
  },
})
