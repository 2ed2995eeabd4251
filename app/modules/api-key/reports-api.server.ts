import type { z } from 'zod'
import { getDb } from '#db/client'
import type { Actor } from '#app/lib/outcome'
import { releasedReportRowsOfScheme, reportOf } from '#app/modules/report/report.server'
import type { ReportData } from '#app/modules/report/report'
import { startExport, type ExportFormat } from '#app/modules/response/export.server'
import { API_PAGE_DEFAULT, decodeCursor, encodeCursor } from './api-schemas'
import type { Restriction } from './resources.server'
import type { ReportListQuery, ReportSummarySchema } from './scheme-api-schemas'

/**
 * Released report summaries and the anonymous answer export through the REST API (issue 21 §1,
 * ADR 059). Nothing here decides what may be shown: each report is read by the report page's own
 * path (the released snapshot, reportOf, and report.ts's gate and group rules, which hide a group
 * below the threshold exactly as the page does), and this file only copies the figures the page
 * would show into the API's shape — aggregates only. The report's comments are left out (free text
 * is what most often names its writer, and no scheme setting lets them reach another system), and
 * nothing ever names a rater. The export is answer management's anonymous CSV, streamed.
 */

export type ReportSummary = z.output<typeof ReportSummarySchema>

const orNull = (v: number | null | undefined) => v ?? null

/** The figures a report page shows, as the API answers them (scale questions: averages). */
export function reportSummaryOf(data: ReportData, employeeId: string): ReportSummary | null {
  if (data.status === 'self-pending' || !data.header.releasedAt) return null
  const ready = data.status === 'ready' ? data : null
  const groups = ready?.groups ?? []
  const scaleQuestions = data.questions.filter((q) => q.kind === 'scale')
  return {
    employee_id: employeeId,
    released_at: new Date(data.header.releasedAt).toISOString(),
    colleagues_shown: Boolean(ready),
    colleagues: ready ? data.header.colleaguesSubmitted : 0,
    scale: { min: data.scale.min, max: data.scale.max },
    groups: groups.map((g) => ({ group: g.key, label: g.label, raters: g.raters })),
    competencies: data.categories.map((c) => ({
      competency: c.category,
      self: orNull(c.self),
      colleagues: ready && 'colleagues' in c ? orNull(c.colleagues as number | null) : null,
      groups:
        ready && 'groups' in c
          ? groups.map((g, k) => ({ group: g.key, average: orNull((c.groups as (number | null)[])[k]) }))
          : [],
    })),
    questions: scaleQuestions.map((q) => {
      const colleagues = ready ? ready.questions.find((f) => f.id === q.id)?.colleagues : undefined
      return {
        question_id: q.id,
        competency: q.category,
        kind: q.kind,
        text: q.text,
        self: q.self && !q.self.notApplicable ? orNull(q.self.value) : null,
        colleagues: colleagues ? orNull(colleagues.average) : null,
        answered: colleagues ? colleagues.answered : null,
        groups: colleagues
          ? groups.map((g, k) => ({ group: g.key, average: orNull(colleagues.groups[k]) }))
          : [],
      }
    }),
  }
}

/**
 * One page of a scheme's released reports by employee id: one statement for the page (the rows the
 * report page reads), and the figures each release stored when it was made. A release made before
 * figures were stored has them computed once, on its first read, as on the page.
 */
export async function listReportSummaries(
  restriction: Restriction,
  schemeId: string,
  query: z.output<typeof ReportListQuery>,
) {
  const limit = query.limit ?? API_PAGE_DEFAULT
  const db = getDb()
  const rows = await releasedReportRowsOfScheme(db, schemeId, {
    afterSubjectId: query.cursor ? decodeCursor(query.cursor) : null,
    limit: limit + 1,
    companyId: restriction.companyId,
  })
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  const data: ReportSummary[] = []
  for (const row of page) {
    const summary = reportSummaryOf(await reportOf(db, row), row.subject_id)
    if (summary) data.push(summary)
  }
  return { data, next_cursor: more ? encodeCursor(page.at(-1)!.subject_id) : null }
}

/**
 * A scheme's answers as answer management's anonymous CSV or NDJSON (startExport without a grant: raters as
 * labels such as "Peer 2", never names or addresses; audited as an export), streamed in batches.
 */
export async function exportSchemeAnswers(actor: Actor, schemeId: string, format: ExportFormat = 'csv') {
  const outcome = await startExport(
    actor,
    { q: '', scheme: schemeId, company: '', questionnaire: '', relationship: '', state: '' },
    null,
    format,
  )
  if (!outcome.ok) throw new Error('An export without names is never refused')
  return outcome.value
}
