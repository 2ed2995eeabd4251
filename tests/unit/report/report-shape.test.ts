import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { CHART_BORDER_WIDTH, CHART_COLORS } from '#app/config/constants'
import {
  barStyle,
  SERIES_COLOR_ORDER,
  seriesColor,
  seriesDash,
  seriesHatch,
  seriesPoint,
  chartSummary,
  radarScale,
  radarScaleNote,
  seriesStyle,
  wrapLabel,
} from '#app/modules/report/chart-series'
import {
  anonymityGate,
  anonymousOrder,
  describeSelfAnswer,
  shapeReport,
  type HeaderRow,
  type QuestionRow,
  type RawReport,
} from '#app/modules/report/report'

/** The report's pure rules: the gate, the labels, the shaping and the chart series. */

describe('anonymityGate', () => {
  test('open exactly from the threshold; below it, how many more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 8 }), (submitted, min) => {
        const gate = anonymityGate(submitted, min)
        expect(gate.open).toBe(submitted >= min)
        expect(gate.needed).toBe(Math.max(0, min - submitted))
      }),
    )
  })

  test('a threshold below 1 still needs one colleague', () => {
    expect(anonymityGate(0, 0)).toEqual({ open: false, needed: 1 })
    expect(anonymityGate(1, 0)).toEqual({ open: true, needed: 0 })
  })
})

test('anonymousOrder sorts by the key alone, whatever the input order', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.uuid(), { maxLength: 8 }), (ids) => {
      const key = (id: string) => [...id].reverse().join('')
      const sorted = anonymousOrder(ids, (id) => id, key)
      expect(anonymousOrder([...ids].reverse(), (id) => id, key)).toEqual(sorted)
      expect(sorted.map(key)).toEqual(ids.map(key).sort())
    }),
  )
})

const header = (submitted: number, minRaters: number, selfSubmitted = true): HeaderRow => ({
  response_id: 'r1',
  self_assignment_id: 'a-self',
  subject_id: 'u1',
  scheme_id: 's1',
  questionnaire_id: 'q1',
  subject_name: 'Erin',
  scheme_name: 'Scheme',
  brand_name: 'Brand',
  company_name: 'Company',
  questionnaire_title: 'Leadership 360',
  closes_at: new Date('2030-01-01T00:00:00Z'),
  scheme_status: 'open',
  self_submitted_at: selfSubmitted ? new Date('2029-01-01T00:00:00Z') : null,
  min_raters: minRaters,
  invited: submitted + 1,
  submitted, // Released (ADR 022): the colleague figures below come from this release's copies.
  report_release: 'on_close',
  release_id: 'rel-1',
  released_at: new Date('2029-02-01T00:00:00Z'),
  released_raters: submitted,
})

const question = (over: Partial<QuestionRow> = {}): QuestionRow => ({
  id: 'q-a',
  position: 0,
  section: 'S',
  kind: 'scale',
  text: 'I listen.',
  category: 'Communication',
  options: { min: 1, max: 5, labels: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'] },
  self_value: 4,
  self_na: false,
  self_choices: null,
  self_text: null,
  avg: 3.333333,
  answered: 3,
  na: 1,
  distribution: { '3': 2, '4': 1 },
  option_counts: null,
  groups: { peer: { n: 2, sum: 6 }, manager: { n: 1, sum: 4 } },
  ...over,
})

/** Rows as SQL could give them, with colleague data present even where the gate would shut it. */
const rawReport = (submitted: number, minRaters: number): RawReport => ({
  header: header(submitted, minRaters),
  questions: [
    question(),
    question({
      id: 'q-b',
      position: 1,
      kind: 'single',
      options: { labels: ['Yes', 'No'] },
      self_value: null,
      self_choices: ['No'],
      avg: null,
      distribution: null,
      option_counts: { Yes: 2, Gone: 1 },
      groups: null,
    }),
  ],
  categories: [{ category: 'Communication', self_avg: 4 }],
  groupSizes: [
    { relationship: 'peer', raters: Math.max(0, submitted - 1) },
    { relationship: 'manager', raters: Math.min(1, submitted) },
  ],
  comments: Array.from({ length: submitted }, (_, i) => ({
    answer_id: `an-${i}`,
    question_id: 'q-a',
    text_value: `secret comment ${i}`,
  })),
})

describe('shapeReport', () => {
  const key = (id: string) => id

  test('colleague data exactly when the gate is open, whatever the rows hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 8 }), (submitted, min) => {
        const report = shapeReport(rawReport(submitted, min), key)
        const json = JSON.stringify(report)
        if (submitted >= min) {
          expect(report.status).toBe('ready')
          expect(json).toContain('"insight"')
        } else {
          expect(report).toMatchObject({ status: 'gathering', needed: min - submitted })
          for (const word of ['groups"', 'insight"', 'colleagues"', 'secret comment', '3.33'])
            expect(json).not.toContain(word)
        }
        for (const word of ['colleagueLabels', 'byColleague', 'Colleague A']) expect(json).not.toContain(word)
      }),
    )
  })

  test('not released: the own answers and progress only, whatever the rows hold (ADR 022)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 8 }), (submitted, min) => {
        const raw = rawReport(submitted, min)
        raw.header = { ...raw.header, release_id: null, released_at: null, released_raters: null }
        const report = shapeReport(raw, key)
        expect(report.status).toBe('awaiting-release')
        expect(Object.keys(report).sort()).toEqual(['categories', 'header', 'questions', 'scale', 'status'])
        expect(report.header).toMatchObject({ releasedAt: null, colleaguesSubmitted: submitted })
        const json = JSON.stringify(report)
        for (const word of ['groups"', 'insight"', 'colleagues"', 'secret comment', '3.33', 'distribution'])
          expect(json).not.toContain(word)
      }),
    )
  })

  test('released: the gate counts the release’s colleagues, not the live ones', () => {
    const raw = rawReport(3, 3)
    raw.header = { ...raw.header, submitted: 7, released_raters: 2 }
    expect(shapeReport(raw, key)).toMatchObject({ status: 'gathering', needed: 1 })
    raw.header = { ...raw.header, submitted: 0, released_raters: 3 }
    expect(shapeReport(raw, key).status).toBe('ready')
  })

  test('self not submitted: the header only', () => {
    const raw = rawReport(5, 1)
    raw.header = header(5, 1, false)
    const report = shapeReport(raw, key)
    expect(Object.keys(report).sort()).toEqual(['header', 'status'])
    expect(report.status).toBe('self-pending')
  })

  test('comments follow the key; colleague figures are groups, never one per colleague', () => {
    const reversed = (id: string) => String(99 - Number(id.split('-')[1]))
    const report = shapeReport(rawReport(3, 1), reversed)
    if (report.status !== 'ready') throw new Error('expected a ready report')
    expect(report.comments[0]!.comments).toEqual(['secret comment 2', 'secret comment 1', 'secret comment 0'])
    // Threshold 1: peers (2) and the manager (1) each stand alone.
    expect(report.groups).toEqual([
      { key: 'manager', label: 'Manager', raters: 1 },
      { key: 'peer', label: 'Peers', raters: 2 },
    ])
    expect(report.questions[0]!.colleagues.groups).toEqual([4, 3])
    expect(report.categories[0]!.groups).toEqual([4, 3])
    // Threshold 2: the manager alone is too few; pooled with the peers they would be everyone.
    const two = shapeReport(rawReport(3, 2), reversed)
    if (two.status !== 'ready') throw new Error('expected a ready report')
    expect(two.groups).toEqual([])
    expect(two.questions[0]!.colleagues.groups).toEqual([])
  })

  test('a question with fewer answers than the threshold shows counts, not values', () => {
    const raw = rawReport(3, 3)
    raw.questions[1] = { ...raw.questions[1]!, answered: 2, na: 1 }
    const report = shapeReport(raw, key)
    if (report.status !== 'ready') throw new Error('expected a ready report')
    expect(report.questions[0]!.colleagues).toMatchObject({ average: 3.33, answered: 3 })
    expect(report.questions[1]!.colleagues).toMatchObject({ answered: 2, notApplicable: 1, optionCounts: [] })
  })

  test('averages to two decimals; the scale in full; options in order, unknown ones last', () => {
    const report = shapeReport(rawReport(3, 1), key)
    if (report.status !== 'ready') throw new Error('expected a ready report')
    const [scale, single] = report.questions
    expect(scale!.colleagues.average).toBe(3.33)
    expect(scale!.colleagues.distribution.map((d) => d.count)).toEqual([0, 0, 2, 1, 0])
    expect(single!.colleagues.optionCounts).toEqual([
      { label: 'Yes', count: 2 },
      { label: 'No', count: 0 },
      { label: 'Gone', count: 1 },
    ])
    expect(single!.colleagues.average).toBeNull()
    // The category figure is the mean of the question figures shown.
    expect(report.categories[0]).toMatchObject({ self: 4, colleagues: 3.33 })
  })
})

test('describeSelfAnswer', () => {
  const report = shapeReport(rawReport(0, 1), (id) => id)
  if (report.status !== 'gathering') throw new Error('expected gathering')
  expect(describeSelfAnswer(report.questions[0]!)).toBe('4 · Often')
  expect(describeSelfAnswer(report.questions[1]!)).toBe('No')
  expect(describeSelfAnswer({ ...report.questions[0]!, self: null })).toBe('No answer')
  expect(
    describeSelfAnswer({
      ...report.questions[0]!,
      self: { value: null, notApplicable: true, choices: [], text: null },
    }),
  ).toBe('Not applicable')
})

describe('chart series', () => {
  test('the spec’s ten colours, each once, border width 2: self black, all colleagues red, then blue, green…', () => {
    expect(seriesStyle(0).borderColor).toBe('#000000')
    expect(seriesStyle(1).borderColor).toBe('#dc2626')
    expect([2, 3, 4, 5].map((i) => seriesStyle(i).borderColor)).toEqual([
      '#2563eb',
      '#16a34a',
      '#c026d3',
      '#0891b2',
    ])
    expect(new Set(SERIES_COLOR_ORDER.map((i) => CHART_COLORS[i])).size).toBe(10)
    for (let i = 0; i < 9; i++) {
      expect(seriesStyle(i).borderColor).toBe(seriesColor(i))
      expect(seriesStyle(i).borderWidth).toBe(CHART_BORDER_WIDTH)
      expect(barStyle(i).backgroundColor).toBe(seriesColor(i))
    }
    expect(CHART_BORDER_WIDTH).toBe(2)
  })

  test('three or more series stay apart in colour, and in greyscale by pattern and shape', () => {
    // CIELAB ΔE between the first six series' colours (the most a report draws: self, all
    // colleagues, four groups): at least 45, where red, orange and gold are 20–30 apart.
    const lab = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      }) as [number, number, number]
      const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116)
      const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047)
      const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b)
      const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
      return [116 * y - 16, 500 * (x - y), 200 * (y - z)] as const
    }
    const distance = (a: string, b: string) => Math.hypot(...lab(a).map((v, k) => v - lab(b)[k]!))
    expect(distance('#dc2626', '#ea580c')).toBeLessThan(30)
    for (let i = 0; i < 6; i++)
      for (let j = i + 1; j < 6; j++) {
        expect(distance(seriesColor(i), seriesColor(j)), `${i} vs ${j}`).toBeGreaterThanOrEqual(45)
        // Greyscale keeps no hue: each pair differs in line pattern or point shape, and bars in hatching.
        const line = (k: number) => `${seriesDash(k).join(',')}|${seriesPoint(k)}`
        expect(line(i), `${i} vs ${j}`).not.toBe(line(j))
        expect(seriesPoint(i)).not.toBe(seriesPoint(j))
        if (i >= 2) expect(JSON.stringify(seriesHatch(i))).not.toBe(JSON.stringify(seriesHatch(j)))
      }
    // The first two series (self black, colleagues red) differ in lightness; the rest are hatched.
    expect(lab('#dc2626')[0] - lab('#000000')[0]).toBeGreaterThan(40)
    for (let i = 2; i < 6; i++) expect(seriesHatch(i).kind).not.toBe('solid')
  })

  test('the tenth colour, transparent white, stays visible as a dashed outline', () => {
    const tenth = seriesStyle(9)
    expect(seriesColor(9)).toBe(CHART_COLORS[9])
    expect(tenth.borderColor).not.toBe(CHART_COLORS[9])
    expect(tenth.borderDash.length).toBeGreaterThan(0)
    expect(barStyle(9).backgroundColor).toBe(CHART_COLORS[9])
  })

  test('the summary names the values of self and the average', () => {
    const text = chartSummary(
      'Radar chart: Average score per category',
      ['Communication', 'Delivery'],
      [
        { label: 'You', values: [4, null] },
        { label: 'All colleagues', values: [3.5, 2] },
        { label: 'Peers (3)', values: [3, 2] },
      ],
    )
    expect(text).toBe(
      'Radar chart: Average score per category. Communication: you 4.0, All colleagues 3.5; ' +
        'Delivery: you —, All colleagues 2.0. 1 more series, one per colleague group. ' +
        'The table beside the chart lists every value.',
    )
  })

  test('wrapLabel keeps words whole', () => {
    expect(wrapLabel('I keep quality high under pressure and deliver on time', 20)).toEqual([
      'I keep quality high',
      'under pressure and',
      'deliver on time',
    ])
  })

  test('the radar draws its rings without numbers on the axis, and says how to read them', () => {
    // The numbers sat on the top axis under its data points ("5", "3", "2" overlapping, issue 7 item 19).
    const scale = radarScale(1, 5)
    expect(scale.ticks.display).toBe(false)
    expect(scale.ticks.stepSize).toBe(1)
    expect([scale.min, scale.max]).toEqual([1, 5])
    expect(radarScaleNote(1, 5)).toBe('Rings from 1 at the centre to 5 on the outside, one per step.')
  })
})
