import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { nominees, schemeMembers } from '#db/schema/index'
import type { NominationStatus } from '#db/enums'
import { createCompany, createQuestionnaire, createScheme, createUser, enrolEmployee } from '#db/factories'
import { getNominationQueue, NOMINATION_QUEUE_LIMIT } from '#app/modules/nomination/queue.server'
import { loadSchemePage } from '#app/modules/scheme/scheme-page.server'
import { useTestDatabase } from '#tests/support/database'
import { sessionCookieFor } from '#tests/support/app'
import { useQueryCountingServer } from '#tests/support/query-count'
import { textOf as visibleText } from '#tests/integration/auth/helpers'

/**
 * The administrators' queue of nomination lists on the scheme page (issue 18 §3, ADR 042): only
 * the scheme's submitted lists, the oldest submission first, each with who must approve it (the
 * manager by name, or administrators) and how many people are on it; the lists counted by state;
 * nothing of another scheme; no queue (and no statement) where the scheme approves nothing; the
 * page's statements counted, the same with two waiting lists as with more than a page of them; and
 * the dashboard's count of the lists waiting for an administrator, inside its one counting statement.
 */
const { request } = useQueryCountingServer()
const db = useTestDatabase()

/** Session reads of one signed-in request (as in tests/integration/perf/query-counts.test.ts). */
const SESSION_READS = 1
const MINUTE = 60_000
const BASE = Date.UTC(2026, 0, 5, 9, 0)

let adminCookie = ''
let company = { id: '' }
let questionnaire = { id: '' }

beforeAll(async () => {
  const admin = await createUser({ role: 'admin', password: null })
  adminCookie = await sessionCookieFor(admin.id)
  company = await createCompany({ name: 'Queue Co' })
  questionnaire = await createQuestionnaire({ title: 'Queue 360' })
})

type Scheme = Awaited<ReturnType<typeof createScheme>>

/** An enrolled employee whose list stands at `status`, submitted `minutes` after BASE, with `people` on it. */
async function member(
  scheme: Scheme,
  name: string,
  status: NominationStatus | null,
  options: { minutes?: number; approverId?: string | null; people?: number } = {},
) {
  const employee = await createUser({
    role: 'employee',
    companyId: company.id,
    displayName: name,
    password: null,
  })
  await enrolEmployee(scheme, employee.id)
  await db()
    .update(schemeMembers)
    .set({
      nominationStatus: status,
      nominationSubmittedAt:
        status === 'submitted' || status === 'approved' || status === 'sent_back'
          ? new Date(BASE + (options.minutes ?? 0) * MINUTE)
          : null,
      nominationApproverId: options.approverId ?? null,
    })
    .where(and(eq(schemeMembers.schemeId, scheme.id), eq(schemeMembers.employeeId, employee.id)))
  for (let i = 0; i < (options.people ?? 0); i++)
    await db()
      .insert(nominees)
      .values({
        schemeId: scheme.id,
        employeeId: employee.id,
        email: `nominee-${i}-${employee.id.slice(0, 8)}@example.test`,
        name: `Nominee ${i}`,
        relationship: i === 0 ? 'manager' : 'peer',
        addedBy: employee.id,
      })
  return employee
}

const page = async (schemeId: string) => {
  const { response, body, queries } = await request(`/admin/scheme-management/${schemeId}`, {
    cookie: adminCookie,
  })
  expect(response.status).toBe(200)
  return { html: body.replaceAll('<!-- -->', ''), queries }
}

describe('a scheme whose lists the manager approves', () => {
  let scheme: Scheme
  let other: Scheme
  const people: Record<string, { id: string }> = {}

  beforeAll(async () => {
    scheme = await createScheme({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      nominationApproval: 'manager',
    })
    other = await createScheme({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      nominationApproval: 'admin',
    })
    const manager = await createUser({
      role: 'employee',
      companyId: company.id,
      displayName: 'Morgan Manager',
      password: null,
    })
    // Submitted later, approved by the manager; submitted first, by administrators (no manager recorded).
    people.later = await member(scheme, 'Lee Later', 'submitted', {
      minutes: 30,
      approverId: manager.id,
      people: 3,
    })
    people.first = await member(scheme, 'Fay First', 'submitted', { minutes: 5, people: 1 })
    people.draft = await member(scheme, 'Dee Draft', 'draft', { people: 2 })
    people.back = await member(scheme, 'Sam Sentback', 'sent_back', { minutes: 1, approverId: manager.id })
    people.approved = await member(scheme, 'Abe Approved', 'approved', { minutes: 2, people: 4 })
    people.none = await member(scheme, 'Nat Notbegun', null)
    // Another scheme's waiting list, submitted before everyone's: not this scheme's queue.
    people.elsewhere = await member(other, 'Eve Elsewhere', 'submitted', { minutes: -60, people: 5 })
  })

  test('lists only this scheme’s submitted lists, oldest first, with approvers and counts', async () => {
    const queue = await getNominationQueue(scheme.id)
    expect(queue).toEqual({
      rows: [
        {
          employeeId: people.first!.id,
          name: 'Fay First',
          submittedAt: new Date(BASE + 5 * MINUTE).toISOString(),
          approverId: null,
          approverName: null,
          nominees: 1,
        },
        {
          employeeId: people.later!.id,
          name: 'Lee Later',
          submittedAt: new Date(BASE + 30 * MINUTE).toISOString(),
          approverId: expect.any(String),
          approverName: 'Morgan Manager',
          nominees: 3,
        },
      ],
      more: 0,
      counts: { not_begun: 1, draft: 1, submitted: 2, sent_back: 1, approved: 1 },
    })
    const elsewhere = await getNominationQueue(other.id)
    expect(elsewhere!.rows.map((r) => r.name)).toEqual(['Eve Elsewhere'])
    expect(elsewhere!.counts).toEqual({ not_begun: 0, draft: 0, submitted: 1, sent_back: 0, approved: 0 })
  })

  test('the dashboard counts the lists waiting for an administrator, to the oldest one’s scheme, no extra statement', async () => {
    const { response, body, queries } = await request('/admin', { cookie: adminCookie })
    expect(response.status).toBe(200)
    const html = body.replaceAll('<!-- -->', '')
    // Fay First's and Eve Elsewhere's (no manager approves them), not Lee Later's (their manager's).
    expect(html).toMatch(
      new RegExp(
        `<a[^>]*href="/admin/scheme-management/${other.id}#nomination-queue"[^>]*>(?:(?!</a>).)*Nomination lists waiting for an administrator</p><p[^>]*>2</p>`,
      ),
    )
    // As tests/integration/perf/query-counts.test.ts asserts for the dashboard: the counts' one statement.
    expect(queries).toBe(SESSION_READS + 4)
  })

  test('the scheme page shows the card: states in one line, each list with its approver and a Review link', async () => {
    const { html, queries } = await page(scheme.id)
    expect(html).toContain('Nomination lists waiting for approval')
    expect(html).toContain('Draft 1 · Submitted 2 · Sent back 1 · Approved 1 · Not begun 1')
    const card = html.slice(html.indexOf('Nomination lists waiting for approval'))
    const table = card.slice(0, card.indexOf('</table>'))
    // Oldest first; administrators for the one with no manager; the manager by name.
    expect(table.indexOf('Fay First')).toBeLessThan(table.indexOf('Lee Later'))
    expect(table).toMatch(/Fay First<\/th><td[^>]*>[^<]*<\/td><td[^>]*>Administrators<\/td><td[^>]*>1<\/td>/)
    expect(table).toMatch(/Lee Later<\/th><td[^>]*>[^<]*<\/td><td[^>]*>Morgan Manager<\/td><td[^>]*>3<\/td>/)
    for (const who of [people.first!, people.later!])
      expect(table).toContain(`href="/user/nominations?scheme=${scheme.id}&amp;employee=${who.id}"`)
    expect(table).toContain('>Review<span class="sr-only"> the list of Fay First</span>')
    for (const absent of ['Dee Draft', 'Sam Sentback', 'Abe Approved', 'Nat Notbegun', 'Eve Elsewhere'])
      expect(table).not.toContain(absent)
    // The scheme, the progress table, the enrol picker — and the queue (one statement more than a
    // scheme that approves nothing, below).
    expect(queries).toBe(SESSION_READS + 4)
  })

  test('more than a page of waiting lists: the oldest 50, the rest counted, the same statements', async () => {
    const crowded = await createScheme({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      nominationApproval: 'admin',
    })
    const total = NOMINATION_QUEUE_LIMIT + 2
    for (let i = 0; i < total; i++)
      await member(crowded, `Crowd ${String(i).padStart(2, '0')}`, 'submitted', { minutes: total - i })
    const queue = (await getNominationQueue(crowded.id))!
    expect(queue.rows).toHaveLength(NOMINATION_QUEUE_LIMIT)
    expect(queue.more).toBe(2)
    // Submitted in reverse order of their names: the last-named came first.
    expect(queue.rows[0]!.name).toBe(`Crowd ${total - 1}`)
    expect(queue.rows.at(-1)!.name).toBe('Crowd 02')
    const { html, queries } = await page(crowded.id)
    expect(html).toContain('2 more lists are waiting; the oldest are shown first.')
    expect(queries).toBe(SESSION_READS + 4)
  })
})

describe('a scheme that approves nothing', () => {
  test('has no queue on its page and no statement for one', async () => {
    const scheme = await createScheme({ companyId: company.id, questionnaireId: questionnaire.id })
    // Even with a (stray) submitted membership: the setting decides.
    await member(scheme, 'Stray Submitted', 'submitted', { minutes: 1 })
    const { html, queries } = await page(scheme.id)
    expect(visibleText(html)).not.toContain('Nomination lists waiting for approval')
    // As tests/integration/perf/query-counts.test.ts asserts for the scheme page.
    expect(queries).toBe(SESSION_READS + 3)
    const data = await loadSchemePage(scheme.id, new URLSearchParams())
    expect(data!.nominationQueue).toBeNull()
  })

  test('an approving scheme with nobody enrolled: the states all 0 and an empty queue', async () => {
    const scheme = await createScheme({
      companyId: company.id,
      questionnaireId: questionnaire.id,
      nominationApproval: 'admin',
    })
    expect(await getNominationQueue(scheme.id)).toEqual({
      rows: [],
      more: 0,
      counts: { not_begun: 0, draft: 0, submitted: 0, sent_back: 0, approved: 0 },
    })
    const { html } = await page(scheme.id)
    expect(html).toContain('No list is waiting for approval.')
    expect(await getNominationQueue('not-a-uuid')).toBeNull()
  })
})
