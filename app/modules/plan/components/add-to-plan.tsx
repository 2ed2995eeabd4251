import { createContext, useContext } from 'react'
import { Form } from 'react-router'
import { useTranslation } from 'react-i18next'

/**
 * "Add to my plan" under the competencies of the employee's own released report. The report page
 * provides where the plan lives and what is in it; without a provider (another viewer, a report not
 * released with colleagues' views) nothing is drawn, and it never prints. Each competency is a plain
 * form: it works without JavaScript, and the plan page answers it (a refusal, such as a fourth focus
 * area, is said there). Outside the table, so that its row headers stay the competencies' names.
 */
export type PlanTargets = {
  /** The plan page, which the buttons post to. */
  action: string
  /** "category:Communication" and "question:<id>" already in the plan. */
  chosen: string[]
  full: boolean
}

export const PlanTargetsContext = createContext<PlanTargets | null>(null)

export function AddToPlan({ items }: { items: { focus: string; name: string }[] }) {
  const targets = useContext(PlanTargetsContext)
  if (!targets || !items.length) return null
  return <AddToPlanList items={items} targets={targets} />
}

// Apart, so that a report drawn without a plan (an admin's, a group's) asks for none of its words.
function AddToPlanList({
  items,
  targets,
}: {
  items: { focus: string; name: string }[]
  targets: PlanTargets
}) {
  const { t } = useTranslation('plan')
  return (
    <div className="no-print flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3">
      <p className="text-sm font-semibold text-slate-800">
        {targets.full ? t('addToPlan.full') : t('addToPlan.offer')}
      </p>
      <ul className="flex flex-wrap gap-2">
        {items.map((item) =>
          targets.chosen.includes(item.focus) ? (
            <li key={item.focus} className="px-2 py-1 text-sm text-emerald-800">
              {t('addToPlan.inPlan', { name: item.name })}
            </li>
          ) : targets.full ? null : (
            <li key={item.focus}>
              <Form method="post" action={targets.action}>
                <input type="hidden" name="intent" value="add" />
                <input type="hidden" name="focus" value={item.focus} />
                <button
                  type="submit"
                  className="btn btn-secondary px-3 py-1"
                  aria-label={t('addToPlan.addLabel', { name: item.name })}
                >
                  {item.name}
                </button>
              </Form>
            </li>
          ),
        )}
      </ul>
    </div>
  )
}
