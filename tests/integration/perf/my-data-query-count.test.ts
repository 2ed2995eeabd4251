import { and, asc, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getDb } from '#db/client'
import { auditLog } from '#db/schema/index'
import { createRaterAssignment, createResponse, createScheme, createUser, enrolEmployee } from '#db/factories'
import { addFocusArea } from '#app/modules/plan/plan.server'
import { useTestDatabase } from '#tests/support/database'
import { sessionCookieFor } from '#tests/support/app'
import { useQueryCountingServer } from '#tests/support/query-count'
import { addParticipant, answersFor, buildReport } from '#tests/integration/journey/report-scenario'

/**
 * The data export (ADR 055) runs the same statements however much the employee has: one employee
 * with one released report, then with four, more invitations, a plan per report and feedback given
 * to others. A statement per report (an N+1) fails here. PDFs are off (no Chromium at this path):
 * printing them reads each report's page, which is the PDF renderer's count, not the export's.
 */
process.env.CHROMIUM_PATH = '/nonexistent/chromium-for-my-data-count'

const { request } = useQueryCountingServer()
useTestDatabase()

/**
 * The session read, the rate-limit counter, then the seven reads of the export (account,
 * self-assessments, released reports, plans and shares, invitations, feedback given, audit trail)
 * and the audit entry of the download.
 */
const SESSION_READS = 1
const EXPECTED = SESSION_READS + 1 + 7 + 1

test('the export’s statements do not grow with the reports, invitations and plans', async () => {
  const built = await buildReport({ minRaters: 3, raters: [{}, {}, {}] })
  const employee = built.employee
  const cookie = await sessionCookieFor(employee.id)
  const small = await request('/user/edit-profile/my-data.zip', { cookie })
  expect(small.response.status).toBe(200)

  for (let i = 0; i < 3; i++) {
    const scheme = await createScheme({ questionnaireId: built.scheme.questionnaireId })
    const { rid } = await addParticipant(scheme, {
      subjectId: employee.id,
      self: answersFor(built.qs, { value: 4, comment: `Self ${i}` }),
      colleagues: [0, 1, 2, 3].map((n) => ({
        answers: answersFor(built.qs, { value: 1 + n, comment: `C${n}` }),
      })),
    })
    const added = await addFocusArea({ id: employee.id, ip: null }, rid, { focus: 'category:Communication' })
    expect(added.ok).toBe(true)
    // …and the employee rates someone in it.
    const other = await createUser({ role: 'employee', password: null })
    await enrolEmployee(scheme, other.id)
    const given = await createRaterAssignment({ scheme, subjectId: other.id, respondentId: employee.id })
    await createResponse({ assignmentId: given.id, answers: answersFor(built.qs), submitted: true })
  }

  const large = await request('/user/edit-profile/my-data.zip', { cookie })
  expect(large.response.status).toBe(200)
  expect({ small: small.queries, large: large.queries }).toEqual({ small: EXPECTED, large: EXPECTED })
  // The second export did hold the four reports (its audit entry counts them).
  const recorded = await getDb()
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.actorId, employee.id), eq(auditLog.action, 'user.data_exported')))
    .orderBy(asc(auditLog.at))
  expect(recorded.map((r) => r.details)).toEqual([
    { reports: 1, pdfs: 0 },
    { reports: 4, pdfs: 0 },
  ])
})
