import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { companies, schemes, users } from '#db/schema/index'
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
import {
  previewRetention,
  retentionPolicies,
  runCompanyRetention,
  type RetentionPolicy,
} from '#app/modules/retention/retention.server'
import { retentionDueAt } from '#app/modules/retention/rules'
import { useTestDatabase } from '#tests/support/database'
import { planOf, recordStatements, scansOf, type Statement } from '#tests/support/query-plans'

/**
 * Retention’s statements are index-driven (issue 21 §3, ADR 058): with big tables around — 30,000
 * people, 30,000 assignments with responses and answers, 120,000 audit entries, all of another
 * company, vacuumed and analysed — neither the dry run nor the pass reads any of those tables whole.
 */
const db = useTestDatabase()
const onPostgres = inject('testDatabase').kind === 'postgres'

// The tables this file makes big (no release exists here: the copies' table is empty, and read whole it is nothing).
const BIG = ['users', 'assignments', 'responses', 'answers', 'audit_log']
const T0 = new Date('2024-03-15T10:00:00Z')
const NOW = new Date(retentionDueAt(T0, 12).getTime() + 24 * 60 * 60 * 1000)

async function seqScansOf(statements: Statement[]) {
  const found: string[] = []
  for (const statement of statements) {
    if (!/^\s*(select|with|update|delete|insert)/i.test(statement.text)) continue
    for (const scan of scansOf(await planOf(statement)))
      if (scan.type === 'Seq Scan' && BIG.includes(scan.table))
        found.push(`${scan.table}: ${statement.text.replace(/\s+/g, ' ').slice(0, 120)}`)
  }
  return found
}

describe.skipIf(!onPostgres)('retention on big tables', () => {
  let policy: RetentionPolicy

  beforeAll(async () => {
    const other = await createCompany({ name: 'Plans Elsewhere' })
    const questionnaire = await createQuestionnaire({})
    const qs = await questionsOf(questionnaire.id)
    const big = await createScheme({ companyId: other.id, questionnaireId: questionnaire.id })
    await db().execute(
      sql`INSERT INTO users (email, display_name, role, company_id)
          SELECT 'plan.' || n || '@elsewhere.test', 'Person ' || n, 'employee', ${other.id}::uuid
          FROM generate_series(1, 30000) n`,
    )
    await db().execute(
      sql`INSERT INTO assignments (scheme_id, questionnaire_id, subject_id, respondent_id, relationship, status)
          SELECT ${big.id}::uuid, ${questionnaire.id}::uuid, u.id,
            lead(u.id, 1, u.id) OVER (ORDER BY u.id), 'peer', 'submitted'
          FROM users u WHERE u.company_id = ${other.id}::uuid`,
    )
    await db().execute(
      sql`INSERT INTO responses (assignment_id, submitted_at) SELECT id, now() FROM assignments WHERE scheme_id = ${big.id}::uuid`,
    )
    await db().execute(
      sql`INSERT INTO answers (response_id, question_id, numeric_value)
          SELECT r.id, ${qs[0]!.id}::uuid, 3 FROM responses r JOIN assignments a ON a.id = r.assignment_id
          WHERE a.scheme_id = ${big.id}::uuid`,
    )
    await db().execute(
      sql`INSERT INTO audit_log (actor_id, action, entity, entity_id, at, details)
          SELECT a.respondent_id, 'assignment.invite', 'assignment', a.id::text, ${T0.toISOString()}::timestamptz,
            jsonb_build_object('email', 'x' || g || '@elsewhere.test')
          FROM assignments a CROSS JOIN generate_series(1, 4) g WHERE a.scheme_id = ${big.id}::uuid`,
    )

    // The company under retention: small, with a closed scheme, people and entries due.
    const mine = await createCompany({ name: 'Plans Retained' })
    const scheme = await createScheme({
      companyId: mine.id,
      questionnaireId: questionnaire.id,
      opensAt: new Date(T0.getTime() - 30 * 24 * 60 * 60 * 1000),
      closesAt: T0,
    })
    for (let i = 0; i < 3; i++) {
      const subject = await createUser({ role: 'employee', companyId: mine.id })
      const self = (await enrolEmployee(scheme, subject.id))!
      await createResponse({
        assignmentId: self.id,
        answers: [{ questionId: qs[0]!.id, numericValue: 4 }],
        submitted: true,
      })
      const rater = await createUser({ role: 'colleague', password: null })
      const assignment = await createRaterAssignment({
        scheme,
        subjectId: subject.id,
        respondentId: rater.id,
      })
      await createResponse({
        assignmentId: assignment.id,
        answers: [{ questionId: qs[0]!.id, numericValue: 2 }],
        submitted: true,
      })
      await db().execute(
        sql`INSERT INTO audit_log (actor_id, action, entity, entity_id, at) VALUES
            (${subject.id}::uuid, 'user.update', 'user', ${subject.id}, ${T0.toISOString()}::timestamptz)`,
      )
    }
    const dormant = await createUser({ role: 'employee', companyId: mine.id, password: null })
    await db().update(users).set({ createdAt: T0 }).where(eq(users.id, dormant.id))
    await db().update(schemes).set({ status: 'closed', closedAt: T0 }).where(eq(schemes.id, scheme.id))
    await db()
      .update(companies)
      .set({
        retentionAnswersMonths: 12,
        retentionAnswersMode: 'delete',
        retentionAccountsMonths: 12,
        retentionAuditMonths: 12,
      })
      .where(eq(companies.id, mine.id))
    for (const table of ['users', 'assignments', 'responses', 'answers', 'audit_log', 'schemes', 'companies'])
      await db().execute(sql.raw(`VACUUM ANALYZE ${table}`))
    policy = (await retentionPolicies(db(), mine.id))[0]!
  }, 180_000)

  test('the dry run reads no big table whole', async () => {
    const { result, statements } = await recordStatements(() => previewRetention(policy, NOW))
    expect(result).toMatchObject({ schemes: 1, answers: 6, accounts: 1, auditEntries: 3 })
    expect(await seqScansOf(statements)).toEqual([])
  })

  test('nor does the pass, statement by statement', async () => {
    const { result, statements } = await recordStatements(() => runCompanyRetention(policy, NOW))
    expect(result).toMatchObject({ schemes: 1, answers: 6, accounts: 1, auditEntries: 3 })
    expect(statements.length).toBeGreaterThan(10)
    expect(await seqScansOf(statements)).toEqual([])
  })
})
