import { defineConfig } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3311)

// The browser suite runs against the production build (npm run build), started by the global set-up
// on a fresh embedded database with the demo seed and a real SMTP catcher.
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  // One output folder per port: parallel runs must not delete each other's traces.
  outputDir: `test-results/e2e-${PORT}`,
  fullyParallel: false,
  // Two cores, one shared demo database: one worker keeps the suite deterministic.
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './e2e/support/global-setup.ts',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright cannot download its own browser on these machines.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
})
