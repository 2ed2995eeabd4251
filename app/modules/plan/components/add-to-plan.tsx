import { createContext, useContext } from 'react'
import { Form } from 'react-router'

/**
 * "Add to my plan" beside a competency or question of the employee's own released report. The report
 * page provides where the plan lives and what is in it; without a provider (another viewer, a report
 * not released with colleagues' views, a printout) nothing is drawn. A plain form: it works without
 * JavaScript, and the plan page answers it (a refusal, such as a fourth focus area, is said there).
 */
export type PlanTargets = {
  /** The plan page, which the button posts to. */
  action: string
  /** "category:Communication" and "question:<id>" already in the plan. */
  chosen: string[]
  full: boolean
}

export const PlanTargetsContext = createContext<PlanTargets | null>(null)

export function AddToPlan({ focus, name }: { focus: string; name: string }) {
  const targets = useContext(PlanTargetsContext)
  if (!targets) return null
  if (targets.chosen.includes(focus))
    return (
      <span className="no-print ml-2 whitespace-nowrap text-xs font-normal text-emerald-800">
        In your plan
      </span>
    )
  if (targets.full) return null
  return (
    <Form method="post" action={targets.action} className="no-print mt-1 block">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="focus" value={focus} />
      <button type="submit" className="link text-xs font-normal" aria-label={`Add “${name}” to my plan`}>
        + Add to my plan
      </button>
    </Form>
  )
}
