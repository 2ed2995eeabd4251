import { Link } from 'react-router'
import { Section } from '#app/components/card'
import { Cell, DataTable, RowHeader } from '#app/components/data-table'
import { possessive } from '#app/lib/words'
import { formatDate } from '#app/lib/dates'
import { INVITE_STATUS_LABELS, inviteStatusOf, RELATIONSHIP_LABELS } from '#app/modules/invite/schemas'
import type { EmployeeProgramme, EmployeeRating } from '../employee.server'
import { PHASE_LABELS } from '#app/modules/scheme/labels'
import { ASSIGNMENT_STATUS_LABELS } from '#app/modules/scheme/labels'

/** An employee's schemes (self-assessment, colleagues, report) and the feedback asked of them. */

type Programme = EmployeeProgramme
type Rating = EmployeeRating

export function EmployeeProgrammes({
  employeeId,
  employeeName,
  programmes,
}: {
  employeeId: string
  employeeName: string
  programmes: Programme[]
}) {
  return (
    <Section id="programmes-title" title="Schemes" className="gap-3">
      <DataTable
        caption={`The schemes ${employeeName} is enrolled in`}
        columns={['Scheme', 'Status', 'Self-assessment', 'Colleagues', 'Links']}
        rows={programmes}
        empty={`${employeeName} is not enrolled in any scheme yet. Enrol them from a scheme’s page, or when importing a CSV file.`}
      >
        {(p) => (
          <tr key={p.schemeId}>
            <RowHeader>
              <Link className="link" to={`/admin/scheme-management/${p.schemeId}`}>
                {p.schemeName}
              </Link>
              <span className="block text-xs font-normal text-slate-700">
                {p.companyName} · closes {formatDate(p.closesAt, p.timeZone)}
              </span>
            </RowHeader>
            <Cell>{PHASE_LABELS[p.phase]}</Cell>
            <Cell>{p.selfStatus ? ASSIGNMENT_STATUS_LABELS[p.selfStatus] : '—'}</Cell>
            <Cell>
              {p.answered} of {p.invited} answered
            </Cell>
            <Cell>
              <div className="flex flex-col gap-1">
                {p.responseId ? (
                  <Link className="link" to={`/user/response-${p.responseId}`}>
                    Open the report<span className="sr-only"> for {p.schemeName}</span>
                  </Link>
                ) : null}
                {p.phase !== 'closed' ? (
                  <Link
                    className="link"
                    to={`/user/colleague-invite?${new URLSearchParams({ employee: employeeId, scheme: p.schemeId })}`}
                  >
                    Invite colleagues<span className="sr-only"> for {p.schemeName}</span>
                  </Link>
                ) : null}
              </div>
            </Cell>
          </tr>
        )}
      </DataTable>
      <p className="text-sm">
        <Link className="link" to={`/user/colleague-invite?${new URLSearchParams({ employee: employeeId })}`}>
          Invite colleagues on {possessive(employeeName)} behalf
        </Link>
      </p>
    </Section>
  )
}

export function EmployeeRatings({ employeeName, ratings }: { employeeName: string; ratings: Rating[] }) {
  return (
    <Section id="ratings-title" title={`Feedback asked of ${employeeName}`} className="gap-3">
      <DataTable
        caption={`The colleagues who asked ${employeeName} for feedback`}
        columns={['About', 'Scheme', 'As', 'Status']}
        rows={ratings}
        empty={`Nobody has asked ${employeeName} for feedback.`}
      >
        {(r) => (
          <tr key={r.assignmentId}>
            <RowHeader href={`/admin/employee-management/${r.subjectId}`}>{r.subjectName}</RowHeader>
            <Cell>{r.schemeName}</Cell>
            <Cell>{r.relationship === 'self' ? 'Self' : RELATIONSHIP_LABELS[r.relationship]}</Cell>
            <Cell>{INVITE_STATUS_LABELS[inviteStatusOf(r.status)]}</Cell>
          </tr>
        )}
      </DataTable>
    </Section>
  )
}
