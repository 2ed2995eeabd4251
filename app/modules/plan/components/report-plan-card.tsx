import { Link } from 'react-router'
import type { PlanBeside } from '../plan.server'
import { PlanSection } from './plan-section'

/**
 * Below a released report: for the employee, their plan (printed with the report) and a card to
 * open it and share; for an administrator, whether the employee has a plan, and its text only when
 * the employee shared it with the coach (ADR 043).
 */
export function ReportPlanCard({ plan, viewer }: { plan: PlanBeside; viewer: 'employee' | 'admin' }) {
  if (!plan.ready) return null
  const href = `/user/development-plan/${plan.responseId}`
  if (viewer === 'admin') {
    const count = plan.focusAreaCount
    if (plan.sharedWithCoach && plan.areas.length)
      return (
        <PlanSection
          areas={plan.areas}
          whose="The"
          note="Shared with the programme’s coach by the employee."
        />
      )
    return (
      <p className="no-print text-sm text-slate-700">
        {count
          ? `Development plan: ${count} focus ${count === 1 ? 'area' : 'areas'}, not shared with the coach.`
          : 'No development plan yet.'}
      </p>
    )
  }
  return (
    <>
      {plan.areas.length ? <PlanSection areas={plan.areas} /> : null}
      <section aria-labelledby="plan-card-title" className="no-print card flex flex-col gap-3">
        <h2 id="plan-card-title" className="text-lg font-semibold">
          {plan.areas.length ? 'Your plan and who sees it' : 'Turn this report into a plan'}
        </h2>
        <p className="text-slate-800">
          {plan.areas.length
            ? `${plan.areas.length} of 3 focus areas chosen.`
            : 'Choose one to three focus areas — with “Add to my plan” beside a competency or question above, or on the plan page — and write what you will do.'}
        </p>
        <p className="text-slate-800">{plan.sharingNote}</p>
        <p>
          <Link className="btn btn-primary" to={href}>
            {plan.areas.length ? 'Open your plan' : 'Start your plan'}
          </Link>
        </p>
      </section>
    </>
  )
}
