import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, schemeMembers, schemes } from '#db/schema/index'
import type { ApiScope } from '#db/enums'
import { createCompany, createQuestionnaire, createScheme, createUser, enrolEmployee } from '#db/factories'
import { createApiKey } from '#app/modules/api-key/api-key.server'
import { NOT_ENROLLABLE } from '#app/modules/api-key/schemes-api.server'
import { loadReport } from '#app/modules/report/report.server'
import { useTestDatabase } from '#tests/support/database'
import { signedIn } from '#tests/support/app'
import { textOf } from '../auth/helpers'
import { useQueryCountingServer } from '#tests/support/query-count'
import { addParticipant, answersFor, buildReport } from '#tests/integration/journey/report-scenario'

/**
 * Schemes, participants, report summaries and the answer export through the REST API (issue 21 §1,
 * ADR 059), through the real HTTP stack: success and bad input for every endpoint, scopes and the
 * company restriction, the launch's refusals, that no answer names a rater, that the report figures
 * are the report page's (a group below the threshold merged as there), and that list endpoints run
 * the same number of statements however many rows they answer.
 */
const { request } = useQueryCountingServer()
const db = useTestDatabase()

let adminId = ''
const keys = { all: '', companyB: '', readOnly: '', noReports: '' }

async function newKey(scopes: ApiScope[], companyId: string | null = null) {
  const created = await createApiKey(
    { id: adminId },
    { name: `schemes ${Math.random()}`, scopes, companyId, expiresInDays: null },
  )
  if (!created.ok) throw new Error('the key was refused')
  return created.value.key
}

const ALL: ApiScope[] = ['schemes:read', 'schemes:write', 'reports:read', 'answers:read']

type Call = { method?: string; json?: unknown; body?: string; contentType?: string }
async function call(path: string, key: string, init: Call = {}) {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` }
  let body: string | undefined = init.body
  if (init.json !== undefined) body = JSON.stringify(init.json)
  if (body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json'
  const {
    response,
    body: text,
    queries,
  } = await request(path, {
    method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
    headers,
    body,
  })
  const type = response.headers.get('Content-Type') ?? ''
  const parsed: unknown = type.includes('json') && !type.includes('ndjson') ? JSON.parse(text) : text
  return { status: response.status, type, body: parsed as Record<string, unknown> & unknown[], text, queries }
}

type Problem = {
  type: string
  status: number
  detail: string
  errors?: Array<{ field: string; message: string }>
}
function problemOf(answer: Awaited<ReturnType<typeof call>>, status: number) {
  expect(answer.status, answer.text).toBe(status)
  expect(answer.type).toBe('application/problem+json')
  return answer.body as unknown as Problem
}

// The report scenario: three peers, three direct reports and one manager (below the threshold of 3:
// merged with the direct reports into "Other colleagues", as on the report), with comments, names.
const world = {
  schemeId: '',
  companyId: '',
  employeeId: '',
  rid: '',
  raterNames: [] as string[],
  raterIds: [] as string[],
  raterEmails: [] as string[],
  comments: [] as string[],
  otherCompanyId: '',
  otherSchemeId: '',
  otherEmployeeId: '',
  questionnaireId: '',
}

beforeAll(async () => {
  adminId = (await createUser({ role: 'admin', password: null })).id
  const raters = [
    ...[0, 1, 2].map((i) => ({ relationship: 'peer' as const, value: 2, comment: `Peer secret ${i}` })),
    ...[0, 1, 2].map((i) => ({
      relationship: 'direct_report' as const,
      value: 4,
      comment: `Report secret ${i}`,
    })),
    { relationship: 'manager' as const, value: 5, comment: 'Manager secret' },
  ]
  const built = await buildReport({
    minRaters: 3,
    raters: raters.map((r) => ({
      relationship: r.relationship,
      answers: (qs) => answersFor(qs, { value: r.value, comment: r.comment }),
    })),
  })
  world.schemeId = built.scheme.id
  world.companyId = built.scheme.companyId
  world.employeeId = built.employee.id
  world.rid = built.rid
  world.questionnaireId = built.scheme.questionnaireId
  world.raterNames = built.raters.map((r) => r.name)
  world.raterIds = built.raters.map((r) => r.user.id)
  world.raterEmails = built.raters.map((r) => r.user.email)
  world.comments = raters.map((r) => r.comment)
  // A second participant whose report is not released: absent from the summaries.
  await addParticipant(built.scheme, {
    self: answersFor(built.qs, { value: 3 }),
    colleagues: [0, 1, 2].map(() => ({ answers: answersFor(built.qs, { value: 3 }) })),
    release: false,
  })
  const other = await createCompany({ name: 'Other company' })
  world.otherCompanyId = other.id
  world.otherSchemeId = (await createScheme({ companyId: other.id, status: 'draft' })).id
  world.otherEmployeeId = (await createUser({ role: 'employee', companyId: other.id, password: null })).id
  keys.all = await newKey(ALL)
  keys.companyB = await newKey(ALL, other.id)
  keys.readOnly = await newKey(['schemes:read'])
  keys.noReports = await newKey(['schemes:read', 'schemes:write', 'answers:read'])
})

/** No answer of the API ever holds a rater's name, id, address or comment. */
function expectNoRaterIdentity(text: string) {
  for (const secret of [...world.raterNames, ...world.raterIds, ...world.raterEmails, ...world.comments])
    expect(text).not.toContain(secret)
}

describe('GET /api/v1/schemes and /schemes/{id}', () => {
  test('lists schemes with their progress, filtered, a page at a time', async () => {
    const all = await call('/api/v1/schemes', keys.all)
    expect(all.status).toBe(200)
    const ids = (all.body.data as Array<{ id: string }>).map((s) => s.id)
    expect(ids).toEqual(expect.arrayContaining([world.schemeId, world.otherSchemeId]))
    expect(ids).toEqual([...ids].sort())

    const mine = await call(`/api/v1/schemes?company_id=${world.companyId}&state=open`, keys.all)
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        id: world.schemeId,
        state: 'open',
        company_id: world.companyId,
        progress: {
          participants_enrolled: 2,
          self_assessments_submitted: 2,
          invitations_sent: 10,
          invitations_answered: 10,
        },
      }),
    ])
    const drafts = await call(`/api/v1/schemes?company_id=${world.companyId}&state=draft`, keys.all)
    expect(drafts.body.data).toEqual([])

    // Pages by cursor: every scheme once, in order.
    const walked: string[] = []
    let cursor: string | null = null
    do {
      const page = await call(`/api/v1/schemes?limit=1${cursor ? `&cursor=${cursor}` : ''}`, keys.all)
      expect(page.status).toBe(200)
      walked.push(...(page.body.data as Array<{ id: string }>).map((s) => s.id))
      cursor = page.body.next_cursor as string | null
    } while (cursor)
    expect(walked).toEqual(ids)
  })

  test('a key restricted to a company sees its schemes only', async () => {
    const listed = await call('/api/v1/schemes', keys.companyB)
    expect((listed.body.data as Array<{ id: string }>).map((s) => s.id)).toEqual([world.otherSchemeId])
    problemOf(await call(`/api/v1/schemes?company_id=${world.companyId}`, keys.companyB), 403)
    problemOf(await call(`/api/v1/schemes/${world.schemeId}`, keys.companyB), 404)
    problemOf(await call(`/api/v1/schemes/${world.schemeId}/participants`, keys.companyB), 404)
    problemOf(await call(`/api/v1/schemes/${world.schemeId}/reports`, keys.companyB), 404)
    problemOf(await call(`/api/v1/schemes/${world.schemeId}/answers`, keys.companyB), 404)
    const own = await call(`/api/v1/schemes/${world.otherSchemeId}`, keys.companyB)
    expect(own.body).toEqual(expect.objectContaining({ id: world.otherSchemeId, state: 'draft' }))
  })

  test('bad query strings and ids are 400 and 404 problems naming what is wrong', async () => {
    for (const [query, field] of [
      ['state=launched', 'state'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['company_id=acme', 'company_id'],
      ['cursor=nonsense', 'cursor'],
      ['page=2', 'page'],
    ]) {
      const problem = problemOf(await call(`/api/v1/schemes?${query}`, keys.all), 400)
      expect(problem.errors?.map((e) => e.field)).toContain(field)
    }
    problemOf(await call('/api/v1/schemes/not-a-uuid', keys.all), 404)
    problemOf(await call('/api/v1/schemes/00000000-0000-4000-8000-000000000000', keys.all), 404)
    problemOf(await call(`/api/v1/schemes/${world.schemeId}?x=1`, keys.all), 400)
  })

  test('its list and its participants run the same statements for one row as for many', async () => {
    const company = await createCompany()
    const key = await newKey(['schemes:read'], company.id)
    const first = await createScheme({ companyId: company.id })
    const employees = await Promise.all(
      [0, 1, 2, 3, 4].map(() => createUser({ role: 'employee', companyId: company.id, password: null })),
    )
    await enrolEmployee(first, employees[0]!.id)
    const small = await call('/api/v1/schemes', key)
    const smallParticipants = await call(`/api/v1/schemes/${first.id}/participants`, key)
    for (let i = 0; i < 4; i++) await createScheme({ companyId: company.id })
    for (const employee of employees.slice(1)) await enrolEmployee(first, employee.id)
    const large = await call('/api/v1/schemes', key)
    const largeParticipants = await call(`/api/v1/schemes/${first.id}/participants`, key)
    expect((large.body.data as unknown[]).length).toBe(5)
    expect((largeParticipants.body.data as unknown[]).length).toBe(5)
    expect({ list: large.queries, participants: largeParticipants.queries }).toEqual({
      list: small.queries,
      participants: smallParticipants.queries,
    })
  })
})

describe('GET /api/v1/schemes/{id}/participants', () => {
  test('each participant’s status and counts, never who the raters are', async () => {
    const answer = await call(`/api/v1/schemes/${world.schemeId}/participants`, keys.all)
    expect(answer.status).toBe(200)
    const rows = answer.body.data as Array<Record<string, unknown>>
    expect(rows).toHaveLength(2)
    expect(rows.find((r) => r.employee_id === world.employeeId)).toEqual({
      employee_id: world.employeeId,
      self_assessment: 'submitted',
      nomination: 'not_begun',
      invitations_sent: 7,
      invitations_answered: 7,
      report: 'released',
      released_at: expect.any(String),
    })
    expect(rows.find((r) => r.employee_id !== world.employeeId)).toEqual(
      expect.objectContaining({ report: 'ready', released_at: null }),
    )
    expectNoRaterIdentity(answer.text)
    problemOf(await call(`/api/v1/schemes/${world.schemeId}/participants?limit=500`, keys.all), 400)
  })

  test('the nomination status is the list’s, as the nomination module keeps it', async () => {
    await db()
      .update(schemeMembers)
      .set({ nominationStatus: 'submitted', nominationSubmittedAt: new Date() })
      .where(and(eq(schemeMembers.schemeId, world.schemeId), eq(schemeMembers.employeeId, world.employeeId)))
    const answer = await call(`/api/v1/schemes/${world.schemeId}/participants`, keys.all)
    const rows = answer.body.data as Array<{ employee_id: string; nomination: string }>
    expect(rows.find((r) => r.employee_id === world.employeeId)?.nomination).toBe('submitted')
    await db()
      .update(schemeMembers)
      .set({ nominationStatus: null, nominationSubmittedAt: null })
      .where(and(eq(schemeMembers.schemeId, world.schemeId), eq(schemeMembers.employeeId, world.employeeId)))
  })
})

describe('GET /api/v1/schemes/{id}/reports', () => {
  test('the figures are the report page’s, the manager below the threshold merged as there, and nothing names a rater', async () => {
    const answer = await call(`/api/v1/schemes/${world.schemeId}/reports`, keys.all)
    expect(answer.status).toBe(200)
    expectNoRaterIdentity(answer.text)
    expect(answer.text).not.toContain('My own note')
    const reports = answer.body.data as Array<{
      employee_id: string
      colleagues_shown: boolean
      colleagues: number
      groups: Array<{ group: string; raters: number }>
      competencies: Array<{
        competency: string
        self: number
        colleagues: number
        groups: Array<{ group: string; average: number | null }>
      }>
      questions: Array<{
        question_id: string
        self: number
        colleagues: number
        answered: number
        groups: Array<{ group: string; average: number | null }>
      }>
    }>
    // The second participant's report was never released: absent.
    expect(reports.map((r) => r.employee_id)).toEqual([world.employeeId])
    const [summary] = reports
    // Peers (3) stand alone; the manager (1) is below the threshold, so it joins the direct reports.
    expect(summary!.groups).toEqual([
      { group: 'peer', label: 'Peers', raters: 3 },
      { group: 'others', label: 'Other colleagues', raters: 4 },
    ])
    expect(summary!.colleagues).toBe(7)
    const [firstQuestion] = summary!.questions
    expect(firstQuestion).toEqual(
      expect.objectContaining({
        self: 4,
        // (3 × 2 + 3 × 4 + 5) / 7
        colleagues: 3.29,
        answered: 7,
        groups: [
          { group: 'peer', average: 2 },
          // (3 × 4 + 5) / 4: the manager's 5 only inside the merged group.
          { group: 'others', average: 4.25 },
        ],
      }),
    )
    expect(JSON.stringify(summary)).not.toContain('manager')

    // The same figures as the report page's own loader for this participant.
    const page = await loadReport(world.rid)
    expect(page?.status).toBe('ready')
    if (page?.status !== 'ready') return
    expect(summary!.groups.map((g) => g.group)).toEqual(page.groups.map((g) => g.key))
    const scale = page.questions.filter((q) => q.kind === 'scale')
    expect(
      summary!.questions.map((q) => [q.question_id, q.colleagues, q.groups.map((g) => g.average)]),
    ).toEqual(scale.map((q) => [q.id, q.colleagues.average, q.colleagues.groups]))
    expect(
      summary!.competencies.map((c) => [c.competency, c.self, c.colleagues, c.groups.map((g) => g.average)]),
    ).toEqual(page.categories.map((c) => [c.category, c.self, c.colleagues, c.groups]))
    // The page shows comments; the API leaves them out.
    expect(page.comments.length).toBeGreaterThan(0)
  })

  test('a release below the threshold has no colleague figure', async () => {
    const built = await buildReport({ minRaters: 3, raters: [{}, {}] })
    const answer = await call(`/api/v1/schemes/${built.scheme.id}/reports`, keys.all)
    const [summary] = answer.body.data as Array<Record<string, unknown>>
    expect(summary).toEqual(
      expect.objectContaining({
        employee_id: built.employee.id,
        colleagues_shown: false,
        colleagues: 0,
        groups: [],
      }),
    )
    for (const q of summary!.questions as Array<{ colleagues: unknown; groups: unknown[] }>) {
      expect(q.colleagues).toBeNull()
      expect(q.groups).toEqual([])
    }
  })

  test('needs reports:read; its statements do not grow with the reports', async () => {
    problemOf(await call(`/api/v1/schemes/${world.schemeId}/reports`, keys.noReports), 403)
    const built = await buildReport({ minRaters: 3, raters: [{}, {}, {}] })
    const small = await call(`/api/v1/schemes/${built.scheme.id}/reports`, keys.all)
    for (let i = 0; i < 3; i++)
      await addParticipant(built.scheme, {
        self: answersFor(built.qs, { value: 4 }),
        colleagues: [0, 1, 2].map(() => ({ answers: answersFor(built.qs, { value: 2 }) })),
      })
    const large = await call(`/api/v1/schemes/${built.scheme.id}/reports`, keys.all)
    expect((large.body.data as unknown[]).length).toBe(4)
    expect(large.queries).toBe(small.queries)
    // A page at a time, by employee id.
    const first = await call(`/api/v1/schemes/${built.scheme.id}/reports?limit=3`, keys.all)
    const rest = await call(
      `/api/v1/schemes/${built.scheme.id}/reports?limit=3&cursor=${first.body.next_cursor as string}`,
      keys.all,
    )
    expect([...(first.body.data as unknown[]), ...(rest.body.data as unknown[])]).toEqual(large.body.data)
    expect(rest.body.next_cursor).toBeNull()
  })
})

describe('GET /api/v1/schemes/{id}/answers', () => {
  test('the anonymous CSV: raters as labels, no name or address, audited as an export', async () => {
    const answer = await call(`/api/v1/schemes/${world.schemeId}/answers`, keys.all)
    expect(answer.status).toBe(200)
    expect(answer.type).toBe('text/csv; charset=utf-8')
    const lines = answer.text.replace(/^\uFEFF/, '').split('\r\n')
    expect(lines[0]).toMatch(/^scheme,subject,subject id/)
    expect(answer.text).toContain('Peer 3')
    expect(answer.text).toContain('Manager 1')
    for (const secret of [...world.raterNames, ...world.raterIds, ...world.raterEmails])
      expect(answer.text).not.toContain(secret)
    const [entry] = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'answers.export'))
    expect(entry?.details).toEqual(
      expect.objectContaining({
        identities: false,
        filter: expect.objectContaining({ scheme: world.schemeId }),
      }),
    )
    problemOf(await call(`/api/v1/schemes/${world.schemeId}/answers`, keys.readOnly), 403)
    problemOf(await call(`/api/v1/schemes/${world.schemeId}/answers?identities=1`, keys.all), 400)
  })

  test('format=ndjson: the same records as JSON lines, as anonymous; a format it does not know is a 400', async () => {
    const csv = await call(`/api/v1/schemes/${world.schemeId}/answers`, keys.all)
    const csvRows =
      csv.text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter(Boolean).length - 1
    const answer = await call(`/api/v1/schemes/${world.schemeId}/answers?format=ndjson`, keys.all)
    expect(answer.status).toBe(200)
    expect(answer.type).toBe('application/x-ndjson; charset=utf-8')
    expect(answer.text.endsWith('\n')).toBe(true)
    const records = answer.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records.length).toBe(csvRows)
    expect(records.length).toBeGreaterThan(0)
    expect(Object.keys(records[0]!)).toEqual([
      'scheme',
      'subject',
      'subject_id',
      'subject_email',
      'relationship_group',
      'rater',
      'submitted_on',
      'question_key',
      'section',
      'competency',
      'question',
      'kind',
      'scale_min',
      'scale_max',
      'value',
      'value_label',
      'text',
    ])
    const scale = records.find((r) => r.kind === 'scale' && r.rater === 'Manager 1')!
    expect(scale).toMatchObject({ relationship_group: 'Manager', value: 5, scale_min: 1 })
    expect(typeof scale.scale_max).toBe('number')
    // The comments are there (the CSV has them too), unguarded: JSON is not a spreadsheet.
    expect(records.some((r) => r.text === 'Manager secret')).toBe(true)
    expect(new Set(records.map((r) => r.rater))).toContain('Peer 3')
    for (const secret of [...world.raterNames, ...world.raterIds, ...world.raterEmails])
      expect(answer.text).not.toContain(secret)
    const entries = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'answers.export'))
    expect(entries.map((e) => e.details)).toContainEqual(
      expect.objectContaining({ identities: false, format: 'ndjson' }),
    )
    const bad = problemOf(await call(`/api/v1/schemes/${world.schemeId}/answers?format=xml`, keys.all), 400)
    expect(JSON.stringify(bad)).toContain('Must be one of csv, ndjson.')
  })
})

describe('POST /api/v1/schemes', () => {
  const good = () => ({
    name: `API scheme ${Math.random()}`,
    company_id: world.companyId,
    questionnaire_id: world.questionnaireId,
    time_zone: 'Europe/Berlin',
    opens_at: '2031-03-02T09:00',
    closes_at: '2031-03-27T18:00',
  })

  test('creates a draft scheme (201), audited with the key', async () => {
    const answer = await call('/api/v1/schemes', keys.all, { json: { ...good(), min_raters: 4 } })
    expect(answer.status, answer.text).toBe(201)
    expect(answer.body).toEqual(
      expect.objectContaining({
        state: 'draft',
        company_id: world.companyId,
        min_raters: 4,
        time_zone: 'Europe/Berlin',
        // 09:00 in Berlin in March (UTC+1).
        opens_at: '2031-03-02T08:00:00.000Z',
        progress: {
          participants_enrolled: 0,
          self_assessments_submitted: 0,
          invitations_sent: 0,
          invitations_answered: 0,
        },
      }),
    )
    const id = answer.body.id as string
    // As every audited act of a key: by the admin who created it, naming the key (ADR 054 "Writes").
    const audits = await db()
      .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.entityId, id))
    expect(audits).toEqual([
      {
        action: 'scheme.create',
        actorId: adminId,
        details: expect.objectContaining({ apiKeyId: expect.any(String) }),
      },
    ])
  })

  test('refuses what the admin form refuses, naming the API’s fields', async () => {
    const draftQuestionnaire = await createQuestionnaire({ status: 'draft' })
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good(), name: 5 }, 'name'],
      [{ ...good(), name: '   ' }, 'name'],
      [{ ...good(), min_raters: 'three' }, 'min_raters'],
      [{ ...good(), min_raters: 9 }, 'min_raters'],
      [{ ...good(), time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ ...good(), opens_at: 'tomorrow' }, 'opens_at'],
      [{ ...good(), closes_at: '2031-03-01T09:00' }, 'closes_at'],
      [{ ...good(), opens_at: '2020-03-01T09:00', closes_at: '2020-03-27T09:00' }, 'closes_at'],
      [{ ...good(), questionnaire_id: draftQuestionnaire.id }, 'questionnaire_id'],
      [{ ...good(), company_id: '00000000-0000-4000-8000-000000000000' }, 'company_id'],
      [{ ...good(), company_id: 'acme' }, 'company_id'],
      [{ ...good(), colour: 'red' }, 'colour'],
      [{ name: 'Only a name' }, 'company_id'],
    ]
    for (const [body, field] of cases) {
      const problem = problemOf(await call('/api/v1/schemes', keys.all, { json: body }), 400)
      expect(
        problem.errors?.map((e) => e.field),
        JSON.stringify(body),
      ).toContain(field)
    }
    problemOf(await call('/api/v1/schemes', keys.all, { body: '{"name":' }), 400)
    problemOf(await call('/api/v1/schemes', keys.all, { body: 'name=x', contentType: 'text/plain' }), 415)
    problemOf(await call('/api/v1/schemes', keys.all, { json: { ...good(), pad: 'x'.repeat(70_000) } }), 413)
  })

  test('needs schemes:write, and a restricted key creates for its own company only', async () => {
    problemOf(await call('/api/v1/schemes', keys.readOnly, { json: good() }), 403)
    problemOf(await call('/api/v1/schemes', keys.companyB, { json: good() }), 403)
    const count = await db()
      .select({ id: schemes.id })
      .from(schemes)
      .where(eq(schemes.companyId, world.otherCompanyId))
    expect(count).toHaveLength(1)
  })
})

describe('POST /api/v1/schemes/{id}/enrolments and /launch', () => {
  test('enrols by id: per-id problems, idempotent, then launches; the launch’s refusals are 409 problems', async () => {
    const company = await createCompany()
    const scheme = await createScheme({
      companyId: company.id,
      questionnaireId: world.questionnaireId,
      status: 'draft',
    })
    const people = await Promise.all(
      [0, 1].map(() => createUser({ role: 'employee', companyId: company.id, password: null })),
    )
    const disabled = await createUser({
      role: 'employee',
      companyId: company.id,
      password: null,
      disabledAt: new Date(),
    })

    const empty = await call(`/api/v1/schemes/${scheme.id}/launch`, keys.all, { method: 'POST' })
    expect(problemOf(empty, 409).detail).toBe('Enrol at least one employee before launching the scheme.')

    const first = await call(`/api/v1/schemes/${scheme.id}/enrolments`, keys.all, {
      json: { employee_ids: [people[0]!.id, world.otherEmployeeId, disabled.id, 'nobody'] },
    })
    expect(first.status, first.text).toBe(200)
    expect(first.body).toEqual({
      enrolled: [people[0]!.id],
      already_enrolled: [],
      problems: [
        { employee_id: 'nobody', message: 'Is not an employee id (a UUID).' },
        { employee_id: world.otherEmployeeId, message: NOT_ENROLLABLE },
        { employee_id: disabled.id, message: NOT_ENROLLABLE },
      ],
    })
    const again = await call(`/api/v1/schemes/${scheme.id}/enrolments`, keys.all, {
      json: { employee_ids: [people[0]!.id, people[1]!.id] },
    })
    expect(again.body).toEqual({ enrolled: [people[1]!.id], already_enrolled: [people[0]!.id], problems: [] })
    const members = await db().select().from(schemeMembers).where(eq(schemeMembers.schemeId, scheme.id))
    expect(members).toHaveLength(2)

    for (const [body, field] of [
      [{ employee_ids: [] }, 'employee_ids'],
      [{ employee_ids: 'all' }, 'employee_ids'],
      [{ employee_ids: [people[0]!.id], notify: true }, 'notify'],
      [{}, 'employee_ids'],
    ] as const) {
      const problem = problemOf(
        await call(`/api/v1/schemes/${scheme.id}/enrolments`, keys.all, { json: body }),
        400,
      )
      expect(problem.errors?.map((e) => e.field)).toContain(field)
    }
    problemOf(
      await call(`/api/v1/schemes/${scheme.id}/enrolments`, keys.readOnly, {
        json: { employee_ids: [people[0]!.id] },
      }),
      403,
    )
    problemOf(
      await call(`/api/v1/schemes/${scheme.id}/enrolments`, keys.companyB, {
        json: { employee_ids: [people[0]!.id] },
      }),
      404,
    )

    const launched = await call(`/api/v1/schemes/${scheme.id}/launch`, keys.all, { method: 'POST' })
    expect(launched.status, launched.text).toBe(200)
    expect(launched.body).toEqual(
      expect.objectContaining({ id: scheme.id, state: 'open', launched_at: expect.any(String) }),
    )
    const twice = await call(`/api/v1/schemes/${scheme.id}/launch`, keys.all, { method: 'POST' })
    expect(problemOf(twice, 409).detail).toContain('has already been launched')
    const audits = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, scheme.id), eq(auditLog.action, 'scheme.launch')))
    expect(audits).toHaveLength(1)
    problemOf(await call(`/api/v1/schemes/${scheme.id}/launch`, keys.readOnly, { method: 'POST' }), 403)
    problemOf(await call(`/api/v1/schemes/${world.otherSchemeId}/launch`, keys.all, { method: 'GET' }), 405)
  })

  test('a closed scheme takes nobody, and a scheme past its closing time is not launched (409)', async () => {
    const company = await createCompany()
    const person = await createUser({ role: 'employee', companyId: company.id, password: null })
    const closed = await createScheme({ companyId: company.id, status: 'closed', closedAt: new Date() })
    const refused = await call(`/api/v1/schemes/${closed.id}/enrolments`, keys.all, {
      json: { employee_ids: [person.id] },
    })
    expect(problemOf(refused, 409).detail).toContain('has closed, so nobody can be enrolled')

    const late = await createScheme({
      companyId: company.id,
      status: 'draft',
      opensAt: new Date(Date.now() - 3 * 86_400_000),
      closesAt: new Date(Date.now() - 86_400_000),
    })
    await enrolEmployee(late, person.id)
    const tooLate = await call(`/api/v1/schemes/${late.id}/launch`, keys.all, { method: 'POST' })
    expect(problemOf(tooLate, 409).detail).toBe(
      'Its closing time has already passed. Set a later one (edit the scheme) before launching.',
    )

    const archived = await createQuestionnaire({ status: 'archived' })
    const stale = await createScheme({ companyId: company.id, questionnaireId: archived.id, status: 'draft' })
    await enrolEmployee(stale, person.id)
    const unpublished = await call(`/api/v1/schemes/${stale.id}/launch`, keys.all, { method: 'POST' })
    expect(problemOf(unpublished, 409).detail).toBe(
      'Its questionnaire is no longer published. Choose a published one (edit the scheme) first.',
    )
    const still = await call(`/api/v1/schemes/${stale.id}`, keys.all)
    expect(still.body).toEqual(expect.objectContaining({ state: 'draft', launched_at: null }))
  })
})

describe('the admins’ reference page', () => {
  test('shows the scheme, report and answer operations, the CSV answer among them', async () => {
    const { cookie } = await signedIn({ role: 'admin' })
    const { response, body } = await request('/admin/api-keys/reference', { cookie })
    expect(response.status).toBe(200)
    const text = textOf(body)
    for (const path of [
      '/api/v1/schemes',
      '/api/v1/schemes/{id}',
      '/api/v1/schemes/{id}/enrolments',
      '/api/v1/schemes/{id}/launch',
      '/api/v1/schemes/{id}/participants',
      '/api/v1/schemes/{id}/reports',
      '/api/v1/schemes/{id}/answers',
    ])
      expect(text).toContain(path)
    expect(text).toContain('employee_ids')
    expect(text).toContain('subject e-mail')
  })
})
