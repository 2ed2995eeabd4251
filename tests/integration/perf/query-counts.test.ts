import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { queryRows } from '#db/client'
import { eq } from 'drizzle-orm'
import {
  developmentPlans,
  employeeImportRows,
  employeeImports,
  planFocusAreas,
  users,
} from '#db/schema/index'
import {
  createBrand,
  createCompany,
  createQuestionnaire,
  createRaterAssignment,
  createResponse,
  createScheme,
  createUser,
  enrolEmployee,
  questionsOf,
  type AnswerSeed,
} from '#db/factories'
import { DEMO_QUESTIONS } from '#db/seed'
import { enqueueEmail } from '#app/modules/email/outbox.server'
import { releaseParticipant, releaseScheme } from '#app/modules/report/release.server'
import { addNominee, approveList, submitList } from '#app/modules/nomination/nomination.server'
import { addFocusArea, shareReport } from '#app/modules/plan/plan.server'
import { createIdentityProvider } from '#app/modules/sso/provider.server'
import { useTestDatabase } from '#tests/support/database'
import { sessionCookieFor } from '#tests/support/app'
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { companies, secondFactorChallenges } from '#db/schema/index'
import { hashSecret } from '#app/lib/secret-hash.server'
import { newToken } from '#app/modules/auth/session.server'
import {
  confirmEnrolment,
  getSecondFactorState,
  startEnrolment,
  startEnrolmentIn,
  timeStep,
  totpCodeAt,
} from '#app/modules/auth/totp.server'
import { useQueryCountingServer } from '#tests/support/query-count'

/**
 * The statements each page runs, asserted exactly, on a small world and again after the world has
 * grown several times over: a page whose count grows with the data (a query per row, an N+1) fails
 * here, and so does any change in a page's count, so each one is a decision someone made.
 *
 * Counted: every statement the app sends through Drizzle (the same on both drivers); transaction
 * control (BEGIN/COMMIT) is left out (db/client.ts, countingLogger).
 */

/**
 * Session reads of one signed-in request: 1. The root loader and the route loader get different
 * Request objects, so the read is remembered on the request's load context (session.server.ts).
 */
const SESSION_READS = 1

/** Expected statements per request, beyond the session reads for signed-in requests. */
const EXPECTED = {
  // Anonymous pages: no cookie, no statement.
  'GET /': 0,
  // …but the sign-in page: whether any identity provider is set up (it then asks for the address
  // first, ADR 049), one EXISTS. (None when the provider is set by variables.)
  'GET /sign-in': 1,
  'GET /bench/ping': 0,
  // Sign-in (ADR 007): the address, pair and account-turn counters taken before the password check,
  // the user, the three given back on success, the trusted-device check and the new session.
  'POST /sign-in': 10,
  // The sign-in's second step (ADR 048; no session yet): the challenge with its user in one
  // statement; setting up also reads the secret to show.
  'GET /sign-in/second-factor': 1,
  'GET /sign-in/second-factor (setting up)': 2,
  // A right code: the challenge, the step's limit counter, then in a transaction the challenge and
  // the authenticator locked, the code used and the codes left counted, the challenge gone, the
  // session and the audit row; the counter forgiven.
  'POST /sign-in/second-factor': 10,
  // Employee pages (after the session reads).
  // Programmes (each with the colleagues invited to it, as JSON), and the feedback requested from
  // the employee (ADR 036), and the lists of raters waiting for their approval as a manager (ADR 042:
  // one statement through a partial index, whatever the number of lists), and the reports shared
  // with them as a manager (ADR 043: one statement, whatever the size of their team).
  'GET /user': SESSION_READS + 4,
  // The report, ownership in its WHERE: header, questions with the self answers, the stored figures
  // (ADR 037).
  // …and the development plan beside it, with its share (ADR 043), in one statement.
  'GET /user/response-:rid': SESSION_READS + 2,
  // The plan page: the report (for its competencies and questions) and the plan with its share.
  'GET /user/development-plan/:rid': SESSION_READS + 2,
  // A fetcher's POST (no root loader): in a transaction, the plan locked with its share and areas,
  // then one UPDATE of every area and the plan's time (ADR 043).
  'POST /user/development-plan/:rid.data (autosave)': SESSION_READS + 3,
  // A report shared with its employee's manager: the access (still the manager, consent or the
  // scheme's setting, with the plan) and the report.
  'GET /user/shared/:rid (manager)': SESSION_READS + 2,
  // …of a scheme that follows an earlier one and shows the norm (ADR 044): the cycle's facts (keys,
  // the previous self response), the previous report's row and the norm's one aggregate.
  'GET /user/response-:rid (a second cycle, with the norm)': SESSION_READS + 5,
  // The assignment with its questions and their answers as JSON (ADR 036).
  'GET /assignment/:id': SESSION_READS + 1,
  // A fetcher's POST runs the action alone (no root loader). The assignment with its questions, and
  // in a transaction: lock, the response's upsert (reading back the answers stored before, for the
  // answered/required counts as just saved), answers. (No revalidation follows: the root and the
  // page opt out of it for an autosave.) ADR 036.
  'POST /assignment/:id.data (autosave)': SESSION_READS + 4,
  'GET /questionnaire/:id': SESSION_READS + 2,
  'GET /user/colleague-invite': SESSION_READS + 2,
  // The colleague directory's type-ahead (a resource route: no root loader): the searcher's rate
  // limit counter, then the access check and the search in one statement.
  'GET /user/colleague-invite/directory?q=…': SESSION_READS + 2,
  'GET /user/thank-you': SESSION_READS + 2,
  'GET /user/edit-profile': SESSION_READS + 2,
  // A list of raters (ADR 042): the employee's schemes that approve lists (with the membership's
  // state, approver and counts), then the chosen one's nominees and invitations in one UNION —
  // whatever the size of the list.
  'GET /user/nominations?scheme=… (own list)': SESSION_READS + 2,
  // …and for their manager, first that the employee reports to them.
  'GET /user/nominations?scheme=…&employee=… (manager’s review)': SESSION_READS + 3,
  // Admin pages.
  'GET /admin': SESSION_READS + 4,
  'GET /admin/company-management': SESSION_READS + 2,
  'GET /admin/company-management?edit=:id': SESSION_READS + 3,
  // The list, the brand options and the company with its employee and scheme counts.
  'GET /admin/company-management?delete=:id': SESSION_READS + 3,
  'GET /admin/brand-management': SESSION_READS + 1,
  'GET /admin/brand-management/:id': SESSION_READS + 1,
  // The admin and their brand's look, and a pending e-mail change; their second factor (ADR 048).
  'GET /admin/profile': SESSION_READS + 3,
  'GET /admin/admin-management': SESSION_READS + 1,
  // Identity providers (ADR 049): one page of providers with their domains and company counts, and
  // the companies the create form offers; a provider with its domains, companies, linked accounts
  // and the form's companies in one statement.
  'GET /admin/identity-provider-management': SESSION_READS + 2,
  'GET /admin/identity-provider-management/:id': SESSION_READS + 1,
  'GET /admin/admin-management?q=': SESSION_READS + 1,
  'GET /admin/admin-management/:uid': SESSION_READS + 1,
  // The page of employees, and the companies and schemes its filters and forms offer.
  'GET /admin/employee-management': SESSION_READS + 2,
  'GET /admin/employee-management?q=…&company=…&state=…&scheme=…': SESSION_READS + 2,
  // The employee, their schemes and the feedback asked of them (one UNION), the form's companies.
  'GET /admin/employee-management/:uid': SESSION_READS + 3,
  // A CSV import's preview: the import with its counts and schemes, then one page of its rows.
  'GET /admin/employee-management?import=:id': SESSION_READS + 2,
  // Answer management: one page of responses and the filters' choices (one statement each),
  // whatever the filters; a response is its header and its questions with the answers.
  'GET /admin/answer-management': SESSION_READS + 2,
  'GET /admin/answer-management?scheme=…&relationship=…&state=…&q=…': SESSION_READS + 2,
  'GET /admin/answer-management/:responseId': SESSION_READS + 2,
  // Reopen requests (ADR 039): one page of them, from their partial index. (Answer management's
  // count of them is a sub-select of its filters' statement.)
  'GET /admin/answer-management/reopen-requests': SESSION_READS + 1,
  // E-mail management: every template key with its default and the brand's own (one statement),
  // and the brand filter's options; with a brand chosen, its name too.
  'GET /admin/email-management': SESSION_READS + 2,
  'GET /admin/email-management?brand=:id': SESSION_READS + 3,
  // The outbox: one page of messages (with brand names) and the counts per state from the tallies.
  'GET /admin/email-management?tab=outbox': SESSION_READS + 2,
  'GET /admin/email-management?tab=outbox&state=…&template=…&to=…': SESSION_READS + 2,
  // The editor: the default and the brand's row (one statement), and the brand's look.
  'GET /admin/email-management/:key': SESSION_READS + 1,
  'GET /admin/email-management/:key.:brandId': SESSION_READS + 2,
  'GET /admin/email-management/outbox/:id': SESSION_READS + 1,
  // The list with every scheme's progress (one statement), and the filter's and the form's choices.
  'GET /admin/scheme-management': SESSION_READS + 2,
  'GET /admin/scheme-management?phase=open&q=:name': SESSION_READS + 2,
  // Filtered to a questionnaire version (where the questionnaire pages link): the same two.
  'GET /admin/scheme-management?questionnaire=:qid': SESSION_READS + 2,
  // The scheme with its counts, the progress table's page, and the enrol picker with the company's count.
  'GET /admin/scheme-management/:schemeId': SESSION_READS + 3,
  // …and the edit form's choices.
  'GET /admin/scheme-management/:schemeId?edit': SESSION_READS + 4,
  // …or the release confirmation: the participant by the table's own query (ADR 022), and what the
  // release would do under the rule between releases (ADR 025): the reports, what would be copied
  // and the earlier releases' copies — three statements, however many participants.
  'GET /admin/scheme-management/:schemeId?release=:uid': SESSION_READS + 7,
  'GET /admin/scheme-management/:schemeId?confirm=release-all': SESSION_READS + 6,
  // The page of questionnaire lines with every version's question count and scheme count (one statement).
  'GET /admin/questionnaire-management': SESSION_READS + 1,
  'GET /admin/questionnaire-management?status=published&q=:title': SESSION_READS + 1,
  // The archive confirmation adds the version with its uses (the open schemes counted), sections, questions.
  'GET /admin/questionnaire-management?archive=:qid': SESSION_READS + 4,
  // The questionnaire with its uses and versions, its sections, its questions.
  'GET /admin/questionnaire-management/:qid': SESSION_READS + 3,
  'GET /admin/questionnaire-management/:qid?preview=colleague': SESSION_READS + 3,
  'GET /admin/questionnaire-management/:qid/export.json': SESSION_READS + 3,
  // A company's retention (ADR 058): the company with its settings, last pass and legal holds in one
  // statement; the dry run, asked for, adds its three: the due schemes with their answers and
  // snapshots, the due accounts and the due audit entries — however much is due.
  'GET /admin/company-management/:id/retention': SESSION_READS + 1,
  'GET /admin/company-management/:id/retention?dry-run=1': SESSION_READS + 4,
  // API keys (ADR 054) and webhook endpoints (ADR 057, each with its deliveries' counts): the list,
  // and the companies the create form offers.
  'GET /admin/api-keys': SESSION_READS + 2,
  'GET /admin/webhooks': SESSION_READS + 2,
} as const satisfies Record<string, number>

type Case = keyof typeof EXPECTED

const db = useTestDatabase()
const { request } = useQueryCountingServer()

const PASSWORD = 'correct horse battery'
const ids = {
  rid: '',
  cycleRid: '',
  answering: '',
  questionnaire: '',
  brand: '',
  outbox: '',
  company: '',
  employee: '',
  scheme: '',
  import: '',
  admin: '',
  schemeName: '',
  provider: '',
}
const cookies = { admin: '', employee: '', answerer: '', manager: '', report: '', cycle: '' }
const lists = { scheme: '', report: '' }
/** The employee's development plan's focus areas (ADR 043). */
const plan = { areas: [] as string[] }
let signInEmail = ''
/** An admin with an authenticator (ADR 048), and the recovery codes each measured sign-in uses one of. */
const twoFactor = { id: '', codes: [] as string[] }

/** A challenge for the second step, as a good password leaves it: its cookie. */
async function challengeCookie(userId: string, step: 'verify' | 'enrol') {
  const { id, secret } = newToken()
  if (step === 'enrol') await startEnrolmentIn(db(), userId)
  await db()
    .insert(secondFactorChallenges)
    .values({ id, secretHash: hashSecret(secret), userId, step, expiresAt: new Date(Date.now() + 600_000) })
  return `__second_factor=${id}.${secret}`
}

/** Plausible answers for every question; the text ones carry a comment. */
function answersFor(qs: Awaited<ReturnType<typeof questionsOf>>, seed: number): AnswerSeed[] {
  return qs.map((q, i) => {
    const labels = q.options.labels ?? []
    switch (q.kind) {
      case 'scale':
        return { questionId: q.id, numericValue: 1 + ((seed + i) % 5) }
      case 'single':
        return { questionId: q.id, choices: [labels[(seed + i) % labels.length]!] }
      case 'multi':
        return { questionId: q.id, choices: labels.slice(0, 1 + ((seed + i) % 2)) }
      default:
        return { questionId: q.id, textValue: `Comment ${seed}.${i}` }
    }
  })
}

type Scheme = Awaited<ReturnType<typeof createScheme>>

const world = {
  questionnaire: undefined as Awaited<ReturnType<typeof createQuestionnaire>> | undefined,
  questions: [] as Awaited<ReturnType<typeof questionsOf>>,
  company: undefined as Awaited<ReturnType<typeof createCompany>> | undefined,
  scheme: undefined as Scheme | undefined,
  employee: undefined as Awaited<ReturnType<typeof createUser>> | undefined,
  answerer: undefined as Awaited<ReturnType<typeof createUser>> | undefined,
  manager: undefined as Awaited<ReturnType<typeof createUser>> | undefined,
  cycleScheme: undefined as Scheme | undefined,
  seed: 0,
}

/** A colleague's submitted (or, with submitted false, pending) rater assignment on a subject. */
async function rater(scheme: Scheme, subjectId: string, submitted: boolean) {
  const colleague = await createUser({ role: 'colleague' })
  const assignment = await createRaterAssignment({
    scheme,
    subjectId,
    respondentId: colleague.id,
    relationship: (['manager', 'peer', 'direct_report', 'other'] as const)[world.seed % 4],
  })
  if (submitted)
    await createResponse({
      assignmentId: assignment.id,
      answers: answersFor(world.questions, ++world.seed),
      submitted: true,
    })
}

/** Employees enrolled in a scheme, each with a submitted self-assessment and a few colleagues. */
async function crowd(scheme: Scheme, employees: number) {
  for (let i = 0; i < employees; i++) {
    const employee = await createUser({ role: 'employee', companyId: scheme.companyId })
    const self = await enrolEmployee(scheme, employee.id)
    await createResponse({
      assignmentId: self!.id,
      answers: answersFor(world.questions, ++world.seed),
      submitted: true,
    })
    for (let k = 0; k < 4; k++) await rater(scheme, employee.id, k < 3)
  }
}

/**
 * The small world: an admin; a brand, a company and an open scheme; the employee whose pages are
 * read (self-assessment submitted, three colleagues answered and one invited: the report shows
 * colleague data); an employee part-way through their self-assessment; and a crowd around them.
 */
async function smallWorld() {
  const admin = await createUser({ role: 'admin', password: PASSWORD })
  const brand = await createBrand()
  world.company = await createCompany({ brandId: brand.id })
  world.questionnaire = await createQuestionnaire({ title: 'Leadership 360', questions: DEMO_QUESTIONS })
  world.questions = await questionsOf(world.questionnaire.id)
  world.scheme = await createScheme({ companyId: world.company.id, questionnaireId: world.questionnaire.id })

  world.employee = await createUser({ role: 'employee', companyId: world.company.id, password: PASSWORD })
  const self = await enrolEmployee(world.scheme, world.employee.id)
  const response = await createResponse({
    assignmentId: self!.id,
    answers: answersFor(world.questions, 0),
    submitted: true,
  })
  for (let k = 0; k < 4; k++) await rater(world.scheme, world.employee.id, k < 3)
  // Released (ADR 022): the report's colleague statements run on the release's copies.
  await releaseParticipant({ id: admin.id }, world.scheme.id, world.employee.id)

  world.answerer = await createUser({ role: 'employee', companyId: world.company.id })
  const answering = await enrolEmployee(world.scheme, world.answerer.id)
  await createResponse({ assignmentId: answering!.id, answers: answersFor(world.questions, 1).slice(0, 2) })

  await crowd(world.scheme, 4)

  const [staged] = await db()
    .insert(employeeImports)
    .values({ createdBy: admin.id, fileName: 'people.csv', rowCount: 3 })
    .returning()
  await stageImportRows(staged!.id, 0, 3)
  const { id: outbox } = await enqueueEmail(db(), {
    to: 'counted@example.com',
    template: 'response_ready',
    brandId: brand.id,
    values: { link: 'https://x.test/' },
  })

  Object.assign(ids, {
    outbox,
    employee: world.employee.id,
    scheme: world.scheme.id,
    import: staged!.id,
    rid: response.id,
    answering: answering!.id,
    questionnaire: world.questionnaire.id,
    brand: brand.id,
    company: world.company.id,
    schemeName: world.scheme.name,
  })
  cookies.admin = await sessionCookieFor(admin.id)
  ids.admin = admin.id
  ids.provider = await addProvider(1, [world.company!.id])
  cookies.employee = await sessionCookieFor(world.employee.id)
  cookies.answerer = await sessionCookieFor(world.answerer.id)
  signInEmail = world.employee.email
  const withApp = await createUser({ role: 'admin', password: PASSWORD })
  await startEnrolment({ id: withApp.id })
  const key = decodeBase32IgnorePadding(
    (await getSecondFactorState(withApp.id)).setup!.secret.replace(/ /g, ''),
  )
  const enrolled = await confirmEnrolment({ id: withApp.id }, totpCodeAt(key, timeStep()))
  Object.assign(twoFactor, { id: withApp.id, codes: enrolled.ok ? enrolled.value.recoveryCodes : [] })
  await nominationWorld()
  await cycleWorld(admin.id)
  // Retention set (ADR 058): the cycle's first scheme, closed over a year ago, is due.
  await db()
    .update(companies)
    .set({ retentionAnswersMonths: 12, retentionAccountsMonths: 12, retentionAuditMonths: 12 })
    .where(eq(companies.id, world.company!.id))
}

/** One employee in two cycles of a company (the second follows the first and shows the norm), both released. */
async function cycleWorld(adminId: string) {
  const DAY = 24 * 60 * 60 * 1000
  const previous = await createScheme({
    companyId: world.company!.id,
    questionnaireId: world.questionnaire!.id,
    opensAt: new Date(Date.now() - 400 * DAY),
    closesAt: new Date(Date.now() - 370 * DAY),
    status: 'closed',
  })
  const current = await createScheme({
    companyId: world.company!.id,
    questionnaireId: world.questionnaire!.id,
    followsSchemeId: previous.id,
    showNorm: true,
  })
  const employee = await createUser({ role: 'employee', companyId: world.company!.id, password: PASSWORD })
  for (const scheme of [previous, current]) {
    const self = await enrolEmployee(scheme, employee.id)
    const response = await createResponse({
      assignmentId: self!.id,
      answers: answersFor(world.questions, ++world.seed),
      submitted: true,
    })
    for (let k = 0; k < 3; k++) await rater(scheme, employee.id, true)
    await releaseParticipant({ id: adminId }, scheme.id, employee.id)
    ids.cycleRid = response.id
  }
  cookies.cycle = await sessionCookieFor(employee.id)
  world.cycleScheme = current
}

/**
 * A manager and their report, whose list of raters in a scheme approved by managers waits for the
 * manager (ADR 042), built and sent through the domain functions.
 */
async function nominationWorld() {
  const manager = await createUser({ role: 'employee', companyId: world.company!.id })
  const report = await createUser({ role: 'employee', companyId: world.company!.id, managerId: manager.id })
  const scheme = await createScheme({
    companyId: world.company!.id,
    questionnaireId: world.questionnaire!.id,
    nominationApproval: 'manager',
    minManager: 1,
    minPeer: 3,
  })
  await enrolEmployee(scheme, report.id)
  const ref = { employeeId: report.id, schemeId: scheme.id }
  const actor = { id: report.id, role: 'employee' as const }
  await addNominee(actor, { ...ref, name: 'The Manager', email: manager.email, relationship: 'manager' })
  for (let k = 0; k < 3; k++)
    await addNominee(actor, {
      ...ref,
      name: `Peer ${k}`,
      email: `peer.${k}.${report.id}@example.test`,
      relationship: 'peer',
    })
  expect((await submitList(actor, ref)).ok).toBe(true)
  Object.assign(lists, { scheme: scheme.id, report: report.id })
  cookies.manager = await sessionCookieFor(manager.id)
  cookies.report = await sessionCookieFor(report.id)
  world.manager = manager
  // The same manager manages the employee whose report is read: a plan, shared with them (ADR 043).
  await db().update(users).set({ managerId: manager.id }).where(eq(users.id, world.employee!.id))
  await addToPlan(1)
  expect((await shareReport({ id: world.employee!.id }, ids.rid, { includePlan: true })).ok).toBe(true)
}

/** Adds `count` of the report's scale questions to the employee's plan. */
async function addToPlan(count: number) {
  const scales = world.questions
    .filter((q) => q.kind === 'scale')
    .slice(plan.areas.length, plan.areas.length + count)
  for (const q of scales)
    expect((await addFocusArea({ id: world.employee!.id }, ids.rid, { focus: `question:${q.id}` })).ok).toBe(
      true,
    )
  const rows = await db()
    .select({ id: planFocusAreas.id })
    .from(planFocusAreas)
    .innerJoin(developmentPlans, eq(developmentPlans.id, planFocusAreas.planId))
    .where(eq(developmentPlans.employeeId, world.employee!.id))
    .orderBy(planFocusAreas.position)
  plan.areas = rows.map((r) => r.id)
}

/**
 * The list grows: the manager adds people to it, and a second scheme of the report's has its list
 * approved (its invitations read with the nominees).
 */
async function growLists() {
  const ref = { employeeId: lists.report, schemeId: lists.scheme }
  const manager = { id: world.manager!.id, role: 'employee' as const }
  for (let k = 0; k < 3; k++)
    expect(
      (
        await addNominee(manager, {
          ...ref,
          name: `Other ${k}`,
          email: `other.${k}.${lists.report}@example.test`,
          relationship: 'other',
        })
      ).ok,
    ).toBe(true)
  const second = await createScheme({
    companyId: world.company!.id,
    questionnaireId: world.questionnaire!.id,
    nominationApproval: 'manager',
  })
  await enrolEmployee(second, lists.report)
  const secondRef = { employeeId: lists.report, schemeId: second.id }
  const actor = { id: lists.report, role: 'employee' as const }
  for (let k = 0; k < 5; k++)
    await addNominee(actor, {
      ...secondRef,
      name: `Second ${k}`,
      email: `second.${k}.${lists.report}@example.test`,
      relationship: 'peer',
    })
  expect((await submitList(actor, secondRef)).ok).toBe(true)
  expect((await approveList(manager, secondRef)).ok).toBe(true)
}

/** Rows of a CSV import, as the upload stages them (lines from + 2 on), some with problems. */
async function stageImportRows(importId: string, from: number, count: number) {
  await db()
    .insert(employeeImportRows)
    .values(
      Array.from({ length: count }, (_, i) => ({
        importId,
        line: from + i + 2,
        name: `Imported ${from + i}`,
        email: `imported.${from + i}@example.test`,
        companyName: 'Nowhere',
        errors: (from + i) % 3 ? [] : ['company_unknown'],
      })),
    )
}

/**
 * Several times the rows: more brands and companies (the admin lists fill up), four more colleagues
 * on the employee (eight, the most a scheme allows) and a second scheme for them, more employees
 * with colleagues and answers, and a second answering scheme for the answerer.
 */
/** An identity provider for the companies given (ADR 049), with two domains. */
async function addProvider(n: number, companyIds: string[]) {
  const created = await createIdentityProvider(
    { id: ids.admin },
    {
      name: `Provider ${n}`,
      issuer: `https://login${n}.example/v2.0`,
      clientId: `client-${n}`,
      clientSecret: `secret-${n}`,
      scopes: ['openid', 'email', 'profile'],
      domains: [`p${n}.example`, `p${n}.example.org`],
      companyIds,
      allowPassword: true,
      jitCompanyId: null,
    },
  )
  if (!created.ok) throw new Error('the provider was refused')
  return created.value.id
}

async function growWorld() {
  const { scheme, employee, answerer } = world as Required<typeof world>
  for (let i = 0; i < 8; i++) await createCompany({ brandId: (await createBrand()).id })
  // More providers, the measured one with every company.
  for (let n = 2; n < 6; n++) await addProvider(n, [world.company!.id])
  const everyCompany = await queryRows<{ id: string }>(db(), sql`SELECT id FROM companies`)
  await db().execute(
    sql`INSERT INTO identity_provider_companies (provider_id, company_id)
        SELECT ${ids.provider}, c.id FROM companies c ON CONFLICT DO NOTHING`,
  )
  expect(everyCompany.length).toBeGreaterThan(8)
  for (let k = 0; k < 4; k++) await rater(scheme!, employee!.id, k < 3)
  // Released again with the new colleagues: the report reads the latest of two releases.
  await releaseParticipant({ id: ids.admin }, scheme!.id, employee!.id)

  const second = await createScheme({
    companyId: world.company!.id,
    questionnaireId: world.questionnaire!.id,
  })
  const secondSelf = await enrolEmployee(second, employee!.id)
  await createResponse({
    assignmentId: secondSelf!.id,
    answers: answersFor(world.questions, 2),
    submitted: true,
  })
  for (let k = 0; k < 5; k++) await rater(second, employee!.id, k < 4)
  const answererSecond = await enrolEmployee(second, answerer!.id)
  await createResponse({ assignmentId: answererSecond!.id, answers: answersFor(world.questions, 3) })

  await crowd(scheme!, 16)
  await crowd(second, 4)
  // Another company's releases of the same line: the norm's aggregate reads them.
  const elsewhere = await createScheme({ questionnaireId: world.questionnaire!.id })
  await crowd(elsewhere, 8)
  await releaseScheme({ id: ids.admin }, elsewhere.id)
  // Many releases in the tables, the crowd's among them.
  await releaseScheme({ id: ids.admin }, scheme!.id)
  await releaseScheme({ id: ids.admin }, second.id)
  await stageImportRows(ids.import, 3, 200)
  await growLists()
  // The plan fills up (three focus areas), and the manager's team grows with reports shared too.
  await addToPlan(2)
  for (let k = 0; k < 3; k++) {
    const member = await createUser({
      role: 'employee',
      companyId: world.company!.id,
      managerId: world.manager!.id,
    })
    const self = await enrolEmployee(scheme!, member.id)
    const response = await createResponse({
      assignmentId: self!.id,
      answers: answersFor(world.questions, 7),
      submitted: true,
    })
    for (let j = 0; j < 3; j++) await rater(scheme!, member.id, true)
    await releaseParticipant({ id: ids.admin }, scheme!.id, member.id)
    expect((await shareReport({ id: member.id }, response.id, { includePlan: false })).ok).toBe(true)
  }
  // The employee is asked for feedback by others too (the detail page lists it).
  for (let k = 0; k < 3; k++) {
    const other = await createUser({ role: 'employee', companyId: world.company!.id })
    await enrolEmployee(scheme!, other.id)
    await createRaterAssignment({ scheme: scheme!, subjectId: other.id, respondentId: employee!.id })
  }
}

const CASES: Record<Case, () => Promise<{ status: number; queries: number }>> = {
  'GET /': () => get('/', null),
  'GET /sign-in': () => get('/sign-in', null),
  'GET /bench/ping': () => get('/bench/ping', null),
  'POST /sign-in': async () => {
    const { response, queries } = await request('/sign-in', {
      form: { email: signInEmail, password: PASSWORD },
    })
    return { status: response.status, queries }
  },
  'GET /sign-in/second-factor': async () =>
    get('/sign-in/second-factor', await challengeCookie(twoFactor.id, 'verify')),
  'GET /sign-in/second-factor (setting up)': async () =>
    get('/sign-in/second-factor', await challengeCookie((await createUser({ role: 'admin' })).id, 'enrol')),
  'POST /sign-in/second-factor': async () => {
    const { response, queries } = await request('/sign-in/second-factor', {
      cookie: await challengeCookie(twoFactor.id, 'verify'),
      form: { intent: 'verify', code: twoFactor.codes.pop()! },
    })
    return { status: response.status, queries }
  },
  'GET /user': () => get('/user', cookies.employee),
  'GET /user/development-plan/:rid': () => get(`/user/development-plan/${ids.rid}`, cookies.employee),
  'POST /user/development-plan/:rid.data (autosave)': async () => {
    const fields = Object.fromEntries(
      plan.areas.flatMap((id, i) => [
        [`areas[${i}].id`, id],
        [`areas[${i}].stance`, 'develop'],
        [`areas[${i}].actions`, `Step ${world.seed++}`],
      ]),
    )
    const { response, queries } = await request(`/user/development-plan/${ids.rid}.data`, {
      cookie: cookies.employee,
      form: { intent: 'autosave', ...fields },
    })
    return { status: response.status, queries }
  },
  'GET /user/shared/:rid (manager)': () => get(`/user/shared/${ids.rid}`, cookies.manager),
  'GET /user/response-:rid': () => get(`/user/response-${ids.rid}`, cookies.employee),
  'GET /user/response-:rid (a second cycle, with the norm)': () =>
    get(`/user/response-${ids.cycleRid}`, cookies.cycle),
  'GET /assignment/:id': () => get(`/assignment/${ids.answering}`, cookies.answerer),
  'POST /assignment/:id.data (autosave)': async () => {
    // The page's form posts every question of its section (the first: two scales).
    const section = world.questions.filter((q) => q.section === world.questions[0]!.section)
    const fields = Object.fromEntries(section.map((q) => [`q-${q.id}`, String(1 + (world.seed++ % 5))]))
    const { response, queries } = await request(`/assignment/${ids.answering}.data`, {
      cookie: cookies.answerer,
      form: { intent: 'autosave', section: '1', ...fields },
    })
    return { status: response.status, queries }
  },
  'GET /questionnaire/:id': () =>
    get(`/questionnaire/${ids.questionnaire}?assignment=${ids.answering}`, cookies.answerer),
  'GET /user/colleague-invite': () => get('/user/colleague-invite', cookies.employee),
  'GET /user/colleague-invite/directory?q=…': () =>
    get('/user/colleague-invite/directory?q=employee', cookies.employee),
  'GET /user/thank-you': () => get('/user/thank-you', cookies.employee),
  'GET /user/edit-profile': () => get('/user/edit-profile', cookies.employee),
  'GET /user/nominations?scheme=… (own list)': () =>
    get(`/user/nominations?scheme=${lists.scheme}`, cookies.report),
  'GET /user/nominations?scheme=…&employee=… (manager’s review)': () =>
    get(`/user/nominations?scheme=${lists.scheme}&employee=${lists.report}`, cookies.manager),
  'GET /admin': () => get('/admin', cookies.admin),
  'GET /admin/company-management': () => get('/admin/company-management', cookies.admin),
  'GET /admin/company-management?edit=:id': () =>
    get(`/admin/company-management?edit=${ids.company}`, cookies.admin),
  'GET /admin/company-management?delete=:id': () =>
    get(`/admin/company-management?delete=${ids.company}`, cookies.admin),
  'GET /admin/brand-management': () => get('/admin/brand-management', cookies.admin),
  'GET /admin/identity-provider-management': () => get('/admin/identity-provider-management', cookies.admin),
  'GET /admin/identity-provider-management/:id': () =>
    get(`/admin/identity-provider-management/${ids.provider}`, cookies.admin),
  'GET /admin/email-management': () => get('/admin/email-management', cookies.admin),
  'GET /admin/email-management?brand=:id': () =>
    get(`/admin/email-management?brand=${ids.brand}`, cookies.admin),
  'GET /admin/email-management?tab=outbox': () => get('/admin/email-management?tab=outbox', cookies.admin),
  'GET /admin/email-management?tab=outbox&state=…&template=…&to=…': () =>
    get('/admin/email-management?tab=outbox&state=queued&template=response_ready&to=count*', cookies.admin),
  'GET /admin/email-management/:key': () => get('/admin/email-management/colleague_invite', cookies.admin),
  'GET /admin/email-management/:key.:brandId': () =>
    get(`/admin/email-management/colleague_invite.${ids.brand}`, cookies.admin),
  'GET /admin/email-management/outbox/:id': () =>
    get(`/admin/email-management/outbox/${ids.outbox}`, cookies.admin),
  'GET /admin/brand-management/:id': () => get(`/admin/brand-management/${ids.brand}`, cookies.admin),
  'GET /admin/profile': () => get('/admin/profile', cookies.admin),
  'GET /admin/scheme-management': () => get('/admin/scheme-management', cookies.admin),
  'GET /admin/scheme-management?phase=open&q=:name': () =>
    get(`/admin/scheme-management?phase=open&q=${encodeURIComponent(ids.schemeName)}`, cookies.admin),
  'GET /admin/scheme-management?questionnaire=:qid': () =>
    get(`/admin/scheme-management?questionnaire=${ids.questionnaire}`, cookies.admin),
  'GET /admin/scheme-management/:schemeId': () =>
    get(`/admin/scheme-management/${ids.scheme}`, cookies.admin),
  'GET /admin/scheme-management/:schemeId?edit': () =>
    get(`/admin/scheme-management/${ids.scheme}?edit`, cookies.admin),
  'GET /admin/scheme-management/:schemeId?release=:uid': () =>
    get(`/admin/scheme-management/${ids.scheme}?release=${ids.employee}`, cookies.admin),
  'GET /admin/scheme-management/:schemeId?confirm=release-all': () =>
    get(`/admin/scheme-management/${ids.scheme}?confirm=release-all`, cookies.admin),
  'GET /admin/questionnaire-management': () => get('/admin/questionnaire-management', cookies.admin),
  'GET /admin/questionnaire-management?status=published&q=:title': () =>
    get('/admin/questionnaire-management?status=published&q=Leadership', cookies.admin),
  'GET /admin/questionnaire-management?archive=:qid': () =>
    get(`/admin/questionnaire-management?archive=${ids.questionnaire}`, cookies.admin),
  'GET /admin/questionnaire-management/:qid': () =>
    get(`/admin/questionnaire-management/${ids.questionnaire}`, cookies.admin),
  'GET /admin/questionnaire-management/:qid?preview=colleague': () =>
    get(`/admin/questionnaire-management/${ids.questionnaire}?preview=colleague`, cookies.admin),
  'GET /admin/questionnaire-management/:qid/export.json': () =>
    get(`/admin/questionnaire-management/${ids.questionnaire}/export.json`, cookies.admin),
  'GET /admin/answer-management': () => get('/admin/answer-management', cookies.admin),
  'GET /admin/answer-management?scheme=…&relationship=…&state=…&q=…': () =>
    get(
      `/admin/answer-management?${new URLSearchParams({ scheme: ids.scheme, relationship: 'self', state: 'in_progress', q: 'employee' })}`,
      cookies.admin,
    ),
  'GET /admin/answer-management/:responseId': () => get(`/admin/answer-management/${ids.rid}`, cookies.admin),
  'GET /admin/answer-management/reopen-requests': () =>
    get('/admin/answer-management/reopen-requests', cookies.admin),
  'GET /admin/admin-management': () => get('/admin/admin-management', cookies.admin),
  'GET /admin/admin-management?q=': () => get('/admin/admin-management?q=adm', cookies.admin),
  'GET /admin/admin-management/:uid': () => get(`/admin/admin-management/${ids.admin}`, cookies.admin),
  'GET /admin/employee-management': () => get('/admin/employee-management', cookies.admin),
  'GET /admin/employee-management?q=…&company=…&state=…&scheme=…': () =>
    get(
      `/admin/employee-management?${new URLSearchParams({ q: 'employee', company: ids.company, state: 'active', scheme: ids.scheme })}`,
      cookies.admin,
    ),
  'GET /admin/employee-management/:uid': () =>
    get(`/admin/employee-management/${ids.employee}`, cookies.admin),
  'GET /admin/employee-management?import=:id': () =>
    get(`/admin/employee-management?import=${ids.import}`, cookies.admin),
  'GET /admin/company-management/:id/retention': () =>
    get(`/admin/company-management/${ids.company}/retention`, cookies.admin),
  'GET /admin/company-management/:id/retention?dry-run=1': () =>
    get(`/admin/company-management/${ids.company}/retention?dry-run=1`, cookies.admin),
  'GET /admin/api-keys': () => get('/admin/api-keys', cookies.admin),
  'GET /admin/webhooks': () => get('/admin/webhooks', cookies.admin),
}

async function get(pathname: string, cookie: string | null) {
  const { response, queries } = await request(pathname, { cookie })
  return { status: response.status, queries }
}

/** Every case, with the status it must answer (a redirect or an error page would count differently). */
async function measure() {
  const got: Record<string, string> = {}
  const want: Record<string, string> = {}
  for (const [name, run] of Object.entries(CASES) as Array<[Case, (typeof CASES)[Case]]>) {
    const { status, queries } = await run()
    const okStatus = name.startsWith('POST /sign-in') ? 302 : 200
    got[name] = `${status} ${queries}`
    want[name] = `${okStatus} ${EXPECTED[name]}`
  }
  return { got, want }
}

describe('statements per request', () => {
  beforeAll(smallWorld)

  test('each page runs the expected number of statements', async () => {
    const { got, want } = await measure()
    expect(got).toEqual(want)
  })

  test('and the same number once the data has grown several times over', async () => {
    const answerCount = async () =>
      Number((await queryRows<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM answers`))[0]!.n)
    const before = await answerCount()
    await growWorld()
    expect(await answerCount()).toBeGreaterThanOrEqual(4 * before)
    const { got, want } = await measure()
    expect(got).toEqual(want)
  })
})

describe('the session read', () => {
  test('a session due for renewal is read once and extended once; the page sees the renewed session', async () => {
    const cookie = await sessionCookieFor((await createUser({ role: 'employee' })).id)
    const id = decodeURIComponent(cookie.slice('__session='.length)).split('.')[0]!
    await db().execute(sql`UPDATE sessions SET expires_at = now() + interval '3 days' WHERE id = ${id}`)

    // The root loader renews (one read, one update); the page's guard is handed the same read.
    const renewing = await request('/user', { cookie })
    expect(renewing.response.status).toBe(200)
    expect(renewing.response.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(true)
    expect(renewing.queries).toBe(SESSION_READS + 1 + (EXPECTED['GET /user'] - SESSION_READS))
    const [row] = await queryRows<{ days: number }>(
      db(),
      sql`SELECT extract(epoch FROM expires_at - now()) / 86400 AS days FROM sessions WHERE id = ${id}`,
    )
    expect(Number(row!.days)).toBeGreaterThan(29)

    // Renewed, the next request reads it once and extends nothing.
    const next = await request('/user', { cookie })
    expect(next.response.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(false)
    expect(next.queries).toBe(EXPECTED['GET /user'])
  })

  test('a form posted without JavaScript: the action reads the session, the loaders after it read again', async () => {
    // The action may have changed the user or ended the session: its read is not reused. /user
    // has no form, so its action answers 405 and the page's loaders run after it.
    const cookie = await sessionCookieFor((await createUser({ role: 'employee' })).id)
    const { response, queries } = await request('/user', { cookie, form: { any: 'thing' } })
    expect(response.status).toBe(405)
    expect(queries).toBe(SESSION_READS + EXPECTED['GET /user'])
  })
})
