import { PHASE_LABELS } from '#app/modules/scheme/labels'
import type { SchemePhase } from '#app/modules/scheme/state'

const PHASE_STYLES: Record<SchemePhase, string> = {
  draft: 'bg-slate-100 text-slate-800 border-slate-300',
  upcoming: 'bg-sky-50 text-sky-900 border-sky-300',
  open: 'bg-emerald-50 text-emerald-900 border-emerald-300',
  closed: 'bg-slate-200 text-slate-800 border-slate-400',
}

/**
 * A scheme's phase as a badge, the one badge of admin and employee pages alike. `label` words it for
 * a page's reader ("Opens 3 March 2026" on the employee's home); the colour is always the phase's.
 */
export function PhaseBadge({ phase, label }: { phase: SchemePhase; label?: string }) {
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${PHASE_STYLES[phase]}`}
    >
      {label ?? PHASE_LABELS[phase]}
    </span>
  )
}
