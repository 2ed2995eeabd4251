import crypto from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getHandle, queryRows } from '#db/client'
import type { RetentionAnswerMode } from '#db/enums'
import {
  assignments,
  auditLog,
  companies,
  developmentPlans,
  questionnaires,
  reportReleases,
  schemes,
  users,
} from '#db/schema/index'
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
import { loadReport } from '#app/modules/report/report.server'
import { normRows } from '#app/modules/norm/norm.server'
import {
  previewRetention,
  retentionPolicies,
  runCompanyRetention,
  withRetentionLock,
  RETENTION_LOCK,
  type RetentionPolicy,
} from '#app/modules/retention/retention.server'
import { pseudonymOf, retentionDueAt } from '#app/modules/retention/rules'
import { useTestDatabase } from '#tests/support/database'
import { answersFor, QUESTIONS, releaseNow } from '#tests/integration/journey/report-scenario'

/**
 * The retention pass (issue 21 §3, ADR 058) against a real database with a controlled clock: every
 * `now` below is computed from the rows' own dates, so nothing sleeps and nothing depends on today.
 */
const db = useTestDatabase()

const DAY = 24 * 60 * 60 * 1000
/** When the schemes closed, the accounts were disabled or invited, the audit entries written. */
const T0 = new Date('2024-03-15T10:00:00Z')
const MONTHS = 12
const DUE = retentionDueAt(T0, MONTHS)
const DAY_EARLY = new Date(DUE.getTime() - DAY)
const DAY_LATE = new Date(DUE.getTime() + DAY)

type World = Awaited<ReturnType<typeof world>>

/**
 * A company with a closed scheme (two subjects, three colleagues each, released, with comments),
 * a development plan on one report, a disabled and a never-activated account, and audit entries.
 */
async function world(options: { mode?: RetentionAnswerMode; policy?: Partial<RetentionPolicy> } = {}) {
  const company = await createCompany({ name: `Retainers ${crypto.randomUUID()}` })
  const questionnaire = await createQuestionnaire({ questions: QUESTIONS })
  const qs = await questionsOf(questionnaire.id)
  const scheme = await createScheme({
    companyId: company.id,
    questionnaireId: questionnaire.id,
    minRaters: 3,
    opensAt: new Date(T0.getTime() - 30 * DAY),
    closesAt: T0,
  })
  const subjects: { id: string; rid: string; raters: string[] }[] = []
  for (let i = 0; i < 2; i++) {
    const subject = await createUser({ role: 'employee', companyId: company.id })
    const self = (await enrolEmployee(scheme, subject.id))!
    const selfResponse = await createResponse({
      assignmentId: self.id,
      answers: answersFor(qs, { value: 4, comment: 'My own note' }),
      submitted: true,
    })
    const raters: string[] = []
    for (const value of [2, 3, 5]) {
      const rater = await createUser({ role: 'colleague', password: null })
      raters.push(rater.id)
      const assignment = await createRaterAssignment({
        scheme,
        subjectId: subject.id,
        respondentId: rater.id,
        respondentName: `Rater ${value}`,
      })
      await createResponse({
        assignmentId: assignment.id,
        answers: answersFor(qs, { value, comment: `Said by rater ${value}` }),
        submitted: true,
      })
    }
    await releaseNow(scheme.id, subject.id)
    subjects.push({ id: subject.id, rid: selfResponse.id, raters })
  }
  await db()
    .insert(developmentPlans)
    .values({ schemeId: scheme.id, employeeId: subjects[0]!.id, responseId: subjects[0]!.rid })
  await db().update(schemes).set({ status: 'closed', closedAt: T0 }).where(eq(schemes.id, scheme.id))

  const disabled = await createUser({ role: 'employee', companyId: company.id, displayName: 'Dora Disabled' })
  await db().update(users).set({ disabledAt: T0 }).where(eq(users.id, disabled.id))
  const neverActivated = await createUser({
    role: 'employee',
    companyId: company.id,
    password: null,
    displayName: 'Nico Neveractive',
  })
  await db().update(users).set({ createdAt: T0 }).where(eq(users.id, neverActivated.id))
  const active = await createUser({ role: 'employee', companyId: company.id })

  // Audit entries about the company's people, made by one of them, and about the scheme.
  const audited = await db()
    .insert(auditLog)
    .values([
      {
        actorId: active.id,
        action: 'user.update',
        entity: 'user',
        entityId: active.id,
        ip: '203.0.113.7',
        at: T0,
        details: { changes: { name: { from: 'Old Name', to: 'New Name' } }, email: 'someone@example.test' },
      },
      {
        actorId: active.id,
        action: 'response.reopen_request',
        entity: 'scheme',
        entityId: scheme.id,
        ip: '203.0.113.7',
        at: T0,
        details: { reason: 'Please reopen, Sam typed wrongly', schemeName: scheme.name },
      },
      {
        actorId: null,
        action: 'company.update',
        entity: 'company',
        entityId: company.id,
        at: T0,
        details: { changes: { feedbackRequestCap: { from: 5, to: 6 } } },
      },
    ])
    .returning({ id: auditLog.id })

  await db()
    .update(companies)
    .set({
      retentionAnswersMonths: MONTHS,
      retentionAnswersMode: options.mode ?? 'anonymise',
      retentionAccountsMonths: MONTHS,
      retentionAuditMonths: MONTHS,
      ...(options.policy
        ? {
            retentionAnswersMonths: 'answersMonths' in options.policy ? options.policy.answersMonths : MONTHS,
            retentionAccountsMonths:
              'accountsMonths' in options.policy ? options.policy.accountsMonths : MONTHS,
            retentionAuditMonths: 'auditMonths' in options.policy ? options.policy.auditMonths : MONTHS,
          }
        : {}),
    })
    .where(eq(companies.id, company.id))
  const [policy] = await retentionPolicies(db(), company.id)
  const [line] = await db()
    .select({ lineageId: questionnaires.lineageId })
    .from(questionnaires)
    .where(eq(questionnaires.id, questionnaire.id))
  return {
    company,
    scheme,
    subjects,
    disabled,
    neverActivated,
    active,
    audited: audited.map((a) => a.id),
    policy: policy!,
    lineageId: line!.lineageId,
  }
}

const count = async (statement: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: number }>(db(), statement))[0]!.n)

async function schemeRows(w: World) {
  const s = w.scheme.id
  return {
    assignments: await count(sql`SELECT count(*)::int AS n FROM assignments WHERE scheme_id = ${s}`),
    answers: await count(
      sql`SELECT count(*)::int AS n FROM answers an JOIN responses r ON r.id = an.response_id
          JOIN assignments a ON a.id = r.assignment_id WHERE a.scheme_id = ${s}`,
    ),
    releases: await count(sql`SELECT count(*)::int AS n FROM report_releases WHERE scheme_id = ${s}`),
    copies: await count(
      sql`SELECT count(*)::int AS n FROM report_release_answers x JOIN report_releases rr ON rr.id = x.release_id
          WHERE rr.scheme_id = ${s}`,
    ),
  }
}

/** The tallies agree with the tables they count (ADR 010). */
async function talliesConsistent() {
  const [row] = await queryRows<{ tallied: number; counted: number }>(
    db(),
    sql`SELECT (SELECT coalesce(sum(delta), 0) FROM tallies WHERE name = 'submitted')::int AS tallied,
          (SELECT count(*) FROM assignments WHERE status = 'submitted')::int AS counted`,
  )
  expect(row!.tallied).toBe(row!.counted)
}

const colleagueFigures = async (schemeId: string) =>
  (
    await db()
      .select({ figures: reportReleases.colleagueFigures })
      .from(reportReleases)
      .where(eq(reportReleases.schemeId, schemeId))
      .orderBy(reportReleases.subjectId)
  ).map((r) => r.figures as { questions: unknown[]; comments: unknown[] })

describe('a controlled clock: nothing a day early, everything a day late', () => {
  test('schemes, accounts and audit entries', async () => {
    const w = await world()
    const before = await schemeRows(w)
    const early = await previewRetention(w.policy, DAY_EARLY)
    expect(early).toMatchObject({ schemes: 0, answers: 0, snapshots: 0, accounts: 0, auditEntries: 0 })
    const nothing = await runCompanyRetention(w.policy, DAY_EARLY)
    expect(nothing).toMatchObject({ schemes: 0, answers: 0, snapshots: 0, accounts: 0, auditEntries: 0 })
    expect(await schemeRows(w)).toEqual(before)

    const late = await runCompanyRetention(w.policy, DAY_LATE)
    expect(late).toMatchObject({ schemes: 1, snapshots: 2, accounts: 2, auditEntries: 3 })
    expect(late.answers).toBeGreaterThan(0)
    const [gone] = await db()
      .select({ erasedAt: users.erasedAt })
      .from(users)
      .where(eq(users.id, w.disabled.id))
    expect(gone!.erasedAt).not.toBeNull()
    const [kept] = await db()
      .select({ erasedAt: users.erasedAt })
      .from(users)
      .where(eq(users.id, w.active.id))
    expect(kept!.erasedAt).toBeNull()
  })

  test('at exactly the due instant the period has passed; a later month end never comes early', async () => {
    const w = await world({ policy: { accountsMonths: null, auditMonths: null } })
    expect((await previewRetention(w.policy, DUE)).schemes).toBe(1)
    // 31 March + 1 month is 30 April, not 1 May: a day before it, still kept.
    expect(retentionDueAt(new Date('2025-03-31T00:00:00Z'), 1).toISOString()).toBe('2025-04-30T00:00:00.000Z')
  })
})

describe('the dry run is what the pass then does', () => {
  for (const mode of ['anonymise', 'delete'] as const) {
    test(mode, async () => {
      const w = await world({ mode })
      const before = await schemeRows(w)
      const preview = await previewRetention(w.policy, DAY_LATE)
      // The dry run changed nothing.
      expect(await schemeRows(w)).toEqual(before)
      const pass = await runCompanyRetention(w.policy, DAY_LATE)
      expect({
        schemes: pass.schemes,
        answers: pass.answers,
        snapshots: pass.snapshots,
        accounts: pass.accounts,
        auditEntries: pass.auditEntries,
      }).toEqual({
        schemes: preview.schemes,
        answers: preview.answers,
        snapshots: preview.snapshots,
        accounts: preview.accounts,
        auditEntries: preview.auditEntries,
      })
      expect(pass.schemeNames).toEqual(preview.dueSchemes.map((s) => s.name))
      // Each colleague answered every question: anonymise removes theirs, delete everyone's.
      expect(preview.answers).toBe(mode === 'delete' ? before.answers : (before.answers * 3) / 4)
    })
  }
})

describe('anonymise and delete', () => {
  test('anonymise keeps the released aggregates without comments or any link to a rater', async () => {
    const w = await world({ mode: 'anonymise', policy: { accountsMonths: null, auditMonths: null } })
    const report = await loadReport(w.subjects[0]!.rid)
    const figuresBefore = await colleagueFigures(w.scheme.id)
    expect(figuresBefore.every((f) => f.comments.length > 0)).toBe(true)
    await runCompanyRetention(w.policy, DAY_LATE)

    const figuresAfter = await colleagueFigures(w.scheme.id)
    expect(figuresAfter.map((f) => f.questions)).toEqual(figuresBefore.map((f) => f.questions))
    expect(figuresAfter.every((f) => f.comments.length === 0)).toBe(true)
    // No rater assignment, response or answer is left; the copies name no source and hold no text.
    const left = await queryRows<{ relationship: string }>(
      db(),
      sql`SELECT relationship FROM assignments WHERE scheme_id = ${w.scheme.id}`,
    )
    expect(left.map((a) => a.relationship)).toEqual(['self', 'self'])
    for (const rater of w.subjects.flatMap((s) => s.raters))
      expect(
        await count(sql`SELECT count(*)::int AS n FROM assignments WHERE respondent_id = ${rater}`),
      ).toBe(0)
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM report_release_answers x JOIN report_releases rr ON rr.id = x.release_id
            WHERE rr.scheme_id = ${w.scheme.id} AND (x.text_value IS NOT NULL OR x.source_answer_id <> x.id)`,
      ),
    ).toBe(0)
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM report_release_responses x JOIN report_releases rr ON rr.id = x.release_id
            WHERE rr.scheme_id = ${w.scheme.id} AND x.source_response_id IS NOT NULL`,
      ),
    ).toBe(0)
    // The employee still reads the same colleague figures, without the comments (§8 holds: no
    // figure changed, so nothing can be subtracted).
    const after = await loadReport(w.subjects[0]!.rid)
    type Ready = {
      status: 'ready'
      questions: { kind: string; colleagues?: { average: number | null } | null }[]
    }
    const averages = (r: unknown) =>
      (r as Ready).questions.filter((q) => q.kind === 'scale').map((q) => q.colleagues?.average ?? null)
    expect(averages(after)).toEqual(averages(report))
    expect(JSON.stringify(after)).not.toContain('Said by rater')
    const [scheme] = await db()
      .select({ at: schemes.retentionAppliedAt, mode: schemes.retentionMode })
      .from(schemes)
      .where(eq(schemes.id, w.scheme.id))
    expect(scheme).toEqual({ at: DAY_LATE, mode: 'anonymise' })
    await talliesConsistent()
  })

  test('delete removes the answers and the snapshots, and what derives from them follows', async () => {
    const w = await world({ mode: 'delete', policy: { accountsMonths: null, auditMonths: null } })
    // An entry about a rater's assignment, younger than any audit period (none is set here).
    const [rated] = await queryRows<{ id: string }>(
      db(),
      sql`SELECT id FROM assignments WHERE scheme_id = ${w.scheme.id} AND relationship = 'peer' LIMIT 1`,
    )
    const [entry] = await db()
      .insert(auditLog)
      .values({
        actorId: w.subjects[0]!.id,
        action: 'assignment.invite',
        entity: 'assignment',
        entityId: rated!.id,
        ip: '198.51.100.9',
        details: { respondentName: 'Rater 2', email: 'rater.two@example.test' },
      })
      .returning({ id: auditLog.id })
    const normBefore = await normRows(db(), { lineageId: w.lineageId, excludeCompanyId: null })
    expect(Math.max(...normBefore.questions.map((q) => q.participants))).toBe(2)
    await runCompanyRetention(w.policy, DAY_LATE)
    expect(await schemeRows(w)).toEqual({ assignments: 0, answers: 0, releases: 0, copies: 0 })
    // The entry lost its personal data with the assignment it was about.
    const [after] = await db().select().from(auditLog).where(eq(auditLog.id, entry!.id))
    expect(after!.actorId).toBeNull()
    expect(after!.ip).toBeNull()
    expect(JSON.stringify(after!.details)).not.toMatch(/Rater 2|rater\.two/)
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM development_plans WHERE response_id = ${w.subjects[0]!.rid}`,
      ),
    ).toBe(0)
    // Norms read the releases: the scheme no longer counts.
    const normAfter = await normRows(db(), { lineageId: w.lineageId, excludeCompanyId: null })
    expect(normAfter.questions).toEqual([])
    // The clock does not release the reports again: there is nothing left to release.
    const { releaseOnClose } = await import('#app/modules/report/release.server')
    expect(await releaseOnClose(DAY_LATE, { schemeId: w.scheme.id })).toEqual([])
    await talliesConsistent()
    // The scheme and its enrolments stay, marked.
    const [scheme] = await db()
      .select({ mode: schemes.retentionMode })
      .from(schemes)
      .where(eq(schemes.id, w.scheme.id))
    expect(scheme!.mode).toBe('delete')
  })
})

describe('legal hold', () => {
  test('pauses the scheme, its entries and its people until it is lifted', async () => {
    const w = await world({ mode: 'delete' })
    // The disabled account is also a member of the held scheme.
    await db().insert(assignments).values({
      schemeId: w.scheme.id,
      questionnaireId: w.scheme.questionnaireId,
      subjectId: w.subjects[0]!.id,
      respondentId: w.disabled.id,
      relationship: 'peer',
    })
    await db()
      .update(schemes)
      .set({ legalHoldAt: T0, legalHoldReason: 'Tribunal claim 2025/17' })
      .where(eq(schemes.id, w.scheme.id))
    const before = await schemeRows(w)
    const held = await previewRetention(w.policy, DAY_LATE)
    expect(held).toMatchObject({ schemes: 0, answers: 0, snapshots: 0, accounts: 1 })
    const pass = await runCompanyRetention(w.policy, DAY_LATE)
    expect(pass).toMatchObject({ schemes: 0, accounts: 1 })
    expect(await schemeRows(w)).toEqual(before)
    const [disabled] = await db()
      .select({ erasedAt: users.erasedAt })
      .from(users)
      .where(eq(users.id, w.disabled.id))
    expect(disabled!.erasedAt).toBeNull()
    // The entry about the held scheme waits too; the others do not.
    const [schemeEntry] = await db()
      .select({ at: auditLog.pseudonymisedAt })
      .from(auditLog)
      .where(eq(auditLog.id, w.audited[1]!))
    expect(schemeEntry!.at).toBeNull()

    await db()
      .update(schemes)
      .set({ legalHoldAt: null, legalHoldReason: null })
      .where(eq(schemes.id, w.scheme.id))
    const lifted = await runCompanyRetention(w.policy, DAY_LATE)
    expect(lifted).toMatchObject({ schemes: 1, accounts: 1, auditEntries: 1 })
  })
})

describe('audit entries', () => {
  test('after M months their personal data is pseudonymised, stably', async () => {
    const w = await world({ policy: { answersMonths: null, accountsMonths: null } })
    const secret = process.env.SESSION_SECRET ?? ''
    await runCompanyRetention(w.policy, DAY_LATE)
    const rows = await db()
      .select()
      .from(auditLog)
      .where(
        sql`${auditLog.id} IN (${sql.join(
          w.audited.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      )
    const byAction = Object.fromEntries(rows.map((r) => [r.action, r]))
    const update = byAction['user.update']!
    expect(update.actorId).toBeNull()
    expect(update.ip).toBeNull()
    expect(update.pseudonymisedAt).toEqual(DAY_LATE)
    const details = update.details as Record<string, unknown>
    expect(JSON.stringify(details)).not.toMatch(/Old Name|New Name|someone@example\.test|203\.0\.113/)
    expect(details.actor).toMatch(/^person-[0-9a-f]{12}$/)
    if (secret) expect(details.actor).toBe(pseudonymOf(secret, w.active.id))
    // The same person is the same pseudonym in every entry.
    const reopen = byAction['response.reopen_request']!
    expect((reopen.details as Record<string, unknown>).actor).toBe(details.actor)
    // Free text is removed, what is not personal stays.
    expect(reopen.details).not.toHaveProperty('reason')
    expect((reopen.details as Record<string, unknown>).schemeName).toBe(w.scheme.name)
    expect(byAction['company.update']!.details).toEqual({
      changes: { feedbackRequestCap: { from: 5, to: 6 } },
    })
  })

  test('a batch size of 2 over 5 entries takes 3 transactions, with the same result as one', async () => {
    const results: number[] = []
    for (const batchSize of [2, 500]) {
      const w = await world({ policy: { answersMonths: null, accountsMonths: null } })
      await db()
        .insert(auditLog)
        .values(
          [1, 2].map((i) => ({
            actorId: w.active.id,
            action: 'user.update',
            entity: 'user',
            entityId: w.active.id,
            at: T0,
            details: { email: `n${i}@example.test` },
          })),
        )
      const pass = await runCompanyRetention(w.policy, DAY_LATE, { batchSize })
      expect(pass.auditEntries).toBe(5)
      results.push(pass.transactions)
      expect(
        await count(
          sql`SELECT count(*)::int AS n FROM audit_log WHERE (entity_id = ${w.active.id} OR actor_id = ${w.active.id})
              AND at = ${T0.toISOString()}::timestamptz AND pseudonymised_at IS NULL`,
        ),
      ).toBe(0)
    }
    expect(results).toEqual([3, 1])
  })
})

describe('a second pass', () => {
  test('does nothing and records nothing new', async () => {
    const w = await world({ mode: 'delete' })
    await runCompanyRetention(w.policy, DAY_LATE)
    const passes = () =>
      count(
        sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'retention.pass' AND entity_id = ${w.company.id}`,
      )
    expect(await passes()).toBe(1)
    const rowsBefore = await schemeRows(w)
    const again = await runCompanyRetention(w.policy, new Date(DAY_LATE.getTime() + 60 * DAY))
    expect(again).toMatchObject({ schemes: 0, answers: 0, snapshots: 0, accounts: 0, auditEntries: 0 })
    expect(await passes()).toBe(1)
    expect(await schemeRows(w)).toEqual(rowsBefore)
    const [company] = await db()
      .select({ at: companies.retentionLastPassAt, last: companies.retentionLastPass })
      .from(companies)
      .where(eq(companies.id, w.company.id))
    expect(company!.at).toEqual(new Date(DAY_LATE.getTime() + 60 * DAY))
    expect(company!.last).toMatchObject({ schemes: 0, answers: 0 })
  })
})

describe('one instance at a time', () => {
  test.runIf(Boolean(process.env.TEST_DATABASE_URL))('a held advisory lock skips the pass', async () => {
    const client = await getHandle().pool!.connect()
    try {
      await client.query(`SELECT pg_advisory_lock(${RETENTION_LOCK})`)
      expect(await withRetentionLock(async () => 'ran')).toBeNull()
      await client.query(`SELECT pg_advisory_unlock(${RETENTION_LOCK})`)
      expect(await withRetentionLock(async () => 'ran')).toBe('ran')
    } finally {
      client.release()
    }
  })
})
