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
    // Most files spend their time waiting (on Postgres, a child process, a lease running out), not
    // computing: Vitest's default of one worker less than the cores ran them one at a time on the
    // project's 2-core machines, with the CPU idle (a 14-file sample: 38 s of CPU in 3m15s). Three
    // files at once cut that sample's wall time by half; each file still has its own database.
    // VITEST_MAX_WORKERS overrides it.
    maxWorkers: Math.max(3, os.availableParallelism()),
  },
})
