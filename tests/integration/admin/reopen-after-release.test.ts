import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { answers, assignments, responses } from '#db/schema/index'
import { createUser } from '#db/factories'
import { reopenResponse } from '#app/modules/response/response.server'
import { loadReport } from '#app/modules/report/report.server'
import { releaseParticipant } from '#app/modules/report/release.server'
import { useTestDatabase } from '#tests/support/database'
import {
  answersFor,
  buildReport,
  releaseNow,
  type RaterSpec,
} from '#tests/integration/journey/report-scenario'

/**
 * Issue 11 §4 with §1: a released report is not changed by a reopen — nor by what the colleague
 * then changes and submits again — unless an administrator releases it again (ADR 022, ADR 023),
 * and only once enough responses have changed (issue 15 A3, ADR 025).
 */
const db = useTestDatabase()

const raters = (n: number, value: number): RaterSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    answers: (qs) => answersFor(qs, { value, comment: `comment-${i}` }),
  }))

type Ready = Extract<NonNullable<Awaited<ReturnType<typeof loadReport>>>, { status: 'ready' }>

describe('reopening a response of a released report', () => {
  test('leaves the released report as it was until a new release; the colleague can answer again', async () => {
    const s = await buildReport({ minRaters: 3, release: false, raters: raters(3, 4) })
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
    const resubmit = async (rater: (typeof s.raters)[number]) => {
      await db().update(answers).set({ numericValue: 1 }).where(eq(answers.responseId, rater.responseId!))
      await db().update(responses).set({ submittedAt: new Date() }).where(eq(responses.id, rater.responseId!))
      await db()
        .update(assignments)
        .set({ status: 'submitted', submittedAt: new Date() })
        .where(eq(assignments.id, rater.assignment.id))
    }
    await resubmit(target)
    expect(JSON.stringify(await loadReport(s.rid))).toBe(before)

    // One changed response cannot be released again: comparing the two reports would give that
    // colleague's new answers away (issue 15 A3, ADR 025). The refusal says so, with the numbers.
    const refused = await releaseParticipant({ id: admin.id }, s.scheme.id, s.employee.id)
    expect(refused).toMatchObject({
      ok: false,
      formErrors: [expect.stringContaining('1 response has changed since the last release (1 changed)')],
    })
    expect(refused.ok ? '' : refused.formErrors![0]).toContain('3 are needed before the report can change')
    expect(JSON.stringify(await loadReport(s.rid))).toBe(before)

    // Two more reopened and changed: three changes, the threshold; now it may be released again.
    for (const rater of s.raters.slice(1, 3)) {
      expect(
        await reopenResponse({ id: admin.id }, rater.responseId, 'Answered for the wrong person'),
      ).toMatchObject({ ok: true })
      await resubmit(rater)
    }
    await releaseNow(s.scheme.id, s.employee.id)
    const again = (await loadReport(s.rid)) as Ready
    expect(again.questions.find((q) => q.kind === 'scale')!.colleagues.average).toBe(1)
  })
})
