import { describe, expect, test } from 'vitest'
import {
  differenceCell,
  differenceWords,
  insightOf,
  INSIGHT_GAP,
  INSIGHT_LIST_SIZE,
  type FullQuestion,
  type Insight,
} from '#app/modules/report/report'

/**
 * The "At a glance" rules (issue 19 §3, ADR 047), on hand-made questions: ties listed together, a
 * question in one list at most, highest/lowest only with a real spread, and the difference in words.
 */

let n = 0
function q(colleagues: number | null, self: number | null, extra: Partial<FullQuestion> = {}): FullQuestion {
  n += 1
  return {
    id: `q${n}`,
    position: n,
    section: 'S',
    category: 'C',
    kind: 'scale',
    text: `Question ${n} (${colleagues}/${self})`,
    labels: [],
    min: 1,
    max: 5,
    self: self === null ? null : { value: self, notApplicable: false, choices: [], text: null },
    colleagues: {
      average: colleagues,
      answered: 4,
      notApplicable: 0,
      distribution: [1, 2, 3, 4, 5].map((value) => ({ value, count: value === 4 ? 4 : 0 })),
      optionCounts: [],
      groups: [],
    },
    ...extra,
  }
}

const texts = (items: { text: string }[]) => items.map((i) => i.text)
const lists = (insight: Insight) => [
  ...insight.highest,
  ...insight.lowest,
  ...insight.blindSpots,
  ...insight.hiddenStrengths,
]

describe('highest and lowest', () => {
  test('tied questions are listed together, never cut at the third place', () => {
    // Four at 3.7 (shown), the rest well below: all four are "highest", none dropped silently.
    const qs = [q(3.7, 4), q(3.66, 4), q(3.72, 4), q(3.69, 4), q(2.0, 2), q(2.1, 2), q(2.2, 2)]
    const insight = insightOf(qs)
    expect(insight.highest).toHaveLength(4)
    expect(insight.highest.every((i) => i.colleagues === 3.7)).toBe(true)
    // The lowest three are distinct scores: no tie, so exactly three.
    expect(insight.lowest.map((i) => i.colleagues)).toEqual([2.0, 2.1, 2.2])
  })

  test('without a tie the lists hold three at most, best (or worst) first', () => {
    const qs = [1.2, 4.9, 4.5, 1.0, 4.7, 4.6, 3.0, 1.5, 1.3].map((v) => q(v, 3))
    const insight = insightOf(qs)
    expect(insight.highest.map((i) => i.colleagues)).toEqual([4.9, 4.7, 4.6])
    expect(insight.lowest.map((i) => i.colleagues)).toEqual([1.0, 1.2, 1.3])
    expect(INSIGHT_LIST_SIZE).toBe(3)
  })

  test('with no real spread nothing is "highest" or "lowest" (a 3.0 is not a strength because it is first)', () => {
    const insight = insightOf([q(3.0, 3), q(2.9, 3), q(2.8, 3), q(2.9, 3)])
    expect(insight.highest).toEqual([])
    expect(insight.lowest).toEqual([])
    expect(insight.range).toEqual({ low: 2.8, high: 3.0 })
    expect(insight.spread).toBe(0.5)
  })

  test('"more than" the spread: exactly 0.5 apart is not enough, 0.6 is', () => {
    expect(insightOf([q(3.5, 3), q(3.0, 3)]).highest).toEqual([])
    const insight = insightOf([q(3.6, 3), q(3.0, 3)])
    expect(insight.highest.map((i) => i.colleagues)).toEqual([3.6])
    expect(insight.lowest.map((i) => i.colleagues)).toEqual([3.0])
  })

  test('the spread follows the scale: 1–10 needs more than 1–5', () => {
    const ten = (c: number) => q(c, 5, { min: 1, max: 10 })
    // 0.9 apart: enough on a 1–5 scale (0.5), not on 1–10 (9/8 = 1.13).
    const insight = insightOf([ten(5.9), ten(5.0), ten(5.5)])
    expect(insight.spread).toBe(1.13)
    expect(insight.highest).toEqual([])
    expect(insight.lowest).toEqual([])
  })

  test('questions near the top that are not among the best three stay out of "lowest"', () => {
    // 4.0, 3.8, 3.7 highest; 3.5 is not more than 0.5 below 4.0: neither list; 2.5 and 2.0 lowest.
    const insight = insightOf([q(4.0, 4), q(3.8, 3), q(3.7, 4), q(3.5, 5), q(3.5, 2), q(2.5, 4), q(2.0, 2)])
    expect(insight.highest.map((i) => i.colleagues)).toEqual([4.0, 3.8, 3.7])
    expect(insight.lowest.map((i) => i.colleagues)).toEqual([2.0, 2.5])
    expect(insight.blindSpots.map((i) => [i.colleagues, i.self])).toEqual([[3.5, 5]])
    expect(insight.hiddenStrengths.map((i) => [i.colleagues, i.self])).toEqual([[3.5, 2]])
  })
})

describe('one list per question', () => {
  test('a lowest-rated question is not also a hidden strength; its difference is still said', () => {
    // Colleagues 2.0, self 1: a gap of +1 but among the lowest: listed under lowest only.
    const qs = [q(2.0, 1), q(4.5, 4), q(4.4, 4), q(3.5, 3)]
    const insight = insightOf(qs)
    expect(texts(insight.lowest)).toContain(qs[0]!.text)
    expect(texts(insight.hiddenStrengths)).not.toContain(qs[0]!.text)
    expect(differenceWords(insight.lowest[0]!.difference, 'you')).toBe(
      'Colleagues rated you 1.0 higher than you rated yourself.',
    )
  })

  test('the existing demo shape: a question is in exactly one list or none, never two', () => {
    for (let seed = 1; seed <= 300; seed++) {
      let x = seed
      const rand = () => (x = (x * 48271) % 2147483647) / 2147483647
      const qs = Array.from({ length: 2 + (seed % 12) }, () =>
        q(Math.round((1 + rand() * 4) * 100) / 100, rand() < 0.1 ? null : 1 + Math.floor(rand() * 5)),
      )
      const insight = insightOf(qs)
      const ids = lists(insight).map((i) => i.questionId)
      expect(new Set(ids).size, `seed ${seed}`).toBe(ids.length)
      // Gap lists really hold gaps; highest really sit above lowest.
      for (const i of insight.blindSpots) expect(i.difference!).toBeLessThanOrEqual(-INSIGHT_GAP)
      for (const i of insight.hiddenStrengths) expect(i.difference!).toBeGreaterThanOrEqual(INSIGHT_GAP)
      if (insight.highest.length && insight.lowest.length)
        expect(Math.min(...insight.highest.map((i) => i.colleagues))).toBeGreaterThan(
          Math.max(...insight.lowest.map((i) => i.colleagues)),
        )
      // Ties never cut: anything scoring like the last listed is listed (among the eligible side).
      if (insight.highest.length) {
        const last = insight.highest.at(-1)!.colleagues
        const tied = qs.filter(
          (x) => x.colleagues.average !== null && Math.round(x.colleagues.average * 10) / 10 === last,
        )
        for (const t of tied) expect(ids).toContain(t.id)
      }
    }
  })

  test('blind spots and hidden strengths come from the rest, biggest gap first', () => {
    const qs = [
      ...[4.8, 4.7, 4.6, 1.2, 1.3, 1.4].map((v) => q(v, 3)),
      q(3.0, 4.5),
      q(3.1, 5),
      q(3.2, 2),
      q(3.0, 1),
    ]
    const insight = insightOf(qs)
    expect(insight.highest.map((i) => i.colleagues)).toEqual([4.8, 4.7, 4.6])
    expect(insight.lowest.map((i) => i.colleagues)).toEqual([1.2, 1.3, 1.4])
    expect(insight.blindSpots.map((i) => i.difference)).toEqual([-1.9, -1.5])
    expect(insight.hiddenStrengths.map((i) => i.difference)).toEqual([2.0, 1.2])
  })

  test('no colleague average: every list is empty and there is no range', () => {
    expect(insightOf([q(null, 4)])).toMatchObject({ highest: [], lowest: [], range: null })
  })
})

describe('the difference in words', () => {
  test('says which way, so the sign needs no legend', () => {
    expect(differenceWords(0.8, 'you')).toBe('Colleagues rated you 0.8 higher than you rated yourself.')
    expect(differenceWords(-1.25, 'you')).toBe('Colleagues rated you 1.3 lower than you rated yourself.')
    expect(differenceWords(0, 'you')).toBe('Colleagues gave the same score as you gave yourself.')
    expect(differenceWords(null, 'you')).toBe('You gave no score of your own.')
    expect(differenceWords(1, { name: 'Erin Employee' })).toBe(
      'Colleagues rated Erin Employee 1.0 higher than Erin Employee rated themself.',
    )
    expect(differenceCell(0.8)).toBe('0.8 higher')
    expect(differenceCell(-0.4)).toBe('0.4 lower')
    expect(differenceCell(0)).toBe('same')
    expect(differenceCell(null)).toBe('—')
  })
})
