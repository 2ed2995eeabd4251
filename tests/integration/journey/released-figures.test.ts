import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { getDb, queryRows } from '#db/client'
import { answers, reportReleaseAnswers, reportReleases, responses, schemes } from '#db/schema/index'
import { seed } from '#db/seed'
import { loadReport } from '#app/modules/report/report.server'
import { useTestDatabase } from '#tests/support/database'
import { loadReportAsBefore } from '#tests/support/report-oracle'
import { answersFor, buildReport, countQueries, type RaterSpec } from './report-scenario'

/**
 * Issue 17 §1 (ADR 037): a released report's colleague side is computed once, at release, and the
 * page reads it. What it shows must be exactly what the report computed on every view before
 * (tests/support/report-oracle.ts, the code as it was): for every report of the demo seed and over
 * generated reports of every shape — threshold 1–8, any mix of relationships, "not applicable",
 * comments, the manager option, a second release, a threshold changed after the release.
 */
useTestDatabase()

const RELATIONSHIPS = ['manager', 'peer', 'direct_report', 'other'] as const

async function figuresOf(rid: string) {
  const rows = await queryRows<{ colleague_figures: unknown }>(
    getDb(),
    sql`SELECT rr.colleague_figures FROM report_releases rr
      JOIN assignments a ON a.scheme_id = rr.scheme_id AND a.subject_id = rr.subject_id
      JOIN responses r ON r.assignment_id = a.id
      WHERE r.id = ${rid} ORDER BY rr.released_at DESC, rr.id DESC LIMIT 1`,
  )
  return rows[0]?.colleague_figures ?? null
}

describe('a released report read from the figures its release stored', () => {
  test('every report of the demo seed reads exactly as the report computed on each view', async () => {
    await seed()
    const selfResponses = await queryRows<{ id: string }>(
      getDb(),
      sql`SELECT r.id FROM responses r JOIN assignments a ON a.id = r.assignment_id
        WHERE a.relationship = 'self' ORDER BY r.id`,
    )
    expect(selfResponses.length).toBeGreaterThan(0)
    let ready = 0
    for (const { id } of selfResponses) {
      const report = await loadReport(id)
      expect(report).toEqual(await loadReportAsBefore(id))
      if (report?.status === 'ready') ready++
    }
    // The demo seed holds released reports with colleague figures: the comparison is not vacuous.
    expect(ready).toBeGreaterThan(0)
  })

  test('generated reports of every shape read exactly as before, and the page aggregates nothing', async () => {
    const rater = fc.record({
      relationship: fc.constantFrom(...RELATIONSHIPS),
      value: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      comment: fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: undefined }),
      choice: fc.integer({ min: 0, max: 2 }),
      submitted: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(rater, { maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        async (specs, minRaters, showManager) => {
          const raters: RaterSpec[] = specs.map((s) => ({
            relationship: s.relationship,
            submitted: s.submitted,
            answers: (qs) =>
              answersFor(qs, {
                value: s.value,
                comment: s.comment,
                choice: ['Look for common ground', 'Hold my position', 'Defer to others'][s.choice],
              }),
          }))
          const built = await buildReport({ minRaters, raters, showManager })
          const report = await loadReport(built.rid)
          expect(report).toEqual(await loadReportAsBefore(built.rid))
          if (report?.status === 'ready') {
            // Stored at release, so reading it is one statement: no aggregation on a view.
            expect(await figuresOf(built.rid)).not.toBeNull()
            expect(await countQueries(() => loadReport(built.rid))).toBe(1)
          }
        },
      ),
      { numRuns: 30 },
    )
  }, 240_000)

  test('a later edit of the release copies changes nothing: the page reads the stored figures', async () => {
    const raters: RaterSpec[] = Array.from({ length: 3 }, (_, i) => ({
      answers: (qs) => answersFor(qs, { value: 2 + i, comment: `Note ${i}` }),
    }))
    const built = await buildReport({ minRaters: 3, raters })
    const before = await loadReport(built.rid)
    expect(before?.status).toBe('ready')
    await getDb().update(reportReleaseAnswers).set({ numericValue: 1, textValue: 'changed' })
    expect(await loadReport(built.rid)).toEqual(before)
  })

  test('a release made before the figures existed has them computed on its first view, then stored', async () => {
    const raters: RaterSpec[] = Array.from({ length: 4 }, (_, i) => ({
      relationship: RELATIONSHIPS[i % 4],
      answers: (qs) => answersFor(qs, { value: (i % 5) + 1, comment: `Said ${i}` }),
    }))
    const built = await buildReport({ minRaters: 3, raters })
    const expected = await loadReportAsBefore(built.rid)
    await getDb().update(reportReleases).set({ colleagueFigures: null })
    expect(await loadReport(built.rid)).toEqual(expected)
    expect(await figuresOf(built.rid)).not.toBeNull()
    expect(await countQueries(() => loadReport(built.rid))).toBe(1)
  })

  test('a threshold raised or lowered after the release reads as the report did before', async () => {
    const raters: RaterSpec[] = Array.from({ length: 3 }, (_, i) => ({
      relationship: i ? 'peer' : 'manager',
      answers: (qs) => answersFor(qs, { value: i + 2, comment: `Word ${i}` }),
    }))
    // Released below its threshold: the self-assessment alone, no figures stored.
    const built = await buildReport({ minRaters: 5, raters })
    expect((await loadReport(built.rid))?.status).toBe('gathering')
    expect(await figuresOf(built.rid)).toBeNull()
    for (const minRaters of [1, 2, 3, 4, 8]) {
      await getDb().update(schemes).set({ minRaters }).where(eq(schemes.id, built.scheme.id))
      expect(await loadReport(built.rid)).toEqual(await loadReportAsBefore(built.rid))
    }
    // Released with full figures: lowering the threshold may show more groups, raising it shuts the gate.
    const full = await buildReport({ minRaters: 2, raters })
    expect((await loadReport(full.rid))?.status).toBe('ready')
    for (const minRaters of [1, 3, 4]) {
      await getDb().update(schemes).set({ minRaters }).where(eq(schemes.id, full.scheme.id))
      expect(await loadReport(full.rid)).toEqual(await loadReportAsBefore(full.rid))
    }
    expect((await loadReport(full.rid))?.status).toBe('gathering')
  })

  test('the stored figures hold no answer, response or respondent id', async () => {
    const raters: RaterSpec[] = Array.from({ length: 3 }, (_, i) => ({
      answers: (qs) => answersFor(qs, { value: 3, comment: `Comment ${i}` }),
    }))
    const built = await buildReport({ minRaters: 2, raters })
    const stored = JSON.stringify(await figuresOf(built.rid))
    expect(stored).toContain('Comment 0')
    const ids = await getDb()
      .select({ response: responses.id, answer: answers.id })
      .from(answers)
      .innerJoin(responses, eq(responses.id, answers.responseId))
    for (const r of built.raters) {
      expect(stored).not.toContain(r.user.id)
      expect(stored).not.toContain(r.assignment.id)
    }
    for (const { response, answer } of ids) {
      expect(stored).not.toContain(response)
      expect(stored).not.toContain(answer)
    }
  })
})
