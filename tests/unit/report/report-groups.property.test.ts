import { describe, expect, test } from 'vitest'
import {
  groupOutlook,
  groupParts,
  RATER_GROUPS,
  shownParts,
  type RaterGroup,
} from '#app/modules/report/rater-groups'
import {
  formatScore,
  shapeReport,
  type HeaderRow,
  type QuestionRow,
  type RawReport,
  type ReportData,
} from '#app/modules/report/report'

/**
 * The anonymity of colleague groups (ADR 021), exhaustively — not sampled: every combination of
 * group sizes 0–8 for manager, peers, direct reports and others with at most 8 colleagues in all
 * (a scheme's ceiling, MAX_COLLEAGUES), against every threshold 1–8: 495 × 8 = 3,960 reports, each
 * built from raw rows as SQL would return them, with "not applicable" thinning some groups per
 * question. For every one, what shapeReport returns (what reaches the HTML and `.data`):
 * - holds no figure computed from fewer than min_raters answers;
 * - holds no series per colleague, only all colleagues and fixed relationship parts;
 * - lets no one subtract their way to a set of fewer than min_raters answers: for each figure the
 *   atoms (each shown part, and all colleagues minus the shown parts) are empty or ≥ min_raters,
 *   so every combination of what is shown is too;
 * - category figures are means of shown question figures (no new information).
 */

type Rater = { group: RaterGroup; index: number; inGroup: number }

const SCALE_LABELS = ['Never', 'Rarely', 'Sometimes', 'Often', 'Always']

/** Who answers which question, and with what: deterministic, different per rater. */
const QUESTIONS = [
  { id: 'q1', category: 'A', kind: 'scale' as const, skips: (_r: Rater) => false },
  { id: 'q2', category: 'A', kind: 'scale' as const, skips: (r: Rater) => r.inGroup === 0 },
  { id: 'q3', category: 'A', kind: 'scale' as const, skips: (r: Rater) => r.index % 3 === 1 },
  {
    id: 'q4',
    category: 'B',
    kind: 'scale' as const,
    skips: (r: Rater) => r.group === 'peer' && r.inGroup < 2,
  },
  { id: 'q5', category: 'B', kind: 'single' as const, skips: (r: Rater) => r.index % 2 === 1 },
  { id: 'q6', category: 'B', kind: 'textarea' as const, skips: (_r: Rater) => false },
]

const valueOf = (r: Rater, q: number) => ((r.index * 7 + q * 3 + RATER_GROUPS.indexOf(r.group)) % 5) + 1
const choiceOf = (r: Rater) => (r.index % 3 === 0 ? 'Yes' : 'No')

const header = (submitted: number, minRaters: number): HeaderRow => ({
  response_id: 'r-self',
  self_assignment_id: 'a-self',
  subject_id: 'u1',
  scheme_id: 's1',
  questionnaire_id: 'qn',
  subject_name: 'Erin',
  scheme_name: 'Scheme',
  brand_name: 'Brand',
  company_name: 'Company',
  questionnaire_title: 'Leadership 360',
  closes_at: new Date('2030-01-01T00:00:00Z'),
  scheme_status: 'closed',
  self_submitted_at: new Date('2029-01-01T00:00:00Z'),
  min_raters: minRaters,
  invited: submitted,
  submitted, // Released (ADR 022): the colleague figures below come from this release's copies.
  report_release: 'on_close',
  release_id: 'rel-1',
  released_at: new Date('2029-02-01T00:00:00Z'),
  released_raters: submitted,
})

function ratersOf(sizes: Record<RaterGroup, number>): Rater[] {
  const raters: Rater[] = []
  for (const group of RATER_GROUPS)
    for (let i = 0; i < sizes[group]; i++) raters.push({ group, index: raters.length, inGroup: i })
  return raters
}

/** The rows report.server.ts's statements return for these raters (the same aggregates, in JS). */
function rawRows(sizes: Record<RaterGroup, number>, minRaters: number, showManager = false): RawReport {
  const raters = ratersOf(sizes)
  const questions: QuestionRow[] = QUESTIONS.map((q, position) => {
    const answering = raters.filter((r) => !q.skips(r))
    const na = raters.length - answering.length
    const base = {
      id: q.id,
      position,
      section: q.category,
      kind: q.kind,
      text: `Question ${q.id}`,
      category: q.category,
      self_value: q.kind === 'scale' ? 3 : null,
      self_na: false,
      self_choices: q.kind === 'single' ? ['Yes'] : null,
      self_text: q.kind === 'textarea' ? 'mine' : null,
      na: raters.length ? na : null,
      answered: raters.length ? answering.length : null,
      avg: null,
      distribution: null,
      option_counts: null,
      groups: null,
    }
    if (q.kind === 'scale') {
      const values = answering.map((r) => valueOf(r, position))
      const distribution: Record<string, number> = {}
      for (const v of values) distribution[v] = (distribution[v] ?? 0) + 1
      const groups: Record<string, { n: number; sum: number }> = {}
      for (const r of answering) {
        const g = (groups[r.group] ??= { n: 0, sum: 0 })
        g.n += 1
        g.sum += valueOf(r, position)
      }
      return {
        ...base,
        options: { min: 1, max: 5, labels: SCALE_LABELS, allowNa: true },
        avg: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
        distribution: values.length ? distribution : null,
        groups: values.length ? groups : null,
      }
    }
    if (q.kind === 'single') {
      const counts: Record<string, number> = {}
      for (const r of answering) counts[choiceOf(r)] = (counts[choiceOf(r)] ?? 0) + 1
      return { ...base, options: { labels: ['Yes', 'No'] }, option_counts: answering.length ? counts : null }
    }
    return { ...base, options: null }
  })
  return {
    header: { ...header(raters.length, minRaters), show_manager_below_threshold: showManager },
    questions,
    categories: [
      { category: 'A', self_avg: 3 },
      { category: 'B', self_avg: 3 },
    ],
    groupSizes: RATER_GROUPS.filter((g) => sizes[g] > 0).map((g) => ({ relationship: g, raters: sizes[g] })),
    comments: raters.map((r) => ({
      answer_id: `an-${r.index}`,
      question_id: 'q6',
      text_value: `comment ${r.index}`,
    })),
  }
}

type Ready = Extract<ReportData, { status: 'ready' }>

/** What an attacker reading the report knows a part pools: its own group, or every group not shown alone. */
function membersOf(report: Ready): RaterGroup[][] {
  const alone = report.groups.filter((g) => g.key !== 'others').map((g) => g.key as RaterGroup)
  return report.groups.map((g) =>
    g.key === 'others' ? RATER_GROUPS.filter((r) => !alone.includes(r)) : [g.key as RaterGroup],
  )
}

function* combinations() {
  for (let manager = 0; manager <= 8; manager++)
    for (let peer = 0; peer + manager <= 8; peer++)
      for (let direct = 0; direct + peer + manager <= 8; direct++)
        for (let other = 0; other + direct + peer + manager <= 8; other++)
          yield { manager, peer, direct_report: direct, other }
}

const close = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= 0.0051

/** Every non-empty union of atoms must hold at least `t` answers (or be the empty set). */
function expectNoSmallUnion(atoms: number[], t: number, where: string) {
  for (let mask = 1; mask < 1 << atoms.length; mask++) {
    const n = atoms.reduce((sum, a, i) => sum + (mask & (1 << i) ? a : 0), 0)
    if (n > 0 && n < t) throw new Error(`${where}: a derivable set of ${n} answers below ${t}`)
  }
}

describe('colleague groups: every group size 0–8 (at most 8 in all) × every threshold 1–8', () => {
  const cases = [...combinations()].flatMap((sizes) =>
    Array.from({ length: 8 }, (_, i) => ({ sizes, t: i + 1 })),
  )

  test('the combination space is the whole of it', () => {
    expect(cases).toHaveLength(495 * 8)
  })

  test('no figure below the threshold, no per-colleague series, nothing derivable by subtraction', () => {
    let ready = 0
    let withGroups = 0
    for (const { sizes, t } of cases) {
      const where = `sizes ${JSON.stringify(sizes)}, min_raters ${t}`
      const raw = rawRows(sizes, t)
      const raters = ratersOf(sizes)
      const report = shapeReport(raw, (id) => id)
      const json = JSON.stringify(report)
      // Never a per-colleague series, whatever the state.
      for (const word of ['colleagueLabels', 'byColleague', 'Colleague A', 'assignment_id', 'an-'])
        expect(json, where).not.toContain(word)

      if (raters.length < t) {
        expect(report.status, where).toBe('gathering')
        for (const word of ['"colleagues"', '"groups"', '"insight"', 'comment ', '"optionCounts"'])
          expect(json, where).not.toContain(word)
        continue
      }
      expect(report.status, where).toBe('ready')
      const r = report as Ready
      ready++
      if (r.groups.length) withGroups++

      // The parts: fixed keys, each ≥ t, together every colleague; never a lone part (= all).
      expect(
        r.groups.every((g) => ['manager', 'peer', 'direct_report', 'others'].includes(g.key)),
        where,
      ).toBe(true)
      expect(new Set(r.groups.map((g) => g.key)).size, where).toBe(r.groups.length)
      expect(r.groups.length, where).not.toBe(1)
      const members = membersOf(r)
      for (const [k, g] of r.groups.entries()) {
        const size = members[k]!.reduce((sum, m) => sum + sizes[m], 0)
        expect(g.raters, where).toBe(size)
        expect(size, where).toBeGreaterThanOrEqual(t)
      }
      if (r.groups.length)
        expect(
          r.groups.reduce((s, g) => s + g.raters, 0),
          where,
        ).toBe(raters.length)

      for (const [position, q] of QUESTIONS.entries()) {
        const shown = r.questions.find((x) => x.id === q.id)!.colleagues
        const answering = raters.filter((rater) => !q.skips(rater))
        const all = answering.length
        if (q.kind === 'scale') {
          const trueAvg = all ? answering.reduce((s, x) => s + valueOf(x, position), 0) / all : null
          if (shown.average !== null) {
            expect(all, where).toBeGreaterThanOrEqual(t)
            expect(close(shown.average, trueAvg), where).toBe(true)
          } else expect(all < t, where).toBe(true)
          if (shown.distribution.length) {
            expect(all, where).toBeGreaterThanOrEqual(t)
            expect(
              shown.distribution.reduce((s, d) => s + d.count, 0),
              where,
            ).toBe(all)
          } else expect(all < t, where).toBe(true)
          expect(shown.groups, where).toHaveLength(r.groups.length)
          const atoms: number[] = []
          let covered = 0
          for (const [k, value] of shown.groups.entries()) {
            if (value === null) continue
            const inPart = answering.filter((x) => members[k]!.includes(x.group))
            expect(inPart.length, where).toBeGreaterThanOrEqual(t)
            expect(shown.average, where).not.toBeNull()
            const partAvg = inPart.reduce((s, x) => s + valueOf(x, position), 0) / inPart.length
            expect(close(value, partAvg), where).toBe(true)
            atoms.push(inPart.length)
            covered += inPart.length
          }
          if (shown.average !== null) {
            atoms.push(all - covered)
            expectNoSmallUnion(atoms, t, `${where}, ${q.id}`)
            // Every hidden relationship group: not recoverable as a union of atoms.
          }
        } else if (q.kind === 'single') {
          if (shown.optionCounts.length) expect(all, where).toBeGreaterThanOrEqual(t)
          else expect(all < t, where).toBe(true)
        }
        // The counts themselves are no values: how many answered and how many said "not applicable".
        expect(shown.answered, where).toBe(all)
      }

      // Categories only repeat what the questions show (their mean).
      for (const c of r.categories) {
        const qs = r.questions.filter((q) => q.category === c.category && q.kind === 'scale')
        const meanOf = (values: (number | null)[]) => {
          const present = values.filter((v): v is number => v !== null)
          return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null
        }
        expect(close(c.colleagues, meanOf(qs.map((q) => q.colleagues.average))), where).toBe(true)
        for (let k = 0; k < r.groups.length; k++)
          expect(
            close(c.groups[k] ?? null, meanOf(qs.map((q) => q.colleagues.groups[k] ?? null))),
            where,
          ).toBe(true)
      }

      // The insight lists only shown averages, as the page shows them (one decimal, ADR 047).
      const shownAverages = new Map(r.questions.map((q) => [q.id, q.colleagues.average]))
      for (const item of [
        ...r.insight.highest,
        ...r.insight.lowest,
        ...r.insight.blindSpots,
        ...r.insight.hiddenStrengths,
      ])
        expect(formatScore(shownAverages.get(item.questionId)), where).toBe(formatScore(item.colleagues))

      // Comments: every counted colleague's, unattributed.
      expect(r.comments[0]?.comments.toSorted(), where).toEqual(
        raters.map((x) => `comment ${x.index}`).toSorted(),
      )
    }
    // The space reaches every state: ready reports, with and without groups.
    expect(ready).toBeGreaterThan(1000)
    expect(withGroups).toBeGreaterThan(100)
  })
})

describe('the scheme option "show the manager below the threshold", every combination again', () => {
  const cases = [...combinations()].flatMap((sizes) =>
    Array.from({ length: 8 }, (_, i) => ({ sizes, t: i + 1 })),
  )

  test('only the manager part may hold fewer than min_raters; nobody else is reachable by subtraction', () => {
    let managerBelow = 0
    for (const { sizes, t } of cases) {
      const where = `sizes ${JSON.stringify(sizes)}, min_raters ${t}, manager shown`
      const raters = ratersOf(sizes)
      const report = shapeReport(rawRows(sizes, t, true), (id) => id)
      const json = JSON.stringify(report)
      for (const word of ['colleagueLabels', 'byColleague', 'Colleague A', 'assignment_id', 'an-'])
        expect(json, where).not.toContain(word)
      // The option does not open the gate: below min_raters in all, nothing colleague-related shows.
      if (raters.length < t) {
        expect(report.status, where).toBe('gathering')
        for (const word of ['"colleagues"', '"groups"', '"insight"', 'comment '])
          expect(json, where).not.toContain(word)
        continue
      }
      const r = report as Ready
      expect(r.groups.length, where).not.toBe(1)
      const members = membersOf(r)
      for (const [k, g] of r.groups.entries()) {
        const size = members[k]!.reduce((sum, m) => sum + sizes[m], 0)
        expect(g.raters, where).toBe(size)
        if (g.key === 'manager') expect(size, where).toBeGreaterThanOrEqual(1)
        else expect(size, where).toBeGreaterThanOrEqual(t)
      }
      if (r.groups.some((g) => g.key === 'manager' && g.raters < t)) {
        managerBelow++
        // Everyone but the manager: nobody or at least min_raters.
        expect(raters.length - sizes.manager, where).toBeGreaterThanOrEqual(t)
      }
      for (const [position, q] of QUESTIONS.entries()) {
        if (q.kind !== 'scale') continue
        const shown = r.questions.find((x) => x.id === q.id)!.colleagues
        const answering = raters.filter((rater) => !q.skips(rater))
        const all = answering.length
        const others: number[] = []
        let covered = 0
        for (const [k, value] of shown.groups.entries()) {
          if (value === null) continue
          const inPart = answering.filter((x) => members[k]!.includes(x.group))
          const partAvg = inPart.reduce((s, x) => s + valueOf(x, position), 0) / inPart.length
          expect(close(value, partAvg), where).toBe(true)
          expect(shown.average, where).not.toBeNull()
          covered += inPart.length
          if (r.groups[k]!.key === 'manager') expect(inPart.length, where).toBeGreaterThanOrEqual(1)
          else {
            expect(inPart.length, where).toBeGreaterThanOrEqual(t)
            others.push(inPart.length)
          }
        }
        // Sets without the manager (whose answers the manager knows are theirs) hold ≥ t answers.
        if (shown.average !== null) expectNoSmallUnion([...others, all - covered], t, `${where}, ${q.id}`)
      }
    }
    expect(managerBelow).toBeGreaterThan(100)
  })

  test('concrete: one manager beside five peers at min_raters 3', () => {
    expect(
      groupParts({ manager: 1, peer: 5 }, 3, { showManager: true }).map((p) => [p.key, p.raters]),
    ).toEqual([
      ['manager', 1],
      ['peer', 5],
    ])
    // Without the option the manager pools with the peers, and one part would repeat all colleagues.
    expect(groupParts({ manager: 1, peer: 5 }, 3)).toEqual([])
    // Two others only: the manager's figure subtracted from all would show them, so the usual rule.
    expect(groupParts({ manager: 1, peer: 2 }, 3, { showManager: true })).toEqual([])
    // Per figure: the manager's one answer shows, unless it would leave a few others to subtract.
    expect(shownParts([1, 5], 6, 3, [true, false])).toEqual([true, true])
    expect(shownParts([1, 2], 3, 3, [true, false])).toEqual([false, false])
  })
})

describe('groupParts and shownParts, concrete sizes', () => {
  test('groups at the threshold stand alone; the small ones pool as "Other colleagues"', () => {
    expect(
      groupParts({ manager: 1, peer: 3, direct_report: 3, other: 1 }, 2).map((p) => [p.key, p.raters]),
    ).toEqual([
      ['peer', 3],
      ['direct_report', 3],
      ['others', 2],
    ])
  })

  test('a remainder too small to show pulls the smallest group into "Other colleagues"', () => {
    // All 5 = peers 3 + manager 1 + other 1 at threshold 3: showing peers would leave the pair derivable.
    expect(groupParts({ manager: 1, peer: 3, other: 1 }, 3)).toEqual([])
    // Peers 3, direct reports 4, manager 1, threshold 3: peers join the manager (4).
    expect(
      groupParts({ manager: 1, peer: 3, direct_report: 4 }, 3).map((p) => [p.key, p.members, p.raters]),
    ).toEqual([
      ['direct_report', ['direct_report'], 4],
      ['others', ['manager', 'peer'], 4],
    ])
  })

  test('one group holding everyone shows nothing beyond all colleagues', () => {
    expect(groupParts({ peer: 5 }, 2)).toEqual([])
  })

  test('per figure: a part with too few answers hides, and takes the smallest other with it if needed', () => {
    expect(shownParts([3, 3], 6, 3)).toEqual([true, true])
    expect(shownParts([3, 2], 5, 3)).toEqual([false, false])
    expect(shownParts([3, 3, 1], 7, 3)).toEqual([true, false, false])
    expect(shownParts([4, 3], 7, 2)).toEqual([true, true])
    expect(shownParts([1, 1], 2, 2)).toEqual([false, false])
  })
})

describe('the invite page’s group outlook agrees with the report, every combination (issue 18 §3)', () => {
  /**
   * What the outlook told the employee before anyone answered, against the report shapeReport builds
   * once every invited colleague has answered: a group said to stand alone is a series of its own,
   * one said to join "Other colleagues" is inside that series (and its raters add up), "pooled" is a
   * report without group series, "hidden" one still gathering. With and without the manager option.
   */
  test('alone, others, pooled and hidden mean exactly what the report shows', () => {
    let compared = 0
    for (const sizes of combinations())
      for (let t = 1; t <= 8; t++)
        for (const showManager of [false, true]) {
          const where = `sizes ${JSON.stringify(sizes)}, min_raters ${t}, showManager ${showManager}`
          const outlook = groupOutlook(sizes, t, { showManager })
          const report = shapeReport(rawRows(sizes, t, showManager), (id) => id)
          expect(
            outlook.map((o) => o.group),
            where,
          ).toEqual(RATER_GROUPS.filter((g) => sizes[g] > 0))
          if (report.status !== 'ready') {
            expect(report.status, where).toBe('gathering')
            for (const o of outlook) expect(o.shown, where).toBe('hidden')
            continue
          }
          const keys = report.groups.map((g) => g.key)
          for (const o of outlook) {
            if (o.shown === 'alone') expect(keys, where).toContain(o.group)
            else expect(keys, where).not.toContain(o.group)
            if (o.shown === 'pooled') expect(keys, where).toEqual([])
            if (o.shown === 'others') expect(keys, where).toContain('others')
          }
          const others = report.groups.find((g) => g.key === 'others')
          const inOthers = outlook.filter((o) => o.shown === 'others').reduce((n, o) => n + o.invited, 0)
          expect(others?.raters ?? 0, where).toBe(inOthers)
          compared++
        }
    expect(compared).toBeGreaterThan(3000)
  })

  test('“invite k more” is the smallest number that lets the group stand alone, within the room left', () => {
    for (const sizes of combinations())
      for (let t = 1; t <= 8; t++) {
        const total = RATER_GROUPS.reduce((n, g) => n + sizes[g], 0)
        const room = 8 - total
        for (const o of groupOutlook(sizes, t, { room })) {
          if (o.toStandAlone === null) {
            for (let k = 1; k <= room && o.shown !== 'alone' && o.group !== 'other'; k++)
              expect(
                groupParts({ ...sizes, [o.group]: sizes[o.group] + k }, t).some((p) => p.key === o.group),
              ).toBe(false)
            continue
          }
          const k = o.toStandAlone
          expect(k).toBeLessThanOrEqual(room)
          expect(
            groupParts({ ...sizes, [o.group]: sizes[o.group] + k }, t).some((p) => p.key === o.group),
          ).toBe(true)
          if (k > 1)
            expect(
              groupParts({ ...sizes, [o.group]: sizes[o.group] + k - 1 }, t).some((p) => p.key === o.group),
            ).toBe(false)
        }
      }
  })

  test('concrete: three peers and one direct report at min_raters 3', () => {
    expect(groupOutlook({ peer: 3, direct_report: 1 }, 3, { room: 4 })).toEqual([
      { group: 'peer', invited: 3, shown: 'pooled', toStandAlone: null },
      { group: 'direct_report', invited: 1, shown: 'pooled', toStandAlone: 2 },
    ])
  })
})
