/**
 * Which colleague groups a report may show (ADR 021). Pure: no database, no Node; the page, the
 * shaping and the exhaustive property test share it.
 *
 * The counted colleagues fall into relationship groups (manager, peers, direct reports, others). A
 * report shows, besides the all-colleagues figure, a figure per *part*:
 * - manager, peers and direct reports each on their own when the group has at least `min_raters`
 *   colleagues;
 * - "Other colleagues": the 'other' relationship plus every group too small to stand alone.
 * Nothing may be derivable by subtraction: all colleagues minus the shown parts must be nobody or
 * at least `min_raters` colleagues. When the remainder would be a few colleagues, the smallest
 * shown group joins "Other colleagues" until the merged part is big enough or no group is left
 * (then only the all-colleagues figure shows). The same test runs again for every figure
 * (`shownParts`) on the number of answers behind it, since "not applicable" thins a group per
 * question.
 */

import { RELATIONSHIPS, type Relationship } from '#db/enums'

export type RaterGroup = Exclude<Relationship, 'self'>
export const RATER_GROUPS = RELATIONSHIPS.filter((r): r is RaterGroup => r !== 'self')

/** The groups that may be shown on their own; 'other' always goes into "Other colleagues". */
const NAMED: readonly RaterGroup[] = ['manager', 'peer', 'direct_report']

export type PartKey = 'manager' | 'peer' | 'direct_report' | 'others'

export const PART_LABELS: Record<PartKey, string> = {
  manager: 'Manager',
  peer: 'Peers',
  direct_report: 'Direct reports',
  others: 'Other colleagues',
}

/** A series of the report besides self and all colleagues: one or more relationship groups pooled. */
export type GroupPart = {
  key: PartKey
  label: string
  /** The relationship groups pooled into it. */
  members: RaterGroup[]
  /** How many counted colleagues it holds. */
  raters: number
}

export type GroupSizes = Partial<Record<RaterGroup, number>>

const threshold = (minRaters: number) => Math.max(1, Math.floor(minRaters))

/**
 * The report's parts for these group sizes (counted colleagues per relationship). Every part has at
 * least `minRaters` colleagues and together they hold every counted colleague, so nothing is left
 * to subtract; a single part would repeat the all-colleagues figure, so then there is none.
 */
export function groupParts(sizes: GroupSizes, minRaters: number): GroupPart[] {
  const t = threshold(minRaters)
  const size = (g: RaterGroup) => Math.max(0, Math.floor(sizes[g] ?? 0))
  const total = RATER_GROUPS.reduce((sum, g) => sum + size(g), 0)
  if (total < t) return []
  const alone = NAMED.filter((g) => size(g) >= t)
  const merged = RATER_GROUPS.filter((g) => !alone.includes(g))
  let mergedSize = merged.reduce((sum, g) => sum + size(g), 0)
  while (mergedSize > 0 && mergedSize < t && alone.length) {
    // The smallest group standing alone (the later one on a tie) joins "Other colleagues".
    let pick = alone.length - 1
    for (let i = alone.length - 2; i >= 0; i--) if (size(alone[i]!) < size(alone[pick]!)) pick = i
    const [moved] = alone.splice(pick, 1)
    merged.push(moved!)
    mergedSize += size(moved!)
  }
  const parts: GroupPart[] = alone.map((g) => ({
    key: g as PartKey,
    label: PART_LABELS[g as PartKey],
    members: [g],
    raters: size(g),
  }))
  if (mergedSize >= t)
    parts.push({
      key: 'others',
      label: PART_LABELS.others,
      members: RATER_GROUPS.filter((g) => merged.includes(g) && size(g) > 0),
      raters: mergedSize,
    })
  return parts.length > 1 ? parts : []
}

/**
 * For one figure (a question): which parts may show, given how many answers each part has behind
 * it and how many all colleagues have. A part shows only with at least `minRaters` answers, and
 * all minus the shown parts must be no answers or at least `minRaters`; otherwise the smallest
 * shown part is hidden too, until that holds. Below `minRaters` answers in all, nothing shows.
 */
export function shownParts(counts: readonly number[], all: number, minRaters: number): boolean[] {
  const t = threshold(minRaters)
  const shown = counts.map((n) => all >= t && n >= t)
  let rest = all - counts.reduce((sum, n, i) => sum + (shown[i] ? n : 0), 0)
  while (rest > 0 && rest < t && shown.some(Boolean)) {
    let pick = -1
    for (let i = counts.length - 1; i >= 0; i--)
      if (shown[i] && (pick < 0 || counts[i]! < counts[pick]!)) pick = i
    shown[pick] = false
    rest += counts[pick]!
  }
  // Every part shown is the whole: it says nothing the all-colleagues figure does not.
  if (shown.filter(Boolean).length === 1 && rest === 0) return counts.map(() => false)
  return shown
}
