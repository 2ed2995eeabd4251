import { ReportView } from '#app/modules/report/report-view'
import type { SharedReport } from '../shared-report.server'
import { PlanSection } from './plan-section'

/**
 * A direct report's released report as their manager reads it (ADR 043): the report's own view in
 * the third person ("Self"), without the comments section, and their plan when they shared it.
 */
export function SharedReportPage({ access, report }: SharedReport) {
  const name = access.employeeName
  return (
    <div className="flex flex-col gap-6">
      <p role="note" className="no-print rounded-md border border-sky-300 bg-sky-50 p-3 text-sky-950">
        {access.consented
          ? `${name} shared this report with you on ${access.grantedAt}. They can stop sharing at any time. Colleagues’ views appear only combined; their comments are not shared.`
          : `In ${access.schemeName}, managers read their team’s released reports: the programme is set up that way, and ${name} was told before inviting colleagues. Colleagues’ views appear only combined; their comments are not shared.`}
      </p>
      <ReportView report={report} viewer="admin" comments={false} />
      {access.areas ? <PlanSection areas={access.areas} whose={`${name}’s`} /> : null}
    </div>
  )
}
