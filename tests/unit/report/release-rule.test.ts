import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { groupParts, type RaterGroup } from '#app/modules/report/rater-groups'
import {
  changeBetween,
  judgeRelease,
  smallestCombination,
  verdictRefusal,
  type ReleaseSnapshot,
  type SnapshotResponse,
} from '#app/modules/report/release-rule'

/**
 * The rule between two releases (issue 15 A3, DESIGN.md §8, ADR 025): examples, then a property
 * test over random sequences of arrivals, reopens, edits and releases, checked against an
 * independent brute-force reading of what two releases let an employee work out.
 */

const r = (source: string, relationship: RaterGroup = 'peer', hash = 'h0'): SnapshotResponse => ({
  source,
  hash,
  relationship,
})
const shown = (responses: SnapshotResponse[], groupsShown = true): ReleaseSnapshot => ({
  responses,
  colleaguesShown: true,
  groupsShown,
})

describe('changes between releases', () => {
  test('counts added, changed and withdrawn responses', () => {
    expect(changeBetween([r('a'), r('b'), r('c')], [r('a'), r('b', 'peer', 'h1'), r('d')])).toEqual({
      added: 1,
      changed: 1,
      withdrawn: 1,
      total: 3,
    })
    expect(changeBetween([r('a')], [r('a')]).total).toBe(0)
  })
})

describe('judging a release', () => {
  const three = [r('a'), r('b'), r('c')]

  test('below the threshold with nothing shown yet: the self-assessment may be released alone', () => {
    expect(judgeRelease({ previous: [], candidate: [r('a')], minRaters: 3 })).toEqual({
      kind: 'self-only',
      answered: 1,
      needed: 2,
    })
  })

  test('a first release at the threshold shows colleagues', () => {
    expect(judgeRelease({ previous: [], candidate: three, minRaters: 3 })).toMatchObject({
      kind: 'release',
      first: true,
      answered: 3,
      groupsShown: true,
      change: null,
    })
  })

  test('the same responses again are no release (two administrators at once make one)', () => {
    expect(judgeRelease({ previous: [shown(three)], candidate: three, minRaters: 3 })).toEqual({
      kind: 'unchanged',
      answered: 3,
    })
  })

  test('one late colleague after a release is refused with the numbers; three are enough', () => {
    const one = judgeRelease({ previous: [shown(three)], candidate: [...three, r('casey')], minRaters: 3 })
    expect(one).toEqual({
      kind: 'too-few-changes',
      answered: 4,
      change: { added: 1, changed: 0, withdrawn: 0, total: 1 },
      needed: 3,
    })
    expect(verdictRefusal(one, 3)).toBe(
      '1 response has changed since the last release (1 new); 3 are needed before the report can change, so that no one’s answers can be singled out by comparing the two.',
    )
    expect(
      judgeRelease({
        previous: [shown(three)],
        candidate: [...three, r('d'), r('e'), r('f')],
        minRaters: 3,
      }),
    ).toMatchObject({ kind: 'release', first: false, change: { added: 3, total: 3 } })
  })

  test('a reopen and an edit count as changes; a reopened response not submitted again counts as withdrawn', () => {
    const edited = judgeRelease({
      previous: [shown([...three, r('d')])],
      candidate: [r('a', 'peer', 'h1'), r('b'), r('c')],
      minRaters: 3,
    })
    expect(edited).toMatchObject({ kind: 'too-few-changes', change: { changed: 1, withdrawn: 1, total: 2 } })
  })

  test('every earlier release counts, not only the latest', () => {
    // r1 {a,b,c}; r2 {a,b,c,d,e,f}; now {a,b,c,d}: three from r2 but one from r1.
    const verdict = judgeRelease({
      previous: [shown(three), shown([...three, r('d'), r('e'), r('f')])],
      candidate: [...three, r('d')],
      minRaters: 3,
    })
    expect(verdict).toMatchObject({ kind: 'too-few-changes', change: { total: 1 } })
  })

  test('fewer than the threshold after a release that showed colleagues is refused', () => {
    expect(judgeRelease({ previous: [shown(three)], candidate: [r('a'), r('b')], minRaters: 3 })).toEqual({
      kind: 'fewer-than-before',
      answered: 2,
      needed: 1,
    })
  })

  test('below the threshold after a release of the self-assessment alone: nothing new to show', () => {
    const alone: ReleaseSnapshot = { responses: [r('a')], colleaguesShown: false, groupsShown: true }
    expect(judgeRelease({ previous: [alone], candidate: [r('a'), r('b')], minRaters: 3 })).toEqual({
      kind: 'unchanged',
      answered: 2,
    })
    // Once enough have answered, it is the first release with colleagues' results.
    expect(judgeRelease({ previous: [alone], candidate: three, minRaters: 3 })).toMatchObject({
      kind: 'release',
      first: true,
    })
  })

  test('groups that would single one colleague out are left out of the new release', () => {
    // r1: peers {p1,p2,p3}, others {o1,o2,o3}; now one more peer and two managers (3 new): the
    // peers' figure would move by exactly p4's answers, so this release shows all colleagues only.
    const before = [r('p1'), r('p2'), r('p3'), r('o1', 'other'), r('o2', 'other'), r('o3', 'other')]
    const verdict = judgeRelease({
      previous: [shown(before)],
      candidate: [...before, r('p4'), r('m1', 'manager'), r('m2', 'manager')],
      minRaters: 3,
    })
    expect(verdict).toMatchObject({ kind: 'release', first: false, groupsShown: false })
  })
})

describe('smallest combination', () => {
  test('one release with parts of three rests on three at least', () => {
    expect(
      smallestCombination(
        [
          ['a', 'b', 'c', 'd', 'e', 'f'],
          ['a', 'b', 'c'],
          ['d', 'e', 'f'],
        ],
        3,
      ),
    ).toBeNull()
  })
  test('two nested series one apart give the one away', () => {
    expect(
      smallestCombination(
        [
          ['a', 'b', 'c'],
          ['a', 'b', 'c', 'd'],
        ],
        3,
      ),
    ).toBe(1)
  })
  test('subtraction across two releases with different groupings is found', () => {
    // r1: peers {p1..p3}, others {d1,o1,o2}; r2: direct reports {d1..d4}, others {o1,o2,p1..p3}:
    // others(r2) − peers(r1) = {o1,o2}, and others(r1) − {o1,o2} = {d1}.
    const r1 = [
      ['p1', 'p2', 'p3', 'd1', 'o1', 'o2'],
      ['p1', 'p2', 'p3'],
      ['d1', 'o1', 'o2'],
    ]
    const all2 = ['p1', 'p2', 'p3', 'd1', 'd2', 'd3', 'd4', 'o1', 'o2']
    const r2 = [all2, ['d1', 'd2', 'd3', 'd4'], ['o1', 'o2', 'p1', 'p2', 'p3']]
    expect(smallestCombination([...r1, ...r2], 3)).toBe(1)
  })
  test('exempt versions alone do not count (the manager shown by the scheme’s option)', () => {
    expect(smallestCombination([['m', 'a', 'b', 'c'], ['m']], 3, new Set(['m']))).toBeNull()
    expect(smallestCombination([['m', 'a', 'b', 'c'], ['m']], 3)).toBe(1)
  })
})

// ---------------------------------------------------------------------------------------------
// The property: sequences of arrivals, reopens, edits and releases.

/** Exact rank over the rationals (fraction-free Gaussian elimination with BigInt). */
function exactRank(matrix: bigint[][]): number {
  const m = matrix.map((row) => [...row])
  const cols = m[0]?.length ?? 0
  let rank = 0
  let prev = 1n
  for (let c = 0; c < cols && rank < m.length; c++) {
    const pivot = m.findIndex((row, i) => i >= rank && row[c] !== 0n)
    if (pivot < 0) continue
    ;[m[rank], m[pivot]] = [m[pivot]!, m[rank]!]
    for (let i = rank + 1; i < m.length; i++) {
      for (let k = c + 1; k < cols; k++)
        m[i]![k] = (m[rank]![c]! * m[i]![k]! - m[i]![c]! * m[rank]![k]!) / prev
      m[i]![c] = 0n
    }
    prev = m[rank]![c]!
    rank++
  }
  return rank
}

/**
 * Independent of release-rule.ts: every set of fewer than `t` response versions (not all exempt)
 * that some combination of the series' sums rests on, by brute force over element subsets.
 */
function isolatedSets(series: string[][], t: number, exempt: Set<string>): string[][] {
  const elements = [...new Set(series.flat())]
  const matrix = (cols: string[]) => series.map((s) => cols.map((e) => (s.includes(e) ? 1n : 0n)))
  const full = exactRank(matrix(elements))
  const found: string[][] = []
  const visit = (start: number, chosen: string[]) => {
    if (chosen.length && !chosen.every((e) => exempt.has(e))) {
      const rest = elements.filter((e) => !chosen.includes(e))
      const restExempt = elements.filter((e) => !chosen.includes(e) || !exempt.has(e))
      // A combination within `chosen` not resting on exempt versions alone.
      const within = full - exactRank(matrix(rest))
      const withinExempt = full - exactRank(matrix(restExempt))
      if (within > withinExempt) found.push(chosen)
    }
    if (chosen.length >= t - 1) return
    for (let i = start; i < elements.length; i++) visit(i + 1, [...chosen, elements[i]!])
  }
  visit(0, [])
  return found
}

type Step =
  | { kind: 'arrive'; relationship: RaterGroup }
  | { kind: 'reopen'; pick: number }
  | { kind: 'resubmit'; pick: number; edit: boolean }
  | { kind: 'release'; selfOnly: boolean }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('arrive' as const),
      relationship: fc.constantFrom<RaterGroup>('manager', 'peer', 'peer', 'direct_report', 'other'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const), pick: fc.nat(7) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('resubmit' as const), pick: fc.nat(7), edit: fc.boolean() }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('release' as const), selfOnly: fc.boolean() }) },
)

describe('property: no two releases an employee sees single anyone out', () => {
  test('over random sequences of arrivals, reopens, edits and releases', () => {
    // What the sequences reached, so the property cannot hold vacuously.
    const seen = { multipleShown: 0, groupsHidden: 0, refused: 0, selfOnly: 0, withGroups: 0 }
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        fc.array(stepArb, { minLength: 8, maxLength: 30, size: 'max' }),
        (minRaters, showManager, steps) => {
          // The live state: each colleague's response (submitted or reopened) and its version.
          const people: { source: string; relationship: RaterGroup; version: number; submitted: boolean }[] =
            []
          const releases: ReleaseSnapshot[] = []
          for (const step of steps) {
            if (step.kind === 'arrive' && people.length < 8)
              people.push({
                source: `c${people.length}`,
                relationship: step.relationship,
                version: 0,
                submitted: true,
              })
            else if (step.kind === 'reopen') {
              const open = people.filter((x) => x.submitted)
              const p = open[step.pick % Math.max(1, open.length)]
              if (p) p.submitted = false
            } else if (step.kind === 'resubmit') {
              const reopened = people.filter((x) => !x.submitted)
              const p = reopened[step.pick % Math.max(1, reopened.length)]
              if (p) {
                p.submitted = true
                if (step.edit) p.version++
              }
            } else if (step.kind === 'release') {
              const candidate = people
                .filter((p) => p.submitted)
                .map((p) => ({ source: p.source, hash: `v${p.version}`, relationship: p.relationship }))
              const verdict = judgeRelease({ previous: releases, candidate, minRaters, showManager })
              if (verdict.kind === 'too-few-changes' || verdict.kind === 'would-reveal') seen.refused++
              if (verdict.kind === 'release' && !verdict.groupsShown) seen.groupsHidden++
              if (verdict.kind === 'release')
                releases.push({
                  responses: candidate,
                  colleaguesShown: true,
                  groupsShown: verdict.groupsShown,
                })
              else if (verdict.kind === 'self-only' && step.selfOnly)
                releases.push({ responses: candidate, colleaguesShown: false, groupsShown: true })
              // Every refusal has its message; a release never has one.
              expect(verdictRefusal(verdict, minRaters) === null).toBe(
                verdict.kind === 'release' || verdict.kind === 'self-only',
              )
            }
          }
          const t = Math.max(1, minRaters)
          const visible = releases.filter((x) => x.colleaguesShown)
          if (visible.length > 1) seen.multipleShown++
          if (releases.some((x) => !x.colleaguesShown)) seen.selfOnly++
          // 1. Any two releases the employee saw differ by no response or by at least t.
          for (let i = 0; i < visible.length; i++)
            for (let j = i + 1; j < visible.length; j++) {
              const total = changeBetween(visible[i]!.responses, visible[j]!.responses).total
              expect(total === 0 || total >= t).toBe(true)
            }
          // No release repeats the one before it.
          for (let i = 1; i < releases.length; i++)
            expect(changeBetween(releases[i - 1]!.responses, releases[i]!.responses).total).toBeGreaterThan(0)
          // 2. Nothing the series of all releases shown (as the report draws them) add up to rests
          //    on fewer than t versions — the manager alone excepted when the scheme says so.
          const key = (x: SnapshotResponse) => `${x.source}/${x.hash}`
          const series = visible.flatMap((release) => {
            const sizes: Partial<Record<RaterGroup, number>> = {}
            for (const x of release.responses) sizes[x.relationship] = (sizes[x.relationship] ?? 0) + 1
            const parts = release.groupsShown ? groupParts(sizes, t, { showManager }) : []
            return [
              release.responses.map(key),
              ...parts.map((part) =>
                release.responses.filter((x) => part.members.includes(x.relationship)).map(key),
              ),
            ]
          })
          const exempt = new Set(
            showManager
              ? visible.flatMap((v) => v.responses.filter((x) => x.relationship === 'manager').map(key))
              : [],
          )
          if (series.length > visible.length) seen.withGroups++
          if (series.length) expect(isolatedSets(series, t, exempt)).toEqual([])
        },
      ),
      { numRuns: 400, seed: 20261125 },
    )
    console.log('release sequences:', JSON.stringify(seen))
    expect(seen.multipleShown).toBeGreaterThan(40)
    expect(seen.refused).toBeGreaterThan(40)
    expect(seen.groupsHidden).toBeGreaterThan(0)
    expect(seen.selfOnly).toBeGreaterThan(20)
    expect(seen.withGroups).toBeGreaterThan(20)
    console.log('release sequences:', JSON.stringify(seen))
  })
})
