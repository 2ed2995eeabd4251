import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  questionsOf,
  type AnswerSeed,
} from '#db/factories'
import { DEMO_QUESTIONS } from '#db/seed'
import { HEATMAP_PAGE_SIZE } from '#app/modules/cohort/cohort.server'
import { releaseOnClose } from '#app/modules/report/release.server'
import { useTestDatabase } from '#tests/support/database'
import { addParticipant } from '#tests/integration/journey/report-scenario'
import { sessionCookieFor } from '#tests/support/app'
import { useQueryCountingServer } from '#tests/support/query-count'

/**
 * A cohort's group report and heatmap (issue 19 §4, ADR 045) through the real HTTP stack: what they
 * show from released reports only, that a late colleague answer moves nothing, that comments never
 * appear (HTML or `.data`), that a company counts only its schemes' admitted participants, and the
 * statements each page runs — the same on a small cohort and on one many times bigger.
 */
const { request } = useQueryCountingServer()
const db = useTestDatabase()

/** Session read + the cohort's header + its participants. */
const STATEMENTS = 3
const DAY = 24 * 60 * 60 * 1000

const ids = { a: '', b: '', company: '', firstSubject: '' }
let cookie = ''
let qs: Awaited<ReturnType<typeof questionsOf>> = []
let seedNo = 0

function answers(value: (i: number) => number, comment: string): AnswerSeed[] {
  return qs.map((q, i) => {
    if (q.kind === 'scale') return { questionId: q.id, numericValue: value(i) }
    if (q.kind === 'single' || q.kind === 'multi')
      return { questionId: q.id, choices: q.options.labels!.slice(0, 1) }
    return { questionId: q.id, textValue: comment }
  })
}

type Scheme = Parameters<typeof addParticipant>[0]

/** Participants with a submitted self-assessment and `colleagues` answered (a manager, then peers). */
async function participants(scheme: Scheme, count: number, colleagues: number, prefix: string) {
  const made: string[] = []
  for (let p = 0; p < count; p++) {
    const { subjectId } = await addParticipant(scheme, {
      name: `${prefix} ${p}`,
      self: answers((i) => 1 + ((i + p) % 5), `My own remark ${++seedNo}`),
      colleagues: Array.from({ length: colleagues }, (_, r) => ({
        answers: answers((i) => 2 + ((i + r) % 3), `Secret remark ${++seedNo}`),
        relationship: r === 0 ? ('manager' as const) : ('peer' as const),
      })),
      // Released at the scheme's close, as the tests' schemes are (releaseOnClose).
      release: false,
    })
    made.push(subjectId)
  }
  return made
}

const closedScheme = (companyId: string, questionnaireId: string, name: string, showManager = false) =>
  createScheme({
    showManagerBelowThreshold: showManager,
    name,
    companyId,
    questionnaireId,
    opensAt: new Date(Date.now() - 30 * DAY),
    closesAt: new Date(Date.now() - DAY),
    status: 'closed',
    minRaters: 3,
  })

beforeAll(async () => {
  const admin = await createUser({ role: 'admin' })
  cookie = await sessionCookieFor(admin.id)
  const company = await createCompany({ name: 'Cohort Co' })
  const questionnaire = await createQuestionnaire({ title: 'Cohort 360', questions: DEMO_QUESTIONS })
  qs = await questionsOf(questionnaire.id)
  // A shows a manager on their own (its managers were told, ADR 021).
  const a = await closedScheme(company.id, questionnaire.id, 'Cohort A', true)
  const b = await closedScheme(company.id, questionnaire.id, 'Cohort B')
  // A: four participants with a manager and three peers (their reports show both groups); one with a
  // manager and two peers (too few besides the manager: all colleagues only); one with two
  // colleagues (below the threshold: the self-assessment alone).
  const [first] = await participants(a, 4, 4, 'Alpha')
  await participants(a, 1, 3, 'Mid')
  await participants(a, 1, 2, 'Lone')
  // B: two participants, fewer than its threshold of three.
  await participants(b, 2, 4, 'Beta')
  await releaseOnClose(new Date(), { schemeId: a.id })
  await releaseOnClose(new Date(), { schemeId: b.id })
  Object.assign(ids, { a: a.id, b: b.id, company: company.id, firstSubject: first! })
})

const schemePage = (id: string, page: string) => `/admin/scheme-management/${id}/${page}`
const companyPage = (page: string) => `/admin/company-management/${ids.company}/${page}`
/** The page's own part, without the nonces and tokens that change per request. */
const articleOf = (html: string) => html.slice(html.indexOf('<article'), html.indexOf('</article>'))
const textOf = (html: string) => html.replaceAll('<!-- -->', '')

async function get(path: string) {
  const { response, body, queries } = await request(path, { cookie })
  expect(response.status, path).toBe(200)
  return { body: textOf(body), queries }
}

describe('the group report', () => {
  test('counts each participant through their released report, admitted by the threshold', async () => {
    const { body } = await get(schemePage(ids.a, 'group-report'))
    expect(body).toContain('Group report: Cohort A')
    expect(body).toContain('6 participants with a released report, 5 of them with colleagues’ results.')
    const competencies = /<table[\s\S]*?<\/table>/.exec(articleOf(body))![0]
    const headers = [...competencies.matchAll(/<th scope="col"[^>]*>([^<]*)</g)].map((m) => m[1])
    expect(headers).toEqual(['Competency', 'Self', 'All colleagues', 'Manager', 'Peers'])
    const row = /<tr[^>]*><th scope="row"[^>]*>Communication<\/th>([\s\S]*?)<\/tr>/.exec(competencies)![1]!
    // Self: all six; all colleagues: the five whose reports show colleagues; the manager and peers:
    // the four whose reports show those groups (Mid's report pools its manager and two peers).
    expect([...row.matchAll(/n = (\d+)/g)].map((m) => m[1])).toEqual(['6', '5', '4', '4'])
  })

  test('never holds a comment, in the HTML or in the .data request', async () => {
    for (const path of [
      schemePage(ids.a, 'group-report'),
      `${schemePage(ids.a, 'group-report')}.data`,
      schemePage(ids.a, 'heatmap'),
      `${schemePage(ids.a, 'heatmap')}.data`,
      companyPage('group-report'),
      `${companyPage('group-report')}.data`,
    ]) {
      const { body } = await get(path)
      expect(body, path).not.toMatch(/Secret remark|My own remark/)
    }
  })

  test('below the threshold of participants, no group figure', async () => {
    const { body } = await get(schemePage(ids.b, 'group-report'))
    expect(body).toContain('2 participants with a released report, 2 of them with colleagues’ results.')
    expect(body).toContain('No group figure yet: a figure needs at least 3 participants')
    expect(body).not.toContain('n = 2')
  })

  test('the company counts each scheme only where that scheme’s own figure shows', async () => {
    const company = await get(companyPage('group-report'))
    expect(company.body).toContain('Group report: Cohort Co')
    expect(company.body).toContain(
      '8 participants with a released report, 7 of them with colleagues’ results.',
    )
    // B's two are not admitted (below B's threshold), so the company reads as A does.
    const scheme = await get(schemePage(ids.a, 'group-report'))
    const tables = (html: string) =>
      [...articleOf(html).matchAll(/<table[\s\S]*?<\/table>/g)].map((m) => m[0])
    expect(tables(company.body)).toEqual(tables(scheme.body))
    expect(company.body).not.toMatch(/n = [78]\b/)
  })

  test('a late colleague answer moves nothing; figures stored before ADR 037 are computed once', async () => {
    const before = articleOf((await get(schemePage(ids.a, 'group-report'))).body)
    const scheme = { id: ids.a, questionnaireId: qs[0]!.questionnaireId, closesAt: new Date() }
    const late = await createUser({ role: 'colleague' })
    const assignment = await createRaterAssignment({
      scheme,
      subjectId: ids.firstSubject,
      respondentId: late.id,
    })
    await createResponse({
      assignmentId: assignment.id,
      answers: answers(() => 5, 'Late remark'),
      submitted: true,
    })
    expect(articleOf((await get(schemePage(ids.a, 'group-report'))).body)).toBe(before)

    // A release without stored figures (made before they existed): computed and stored in a fixed
    // number of statements (three reads and one write), then read as stored.
    await db().execute(
      sql`UPDATE report_releases SET colleague_figures = NULL WHERE scheme_id = ${ids.a} AND colleagues_shown`,
    )
    const filled = await get(schemePage(ids.a, 'group-report'))
    expect(articleOf(filled.body)).toBe(before)
    expect(filled.queries).toBe(STATEMENTS + 4)
    expect((await get(schemePage(ids.a, 'group-report'))).queries).toBe(STATEMENTS)
  })
})

describe('the heatmap', () => {
  test('participants × competencies, self in each cell’s description and in the table view', async () => {
    const { body } = await get(schemePage(ids.a, 'heatmap'))
    expect(body).toContain('Heatmap: Cohort A')
    for (const name of ['Alpha 0', 'Alpha 3', 'Mid 0', 'Lone 0']) expect(body).toContain(name)
    expect(body).toMatch(/title="Colleagues \d\.\d; self \d\.\d"/)
    expect(body).toMatch(/title="No colleagues’ figure; self \d\.\d"/)
    const table = await get(`${schemePage(ids.a, 'heatmap')}?view=table`)
    expect(table.body).toContain('Self score and colleagues’ average per participant and competency')
  })

  test('a cursor it does not understand reads as the first page', async () => {
    for (const query of ['?after=nope&name=x', '?view=zzz', '?after=00000000-0000-4000-8000-000000000000'])
      expect((await get(`${schemePage(ids.a, 'heatmap')}${query}`)).body).toContain('Alpha 0')
  })
})

describe('statements per page', () => {
  const pages = () => [
    schemePage(ids.a, 'group-report'),
    schemePage(ids.a, 'heatmap'),
    companyPage('group-report'),
    companyPage('heatmap'),
  ]

  test('the same on a small cohort and on one many times bigger', async () => {
    for (const path of pages()) expect((await get(path)).queries, path).toBe(STATEMENTS)
    const a = {
      id: ids.a,
      questionnaireId: qs[0]!.questionnaireId,
      closesAt: new Date(Date.now() - DAY),
      companyId: ids.company,
    }
    await participants(a, HEATMAP_PAGE_SIZE + 10, 3, 'Zeta')
    await releaseOnClose(new Date(), { schemeId: ids.a })
    for (const path of pages()) expect((await get(path)).queries, path).toBe(STATEMENTS)
    const grown = await get(schemePage(ids.a, 'group-report'))
    expect(grown.body).toContain(`${6 + HEATMAP_PAGE_SIZE + 10} participants with a released report`)
    // The heatmap pages: the next page starts after the last name of this one.
    const first = await get(schemePage(ids.a, 'heatmap'))
    const next = /href="([^"]*after=[^"]*)"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&')
    expect(next).toBeTruthy()
    const second = await get(next!)
    expect(second.queries).toBe(STATEMENTS)
    expect(second.body).toContain('Zeta 9')
    expect(second.body).not.toContain('Alpha 0')
  })
})
