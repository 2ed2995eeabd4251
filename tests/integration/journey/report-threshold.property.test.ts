import fc from 'fast-check'
import { expect, test } from 'vitest'
import { loadReport } from '#app/modules/report/report.server'
import { useTestDatabase } from '#tests/support/database'
import { loadReportAsBefore } from '#tests/support/report-oracle'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { answersFor, buildReport, type RaterSpec } from './report-scenario'

/**
 * The anonymity invariant, over every rater count 0–8 and threshold 1–8 (with colleagues who do not
 * count mixed in): the report's loader data — through the real `.data` request and the module —
 * holds colleague answers exactly when the submitted colleagues reach the threshold. One database,
 * a fresh scheme per run.
 */
useTestDatabase()
const server = useTestServer()

test('colleague answers appear exactly when the count reaches the threshold', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 8 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 0, max: 1 }),
      async (submitted, minRaters, inProgress, revoked) => {
        // The scheme allows at most 8 live colleagues: uncounted ones only fill the remaining places.
        const extraInProgress = Math.min(inProgress, 8 - submitted)
        const tag = Math.random().toString(36).slice(2, 10)
        const comment = (kind: string, i: number) => `${kind}-${tag}-${i}`
        const raters: RaterSpec[] = [
          ...Array.from({ length: submitted }, (_, i) => ({
            answers: (qs: Parameters<typeof answersFor>[0]) =>
              answersFor(qs, { value: 2, comment: comment('sub', i) }),
          })),
          ...Array.from({ length: extraInProgress }, (_, i) => ({
            submitted: false,
            answers: (qs: Parameters<typeof answersFor>[0]) =>
              answersFor(qs, { value: 1, comment: comment('wip', i) }),
          })),
          ...Array.from({ length: revoked }, (_, i) => ({
            revoked: true,
            answers: (qs: Parameters<typeof answersFor>[0]) =>
              answersFor(qs, { value: 1, comment: comment('rev', i) }),
          })),
        ]
        const s = await buildReport({ minRaters, raters })
        const open = submitted >= minRaters

        const report = await loadReport(s.rid)
        // Read from the figures the release stored (ADR 037): exactly what was computed per view before.
        expect(report).toEqual(await loadReportAsBefore(s.rid))
        expect(report?.status).toBe(open ? 'ready' : 'gathering')
        if (report?.status === 'ready') {
          // Every colleague is a peer here: one group holding everyone, so no group series.
          expect(report.groups).toEqual([])
          expect(report.comments[0]?.comments.toSorted()).toEqual(
            Array.from({ length: submitted }, (_, i) => comment('sub', i)).toSorted(),
          )
          expect(report.categories.every((c) => c.colleagues === 2)).toBe(true)
        } else if (report?.status === 'gathering') {
          expect(report.needed).toBe(minRaters - submitted)
          expect(report.header.colleaguesSubmitted).toBe(submitted)
        }

        const response = await send(server, `/user/response-${s.rid}.data`, {
          cookie: await sessionCookieFor(s.employee.id),
        })
        expect(response.status).toBe(200)
        const body = await response.text()
        // Uncounted colleagues never show; counted ones exactly when the gate is open.
        expect(body).not.toContain(`wip-${tag}`)
        expect(body).not.toContain(`rev-${tag}`)
        expect(body.includes(`sub-${tag}`)).toBe(open)
        for (const key of ['"groups"', '"insight"', '"colleagues"', '"optionCounts"'])
          expect(body.includes(key)).toBe(open)
        for (const key of ['colleagueLabels', 'byColleague', 'Colleague A']) expect(body).not.toContain(key)
      },
    ),
    { numRuns: 40 },
  )
}, 240_000)
