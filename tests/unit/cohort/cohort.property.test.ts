import { describe, expect, test } from 'vitest'
import {
  admitted,
  cohortCell,
  COHORT_SERIES,
  contributionOf,
  summarise,
  type Contribution,
  type Joiner,
} from '#app/modules/cohort/cohort'
import { RATER_GROUPS, type RaterGroup } from '#app/modules/report/rater-groups'
import { shapeOrderedReport, type OrderedRawReport, type QuestionRow } from '#app/modules/report/report'

/**
 * The cohort's anonymity (issue 19 §4, ADR 045), exhaustively over small worlds — no sampling.
 *
 * 1. What a participant contributes is what their own report shows: over every report of 0–3
 *    colleagues per relationship group × threshold 1–4 × the manager option × a release that shows
 *    groups or not × a release of colleagues' results or of the self-assessment alone, every number
 *    a contribution holds is a figure on that report, and none is there that the report hides.
 * 2. The admission rule: for every join history of up to 6 participants over 4 release moments and
 *    every threshold 1–4, each view (the participants released up to a moment) admits none or at
 *    least the threshold, and each later view adds none or at least the threshold.
 * 3. No cell can be reconstructed from fewer than the threshold of participants, by any combination
 *    of views: for every world of a company with two schemes (thresholds 1–3 and 2–3, up to 4 and 2
 *    participants, each with or without a figure for the cell, released at one of 3 moments), the
 *    views are both schemes and the company, each at every moment (9 views of one cell). Any sum or
 *    difference of those figures (times their n, which the page prints) is a sum over a union of
 *    *atoms*: the classes of participants that lie in exactly the same views. Every atom holds none
 *    or at least its scheme's threshold of participants, so no combination of views — the scheme
 *    minus the company, one moment minus another, one scheme against the other — isolates fewer.
 *    Every figure is also checked to be exactly the mean of its members (the members are the whole
 *    story of what it reveals).
 * 4. Competency figures are means of the question figures shown (they add nothing), and a blind spot
 *    is listed only with at least the threshold of participants sharing it.
 *
 * Not covered (ADR 045): a participant whose later release changes which of their figures their
 * report shows moves the cohort by their own change, which their report's rule between releases
 * (ADR 025) already bounds; and a company view of schemes whose thresholds differ is bounded by each
 * scheme's own.
 */

// 1 ────────────────────────────────────────────────────────────────────────────────────────────────

const QUESTIONS = ['q1', 'q2', 'q3'] as const

type Rater = { group: RaterGroup; index: number }

function rawReport(
  sizes: Record<RaterGroup, number>,
  t: number,
  options: { showManager: boolean; groupsShown: boolean; colleaguesShown: boolean },
): OrderedRawReport {
  const raters: Rater[] = []
  for (const group of RATER_GROUPS)
    for (let i = 0; i < sizes[group]; i++) raters.push({ group, index: raters.length })
  const valueOf = (r: Rater, q: number) => ((r.index * 3 + q * 2 + RATER_GROUPS.indexOf(r.group)) % 5) + 1
  const questions: QuestionRow[] = QUESTIONS.map((id, position) => {
    // q2 is "not applicable" for the first rater: a group thinned per question.
    const answering = raters.filter((r) => !(position === 1 && r.index === 0))
    const groups: Record<string, { n: number; sum: number }> = {}
    for (const r of answering) {
      const g = (groups[r.group] ??= { n: 0, sum: 0 })
      g.n += 1
      g.sum += valueOf(r, position)
    }
    const values = answering.map((r) => valueOf(r, position))
    return {
      id,
      position,
      section: 'S',
      kind: 'scale',
      text: `Question ${id}`,
      category: position < 2 ? 'A' : 'B',
      options: { min: 1, max: 5 },
      self_value: 1 + ((position * 2) % 5),
      self_na: false,
      self_choices: null,
      self_text: null,
      avg: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      answered: answering.length,
      na: raters.length - answering.length,
      distribution: null,
      option_counts: null,
      groups: values.length ? groups : null,
    }
  })
  return {
    header: {
      response_id: 'r',
      self_assignment_id: 'a',
      subject_id: 'u',
      scheme_id: 's',
      questionnaire_id: 'qn',
      subject_name: 'P',
      scheme_name: 'S',
      brand_name: 'B',
      company_name: 'C',
      questionnaire_title: 'Q',
      closes_at: '2030-01-01T00:00:00Z',
      scheme_status: 'closed',
      self_submitted_at: '2029-01-01T00:00:00Z',
      min_raters: t,
      show_manager_below_threshold: options.showManager,
      invited: raters.length,
      submitted: raters.length,
      release_id: 'rel',
      released_at: '2029-02-01T00:00:00Z',
      released_raters: raters.length,
      release_colleagues_shown: options.colleaguesShown,
      release_groups_shown: options.groupsShown,
    },
    questions,
    categories: [
      { category: 'A', self_avg: 2 },
      { category: 'B', self_avg: 5 },
    ],
    groupSizes: RATER_GROUPS.filter((g) => sizes[g] > 0).map((g) => ({ relationship: g, raters: sizes[g] })),
    comments: raters.map((r) => ({ question_id: 'q1', text_value: `comment ${r.index}` })),
  }
}

describe('a participant contributes what their own report shows, and nothing else', () => {
  test('every report of 0–3 colleagues per group × threshold 1–4 × manager option × release kind', () => {
    let cases = 0
    let withGroups = 0
    for (let manager = 0; manager <= 3; manager++)
      for (let peer = 0; peer <= 3; peer++)
        for (let direct = 0; direct <= 3; direct++)
          for (let other = 0; other <= 3; other++)
            for (let t = 1; t <= 4; t++)
              for (const showManager of [false, true])
                for (const groupsShown of [false, true])
                  for (const colleaguesShown of [false, true]) {
                    const sizes = { manager, peer, direct_report: direct, other }
                    const report = shapeOrderedReport(
                      rawReport(sizes, t, { showManager, groupsShown, colleaguesShown }),
                    )
                    const c = contributionOf(report, {
                      id: 'p',
                      schemeId: 's',
                      minRaters: t,
                      joinedAt: 'x',
                      scope: 'scheme',
                    })!
                    const where = JSON.stringify({ sizes, t, showManager, groupsShown, colleaguesShown })
                    cases++
                    const fail = (why: string) => {
                      throw new Error(`${where}: ${why}`)
                    }
                    if (JSON.stringify(c).includes('comment')) fail('a comment')
                    if (report.status === 'self-pending' || report.status === 'awaiting-release')
                      throw new Error(`${where}: a released report read as ${report.status}`)
                    for (const [key, figures] of Object.entries(c.questions)) {
                      const selfQ = report.questions.find((x) => x.id === key)!
                      if (figures.self !== selfQ.self?.value) fail(`${key}: self`)
                      if (report.status !== 'ready') {
                        if (Object.keys(figures).join() !== 'self') fail(`${key}: more than self`)
                        continue
                      }
                      const q = report.questions.find((x) => x.id === key)!
                      const shown: Record<string, number | undefined> = {
                        all: q.colleagues.average ?? undefined,
                      }
                      report.groups.forEach((g, i) => (shown[g.key] = q.colleagues.groups[i] ?? undefined))
                      // Present exactly when the report shows it, with the report's value.
                      for (const series of COHORT_SERIES)
                        if (series !== 'self' && figures[series] !== shown[series]) fail(`${key} ${series}`)
                      if (Object.keys(figures).length > 2) withGroups++
                    }
                    // A release below the threshold or of the self-assessment alone: self only.
                    if (
                      (!colleaguesShown || manager + peer + direct + other < t) &&
                      report.status !== 'gathering'
                    )
                      throw new Error(`${where}: colleagues' figures without a release of them`)
                  }
    expect(cases).toBe(4 ** 4 * 4 * 8)
    // The space is not trivial: many reports show rater groups the cohort then counts.
    expect(withGroups).toBeGreaterThan(1000)
  })
})

// 2 ────────────────────────────────────────────────────────────────────────────────────────────────

/** Every sequence of `n` values from 0 to `base` - 1. */
function* sequences(n: number, base: number): Generator<number[]> {
  const digits = Array<number>(n).fill(0)
  for (;;) {
    yield [...digits]
    let i = 0
    while (i < n && ++digits[i]! === base) digits[i++] = 0
    if (i === n) return
  }
}

describe('admission: none or at least the threshold, growing by none or at least the threshold', () => {
  test('every join history of up to 6 participants over 4 moments × threshold 1–4', () => {
    let histories = 0
    for (let n = 0; n <= 6; n++)
      for (const moments of sequences(n, 4))
        for (let t = 1; t <= 4; t++) {
          histories++
          const people: Joiner[] = moments.map((m, i) => ({ id: `p${i}`, joinedAt: `2029-0${m + 1}` }))
          let before = new Set<string>()
          for (let k = 0; k < 4; k++) {
            const released = people.filter((p) => p.joinedAt <= `2029-0${k + 1}`)
            const now = new Set(admitted(released, t).map((p) => p.id))
            const where = `moments ${moments} t ${t} at ${k}`
            const fail = (why: string) => {
              throw new Error(`${where}: ${why}`)
            }
            if (now.size !== 0 && now.size < t) fail(`${now.size} admitted`)
            for (const id of before) if (!now.has(id)) fail(`${id} left`)
            const added = now.size - before.size
            if (added !== 0 && added < t) fail(`${added} joined`)
            // Those released at one moment join together.
            for (const p of released)
              for (const q of released)
                if (p.joinedAt === q.joinedAt && now.has(p.id) !== now.has(q.id))
                  fail(`${p.id}/${q.id} apart`)
            before = now
          }
        }
    expect(histories).toBe(((4 ** 7 - 1) / 3) * 4)
  })
})

// 3 ────────────────────────────────────────────────────────────────────────────────────────────────

type Person = { scheme: 'A' | 'B'; has: boolean; moment: number; value: number }

const contribution = (p: Person, i: number, t: number): Contribution => ({
  id: `${p.scheme}${i}`,
  schemeId: p.scheme,
  minRaters: t,
  joinedAt: `2029-0${p.moment + 1}`,
  questions: p.has ? { q: { all: p.value } } : {},
  blindSpots: [],
})

describe('no cohort cell can be reconstructed from fewer than the threshold of participants', () => {
  test('two schemes and their company, each at every moment: every atom of the views is empty or ≥ threshold', () => {
    let worlds = 0
    let shown = 0
    for (const tA of [1, 2, 3])
      for (const tB of [2, 3])
        for (let nA = 0; nA <= 4; nA++)
          for (const a of sequences(nA, 6))
            for (let nB = 0; nB <= 2; nB++)
              for (const b of sequences(nB, 3)) {
                worlds++
                // A's participants: released at moment d % 3, with a figure for the cell when d < 3.
                const people = [
                  ...a.map((d, i) => ({
                    scheme: 'A' as const,
                    has: d < 3,
                    moment: d % 3,
                    value: 1 + ((i * 3) % 5),
                  })),
                  ...b.map((d, i) => ({ scheme: 'B' as const, has: true, moment: d, value: 2 + (i % 3) })),
                ]
                const all = people.map((p, i) => contribution(p, i, p.scheme === 'A' ? tA : tB))
                const value = (c: Contribution) => c.questions.q?.all
                const views: Contribution[][] = []
                for (let k = 0; k < 3; k++) {
                  const released = all.filter((c) => c.joinedAt <= `2029-0${k + 1}`)
                  const cell = (list: Contribution[]) => {
                    const { figure, members } = cohortCell(list, value)
                    if (figure) {
                      shown++
                      const mean = members.reduce((s, c) => s + value(c)!, 0) / members.length
                      if (Math.abs(figure.mean - mean) > 0.005 || figure.participants !== members.length)
                        throw new Error(`A ${a} B ${b}: a figure that is not its members' mean`)
                    } else if (members.length) throw new Error(`A ${a} B ${b}: members without a figure`)
                    return members
                  }
                  const inA = cell(released.filter((c) => c.schemeId === 'A'))
                  const inB = cell(released.filter((c) => c.schemeId === 'B'))
                  const company = cell(released)
                  // The company's figure is the union of its schemes' admitted participants.
                  if (
                    company.length !== inA.length + inB.length ||
                    ![...inA, ...inB].every((c) => company.includes(c))
                  )
                    throw new Error(`A ${a} B ${b}: the company is not the union of its schemes`)
                  views.push(inA, inB, company)
                }
                // Atoms: participants grouped by exactly which views hold them.
                const atoms = new Map<string, Contribution[]>()
                for (const c of all) {
                  const signature = views.map((v) => (v.includes(c) ? '1' : '0')).join('')
                  if (!signature.includes('1')) continue
                  atoms.set(signature, [...(atoms.get(signature) ?? []), c])
                }
                for (const [signature, members] of atoms) {
                  const t = members[0]!.schemeId === 'A' ? tA : tB
                  if (members.some((m) => m.schemeId !== members[0]!.schemeId)) throw new Error('mixed atom')
                  if (members.length < t)
                    throw new Error(
                      `A ${a} B ${b} tA ${tA} tB ${tB}: atom ${signature} of ${members.length} below ${t}`,
                    )
                }
              }
    expect(worlds).toBe(6 * ((6 ** 5 - 1) / 5) * ((3 ** 3 - 1) / 2))
    expect(shown).toBeGreaterThan(100_000)
  })
})

// 4 ────────────────────────────────────────────────────────────────────────────────────────────────

describe('the summary', () => {
  const person = (
    i: number,
    questions: Contribution['questions'],
    blindSpots: string[] = [],
  ): Contribution => ({
    id: `p${i}`,
    schemeId: 's',
    minRaters: 3,
    joinedAt: '2029-01',
    questions,
    blindSpots,
  })
  const items = [
    { key: 'q1', label: 'One', category: 'A' },
    { key: 'q2', label: 'Two', category: 'A' },
    { key: 'q3', label: 'Three', category: 'B' },
    { key: 'q4', label: 'Four', category: 'B' },
  ]

  test('competency figures are the means of their question figures, over the participants behind them', () => {
    const people = [0, 1, 2, 3].map((i) =>
      person(i, {
        q1: { self: 4, all: 3 + i * 0.25, manager: i < 3 ? 2 : undefined },
        q2: { self: 2, all: 4 },
        q3: { self: 5, all: 2 },
        q4: { self: 3, all: i < 2 ? 5 : undefined },
      }),
    )
    for (const p of people)
      for (const f of Object.values(p.questions)) if (f.manager === undefined) delete f.manager
    for (const p of people) for (const f of Object.values(p.questions)) if (f.all === undefined) delete f.all
    const summary = summarise(people, ['A', 'B'], items)
    const [a, b] = summary.categories
    expect(summary.questions[0]!.figures.all).toEqual({ mean: 3.38, participants: 4, fewest: 4 })
    expect(summary.questions[0]!.figures.manager).toEqual({ mean: 2, participants: 3, fewest: 3 })
    // q4 has two participants' figures: below the threshold of three, not shown.
    expect(summary.questions[3]!.figures.all).toBeNull()
    expect(a!.figures.all).toEqual({ mean: 3.69, participants: 4, fewest: 4 })
    expect(a!.figures.manager).toEqual({ mean: 2, participants: 3, fewest: 3 })
    expect(b!.figures.all).toEqual({ mean: 2, participants: 4, fewest: 4 })
    expect(b!.figures.self).toEqual({ mean: 4, participants: 4, fewest: 4 })
  })

  test('strengths and development needs need a spread, keep ties together, never overlap', () => {
    const flat = [0, 1, 2].map((i) =>
      person(i, { q1: { all: 3 }, q2: { all: 3.1 }, q3: { all: 3 }, q4: { all: 3 } }),
    )
    expect(summarise(flat, ['A', 'B'], items)).toMatchObject({ strengths: [], developmentNeeds: [] })
    const spread = [0, 1, 2].map((i) =>
      person(i, { q1: { all: 4 }, q2: { all: 4 }, q3: { all: 4 }, q4: { all: 2 } }),
    )
    const s = summarise(spread, ['A', 'B'], items)
    expect(s.strengths.map((r) => r.key)).toEqual(['q1', 'q2', 'q3'])
    expect(s.developmentNeeds.map((r) => r.key)).toEqual(['q4'])
    const tied = [0, 1, 2].map((i) =>
      person(i, { q1: { all: 5 }, q2: { all: 4 }, q3: { all: 4 }, q4: { all: 4 }, q5: { all: 1 } }),
    )
    const t = summarise(tied, ['A', 'B'], [...items, { key: 'q5', label: 'Five', category: 'B' }])
    // Four at the third place's score: all shown; the lowest is what is left.
    expect(t.strengths.map((r) => r.key)).toEqual(['q1', 'q2', 'q3', 'q4'])
    expect(t.developmentNeeds.map((r) => r.key)).toEqual(['q5'])
  })

  test('a blind spot is listed when a third of those who could have it do, and at least the threshold', () => {
    const mk = (n: number, withSpot: number) =>
      Array.from({ length: n }, (_, i) => person(i, { q1: { self: 5, all: 3 } }, i < withSpot ? ['q1'] : []))
    expect(summarise(mk(9, 3), ['A'], items.slice(0, 1)).blindSpots).toEqual([
      { key: 'q1', label: 'One', category: 'A', with: 3, of: 9 },
    ])
    // Two of three is two thirds, but below the threshold of three participants: not listed.
    expect(summarise(mk(3, 2), ['A'], items.slice(0, 1)).blindSpots).toEqual([])
    // Three of ten is below a third.
    expect(summarise(mk(10, 3), ['A'], items.slice(0, 1)).blindSpots).toEqual([])
  })

  test('a participant whose report hides a group does not enter the group’s figure', () => {
    // Three participants' reports show a manager figure, a fourth's does not (pooled or below).
    const people = [0, 1, 2, 3].map((i) => person(i, { q1: i < 3 ? { all: 3, manager: 1 + i } : { all: 5 } }))
    const s = summarise(people, ['A'], items.slice(0, 1))
    expect(s.questions[0]!.figures.manager).toEqual({ mean: 2, participants: 3, fewest: 3 })
    expect(s.questions[0]!.figures.all).toEqual({ mean: 3.5, participants: 4, fewest: 4 })
  })
})
