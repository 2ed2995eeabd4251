/**
 * The rule between two releases (DESIGN.md §8, ADR 025): any two releases of one report that the
 * employee can see differ by no colleague response, or by at least `min_raters` added, changed or
 * withdrawn responses — so comparing them never isolates fewer colleagues than the report itself
 * would. Pure: no database, no Node; release.server.ts feeds it what the releases copied and what
 * would be copied now, the scheme page shows its numbers, and the property tests drive it through
 * sequences of arrivals, reopens, edits and releases.
 *
 * Two checks:
 * 1. **Responses.** The candidate against every earlier release that showed colleagues' results:
 *    the responses added, changed (same source, other answers) and withdrawn (reopened and not yet
 *    submitted again) number 0 or at least the threshold.
 * 2. **Series.** The employee reads a sum for every series of every release (all colleagues, each
 *    rater group shown: mean × count). Across releases, sums can be added and subtracted: no such
 *    combination may rest on fewer than the threshold of response versions (`smallestCombination`).
 *    When the candidate's groups would allow it, the release shows all colleagues only; when even
 *    that would, it is refused.
 */

import { groupParts, type RaterGroup } from './rater-groups'
import { threshold } from './threshold'
import { plural } from '#app/lib/words'

/** One colleague response as a release copies it: its source, a fingerprint of its answers, its group. */
export type SnapshotResponse = { source: string; hash: string; relationship: RaterGroup }

/** A release as the rule sees it. */
export type ReleaseSnapshot = {
  responses: readonly SnapshotResponse[]
  /** It showed colleagues' results (at least the threshold of responses). */
  colleaguesShown: boolean
  /** It showed rater groups besides all colleagues (ADR 025). */
  groupsShown: boolean
}

export type ReleaseChange = {
  /** Responses the candidate has and the release had not. */
  added: number
  /** Responses of the same source whose answers differ. */
  changed: number
  /** Responses the release had and the candidate has not (reopened, not submitted again). */
  withdrawn: number
  total: number
}

export type ReleaseVerdict =
  /** What would be copied is what the latest release copied (or, below the threshold, it shows nothing new). */
  | { kind: 'unchanged'; answered: number }
  /** Below the threshold and no release showed colleagues yet: the self-assessment may be released alone. */
  | { kind: 'self-only'; answered: number; needed: number }
  /** A release with colleagues' results: the first, or one that changes enough. */
  | {
      kind: 'release'
      first: boolean
      answered: number
      groupsShown: boolean
      /** Against the latest release that showed colleagues; null for the first. */
      change: ReleaseChange | null
    }
  /** Fewer changes than the threshold against an earlier release the employee saw. */
  | { kind: 'too-few-changes'; answered: number; change: ReleaseChange; needed: number }
  /** Colleagues' results were shown before, and fewer than the threshold of responses are in now. */
  | { kind: 'fewer-than-before'; answered: number; needed: number }
  /** The changes are enough in number, but comparing the series would still single some out. */
  | { kind: 'would-reveal'; answered: number }

const keyOf = (r: SnapshotResponse) => `${r.source}\u0000${r.hash}`

export function changeBetween(
  before: readonly SnapshotResponse[],
  after: readonly SnapshotResponse[],
): ReleaseChange {
  const old = new Map(before.map((r) => [r.source, r.hash]))
  const now = new Map(after.map((r) => [r.source, r.hash]))
  let added = 0
  let changed = 0
  let withdrawn = 0
  for (const [source, hash] of now) {
    const was = old.get(source)
    if (was === undefined) added++
    else if (was !== hash) changed++
  }
  for (const source of old.keys()) if (!now.has(source)) withdrawn++
  return { added, changed, withdrawn, total: added + changed + withdrawn }
}

const sameResponses = (a: readonly SnapshotResponse[], b: readonly SnapshotResponse[]) =>
  changeBetween(a, b).total === 0

/** The series a release lets the employee read a sum of: all colleagues, then each group shown. */
export function seriesOf(release: ReleaseSnapshot, minRaters: number, showManager: boolean) {
  if (!release.colleaguesShown) return []
  const all = release.responses.map(keyOf)
  if (!release.groupsShown) return [all]
  const sizes: Partial<Record<RaterGroup, number>> = {}
  for (const r of release.responses) sizes[r.relationship] = (sizes[r.relationship] ?? 0) + 1
  const parts = groupParts(sizes, minRaters, { showManager })
  return [
    all,
    ...parts.map((part) => release.responses.filter((r) => part.members.includes(r.relationship)).map(keyOf)),
  ]
}

/** The rank of a small dense matrix (Gaussian elimination with partial pivoting; entries are small integers). */
function rank(rows: number[][], columns: readonly number[]): number {
  const m = rows.map((row) => columns.map((c) => row[c]!))
  let r = 0
  for (let c = 0; c < columns.length && r < m.length; c++) {
    let pivot = r
    for (let i = r + 1; i < m.length; i++) if (Math.abs(m[i]![c]!) > Math.abs(m[pivot]![c]!)) pivot = i
    if (Math.abs(m[pivot]![c]!) < 1e-9) continue
    ;[m[r], m[pivot]] = [m[pivot]!, m[r]!]
    for (let i = r + 1; i < m.length; i++) {
      const f = m[i]![c]! / m[r]![c]!
      if (f === 0) continue
      for (let k = c; k < columns.length; k++) m[i]![k]! -= f * m[r]![k]!
    }
    r++
  }
  return r
}

/**
 * The fewest response versions (below `limit`) that some combination of the series' sums rests on,
 * not counting combinations resting on `exempt` versions alone (the manager's, when the scheme shows
 * the manager on their own); null when every combination rests on `limit` or more.
 *
 * A combination of the series' sums rests on the versions where its coefficient vector is not zero;
 * one exists within a set S exactly when leaving S's columns out of the series matrix lowers its
 * rank. Versions that belong to the same series are inseparable, so the search runs over those
 * classes, smallest sets first.
 */
export function smallestCombination(
  series: readonly (readonly string[])[],
  limit: number,
  exempt: ReadonlySet<string> = new Set(),
): number | null {
  const elements = [...new Set(series.flat())]
  if (!elements.length || limit <= 1) return null
  const index = new Map(elements.map((e, i) => [e, i]))
  const rows = series.map((s) => {
    const row = new Array<number>(elements.length).fill(0)
    for (const e of s) row[index.get(e)!] = 1
    return row
  })
  // Inseparable classes: the versions in exactly the same series.
  const classes = new Map<string, { columns: number[]; exempt: boolean }>()
  elements.forEach((e, i) => {
    const signature = rows.map((row) => row[i]).join('')
    const entry = classes.get(signature) ?? { columns: [], exempt: true }
    entry.columns.push(i)
    entry.exempt &&= exempt.has(e)
    classes.set(signature, entry)
  })
  const list = [...classes.values()].sort((a, b) => a.columns.length - b.columns.length)
  const all = elements.map((_, i) => i)
  const full = rank(rows, all)
  const dimension = (removed: ReadonlySet<number>) =>
    full -
    rank(
      rows,
      all.filter((i) => !removed.has(i)),
    )
  let best: number | null = null
  // Depth-first over sets of classes whose size stays below the best found (or the limit).
  const visit = (start: number, chosen: number[], size: number) => {
    for (let k = start; k < list.length; k++) {
      const next = size + list[k]!.columns.length
      if (next >= (best ?? limit)) break // sorted by size: every later class is at least as big
      const set = [...chosen, k]
      const columns = new Set(set.flatMap((j) => list[j]!.columns))
      const exemptColumns = new Set(set.filter((j) => list[j]!.exempt).flatMap((j) => list[j]!.columns))
      // Some combination rests within this set, and not on exempt versions alone.
      if (dimension(columns) > dimension(exemptColumns)) best = next
      else visit(k + 1, set, next)
    }
  }
  visit(0, [], 0)
  return best
}

/**
 * What a release made now would be. `previous` are the report's releases, oldest first;
 * `candidate` the colleague responses submitted now.
 */
export function judgeRelease(input: {
  previous: readonly ReleaseSnapshot[]
  candidate: readonly SnapshotResponse[]
  minRaters: number
  showManager?: boolean
}): ReleaseVerdict {
  const t = threshold(input.minRaters)
  const showManager = input.showManager === true
  const answered = input.candidate.length
  const latest = input.previous.at(-1)
  const shown = input.previous.filter((r) => r.colleaguesShown)
  if (latest && sameResponses(latest.responses, input.candidate)) return { kind: 'unchanged', answered }
  if (answered < t) {
    if (shown.length) return { kind: 'fewer-than-before', answered, needed: t - answered }
    // A release below the threshold shows no colleague result: another one would show nothing new.
    if (latest) return { kind: 'unchanged', answered }
    return { kind: 'self-only', answered, needed: t - answered }
  }
  for (const release of shown) {
    const change = changeBetween(release.responses, input.candidate)
    if (change.total > 0 && change.total < t) return { kind: 'too-few-changes', answered, change, needed: t }
  }
  const before = shown.flatMap((r) => seriesOf(r, t, showManager))
  const exempt = new Set(
    showManager
      ? [...shown.flatMap((r) => r.responses), ...input.candidate]
          .filter((r) => r.relationship === 'manager')
          .map(keyOf)
      : [],
  )
  const lastShown = shown.at(-1)
  const change = lastShown ? changeBetween(lastShown.responses, input.candidate) : null
  for (const groupsShown of [true, false]) {
    const candidate: ReleaseSnapshot = { responses: input.candidate, colleaguesShown: true, groupsShown }
    const series = [...before, ...seriesOf(candidate, t, showManager)]
    if (smallestCombination(series, t, exempt) === null)
      return { kind: 'release', first: !shown.length, answered, groupsShown, change }
  }
  return { kind: 'would-reveal', answered }
}

export const answersText = (n: number) => plural(n, 'answer', 'answers')

/** Why a release cannot be made now, as a catalogue key (scheme-page:release.reason.<key>) and its numbers. */
export type ReleaseReason =
  | { key: 'unchangedBelow'; values: { answered: number; needed: number } }
  | { key: 'unchanged'; values: Record<string, never> }
  | {
      key: 'tooFewChanges'
      values: { total: number; added: number; changed: number; withdrawn: number; needed: number }
    }
  | { key: 'fewerThanBefore'; values: { answered: number; needed: number } }
  | { key: 'wouldReveal'; values: Record<string, never> }

/** Why a release cannot be made now, in no language: the key of its sentence and the numbers in it. */
export function verdictReason(verdict: ReleaseVerdict, minRaters: number): ReleaseReason | null {
  const t = threshold(minRaters)
  switch (verdict.kind) {
    case 'unchanged':
      return verdict.answered < t
        ? { key: 'unchangedBelow', values: { answered: verdict.answered, needed: t } }
        : { key: 'unchanged', values: {} }
    case 'too-few-changes':
      return { key: 'tooFewChanges', values: { ...verdict.change, needed: t } }
    case 'fewer-than-before':
      return { key: 'fewerThanBefore', values: { answered: verdict.answered, needed: t } }
    case 'would-reveal':
      return { key: 'wouldReveal', values: {} }
    case 'self-only':
    case 'release':
      return null
  }
}

type Values = Record<string, string | number>

/**
 * A reason's sentence, written by `say` from its keys (relative to scheme-page:release.reason, as
 * `t` takes them with that prefix): the changes are listed from their own sentences, those of none
 * left out. The scheme page says it with its `t`; {@link verdictRefusal} with the English below.
 */
export function sayReason(reason: ReleaseReason, say: (key: string, values: Values) => string): string {
  if (reason.key !== 'tooFewChanges') return say(reason.key, reason.values)
  const { total, added, changed, withdrawn, needed } = reason.values
  const changes = [
    added ? say('new', { count: added }) : null,
    changed ? say('changed', { count: changed }) : null,
    withdrawn ? say('withdrawn', { count: withdrawn }) : null,
  ]
    .filter(Boolean)
    .join(', ')
  return say('tooFewChanges', { count: total, changes, needed })
}

/** A reason's sentence from a catalogue's `t` of the scheme-page namespace (its keys under release.reason). */
export const reasonIn = (reason: ReleaseReason, t: (key: string, values: Values) => string) =>
  sayReason(reason, (key, values) => t(`release.reason.${key}`, values))

const n = (values: Values, name: string) => Number(values[name])
/** A count as the catalogue's `#` writes it in English. */
const count = (values: Values) => n(values, 'count').toLocaleString('en-GB')

/** The English of each reason's sentence (scheme-page:release.reason.* in English equals these: a test says so). */
const ENGLISH: Record<string, (values: Values) => string> = {
  unchangedBelow: (v) =>
    `Nothing has changed that the report would show: ${answersText(n(v, 'answered'))} of the ${v.needed} needed ${n(v, 'answered') === 1 ? 'is' : 'are'} in.`,
  unchanged: () => 'Nothing has changed since the last release: the report already shows these answers.',
  tooFewChanges: (v) =>
    `${count(v)} ${n(v, 'count') === 1 ? 'response has' : 'responses have'} changed since the last release (${v.changes}); ${v.needed} are needed before the report can change, so that no one’s answers can be singled out by comparing the two.`,
  new: (v) => `${count(v)} new`,
  changed: (v) => `${count(v)} changed`,
  withdrawn: (v) => `${count(v)} reopened and not submitted again`,
  fewerThanBefore: (v) =>
    `Only ${answersText(n(v, 'answered'))} ${n(v, 'answered') === 1 ? 'is' : 'are'} submitted now (some were reopened), fewer than the ${v.needed} a report needs; the released report stays as it is until they are submitted again.`,
  wouldReveal: () =>
    'Compared with the earlier release, these answers would let a few colleagues’ answers be worked out. The released report stays as it is until more answers arrive.',
}

/** A reason's sentence in English (what the refusal answers, and the tests read). */
export const reasonInEnglish = (reason: ReleaseReason) =>
  sayReason(reason, (key, values) => ENGLISH[key]!(values))

/** Why a release cannot be made now, with the numbers, in English (the scheme page and the refusal say the same). */
export function verdictRefusal(verdict: ReleaseVerdict, minRaters: number): string | null {
  const reason = verdictReason(verdict, minRaters)
  return reason && reasonInEnglish(reason)
}
