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
    // the database runs inside each worker and the files compute: three at once gained nothing there
    // (804 s against 747 s), so PGlite keeps Vitest's default. VITEST_MAX_WORKERS overrides both.
    ...(process.env.TEST_DATABASE_URL ? { maxWorkers: Math.max(3, os.availableParallelism()) } : {}),
  },
})
