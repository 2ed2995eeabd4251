import type { Language } from '#db/enums'
import { loadReport } from '#app/modules/report/report.server'
import type { ReportData } from '#app/modules/report/report'
import { loadSharedAccess, type SharedAccess } from './plan.server'

/**
 * The report a manager reads (/user/shared/:rid): the access check first (one statement: still the
 * manager, released with colleagues' figures, consented or the scheme's setting), then the report's
 * own statement. What it carries is the released report's figures — the same aggregates the employee
 * reads, under the same anonymity rules — without the colleagues' comments and without free-text
 * answers: the loader's data (and so the `.data` request) never holds them.
 */
export type SharedReport = { access: SharedAccess; report: Extract<ReportData, { status: 'ready' }> }

export async function loadSharedReport(
  rid: string,
  managerId: string,
  /** The manager's language (ADR 051): the questionnaire's texts in it where the scheme offers it. */
  language?: Language,
): Promise<SharedReport | null> {
  const access = await loadSharedAccess(rid, managerId)
  if (!access) return null
  const report = await loadReport(access.responseId, undefined, language)
  if (!report || report.status !== 'ready') return null
  return {
    access,
    report: {
      ...report,
      comments: [],
      questions: report.questions
        .filter((q) => q.kind !== 'text' && q.kind !== 'textarea')
        .map((q) => (q.self ? { ...q, self: { ...q.self, text: null } } : q)),
    },
  }
}
