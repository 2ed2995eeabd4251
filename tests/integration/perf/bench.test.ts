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
  ratio: number
  queriesPerRequest: number
  cpuMsPerRequest: number
  non2xx: number
  errors: number
  reference: { queriesPerRequest: number }
}

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
        '--rounds',
        '1',
        '--duration',
        '0.3',
        '--connections',
        '2',
        '--json',
      ],
      {},
      220_000,
    )
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as {
      targets: Array<{ seed: string; driver: string; cases: CaseResult[] }>
    }
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
    }
    expect(byName['GET /sign-in']!.queriesPerRequest).toBe(0)
    expect(byName['POST /assignment/:id.data (autosave)']!.queriesPerRequest).toBeGreaterThan(0)
  },
)
