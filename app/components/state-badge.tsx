/**
 * The badge of one kind of state (an employee's, a response's…): the state's word in a small pill.
 * Each tone names the state's colours and its outline (a border or a ring), so a module states only
 * its words and colours: `export const StateBadge = stateBadge(LABELS, { active: '…', … })`.
 */
export function stateBadge<State extends string>(
  labels: Record<State, string>,
  tones: Record<State, string>,
) {
  return function StateBadge({ state }: { state: State }) {
    return (
      <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${tones[state]}`}>
        {labels[state]}
      </span>
    )
  }
}
