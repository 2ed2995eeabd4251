import type { Language } from '#db/enums'
import { sql } from 'drizzle-orm'
import { getDb, queryRows } from '#db/client'
import type { ReportData } from '#app/modules/report/report'
import { reportOf, reportRow, type ReportViewer } from '#app/modules/report/report.server'
import { loadNorms } from '#app/modules/norm/norm.server'
import type { NormFigures } from '#app/modules/norm/norm'
import { compareCycles, type CycleComparison } from './change'

/**
 * The report's "over time and against the norm" (issue 19 §5–6, ADR 044), for a report the viewer
 * may read (the route has loaded it through loadReport, with ownership in its query). At most three
 * statements, whatever the report: the scheme's cycle facts, then — only when there is something to
 * show — the previous cycle's report and the norm, side by side.
 *
 * The previous report is read exactly as its own page reads it (reportRow + reportOf: its latest
 * release's stored figures, its gates and groups), so only what that report showed is compared;
 * an unreleased previous report, or one released without colleagues' results, shows nothing here.
 */

export type CycleView = {
  /** The previous cycle's report, when it follows one and that report showed colleagues' results. */
  previous: { schemeName: string; releasedAt: string | null } | null
  /** This report's rows beside the previous one's (previous figures null without one). */
  comparison: CycleComparison
  /** The norm as shown (only where enough participants stand behind it); null when the scheme shows none. */
  norm: {
    questions: Record<string, number>
    categories: Record<string, number>
  } | null
}

type CycleFacts = {
  show_norm: boolean
  company_id: string
  lineage_id: string
  keys: Record<string, string> | null
  previous_response_id: string | null
  previous_scheme_name: string | null
  previous_keys: Record<string, string> | null
}

/**
 * The report page's read (the route's): the report as loadReport reads it (ownership in its query),
 * and its cycle section only when its scheme follows another or shows the norm — so a report of
 * neither costs not one statement more.
 */
export async function loadReportWithCycle(responseId: string, viewer?: ReportViewer, language?: Language) {
  const db = getDb()
  const row = await reportRow(db, responseId, viewer)
  if (!row) return null
  // The questionnaire's texts in the reader's language where the scheme offers it (ADR 051).
  const report = await reportOf(db, row, language)
  const cycle = row.follows_scheme_id || row.show_norm ? await loadCycleView(report, language) : null
  return { report, cycle }
}

/** The cycle section of a report the caller may read: null when there is nothing to show. */
export async function loadCycleView(report: ReportData, language?: Language): Promise<CycleView | null> {
  if (report.status !== 'ready') return null
  const db = getDb()
  const [facts] = await queryRows<CycleFacts>(
    db,
    sql`SELECT s.show_norm, s.company_id, qn.lineage_id,
        (SELECT json_object_agg(q.id, q.key) FROM questions q WHERE q.questionnaire_id = a.questionnaire_id) AS keys,
        prev.response_id AS previous_response_id, prev.name AS previous_scheme_name, prev.keys AS previous_keys
      FROM responses r
      JOIN assignments a ON a.id = r.assignment_id AND a.relationship = 'self'
      JOIN schemes s ON s.id = a.scheme_id
      JOIN questionnaires qn ON qn.id = a.questionnaire_id
      LEFT JOIN LATERAL (
        SELECT pr.id AS response_id, ps.name,
          (SELECT json_object_agg(q.id, q.key) FROM questions q WHERE q.questionnaire_id = pa.questionnaire_id) AS keys
        FROM schemes ps
        JOIN assignments pa ON pa.scheme_id = ps.id AND pa.subject_id = a.subject_id AND pa.relationship = 'self'
        JOIN responses pr ON pr.assignment_id = pa.id
        JOIN questionnaires pq ON pq.id = pa.questionnaire_id AND pq.lineage_id = qn.lineage_id
        WHERE ps.id = s.follows_scheme_id AND ps.company_id = s.company_id AND ps.opens_at < s.opens_at
        LIMIT 1
      ) prev ON true
      WHERE r.id = ${report.header.responseId}`,
  )
  if (!facts || (!facts.previous_response_id && !facts.show_norm)) return null
  const [previousRow, norm] = await Promise.all([
    facts.previous_response_id ? reportRow(db, facts.previous_response_id, undefined) : null,
    facts.show_norm
      ? loadNorms({ lineageId: facts.lineage_id, excludeCompanyId: facts.company_id }, db)
      : null,
  ])
  const previousReport = previousRow ? await reportOf(db, previousRow, language) : null
  const shown = previousReport?.status === 'ready' ? previousReport : null
  if (!shown && !norm) return null
  return {
    previous: shown ? { schemeName: shown.header.schemeName, releasedAt: shown.header.releasedAt } : null,
    comparison: compareCycles(report, shown ?? { scale: report.scale, categories: [], questions: [] }, {
      now: facts.keys ?? {},
      previous: facts.previous_keys ?? {},
    }),
    norm: norm ? normByQuestionId(norm, facts.keys ?? {}) : null,
  }
}

/** The norm keyed as the report is: question ids of this report, competency names. */
export function normByQuestionId(norm: NormFigures, keys: Record<string, string>) {
  const questions: Record<string, number> = {}
  for (const [id, key] of Object.entries(keys)) {
    const value = norm.questions[key]
    if (value !== undefined) questions[id] = value
  }
  return { questions, categories: norm.categories }
}
