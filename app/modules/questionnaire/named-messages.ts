/**
 * The questionnaire module's messages that a form's sentence table (ADR 052) cannot hold, in
 * English: those assembled from schemes' names (the pages word them from the `questionnaires`
 * catalogue, components/words.ts, whose English equals these), and the colleague wording's
 * placeholder problem, which quotes the unknown placeholder inside an English clause. No server
 * imports: the schemas run in the browser.
 */

/** The placeholder a colleague wording holds where the person's name goes. */
export const NAME_PLACEHOLDER = '{{name}}'

/** “A”, “B”, “C” and 247 more: the first few names of a longer list, and how many it leaves out. */
function someNamed(names: string[], total: number) {
  const quoted = names.map((n) => `“${n}”`).join(', ')
  return total > names.length ? `${quoted} and ${total - names.length} more` : quoted
}

/** Archiving waits for the open schemes using the version (the first few named, `total` in all). */
export const archiveBlocked = (names: string[], total: number) =>
  `The open scheme${total === 1 ? '' : 's'} ${someNamed(names, total)} ${total === 1 ? 'uses' : 'use'} this questionnaire: it can be archived once ${total === 1 ? 'that scheme closes' : 'they close'}.`

/** A used version cannot go back to draft. */
export const revertBlocked = (names: string[], total: number) =>
  `The scheme${total === 1 ? '' : 's'} ${someNamed(names, total)} ${total === 1 ? 'uses' : 'use'} this version: edit it as a new version instead.`

/** A colleague wording's placeholder problem as a field message ("has an unknown placeholder …"). */
export const placeholderFieldMessage = (problem: string) => `The colleague wording ${problem}.`
