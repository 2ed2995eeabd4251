import { describe, expect, test } from 'vitest'
import {
  changeOf,
  changeText,
  compareCycles,
  noiseBand,
  NOISE_ON_FIVE_POINTS,
} from '#app/modules/cycle/change'
import { againstNormText, normFigures, normShown } from '#app/modules/norm/norm'
import { smallestCombination } from '#app/modules/report/release-rule'

const FIVE = { min: 1, max: 5 }

describe('"about the same" (ADR 044)', () => {
  test('on a 1–5 scale a change below 0.3, as shown to one decimal, is noise', () => {
    expect(noiseBand(FIVE)).toBe(NOISE_ON_FIVE_POINTS)
    expect(changeOf(3.4, 3.6, FIVE)).toEqual({ change: 0.2, verdict: 'same' })
    expect(changeOf(3.4, 3.7, FIVE)).toEqual({ change: 0.3, verdict: 'higher' })
    expect(changeOf(4.1, 3.8, FIVE)).toEqual({ change: -0.3, verdict: 'lower' })
    expect(changeOf(4, 4, FIVE)).toEqual({ change: 0, verdict: 'same' })
  })

  test('is judged on the figures as the report shows them, so the label never contradicts them', () => {
    // 3.44 and 3.66 read 3.4 and 3.7: the reader sees +0.3, so it is "higher", not noise.
    expect(changeOf(3.44, 3.66, FIVE)).toEqual({ change: 0.3, verdict: 'higher' })
    // 3.36 and 3.64 read 3.4 and 3.6 (+0.2), although the raw difference is 0.28.
    expect(changeOf(3.36, 3.64, FIVE)?.verdict).toBe('same')
  })

  test('scales with the scale’s range', () => {
    const ten = { min: 0, max: 10 }
    expect(noiseBand(ten)).toBe(0.75)
    expect(changeOf(5, 5.7, ten)?.verdict).toBe('same')
    expect(changeOf(5, 5.8, ten)?.verdict).toBe('higher')
  })

  test('no change without both figures', () => {
    expect(changeOf(null, 3, FIVE)).toBeNull()
    expect(changeOf(3, null, FIVE)).toBeNull()
    expect(changeText(null)).toBe('—')
    expect(changeText({ change: 0.1, verdict: 'same' })).toBe('+0.1 · about the same')
    expect(changeText({ change: -0.6, verdict: 'lower' })).toBe('−0.6 · lower')
  })

  test('questions match by key across versions, competencies by name; hidden figures stay out', () => {
    const colleagues = (average: number | null) => ({
      average,
      answered: 4,
      notApplicable: 0,
      distribution: [],
      optionCounts: [],
      groups: [],
    })
    const now = {
      scale: FIVE,
      categories: [{ category: 'Vision', colleagues: 4.0 }],
      questions: [
        { id: 'n1', kind: 'scale' as const, text: 'A', category: 'Vision', colleagues: colleagues(4.2) },
        {
          id: 'n2',
          kind: 'scale' as const,
          text: 'B (new)',
          category: 'Vision',
          colleagues: colleagues(3.8),
        },
        { id: 'n3', kind: 'scale' as const, text: 'C', category: 'Vision', colleagues: colleagues(null) },
      ],
    }
    const previous = {
      scale: FIVE,
      categories: [{ category: 'Vision', colleagues: 3.5 }],
      questions: [
        { id: 'p1', kind: 'scale' as const, text: 'A', category: 'Vision', colleagues: colleagues(3.6) },
        { id: 'p3', kind: 'scale' as const, text: 'C', category: 'Vision', colleagues: colleagues(3.0) },
      ],
    }
    const result = compareCycles(now, previous, {
      now: { n1: 'k1', n2: 'k2', n3: 'k3' },
      previous: { p1: 'k1', p3: 'k3' },
    })
    expect(result.categories).toEqual([
      { id: 'Vision', label: 'Vision', previous: 3.5, now: 4, change: { change: 0.5, verdict: 'higher' } },
    ])
    // C is hidden now (below its threshold): no row, so nothing of it leaks through a change.
    expect(result.questions.map((q) => [q.id, q.previous, q.change?.verdict ?? null])).toEqual([
      ['n1', 3.6, 'higher'],
      ['n2', null, null],
    ])
    expect(result.unmatched).toBe(1)
  })
})

describe('the norm threshold (ADR 044)', () => {
  test('a norm with fewer participants than the minimum is not shown; at the minimum it is', () => {
    expect(normShown(29, 30)).toBe(false)
    expect(normShown(30, 30)).toBe(true)
    const rows = {
      questions: [
        { id: 'k1', mean: 3.66, participants: 30 },
        { id: 'k2', mean: 4.1, participants: 29 },
      ],
      categories: [{ id: 'Vision', mean: 3.949, participants: 31 }],
    }
    expect(normFigures(rows, 30)).toEqual({ questions: { k1: 3.7 }, categories: { Vision: 3.9 } })
    expect(normFigures(rows, 32)).toEqual({ questions: {}, categories: {} })
  })

  test('the norm reads against the colleagues’ figure', () => {
    expect(againstNormText(4.04, 3.6)).toBe('3.6 · 0.4 above')
    expect(againstNormText(3.2, 3.6)).toBe('3.6 · 0.4 below')
    expect(againstNormText(3.6, 3.6)).toBe('3.6 · at the norm')
    expect(againstNormText(3.6, undefined)).toBe('—')
  })
})

describe('the rule between two releases across cycles (ADR 044)', () => {
  // Two cycles copy different responses (new assignments, new response ids), so their series share
  // no element: no combination of both cycles' sums rests on fewer versions than one cycle's alone.
  test('disjoint cycles add no smaller combination than each cycle alone', () => {
    const cycle = (prefix: string, groups: number[]) => {
      const all = groups.flatMap((n, g) => Array.from({ length: n }, (_, i) => `${prefix}${g}-${i}`))
      let start = 0
      const series = [all]
      for (const n of groups) {
        series.push(all.slice(start, start + n))
        start += n
      }
      return series
    }
    for (const [a, b] of [
      [
        [3, 3],
        [3, 4],
      ],
      [
        [4, 3, 3],
        [3, 3],
      ],
      [
        [5, 3],
        [3, 3, 3],
      ],
    ] as const) {
      const first = cycle('a', [...a])
      const second = cycle('b', [...b])
      const alone = [smallestCombination(first, 3), smallestCombination(second, 3)]
      expect(alone).toEqual([null, null])
      expect(smallestCombination([...first, ...second], 3)).toBeNull()
    }
  })
})
