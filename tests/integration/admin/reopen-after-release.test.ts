import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { answers, assignments, responses } from '#db/schema/index'
import { createUser } from '#db/factories'
import { reopenResponse } from '#app/modules/answers-admin/answers-admin.server'
import { loadReport } from '#app/modules/report/report.server'
import { useTestDatabase } from '#tests/support/database'
import {
  answersFor,
  buildReport,
  releaseNow,
  type RaterSpec,
} from '#tests/integration/journey/report-scenario'

/**
 * Issue 11 §4 with §1: a released report is not changed by a reopen — nor by what the colleague
 * then changes and submits again — unless an administrator releases it again (ADR 022, ADR 023).
 */
const db = useTestDatabase()

const raters = (n: number, value: number): RaterSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    answers: (qs) => answersFor(qs, { value, comment: `comment-${i}` }),
  }))

type Ready = Extract<NonNullable<Awaited<ReturnType<typeof loadReport>>>, { status: 'ready' }>

describe('reopening a response of a released report', () => {
  test('leaves the released report as it was until a new release; the colleague can answer again', async () => {
    const s = await buildReport({ minRaters: 3, raters: raters(3, 4) })
    await releaseNow(s.scheme.id, s.employee.id)
    const released = await loadReport(s.rid)
    expect(released?.status).toBe('ready')
    const before = JSON.stringify(released)
    const averageBefore = (released as Ready).questions.find((q) => q.kind === 'scale')!.colleagues.average
    expect(averageBefore).toBe(4)

    const admin = await createUser({ role: 'admin', password: null })
    const target = s.raters[0]!
    const outcome = await reopenResponse({ id: admin.id }, target.responseId, 'Answered for the wrong person')
    expect(outcome.ok).toBe(true)
    expect(JSON.stringify(await loadReport(s.rid))).toBe(before)

    // Reopened after the release, the colleague's own round has not ended: they may answer again.
    const [row] = await db()
      .select({ status: assignments.status, closedAt: assignments.closedAt })
      .from(assignments)
      .where(eq(assignments.id, target.assignment.id))
    expect(row).toEqual({ status: 'in_progress', closedAt: null })

    // They change every score to 1 and submit again: still the released report.
    await db().update(answers).set({ numericValue: 1 }).where(eq(answers.responseId, target.responseId!))
    await db().update(responses).set({ submittedAt: new Date() }).where(eq(responses.id, target.responseId!))
    await db()
      .update(assignments)
      .set({ status: 'submitted', submittedAt: new Date() })
      .where(eq(assignments.id, target.assignment.id))
    expect(JSON.stringify(await loadReport(s.rid))).toBe(before)

    // Released again by an administrator: now the report reads the new answers.
    await releaseNow(s.scheme.id, s.employee.id)
    const again = (await loadReport(s.rid)) as Ready
    expect(again.questions.find((q) => q.kind === 'scale')!.colleagues.average).toBe(3)
  })
})
