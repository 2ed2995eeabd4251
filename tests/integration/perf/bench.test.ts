import { expect, inject, test } from 'vitest'
import { seed } from '#db/seed'
import { useTestDatabase } from '#tests/support/database'
import { runNode } from '#tests/support/run-node'

/**
 * `npm run bench`, briefly: on this file's Postgres database with the demo seed, or on a fresh
 * embedded one when the suite runs on PGlite. It must start the build, sign in, measure against the
 * reference page and count each request's statements exactly once.
 */
const kind = inject('testDatabase').kind
useTestDatabase()

type CaseResult = {
  name: string
  rps: number
  ratio: number | null
  queriesPerRequest: number
  cpuMsPerRequest: number
  non2xx: number
  errors: number
  load: { before: number; after: number }
  referenceSpread: number
  distinctAssignments?: number
  reference: { queriesPerRequest: number }
}

type Report = {
  busy: string[] | null
  refused: boolean
  targets: Array<{ seed: string; driver: string; loadAverage: number[]; cases: CaseResult[] }>
}

const quick = ['--rounds', '1', '--duration', '0.3', '--connections', '2', '--json']

test(
  'measures pages against the reference page, with statements and CPU per request',
  { timeout: 240_000 },
  async () => {
    if (kind === 'postgres') await seed()
    const db = kind === 'postgres' ? process.env.DATABASE_URL! : 'embedded'
    const run = await runNode(
      [
        'scripts/bench.mjs',
        '--db',
        db,
        '--cases',
        'sign-in,autosave',
        ...quick,
        // The machine running the suite is busy by design (files run in parallel): report anyway.
        '--force',
      ],
      {},
      220_000,
    )
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as Report
    expect(report.refused).toBe(false)
    const [target] = report.targets
    expect(target!.seed).toBe('demo seed')
    expect(target!.driver).toBe(kind === 'postgres' ? 'postgres' : 'pglite')
    const byName = Object.fromEntries(target!.cases.map((c) => [c.name, c]))
    expect(Object.keys(byName)).toEqual(['GET /sign-in', 'POST /assignment/:id.data (autosave)'])
    for (const c of target!.cases) {
      expect(c.non2xx + c.errors, c.name).toBe(0)
      expect(c.rps, c.name).toBeGreaterThan(0)
      expect(c.ratio, c.name).toBeGreaterThan(0)
      expect(c.cpuMsPerRequest, c.name).toBeGreaterThan(0)
      // Counted once per request: a whole number, and none at all on the reference page.
      expect(Number.isInteger(c.queriesPerRequest), `${c.name}: ${c.queriesPerRequest}`).toBe(true)
      expect(c.reference.queriesPerRequest).toBe(0)
      // The load average when the case was measured, and the reference's spread over its rounds.
      expect(c.load.before, c.name).toBeGreaterThanOrEqual(0)
      expect(c.load.after, c.name).toBeGreaterThanOrEqual(0)
      expect(c.referenceSpread, c.name).toBeGreaterThanOrEqual(0)
    }
    // The demo seed has three open self-assessments of people the bench can sign in as (Noah's, and
    // Sam's and Wren's in the programme that approves lists): one per connection, none shared.
    expect(byName['POST /assignment/:id.data (autosave)']!.distinctAssignments).toBe(2)
    // One: whether any identity provider is set up (the page then asks for the address first, ADR 049).
    expect(byName['GET /sign-in']!.queriesPerRequest).toBe(1)
    expect(byName['POST /assignment/:id.data (autosave)']!.queriesPerRequest).toBeGreaterThan(0)
  },
)

test('refuses before measuring anything when the load average is above the cores', async () => {
  const run = await runNode(
    ['scripts/bench.mjs', '--db', 'embedded', '--cases', 'sign-in', ...quick],
    { BENCH_LOADAVG: '4.5', BENCH_CORES: '2' },
    60_000,
  )
  expect(run.status).toBe(3)
  expect(run.stdout).toBe('')
  expect(run.stderr).toContain('Refusing to report ratios before measuring anything')
  expect(run.stderr).toContain('above the 2 cores once (highest 4.50, before the run)')
  expect(run.stderr).toContain('--force')
})

test(
  'withholds the ratios, keeps the other figures and exits 3 when the machine gets busy during the run',
  { timeout: 240_000 },
  async () => {
    if (kind === 'postgres') await seed()
    const db = kind === 'postgres' ? process.env.DATABASE_URL! : 'embedded'
    // Quiet before the run and when it starts measuring, busy from the case on.
    const run = await runNode(
      ['scripts/bench.mjs', '--db', db, '--cases', 'sign-in', ...quick],
      { BENCH_LOADAVG: '0.5,0.5,0.5,7', BENCH_CORES: '2' },
      220_000,
    )
    expect(run.status, run.stderr).toBe(3)
    expect(run.stderr).toContain('Refusing to report ratios from this run')
    expect(run.stderr).toContain('highest 7.00, after GET /sign-in')
    const report = JSON.parse(run.stdout) as Report
    expect(report.refused).toBe(true)
    expect(report.busy).toEqual([expect.stringContaining('above the 2 cores')])
    const [c] = report.targets[0]!.cases
    expect(c).toMatchObject({ name: 'GET /sign-in', ratio: null, load: { before: 0.5, after: 7 } })
    expect(c!.rps).toBeGreaterThan(0)
    expect(c!.cpuMsPerRequest).toBeGreaterThan(0)
  },
)
