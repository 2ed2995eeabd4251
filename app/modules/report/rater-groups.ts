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
import { threshold } from './threshold'

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

/** What a scheme decides about its report's groups. */
export type GroupOptions = {
  /**
   * The scheme shows the manager group on its own even when it has fewer than `minRaters`
   * colleagues (its managers were told so when invited). The rest of the rule stands: everyone
   * else must still be nobody or at least `minRaters` colleagues, so the manager's figure cannot
   * be subtracted from the all-colleagues one to reach a few others.
   */
  showManager?: boolean
}

/**
 * The report's parts for these group sizes (counted colleagues per relationship). Every part has at
 * least `minRaters` colleagues — except a manager part shown by the scheme's option — and together
 * they hold every counted colleague, so nothing is left to subtract; a single part would repeat the
 * all-colleagues figure, so then there is none.
 */
export function groupParts(sizes: GroupSizes, minRaters: number, options: GroupOptions = {}): GroupPart[] {
  const t = threshold(minRaters)
  const size = (g: RaterGroup) => Math.max(0, Math.floor(sizes[g] ?? 0))
  const total = RATER_GROUPS.reduce((sum, g) => sum + size(g), 0)
  if (total < t) return []
  const managers = size('manager')
  // The option only matters below the threshold; it holds when the others are nobody or ≥ t.
  const exempt = options.showManager === true && managers > 0 && managers < t && total - managers >= t
  if (exempt) {
    // Everyone else, by the usual rule; one part when the rule finds no groups among them.
    const rest = groupParts({ ...sizes, manager: 0 }, t)
    const members = RATER_GROUPS.filter((g) => g !== 'manager' && size(g) > 0)
    const single = members.length === 1 && NAMED.includes(members[0]!) ? (members[0] as PartKey) : null
    const others: GroupPart[] = rest.length
      ? rest
      : [
          {
            key: single ?? 'others',
            label: PART_LABELS[single ?? 'others'],
            members,
            raters: total - managers,
          },
        ]
    return [{ key: 'manager', label: PART_LABELS.manager, members: ['manager'], raters: managers }, ...others]
  }
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
 * it and how many all colleagues have. A part shows only with at least `minRaters` answers (an
 * `exempt` part — the manager shown by the scheme's option — with at least one), and all minus the
 * shown parts must be no answers or at least `minRaters`; otherwise the smallest shown part is
 * hidden too, until that holds. Below `minRaters` answers in all, nothing shows.
 */
export function shownParts(
  counts: readonly number[],
  all: number,
  minRaters: number,
  exempt: readonly boolean[] = [],
): boolean[] {
  const t = threshold(minRaters)
  const shown = counts.map((n, i) => all >= t && (exempt[i] ? n >= 1 : n >= t))
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

/**
 * What a colleague is told about who will see their answers: the one sentence of the invitation
 * e-mail (`{{privacyNote}}`) and of the questionnaire's introduction. A manager in a scheme that
 * shows the manager group on its own is told so.
 */
export function colleaguePrivacyNote(input: {
  relationship: string
  showManager: boolean
  employeeName: string
}): string {
  if (input.relationship === 'manager' && input.showManager)
    return `As ${input.employeeName}'s manager, your answers are shown to them as the manager's view, apart from other colleagues' and even if you are the only manager who answers, so ${input.employeeName} will know they are yours. Please be candid and constructive.`
  return 'Your answers are combined with those of other colleagues and shown without your name, so please be candid and constructive.'
}

/** How one relationship group would appear in the report if everyone invited answered (issue 18 §3). */
export type GroupOutlook = {
  group: RaterGroup
  invited: number
  /**
   * alone: its own series; others: inside "Other colleagues"; pooled: only in the all-colleagues
   * figure (the rule finds no groups to show); hidden: nothing shows yet (fewer than the threshold).
   */
  shown: 'alone' | 'others' | 'pooled' | 'hidden'
  /**
   * For a named group not shown alone: how many more invitations to it would let it stand alone
   * (everyone else unchanged), within `room` more invitations; null when no number within it does.
   */
  toStandAlone: number | null
}

/**
 * Before anyone answers: how the report would show each group of the colleagues invited so far,
 * by the report's own rule (groupParts) and nothing else, so the two cannot disagree. It assumes
 * every invited colleague answers every question; a colleague who does not, or "not applicable",
 * can only thin a group further (shownParts), never show more.
 */
export function groupOutlook(
  sizes: GroupSizes,
  minRaters: number,
  options: GroupOptions & { room?: number } = {},
): GroupOutlook[] {
  const partOf = (s: GroupSizes) => {
    const parts = groupParts(s, minRaters, options)
    const total = RATER_GROUPS.reduce((sum, g) => sum + Math.max(0, Math.floor(s[g] ?? 0)), 0)
    return (g: RaterGroup): GroupOutlook['shown'] => {
      if (total < threshold(minRaters)) return 'hidden'
      if (!parts.length) return 'pooled'
      const part = parts.find((p) => p.members.includes(g))
      return part?.key === g ? 'alone' : 'others'
    }
  }
  const now = partOf(sizes)
  const room = Math.max(0, Math.floor(options.room ?? 0))
  return RATER_GROUPS.filter((g) => (sizes[g] ?? 0) > 0).map((g) => {
    const shown = now(g)
    let toStandAlone: number | null = null
    if (shown !== 'alone' && NAMED.includes(g))
      for (let k = 1; k <= room && toStandAlone === null; k++)
        if (partOf({ ...sizes, [g]: (sizes[g] ?? 0) + k })(g) === 'alone') toStandAlone = k
    return { group: g, invited: sizes[g] ?? 0, shown, toStandAlone }
  })
}
