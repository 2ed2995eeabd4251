import { describe, expect, test } from 'vitest'
import {
  busyReasons,
  compare,
  overBudget,
  readmeTable,
  refusal,
  replaceMarked,
  runReadings,
  spread,
  withholdRatios,
  README_COMPARE_END,
  README_COMPARE_START,
  README_END,
  README_START,
  type CaseResult,
  type Report,
  type TargetResult,
} from '../../../scripts/bench.mjs'

/**
 * `npm run bench`'s honest numbers (issue 17 §4): when it refuses to report ratios, how it compares
 * two databases against the 2× budget, and the README table it writes. The measuring itself is
 * tests/integration/perf/bench.test.ts.
 */

function result(name: string, over: Partial<CaseResult> = {}): CaseResult {
  return {
    name,
    method: 'GET',
    path: '/x',
    rps: 100,
    p50: 10,
    p99: 20,
    queriesPerRequest: 3,
    cpuMsPerRequest: 8,
    non2xx: 0,
    errors: 0,
    ratio: 0.5,
    ratioMin: 0.45,
    ratioMax: 0.55,
    budget: null,
    withinBudget: null,
    load: { before: 1.2, after: 1.4 },
    referenceSpread: 0.1,
    reference: { rps: 200, queriesPerRequest: 0, cpuMsPerRequest: 3 },
    rounds: [{ case: {}, reference: {}, ratio: 0.5 }],
    ...over,
  }
}

function target(label: string, cases: CaseResult[], loadAverage = [1.1, 1.3]): TargetResult {
  return {
    label,
    database: `postgres://127.0.0.1/${label}`,
    driver: 'postgres',
    seed: 'demo seed',
    counts: { employees: 4, assignments: 19, answers: 172 },
    settings: { duration: 3, rounds: 3, connections: 10 },
    loadAverage,
    cores: 2,
    reference: {
      path: '/bench/ping',
      rps: 200,
      p50: 5,
      p99: 9,
      queriesPerRequest: 0,
      cpuMsPerRequest: 3,
      spread: 0.1,
    },
    cases,
    import: null,
  }
}

function report(targets: TargetResult[]): Report {
  const rows = targets.length === 2 ? compare(targets[0]!, targets[1]!) : null
  return {
    at: '2026-11-26T08:00:00.000Z',
    node: 'v20.20.2',
    cpus: 2,
    seconds: 60,
    loadAverageBefore: 1,
    busy: null,
    refused: false,
    targets,
    compare: rows && { small: targets[0]!.label, big: targets[1]!.label, cases: rows },
  }
}

describe('the busy check', () => {
  test('a quiet run has no reason to refuse', () => {
    expect(
      busyReasons({
        cores: 2,
        loads: [
          { when: 'before the run', load: 0.4 },
          { when: 'after GET /user', load: 2 },
        ],
        spreads: [{ name: 'GET /user', spread: 0.25 }],
      }),
    ).toEqual([])
  })

  test('a load average above the cores before the run, or above the cores plus the bench’s own load during it, is a reason with its figure', () => {
    const reasons = busyReasons({
      cores: 2,
      loads: [
        { when: 'before the run', load: 1.5 },
        { when: 'after GET /user', load: 3.25 },
        { when: 'after GET /admin', load: 3.5 },
        // The bench's own server, load generator and database: not another program's load.
        { when: 'after GET /report', load: 2.8 },
      ],
    })
    expect(reasons).toHaveLength(1)
    expect(reasons[0]).toContain('above the 2 cores (3 while measuring')
    expect(reasons[0]).toContain('2 times')
    expect(reasons[0]).toContain('highest 3.50, after GET /admin')
    expect(busyReasons({ cores: 2, loads: [{ when: 'before the run', load: 2.5 }] })).toEqual([
      expect.stringContaining('above the 2 cores once (highest 2.50, before the run)'),
    ])
    expect(busyReasons({ cores: 8, loads: [{ when: 'before the run', load: 3.25 }] })).toEqual([])
  })

  test('the reference page spreading over 25 % in a case is a reason, naming the case', () => {
    const reasons = busyReasons({
      cores: 2,
      spreads: [
        { name: 'GET /user', spread: 0.1 },
        { name: 'GET /admin', spread: 0.4 },
      ],
    })
    expect(reasons).toEqual([expect.stringContaining('GET /admin (40 %)')])
    expect(reasons[0]).not.toContain('GET /user')
  })

  test('the spread is (max − min) ÷ median, and nothing for a single round', () => {
    expect(spread([90, 100, 120])).toBeCloseTo(0.3)
    expect(spread([100])).toBe(0)
    expect(spread([])).toBe(0)
  })

  test('the refusal says why and how to override', () => {
    const text = refusal(
      ['the 1-min load average was above the 2 cores once (highest 5.00, before the run)'],
      'now',
    )
    expect(text).toContain('highest 5.00')
    expect(text).toContain('--force')
  })

  test('every case of every database is read: its load before and after, and its reference spread', () => {
    const { loads, spreads } = runReadings([
      target('small', [result('GET /user', { load: { before: 0.5, after: 3.5 }, referenceSpread: 0.3 })]),
    ])
    expect(loads.map((l) => l.load)).toEqual([1.1, 0.5, 3.5, 1.3])
    expect(spreads).toEqual([{ name: 'GET /user on small', spread: 0.3 }])
    expect(busyReasons({ cores: 2, loads, spreads })).toHaveLength(2)
  })

  test('a refused run keeps its other figures but no ratio and no comparison', () => {
    const run = report([target('small', [result('GET /user')]), target('big', [result('GET /user')])])
    const withheld = withholdRatios(run)
    const [c] = withheld.targets[0]!.cases
    expect(c).toMatchObject({
      ratio: null,
      ratioMin: null,
      ratioMax: null,
      withinBudget: null,
      rps: 100,
      cpuMsPerRequest: 8,
    })
    expect(c!.rounds.every((r) => r.ratio === null)).toBe(true)
    expect(withheld.compare).toBeNull()
  })
})

describe('--compare', () => {
  test('lists the pages over 2× (time relative to each run’s reference)', () => {
    const small = target('small', [result('GET /a', { ratio: 0.5 }), result('GET /b', { ratio: 0.5 })])
    const big = target('big', [result('GET /a', { ratio: 0.3 }), result('GET /b', { ratio: 0.2 })])
    const rows = compare(small, big)
    expect(rows.map((r) => [r.name, Number(r.time.toFixed(2)), r.withinBudget])).toEqual([
      ['GET /a', 1.67, true],
      ['GET /b', 2.5, false],
    ])
    expect(overBudget(rows)).toEqual(['GET /b (2.50×)'])
  })
})

describe('--readme', () => {
  test('writes the date, commit, load averages and spread per page between the markers', () => {
    const run = report([
      target('small', [result('GET /user', { referenceSpread: 0.12, budget: 0.6, withinBudget: false })]),
      target('big', [result('GET /user', { ratio: 0.4, load: { before: 1.7, after: 1.9 } })]),
    ])
    const table = readmeTable(run, 'abc1234')
    expect(table).toContain('2026-11-26 08:00 UTC')
    expect(table).toContain('`abc1234`')
    expect(table).toContain('load average 1.10 → 1.30')
    expect(table).toContain(
      '| `GET /user` | 100 | 10 | 0.50 (0.45–0.55) | ≥ 0.6 ✗ | 12 % | 1.40 | 3.0 | 8.00 |',
    )
    expect(table).toContain('| `GET /user` | 1.25 | 1.00 | 3.0 → 3.0 | 8.00 → 8.00 | 1.40 / 1.90 | ≤ 2 ✓ |')

    const readme = `# Title\n\nbefore\n${README_START}\nold table\n${README_END}\nafter\n`
    const rewritten = replaceMarked(readme, table)
    expect(rewritten).not.toContain('old table')
    expect(
      rewritten.startsWith(`# Title\n\nbefore\n${README_START}\n\n${table}\n\n${README_END}\nafter`),
    ).toBe(true)
    expect(replaceMarked(rewritten, 'again')).toBe(
      `# Title\n\nbefore\n${README_START}\n\nagain\n\n${README_END}\nafter\n`,
    )
  })

  test('a --compare run has a section of its own, the other is left as it was', () => {
    const readme = `${README_START}\nrun\n${README_END}\n\n${README_COMPARE_START}\nold\n${README_COMPARE_END}\n`
    expect(replaceMarked(readme, 'new', { compare: true })).toBe(
      `${README_START}\nrun\n${README_END}\n\n${README_COMPARE_START}\n\nnew\n\n${README_COMPARE_END}\n`,
    )
  })

  test('a busy run reported with --force says so in the README', () => {
    const run = { ...report([target('small', [result('GET /user')])]), busy: ['load 5 above 2 cores'] }
    expect(readmeTable(run, 'abc1234')).toContain('busy machine, reported with --force')
  })
})
