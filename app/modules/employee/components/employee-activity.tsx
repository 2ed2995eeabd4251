import { Link } from 'react-router'
import { possessive } from '#app/lib/words'
import { formatDate } from '#app/lib/dates'
import { INVITE_STATUS_LABELS, inviteStatusOf, RELATIONSHIP_LABELS } from '#app/modules/invite/schemas'
import type { EmployeeProgramme, EmployeeRating } from '../employee.server'
import { PHASE_LABELS } from '#app/modules/scheme/labels'
import { ASSIGNMENT_STATUS_LABELS } from '#app/modules/assignment/status-labels'

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
    <section aria-labelledby="programmes-title" className="flex flex-col gap-3">
      <h2 id="programmes-title" className="text-lg font-semibold">
        Schemes
      </h2>
      {programmes.length ? (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">The schemes {employeeName} is enrolled in</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Scheme
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Status
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Self-assessment
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Colleagues
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Links
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {programmes.map((p) => (
                <tr key={p.schemeId}>
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    <Link className="link" to={`/admin/scheme-management/${p.schemeId}`}>
                      {p.schemeName}
                    </Link>
                    <span className="block text-xs font-normal text-slate-700">
                      {p.companyName} · closes {formatDate(p.closesAt, p.timeZone)}
                    </span>
                  </th>
                  <td className="px-4 py-3">{PHASE_LABELS[p.phase]}</td>
                  <td className="px-4 py-3">{p.selfStatus ? ASSIGNMENT_STATUS_LABELS[p.selfStatus] : '—'}</td>
                  <td className="px-4 py-3">
                    {p.answered} of {p.invited} answered
                  </td>
                  <td className="px-4 py-3">
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="card text-slate-700">
          {employeeName} is not enrolled in any scheme yet. Enrol them from a scheme’s page, or when importing
          a CSV file.
        </p>
      )}
      <p className="text-sm">
        <Link className="link" to={`/user/colleague-invite?${new URLSearchParams({ employee: employeeId })}`}>
          Invite colleagues on {possessive(employeeName)} behalf
        </Link>
      </p>
    </section>
  )
}

export function EmployeeRatings({ employeeName, ratings }: { employeeName: string; ratings: Rating[] }) {
  return (
    <section aria-labelledby="ratings-title" className="flex flex-col gap-3">
      <h2 id="ratings-title" className="text-lg font-semibold">
        Feedback asked of {employeeName}
      </h2>
      {ratings.length ? (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">The colleagues who asked {employeeName} for feedback</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  About
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Scheme
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  As
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Status
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {ratings.map((r) => (
                <tr key={r.assignmentId}>
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    <Link className="link" to={`/admin/employee-management/${r.subjectId}`}>
                      {r.subjectName}
                    </Link>
                  </th>
                  <td className="px-4 py-3">{r.schemeName}</td>
                  <td className="px-4 py-3">
                    {r.relationship === 'self' ? 'Self' : RELATIONSHIP_LABELS[r.relationship]}
                  </td>
                  <td className="px-4 py-3">{INVITE_STATUS_LABELS[inviteStatusOf(r.status)]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="card text-slate-700">Nobody has asked {employeeName} for feedback.</p>
      )}
    </section>
  )
}
