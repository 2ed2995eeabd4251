import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { schemes } from '#db/schema/index'
import {
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
} from '#db/factories'
import { releaseOnClose } from '#app/modules/report/release.server'
import { useTestDatabase } from '#tests/support/database'
import { sessionCookieFor } from '#tests/support/app'
import { textOf } from '#tests/integration/auth/helpers'
import { useQueryCountingServer } from '#tests/support/query-count'

/**
 * A cohort across cycles (issue 19 §5–6, ADR 044/045): a scheme's group report beside the cohort of
 * the scheme it follows (each cohort's figures as its own group report shows them), the norm from
 * other companies only, a company's view that counts each programme with its latest cycle, and the
 * statements each page runs.
 */
process.env.NORM_MIN_PARTICIPANTS = '5'
const { request } = useQueryCountingServer()
const db = useTestDatabase()
const DAY = 24 * 60 * 60 * 1000

const LABELS = ['Never', 'Rarely', 'Sometimes', 'Often', 'Always']
const scale = { min: 1, max: 5, labels: LABELS, allowNa: false }
const QUESTIONS = [
  {
    section: 'Leading',
    kind: 'scale' as const,
    text: 'I set a clear direction.',
    raterText: '{{name}} sets a clear direction.',
    category: 'Vision',
    options: scale,
  },
  {
    section: 'Leading',
    kind: 'scale' as const,
    text: 'I listen.',
    raterText: '{{name}} listens.',
    category: 'Communication',
    options: scale,
  },
  {
    section: 'Leading',
    kind: 'scale' as const,
    text: 'I keep my word.',
    raterText: '{{name}} keeps their word.',
    category: 'Trust',
    options: scale,
  },
]

type Scheme = typeof schemes.$inferSelect
let cookie = ''
let questionnaireId = ''

/** `count` participants, each with a self-assessment and three peers who all give `scores`. */
async function cohort(scheme: Scheme, count: number, scores: number[]) {
  const qs = await questionsOf(scheme.questionnaireId)
  const answersOf = (values: number[]) => qs.map((q, i) => ({ questionId: q.id, numericValue: values[i]! }))
  for (let p = 0; p < count; p++) {
    const person = await createUser({ role: 'employee', password: null, companyId: scheme.companyId })
    const self = await enrolEmployee(scheme, person.id)
    await createResponse({ assignmentId: self!.id, answers: answersOf([4, 4, 4]), submitted: true })
    for (let r = 0; r < 3; r++) {
      const rater = await createUser({ role: 'colleague', password: null })
      const a = await createRaterAssignment({
        scheme,
        subjectId: person.id,
        respondentId: rater.id,
        relationship: 'peer',
      })
      await createResponse({ assignmentId: a.id, answers: answersOf(scores), submitted: true })
    }
  }
}

const closed = (companyId: string, name: string, daysAgo: number, extra: Partial<Scheme> = {}) =>
  createScheme({
    name,
    companyId,
    questionnaireId,
    opensAt: new Date(Date.now() - (daysAgo + 30) * DAY),
    closesAt: new Date(Date.now() - daysAgo * DAY),
    status: 'closed',
    minRaters: 3,
    ...extra,
  })

const release = (scheme: Scheme) => releaseOnClose(new Date(), { schemeId: scheme.id })
const groupReport = (id: string) => `/admin/scheme-management/${id}/group-report`
const text = (html: string) => html.replaceAll('<!-- -->', '')

async function get(path: string) {
  const { response, body, queries } = await request(path, { cookie })
  expect(response.status, path).toBe(200)
  return { body: text(body), queries }
}

/** The cells of the "Over time" section's table whose first column reads `label`. */
function cycleRow(body: string, label: string) {
  const section = body.slice(body.indexOf('id="cycle"'), body.indexOf('</section>', body.indexOf('id="cycle"')))
  const row = new RegExp(`<th scope="row"[^>]*>${label}</th>([\\s\\S]*?)</tr>`).exec(section)?.[1]
  return row ? [...row.matchAll(/<td[^>]*>([^<]*)</g)].map((m) => m[1]) : null
}

const ids = { company: '', previous: '', current: '', lonely: '' }

beforeAll(async () => {
  const admin = await createUser({ role: 'admin' })
  cookie = await sessionCookieFor(admin.id)
  questionnaireId = (await createQuestionnaire({ title: 'Cycle 360', questions: QUESTIONS })).id
  const company = await createCompany({ name: 'Cycle Co' })
  const previous = await closed(company.id, 'Cycle 2025', 365)
  await cohort(previous, 3, [2, 4, 3])
  await release(previous)
  const current = await closed(company.id, 'Cycle 2026', 1, { followsSchemeId: previous.id })
  await cohort(current, 3, [3, 4, 1])
  Object.assign(ids, { company: company.id, previous: previous.id, current: current.id })
})

describe('the group report beside the previous cycle', () => {
  test('before this cycle releases anything, the company counts last year’s cohort', async () => {
    const { body } = await get(`/admin/company-management/${ids.company}/group-report`)
    expect(body).toContain('Cycle Co, across 2 schemes')
    expect(body).toContain('3 participants with a released report')
  })

  test('shows each cohort figure as each group report shows it, the change, and "about the same"', async () => {
    await release({ id: ids.current } as Scheme)
    const { body, queries } = await get(groupReport(ids.current))
    expect(body).toContain('Over time')
    expect(body).toContain('“Cycle 2025”')
    // Previous cycle, this cycle, change: Vision rose, Communication held, Trust fell.
    expect(cycleRow(body, 'Vision')).toEqual(['2.0', '3.0', '+1.0 · higher'])
    expect(cycleRow(body, 'Communication')).toEqual(['4.0', '4.0', '±0.0 · about the same'])
    expect(cycleRow(body, 'I keep my word.')).toEqual(['3.0', '1.0', '−2.0 · lower'])
    // Session, header, participants; the previous cohort's header and participants.
    expect(queries).toBe(5)
  })

  test('the company then counts each programme with its latest cycle only', async () => {
    const { body, queries } = await get(`/admin/company-management/${ids.company}/group-report`)
    expect(body).toContain('Cycle Co, across 1 scheme')
    expect(body).toContain('3 participants with a released report')
    expect(body).not.toContain('id="cycle"')
    expect(queries).toBe(3)
  })

  test('a previous cohort below its threshold of participants: no previous column', async () => {
    // A line of its own, so these participants stay out of the norm test's.
    const line = { questionnaireId: (await createQuestionnaire({ questions: QUESTIONS })).id }
    const company = await createCompany({ name: 'Small Co' })
    const previous = await closed(company.id, 'Small 2025', 365, line)
    await cohort(previous, 2, [2, 2, 2])
    await release(previous)
    const current = await closed(company.id, 'Small 2026', 1, { ...line, followsSchemeId: previous.id })
    await cohort(current, 3, [4, 4, 4])
    await release(current)
    const { body } = await get(groupReport(current.id))
    expect(body).toContain('Group report: Small 2026')
    expect(body).not.toContain('id="cycle"')
    // The previous cohort's own group report shows no figure either.
    expect((await get(groupReport(previous.id))).body).toContain('No group figure yet')
  })

  test('a follows that no longer qualifies (another company’s scheme) shows nothing', async () => {
    const other = await createCompany({ name: 'Other Co' })
    const line = { questionnaireId: (await createQuestionnaire({ questions: QUESTIONS })).id }
    const current = await closed(other.id, 'Other 2026', 1, line)
    // Written past the form's checks, as an older install might hold it.
    await db().update(schemes).set({ followsSchemeId: ids.previous }).where(eq(schemes.id, current.id))
    await cohort(current, 3, [4, 4, 4])
    await release(current)
    const { body, queries } = await get(groupReport(current.id))
    expect(body).not.toContain('id="cycle"')
    expect(queries).toBe(3)
  })
})

describe('the norm in a group report', () => {
  test('from other companies only, shown from NORM_MIN_PARTICIPANTS participants', async () => {
    await db().update(schemes).set({ showNorm: true }).where(eq(schemes.id, ids.current))
    // Cycle Co's own six participants never count towards its norm.
    let { body, queries } = await get(groupReport(ids.current))
    expect(body).toContain('Over time and against the norm')
    expect(body).toContain('No norm yet')
    expect(queries).toBe(6)
    const elsewhere = await createCompany({ name: 'Norm Co' })
    const scheme = await closed(elsewhere.id, 'Norm 2026', 10)
    await cohort(scheme, 4, [5, 2, 3])
    await release(scheme)
    expect((await get(groupReport(ids.current))).body).toContain('No norm yet')
    // A fifth participant elsewhere: the norm shows, with this cohort's place against it.
    const late = await closed(elsewhere.id, 'Norm 2026 late', 5)
    await cohort(late, 1, [5, 2, 3])
    await release(late)
    ;({ body, queries } = await get(groupReport(ids.current)))
    // The visible text: the page's i18n data block carries the catalogue's "No norm yet" (ADR 050).
    expect(textOf(body)).not.toContain('No norm yet')
    expect(cycleRow(body, 'Vision')).toEqual(['2.0', '3.0', '+1.0 · higher', '5.0 · 2.0 below'])
    expect(cycleRow(body, 'Communication')).toEqual(['4.0', '4.0', '±0.0 · about the same', '2.0 · 2.0 above'])
    expect(queries).toBe(6)
  })
})
