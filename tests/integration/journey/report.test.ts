import { eq, inArray, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { answers, assignments, responses } from '#db/schema/index'
import { createUser } from '#db/factories'
import { getEnv } from '#app/config/env.server'
import { loadReport } from '#app/modules/report/report.server'
import { anonymousKey } from '#app/modules/report/released-figures.server'
import type { ReportData } from '#app/modules/report/report'
import { useTestDatabase } from '#tests/support/database'
import { location, send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { textOf, titleOf } from '#tests/integration/auth/helpers'
import {
  answersFor,
  buildReport,
  CHOICES,
  countQueries,
  QUESTIONS,
  scaleQuestions,
  STRENGTHS,
  type RaterSpec,
} from './report-scenario'

/**
 * The report (/user/response-:rid) through the real HTTP stack and the module behind it: the
 * anonymity threshold in both the HTML and the `.data` request, N/A and uncounted colleagues left
 * out, colleagues only as aggregates (all colleagues and relationship groups, ADR 021), anonymous
 * comments, the insight lists, ownership, and a fixed number of statements.
 */
const db = useTestDatabase()
const server = useTestServer()

const page = (rid: string) => `/user/response-${rid}`
const dataOf = (rid: string) => `/user/response-${rid}.data`

let adminCookie = ''
beforeAll(async () => {
  adminCookie = await sessionCookieFor((await createUser({ role: 'admin', password: null })).id)
})

async function get(path: string, cookie: string | null) {
  const response = await send(server, path, { cookie })
  return { status: response.status, body: await response.text(), response }
}

/** `n` submitted colleagues, each with a recognisable comment and the given scale value. */
const colleagues = (n: number, value = 3, prefix = 'comment'): RaterSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    answers: (qs) =>
      answersFor(qs, { value, comment: `${prefix}-${i}-${Math.random().toString(36).slice(2)}` }),
  }))

/** Every comment text a scenario's colleagues wrote (submitted or not). */
async function commentsOf(responseIds: (string | null)[]) {
  const ids = responseIds.filter((id): id is string => Boolean(id))
  if (!ids.length) return []
  const rows = await db()
    .select({ text: answers.textValue })
    .from(answers)
    .where(inArray(answers.responseId, ids))
  return rows.map((r) => r.text).filter((t): t is string => Boolean(t))
}

/** Keys that only a report with colleague data has. */
const COLLEAGUE_KEYS = [
  'groups',
  'insight',
  'colleagues',
  'optionCounts',
  'distribution',
  'comments',
  'average',
]

function expectNoColleagueData(raw: string, secrets: string[]) {
  // The HTML carries the loader data as an escaped string inside a script: drop the escapes. The
  // page's words (the i18n data block, ADR 050: the `report` catalogue, the same for every report)
  // are not its data: they are left out of what is searched.
  const body = raw.replace(/<script id="i18n-boot"[\s\S]*?<\/script>/, '').replaceAll('\\', '')
  expect(body).toContain('"status"')
  for (const key of COLLEAGUE_KEYS) expect(body).not.toContain(`"${key}"`)
  for (const secret of secrets) expect(body).not.toContain(secret)
  expect(body).not.toContain('Colleague A')
  expect(body).not.toContain('All colleagues')
}

/** The positive control of the check above: a report past the threshold has every key. */
function expectColleagueData(raw: string) {
  const body = raw.replaceAll('\\', '')
  for (const key of COLLEAGUE_KEYS) expect(body).toContain(`"${key}"`)
}

function ready(report: ReportData | null) {
  expect(report?.status).toBe('ready')
  return report as Extract<ReportData, { status: 'ready' }>
}

describe('the anonymity threshold', () => {
  test('below it, neither the page nor its .data carries any colleague answer', async () => {
    const s = await buildReport({
      minRaters: 3,
      raters: [
        ...colleagues(2, 1, 'below'),
        // Neither of these counts: one still answering, one revoked after answering.
        { submitted: false, answers: (qs) => answersFor(qs, { value: 1, comment: 'draft-comment-xyz' }) },
        { revoked: true, answers: (qs) => answersFor(qs, { value: 1, comment: 'revoked-comment-xyz' }) },
      ],
    })
    const cookie = await sessionCookieFor(s.employee.id)
    const secrets = [
      ...(await commentsOf(s.raters.map((r) => r.responseId))),
      ...s.raters.map((r) => r.name),
      ...s.raters.map((r) => r.assignment.id),
      ...s.raters.map((r) => r.user.email),
    ]
    expect(secrets.filter((t) => t.startsWith('below-'))).toHaveLength(2)

    const html = await get(page(s.rid), cookie)
    expect(html.status).toBe(200)
    expectNoColleagueData(html.body, secrets)
    const text = textOf(html.body)
    expect(text).toContain('More answers needed')
    // Released alone (fewer than the threshold): what is missing, now (issue 15 B2, B3).
    expect(text).toContain('1 more answer is needed')
    expect(text).toContain('without colleagues’ results: 2 of the 3 answers needed were in')
    expect(text).toContain('2 of 3 invited colleagues answered.')
    // Their own answers are there meanwhile.
    expect(text).toContain('My own note')
    expect(html.body).toMatch(/<caption[^>]*>Average score per category/)

    const data = await get(dataOf(s.rid), cookie)
    expect(data.status).toBe(200)
    expect(data.body).toContain('gathering')
    expect(data.body).toContain('My own note')
    expectNoColleagueData(data.body, secrets)

    const report = await loadReport(s.rid)
    expect(report).toMatchObject({
      status: 'gathering',
      needed: 1,
      header: { colleaguesSubmitted: 2, invited: 3 },
    })
    expectNoColleagueData(JSON.stringify(report), secrets)
  })

  test('at it, colleague answers appear: averages, option counts and every comment, never per colleague', async () => {
    const s = await buildReport({ minRaters: 3, raters: colleagues(3, 2, 'at') })
    const cookie = await sessionCookieFor(s.employee.id)
    const comments = (await commentsOf(s.raters.map((r) => r.responseId))).filter((c) => c.startsWith('at-'))
    const report = ready(await loadReport(s.rid))
    // All three are peers: one group holding everyone adds nothing to "all colleagues".
    expect(report.groups).toEqual([])
    expect(report.categories.map((c) => [c.category, c.self, c.colleagues])).toEqual([
      ['Communication', 4, 2],
      ['Collaboration', 4, 2],
      ['Leadership', 4, 2],
    ])
    expect(report.comments).toHaveLength(1)
    expect([...report.comments[0]!.comments].sort()).toEqual([...comments].sort())

    const html = await get(page(s.rid), cookie)
    expect(html.status).toBe(200)
    const text = textOf(html.body)
    expect(text).not.toContain('More answers needed')
    for (const comment of comments) expect(text).toContain(comment)
    expect(text).toContain('3 of 3 invited colleagues answered.')
    expect(text).toContain('Comments from colleagues')
    expectColleagueData(html.body)
    const data = await get(dataOf(s.rid), cookie)
    for (const comment of comments) expect(data.body).toContain(comment)
    expectColleagueData(data.body)
  })

  test('above it, every submitted colleague counts and the rest do not', async () => {
    const s = await buildReport({
      minRaters: 2,
      raters: [
        ...colleagues(4, 5),
        { submitted: false, answers: (qs) => answersFor(qs, { value: 1, comment: 'unsubmitted-note' }) },
        { revoked: true, answers: (qs) => answersFor(qs, { value: 1, comment: 'revoked-note' }) },
        { noResponse: true },
      ],
    })
    const report = ready(await loadReport(s.rid))
    expect(report.header).toMatchObject({ colleaguesSubmitted: 4, invited: 6, minRaters: 2 })
    // The 1s of the uncounted colleagues would pull the average below 5.
    expect(report.categories.every((c) => c.colleagues === 5)).toBe(true)
    const scales = report.questions.filter((q) => q.kind === 'scale')
    expect(scales.every((q) => q.colleagues.average === 5 && q.colleagues.answered === 4)).toBe(true)
    const body = (await get(dataOf(s.rid), await sessionCookieFor(s.employee.id))).body
    expect(body).not.toContain('unsubmitted-note')
    expect(body).not.toContain('revoked-note')
  })

  test('revoked and unsubmitted colleagues do not open the gate', async () => {
    const s = await buildReport({
      minRaters: 3,
      raters: [...colleagues(2), { revoked: true }, { submitted: false }, { submitted: false }],
    })
    expect(await loadReport(s.rid)).toMatchObject({ status: 'gathering', needed: 1 })
  })
})

describe('what the numbers mean', () => {
  test('"not applicable" is left out of every average, and counted apart', async () => {
    const s = await buildReport({
      minRaters: 2,
      raters: [
        { answers: (qs) => answersFor(qs, { value: 4 }) },
        { answers: (qs) => answersFor(qs, { value: 2 }) },
        { answers: (qs) => answersFor(qs, { value: null }) },
      ],
      selfAnswers: (qs) =>
        qs.map((q, i) =>
          i === 0
            ? { questionId: q.id, notApplicable: true }
            : (answersFor([q], { value: 5 })[0] ?? { questionId: q.id }),
        ),
    })
    const report = ready(await loadReport(s.rid))
    const first = report.questions[0]!
    // (4 + 2) / 2 = 3; counting N/A as 0 would give 2.
    expect(first.colleagues).toMatchObject({ average: 3, answered: 2, notApplicable: 1 })
    expect(first.colleagues.distribution).toEqual([
      { value: 1, count: 0 },
      { value: 2, count: 1 },
      { value: 3, count: 0 },
      { value: 4, count: 1 },
      { value: 5, count: 0 },
    ])
    expect(first.self).toMatchObject({ notApplicable: true, value: null })
    // Communication: self N/A on q1 and 5 on q2 → 5; colleagues' question means 3 and 3 → 3.
    expect(report.categories[0]).toMatchObject({ category: 'Communication', self: 5, colleagues: 3 })
    const text = textOf((await get(page(s.rid), await sessionCookieFor(s.employee.id))).body)
    expect(text).toContain('Not applicable')
    expect(text).toContain('2 (+1 not applicable)')
  })

  test('fewer answers on a question than the threshold: counts only, no average, spread or choices', async () => {
    const s = await buildReport({
      minRaters: 3,
      raters: [
        { answers: (qs) => answersFor(qs, { value: 4, strengths: [STRENGTHS[0]!] }) },
        { answers: (qs) => answersFor(qs, { value: 2, strengths: [STRENGTHS[1]!] }) },
        { answers: (qs) => answersFor(qs, { value: null, strengths: [] }) },
      ],
    })
    const report = ready(await loadReport(s.rid))
    for (const q of report.questions.filter((x) => x.kind === 'scale'))
      expect(q.colleagues).toMatchObject({ average: null, answered: 2, notApplicable: 1, distribution: [] })
    const multi = report.questions.find((q) => q.kind === 'multi')!
    expect(multi.colleagues).toMatchObject({ answered: 2, optionCounts: [] })
    // Three chose an option on the single-choice question: that one shows.
    expect(report.questions.find((q) => q.kind === 'single')!.colleagues.optionCounts).toHaveLength(3)
    expect(report.categories.every((c) => c.colleagues === null)).toBe(true)
    expect(report.insight).toMatchObject({
      highest: [],
      lowest: [],
      blindSpots: [],
      hiddenStrengths: [],
      range: null,
    })
    const cookie = await sessionCookieFor(s.employee.id)
    const text = textOf((await get(page(s.rid), cookie)).body)
    expect(text).toContain('Too few answers to show')
    expect(text).toContain('2 (+1 not applicable)')
  })

  test('choice questions: colleagues’ counts per option beside the self choice', async () => {
    const s = await buildReport({
      minRaters: 2,
      raters: [
        {
          answers: (qs) => answersFor(qs, { choice: CHOICES[1], strengths: [STRENGTHS[0]!, STRENGTHS[2]!] }),
        },
        { answers: (qs) => answersFor(qs, { choice: CHOICES[1], strengths: [STRENGTHS[2]!] }) },
        { answers: (qs) => answersFor(qs, { choice: CHOICES[2], strengths: [] }) },
      ],
      selfAnswers: (qs) => answersFor(qs, { value: 4, choice: CHOICES[0], strengths: [STRENGTHS[1]!] }),
    })
    const report = ready(await loadReport(s.rid))
    const single = report.questions.find((q) => q.kind === 'single')!
    expect(single.self?.choices).toEqual([CHOICES[0]])
    expect(single.colleagues.optionCounts).toEqual([
      { label: CHOICES[0], count: 0 },
      { label: CHOICES[1], count: 2 },
      { label: CHOICES[2], count: 1 },
    ])
    const multi = report.questions.find((q) => q.kind === 'multi')!
    expect(multi.colleagues.optionCounts).toEqual([
      { label: STRENGTHS[0], count: 1 },
      { label: STRENGTHS[1], count: 0 },
      { label: STRENGTHS[2], count: 2 },
    ])
    expect(multi.colleagues.answered).toBe(2)
  })
})

describe('anonymity of who said what', () => {
  /** Five colleagues, each answering every scale question with their own value 1…5. */
  async function fiveColleagues() {
    const s = await buildReport({
      minRaters: 3,
      raters: [1, 2, 3, 4, 5].map((value) => ({
        answers: (qs) => answersFor(qs, { value, comment: `said-by-${value}` }),
      })),
    })
    // Invitation and submission follow the same order (1 first); spread them a minute apart.
    for (const [i, r] of s.raters.entries()) {
      const at = new Date(Date.UTC(2030, 0, 1, 9, i))
      await db()
        .update(assignments)
        .set({ createdAt: at, invitedAt: at, submittedAt: at })
        .where(eq(assignments.id, r.assignment.id))
      await db()
        .update(responses)
        .set({ startedAt: at, submittedAt: at })
        .where(eq(responses.id, r.responseId!))
    }
    return s
  }

  test('five colleagues scoring 1…5: only the mean and how many gave each score, whatever the order', async () => {
    const s = await fiveColleagues()
    const report = ready(await loadReport(s.rid))
    expect(report.groups).toEqual([])
    for (const q of report.questions.filter((x) => x.kind === 'scale')) {
      expect(q.colleagues.average).toBe(3)
      expect(q.colleagues.distribution.map((d) => d.count)).toEqual([1, 1, 1, 1, 1])
      expect(q.colleagues.groups).toEqual([])
    }
    expect(report.categories.map((c) => c.colleagues)).toEqual([3, 3, 3])
    // No key of the report carries a per-colleague series any more.
    const json = JSON.stringify(report)
    for (const word of ['colleagueLabels', 'byColleague', 'Colleague A']) expect(json).not.toContain(word)

    // Reverse every timestamp: the report must not change at all.
    for (const [i, r] of s.raters.entries()) {
      const at = new Date(Date.UTC(2030, 0, 1, 9, 59 - i))
      await db()
        .update(assignments)
        .set({ createdAt: at, invitedAt: at, submittedAt: at })
        .where(eq(assignments.id, r.assignment.id))
      await db().update(responses).set({ submittedAt: at }).where(eq(responses.id, r.responseId!))
    }
    expect(await loadReport(s.rid)).toEqual(report)
  })

  test('comments are unattributed and in keyed-hash order, independent of submission order', async () => {
    const s = await fiveColleagues()
    const cookie = await sessionCookieFor(s.employee.id)
    const report = ready(await loadReport(s.rid))
    const secret = getEnv().SESSION_SECRET
    const textQuestion = s.qs.find((q) => q.kind === 'textarea')!
    const rows = await db()
      .select({ id: answers.id, text: answers.textValue })
      .from(answers)
      .where(
        sql`${answers.questionId} = ${textQuestion.id} AND ${answers.responseId} IN ${s.raters.map((r) => r.responseId!)}`,
      )
    const expected = [...rows]
      .sort((a, b) => (anonymousKey(secret, s.rid, a.id) < anonymousKey(secret, s.rid, b.id) ? -1 : 1))
      .map((r) => r.text)
    expect(report.comments).toEqual([
      { questionId: textQuestion.id, question: textQuestion.text, comments: expected },
    ])
    const body = (await get(dataOf(s.rid), cookie)).body
    for (const r of s.raters) {
      expect(body).not.toContain(r.name)
      expect(body).not.toContain(r.user.email)
      expect(body).not.toContain(r.assignment.id)
      expect(body).not.toContain(r.responseId!)
      expect(body).not.toContain(r.user.id)
    }
    for (const row of rows) expect(body).not.toContain(row.id)
    expect(body).not.toMatch(/manager|direct_report|"peer"/)
  })
})

/** Each counted colleague's scores, one per scale question in order (the rest as answersFor gives). */
const scoring = (values: number[], relationship?: RaterSpec['relationship']): RaterSpec => ({
  relationship,
  answers: (qs) => {
    let k = 0
    return answersFor(qs).map((a) => {
      const q = qs.find((x) => x.id === a.questionId)!
      return q.kind === 'scale' ? { questionId: q.id, numericValue: values[k++ % values.length]! } : a
    })
  },
})

describe('colleague groups (ADR 021)', () => {
  const many = (n: number, value: number, relationship: RaterSpec['relationship']) =>
    Array.from({ length: n }, () => scoring([value], relationship))

  test('threshold 2, manager 1, peers 3, direct reports 2: peers alone, the rest as "Other colleagues"', async () => {
    // Showing peers and direct reports would leave the manager alone derivable (6 − 3 − 2 = 1):
    // the smaller shown group joins the manager instead.
    const s = await buildReport({
      minRaters: 2,
      raters: [...many(1, 5, 'manager'), ...many(3, 3, 'peer'), ...many(2, 1, 'direct_report')],
    })
    const report = ready(await loadReport(s.rid))
    expect(report.groups).toEqual([
      { key: 'peer', label: 'Peers', raters: 3 },
      { key: 'others', label: 'Other colleagues', raters: 3 },
    ])
    const first = report.questions.find((q) => q.kind === 'scale')!
    // All: (5 + 3·3 + 2·1) / 6 = 2.67; peers 3; the manager and direct reports (5 + 1 + 1) / 3 = 2.33.
    expect(first.colleagues.average).toBe(2.67)
    expect(first.colleagues.groups).toEqual([3, 2.33])
    expect(report.categories[0]!.groups).toEqual([3, 2.33])
    const text = textOf((await get(page(s.rid), await sessionCookieFor(s.employee.id))).body)
    expect(text).toContain('Peers (3)')
    expect(text).toContain('Other colleagues (3)')
    expect(text).not.toContain('Manager (')
  })

  test('threshold 3, manager 1, peers 3, other 1: no group, since peers would expose the other two', async () => {
    const s = await buildReport({
      minRaters: 3,
      raters: [...many(1, 5, 'manager'), ...many(3, 3, 'peer'), ...many(1, 1, 'other')],
    })
    const report = ready(await loadReport(s.rid))
    expect(report.groups).toEqual([])
    expect(report.questions.find((q) => q.kind === 'scale')!.colleagues).toMatchObject({
      average: 3,
      groups: [],
    })
    const body = (await get(dataOf(s.rid), await sessionCookieFor(s.employee.id))).body
    expect(body).not.toContain('Peers')
  })

  test('threshold 2, two of each: every group on its own, in the spec’s series order', async () => {
    const s = await buildReport({
      minRaters: 2,
      raters: [
        ...many(2, 5, 'manager'),
        ...many(2, 4, 'peer'),
        ...many(2, 2, 'direct_report'),
        ...many(2, 1, 'other'),
      ],
    })
    const report = ready(await loadReport(s.rid))
    expect(report.groups.map((g) => [g.label, g.raters])).toEqual([
      ['Manager', 2],
      ['Peers', 2],
      ['Direct reports', 2],
      ['Other colleagues', 2],
    ])
    expect(report.questions.find((q) => q.kind === 'scale')!.colleagues).toMatchObject({
      average: 3,
      groups: [5, 4, 2, 1],
    })
  })

  test('a group thinned by "not applicable" on one question hides there, and takes a partner with it', async () => {
    // Threshold 2: manager 2, peers 2, direct reports 2. On the first question one peer says N/A:
    // peers have 1 answer (hidden), and 5 − 2 − 2 = 1 would expose that peer, so one more group hides.
    const na: RaterSpec = {
      relationship: 'peer',
      answers: (qs) =>
        answersFor(qs, { value: 4 }).map((a, i) =>
          i === 0 ? { questionId: a.questionId, notApplicable: true } : a,
        ),
    }
    const s = await buildReport({
      minRaters: 2,
      raters: [...many(2, 5, 'manager'), na, ...many(1, 4, 'peer'), ...many(2, 2, 'direct_report')],
    })
    const report = ready(await loadReport(s.rid))
    expect(report.groups.map((g) => g.key)).toEqual(['manager', 'peer', 'direct_report'])
    const [first, second] = report.questions.filter((q) => q.kind === 'scale')
    expect(first!.colleagues.answered).toBe(5)
    expect(first!.colleagues.groups.filter((v) => v !== null)).toHaveLength(1)
    expect(first!.colleagues.groups[1]).toBeNull()
    expect(second!.colleagues.groups).toEqual([5, 4, 2])
  })
})

describe('the insight', () => {
  test('highest and lowest by colleagues; each question in one list, its difference said in words', async () => {
    // Scale questions in order: "communication 1", "communication 2", "collaboration 3", "leadership 6";
    // colleagues average 5, 3, 4, 2 against a self score of 4 on each (ADR 047).
    const s = await buildReport({
      minRaters: 3,
      raters: [scoring([5, 2, 4, 1]), scoring([5, 3, 4, 2]), scoring([5, 4, 4, 3])],
    })
    const report = ready(await loadReport(s.rid))
    const text = (items: { text: string }[]) => items.map((i) => i.text)
    // Highest: the upper half of the range 2–5 (above 3.5) and more than 0.5 above the lowest: 5, 4.
    // A 3 among four questions is not "highest": it is in the lower half, so among the lowest.
    expect(text(report.insight.highest)).toEqual([
      'I do communication thing 1.',
      'I do collaboration thing 3.',
    ])
    expect(report.insight.lowest.map((i) => [i.text, i.self, i.colleagues, i.difference])).toEqual([
      ['I do leadership thing 6.', 4, 2, -2],
      ['I do communication thing 2.', 4, 3, -1],
    ])
    // Communication 2 and leadership 6 are gaps too, but already listed: a question appears once,
    // and its difference goes with it in words.
    expect(report.insight.blindSpots).toEqual([])
    expect(report.insight.hiddenStrengths).toEqual([])
    const page_ = textOf((await get(page(s.rid), await sessionCookieFor(s.employee.id))).body)
    for (const heading of ['At a glance', 'Rated highest by colleagues', 'Blind spots', 'Hidden strengths'])
      expect(page_).toContain(heading)
    expect(page_).toContain('Colleagues rated you 2.0 lower than you rated yourself.')
    expect(page_).toContain('Colleagues rated you 1.0 higher than you rated yourself.')
    expect(page_).toContain('None: no other question where the self score is 1.0 or more above colleagues.')
    // The admin reads the same in the third person.
    const admin = textOf((await get(page(s.rid), adminCookie)).body)
    const name = s.employee.displayName
    expect(admin).toContain(`Colleagues rated ${name} 2.0 lower than ${name} rated themself.`)
  })
})

describe('the page', () => {
  test('title, header, tables with captions and scope headers; no canvas before hydration', async () => {
    const s = await buildReport({ minRaters: 3, raters: [...colleagues(4), { noResponse: true }] })
    const { status, body } = await get(page(s.rid), await sessionCookieFor(s.employee.id))
    expect(status).toBe(200)
    expect(titleOf(body)).toBe(`Feedback report · ${s.employee.displayName} · Panorama`)
    const text = textOf(body)
    expect(text).toContain(`Feedback report: ${s.employee.displayName}`)
    expect(text).toContain(s.scheme.name)
    expect(text).toContain('4 of 5 invited colleagues answered.')
    expect(body).toMatch(/<caption[^>]*>Average score per category \(scale 1 to 5/)
    expect(body).toMatch(/<caption[^>]*>Communication: your score and the colleagues’ averages per question/)
    expect(body).toContain('<th scope="col"')
    expect(body).toContain('<th scope="row"')
    expect(text).toContain('All colleagues')
    expect(text).toContain('At a glance')
    expect(text).not.toContain('Colleague A')
    expect(body).not.toContain('<canvas')
    // The print sheet is linked by this route, as a print-only stylesheet (it holds no first paint).
    expect(body).toMatch(/<link(?=[^>]*media="print")[^>]+href="\/assets\/report-[\w-]+\.css"/)
  })

  test('a self-assessment not yet submitted: said so, with a link to continue it, and no data', async () => {
    const s = await buildReport({ minRaters: 1, raters: colleagues(3, 3, 'early'), selfSubmitted: false })
    const cookie = await sessionCookieFor(s.employee.id)
    const html = await get(page(s.rid), cookie)
    expect(html.status).toBe(200)
    expect(textOf(html.body)).toContain('The self-assessment is not submitted yet')
    expect(html.body).toContain(`href="/assignment/${s.self.id}"`)
    expect(textOf(html.body)).toContain('Continue your self-assessment')
    const secrets = await commentsOf(s.raters.map((r) => r.responseId))
    expectNoColleagueData(html.body, secrets)
    expectNoColleagueData((await get(dataOf(s.rid), cookie)).body, secrets)
    expect(await loadReport(s.rid)).toMatchObject({ status: 'self-pending' })
  })
})

describe('who may open it', () => {
  test('another employee gets 404 for the page and its data; nothing tells it exists', async () => {
    const s = await buildReport({ minRaters: 1, raters: colleagues(1, 3, 'idor') })
    const other = await sessionCookieFor((await createUser({ role: 'employee', password: null })).id)
    for (const path of [page(s.rid), dataOf(s.rid)]) {
      const r = await get(path, other)
      expect(r.status).toBe(404)
      expect(r.body).not.toContain('idor-')
      expect(r.body).not.toContain(s.employee.displayName)
    }
    // An unknown id answers exactly the same.
    const unknown = await get(page('00000000-0000-4000-8000-000000000000'), other)
    expect(unknown.status).toBe(404)
  })

  test('a rater assignment’s response is not a report, even for its subject', async () => {
    const s = await buildReport({ minRaters: 1, raters: colleagues(1) })
    const r = await get(page(s.raters[0]!.responseId!), await sessionCookieFor(s.employee.id))
    expect(r.status).toBe(404)
  })

  test('a colleague is sent to their own home; an anonymous visitor to sign-in', async () => {
    const s = await buildReport({ minRaters: 1, raters: [...colleagues(1), { submitted: false }] })
    const colleague = s.raters[1]!
    const r = await send(server, page(s.rid), { cookie: await sessionCookieFor(colleague.user.id) })
    expect(r.status).toBe(302)
    expect(location(r)).toBe(`/assignment/${colleague.assignment.id}`)
    const anonymous = await send(server, page(s.rid))
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe(`/sign-in?${new URLSearchParams({ redirectTo: page(s.rid) })}`)
  })

  test('an admin may open any report, and sees "Self" rather than "You"', async () => {
    const s = await buildReport({ minRaters: 2, raters: colleagues(2) })
    const r = await get(page(s.rid), adminCookie)
    expect(r.status).toBe(200)
    expect(textOf(r.body)).toContain(`Feedback report: ${s.employee.displayName}`)
    expect(r.body).toMatch(/<caption[^>]*>Communication: self score and the colleagues’ averages/)
  })

  test('a POST is refused (the report is read-only) after the same checks', async () => {
    const s = await buildReport({ minRaters: 1 })
    expect(
      (await send(server, page(s.rid), { form: {}, cookie: await sessionCookieFor(s.employee.id) })).status,
    ).toBe(405)
    expect((await send(server, page(s.rid), { form: {}, cookie: adminCookie })).status).toBe(405)
  })
})

describe('a fixed number of statements', () => {
  const small = () => buildReport({ minRaters: 1, raters: colleagues(1), questions: scaleQuestions(3, 2) })
  const large = () =>
    buildReport({
      minRaters: 1,
      raters: colleagues(8),
      questions: [...QUESTIONS, ...scaleQuestions(4, 3)],
    })

  test('the same count for 1 colleague × 3 questions as for 8 colleagues × 11 questions', async () => {
    const [a, b] = [await small(), await large()]
    expect(b.qs).toHaveLength(11)
    const countA = await countQueries(() => loadReport(a.rid))
    const countB = await countQueries(() => loadReport(b.rid))
    // One statement: the header, the questions with the self answers and the release's stored
    // colleague figures (ADR 037; five before, when the page aggregated the release's copies).
    expect(countA).toBe(1)
    expect(countB).toBe(countA)

    // Through HTTP (guard, access check, root loader and all), too.
    const [cookieA, cookieB] = [await sessionCookieFor(a.employee.id), await sessionCookieFor(b.employee.id)]
    await get(dataOf(a.rid), cookieA)
    await get(dataOf(b.rid), cookieB)
    const httpA = await countQueries(() => get(dataOf(a.rid), cookieA))
    const httpB = await countQueries(() => get(dataOf(b.rid), cookieB))
    expect(httpB).toBe(httpA)
  })

  test('below the threshold, the same one statement', async () => {
    const a = await buildReport({ minRaters: 8, raters: colleagues(1), questions: scaleQuestions(3, 2) })
    const b = await buildReport({ minRaters: 8, raters: colleagues(7), questions: scaleQuestions(11, 4) })
    const countA = await countQueries(() => loadReport(a.rid))
    expect(countA).toBe(1)
    expect(await countQueries(() => loadReport(b.rid))).toBe(countA)
  })
})
