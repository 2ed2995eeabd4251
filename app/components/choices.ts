/** The options of a select, built from what the page has: its records, or an enum and its labels. */

export type Choice = { value: string; label: string }

/** Records with an id and a name (companies, brands) as options. */
export const choicesOf = (items: ReadonlyArray<{ id: string; name: string }>): Choice[] =>
  items.map((item) => ({ value: item.id, label: item.name }))

/** The values of an enum, in its order, each with its label. */
export const labelledChoices = <Value extends string>(
  values: readonly Value[],
  labels: Record<Value, string>,
): Choice[] => values.map((value) => ({ value, label: labels[value] }))
