/**
 * Said wherever an employee chooses who gives them feedback (their home, the invite page, their list
 * of raters) in a scheme whose managers read released reports (ADR 043): before they invite anyone.
 */
export function ManagerSeesReportNote() {
  return (
    <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      In this programme your manager also reads your report once it is released — the colleagues’ views
      combined, never who said what, and not their comments. Keep this in mind when you choose whom to ask.
    </p>
  )
}
