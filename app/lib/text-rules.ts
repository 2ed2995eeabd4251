import * as z from '#app/lib/zod'

/**
 * The one rule every free-text field shares (names, sender, addresses, answers…), and under it the
 * rule every string the product takes in obeys, whatever the path (a form, a JSON file, a CSV file,
 * a JSON body, a URL): **only text Postgres can store.** Postgres refuses a NUL (U+0000) in text and
 * `\u0000` in jsonb outright (a 500 if it gets that far). Half of a surrogate pair on its own (a
 * "lone surrogate", which JSON's `"\ud800"` escape or a string cut in the middle of an emoji makes)
 * is not Unicode text at all: both drivers silently turn it into U+FFFD in a text column, and jsonb
 * refuses it (the audit insert was a 500). An HTML form cannot carry one (the browser and the
 * server's form parser both make it U+FFFD), so they come in through JSON.
 *
 * The other control characters are storable but invisible, break e-mail headers and confuse
 * exports. `\p{Cc}` is the C0 controls (U+0000–U+001F), DEL and the C1 controls (U+0080–U+009F).
 * Single-line fields (an <input>) refuse every control character, tabs and line breaks included:
 * a browser's text box cannot hold a line break. Multi-line fields (a <textarea>) keep line breaks
 * and tabs, which people type there. This file reaches the browser: no server imports.
 */
const CONTROL = /\p{Cc}/u
const CONTROL_EXCEPT_TAB_AND_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u
const CONTROL_ALL = /\p{Cc}/gu
// With the `u` flag a well-formed pair is one code point, so `\p{Cs}` matches only a lone half.
// eslint-disable-next-line no-control-regex -- the NUL is what this looks for
const UNSTORABLE = /[\u0000\p{Cs}]/u
// eslint-disable-next-line no-control-regex -- likewise
const UNSTORABLE_ALL = /[\u0000\p{Cs}]/gu
const LONE_SURROGATE = /\p{Cs}/u
const LONE_SURROGATE_ALL = /\p{Cs}/gu

export const TEXT_MESSAGES = {
  singleLine: 'Use one line of ordinary text: no line breaks, tabs or invisible control characters.',
  multiLine: 'Remove the invisible control characters (such as a null byte) from this text.',
  unstorable:
    'This text holds a character that cannot be saved: a null byte, or half of a character pair (such as an emoji cut in two). Remove it and try again.',
} as const

/** Text Postgres stores unchanged in text and in jsonb: no NUL, no half of a surrogate pair. */
export const isStorableText = (value: string) => !UNSTORABLE.test(value)
export const hasLoneSurrogate = (value: string) => LONE_SURROGATE.test(value)
export const isSingleLineText = (value: string) => !CONTROL.test(value) && isStorableText(value)
export const isMultiLineText = (value: string) =>
  !CONTROL_EXCEPT_TAB_AND_LINE_BREAKS.test(value) && isStorableText(value)

/**
 * A Zod check: control characters get the field's own message, a lone surrogate the "cannot be
 * saved" one (it is no control character, and "remove the line breaks" would puzzle).
 */
const textCheck = (allowed: (value: string) => boolean, message: string) =>
  z.superRefine<string>((value, ctx) => {
    if (hasLoneSurrogate(value) && !value.includes('\u0000'))
      ctx.addIssue({ code: 'custom', message: TEXT_MESSAGES.unstorable, input: value })
    else if (!allowed(value)) ctx.addIssue({ code: 'custom', message, input: value })
  })

/** A Zod check for a one-line text field: `z.string().check(z.trim(), singleLine())`. */
export const singleLine = (message: string = TEXT_MESSAGES.singleLine) => textCheck(isSingleLineText, message)

/** A Zod check for a text area's value: line breaks and tabs stay, other control characters are refused. */
export const multiLine = (message: string = TEXT_MESSAGES.multiLine) => textCheck(isMultiLineText, message)

/**
 * For values read from a URL (a list's search box): control characters (and lone surrogates) are
 * dropped rather than refused, as every other bad query value falls back instead of failing the page.
 */
export const withoutControlCharacters = (value: string) =>
  value.replace(CONTROL_ALL, '').replace(LONE_SURROGATE_ALL, '')

/**
 * The first `max` UTF-16 units of a text, never ending in the first half of a pair: `slice` alone
 * cuts an emoji in two at the boundary, and the half left is a lone surrogate.
 */
export function clipText(value: string, max: number) {
  const cut = value.slice(0, max)
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut
}

/**
 * The last line of defence for what is written anyway (an audit entry's details): every NUL and
 * lone surrogate becomes U+FFFD, in strings and object keys at any depth, so a jsonb insert never
 * fails on text that slipped past the rule.
 */
export function toStorableText(value: string) {
  return value.replace(UNSTORABLE_ALL, '\uFFFD')
}
export function toStorableJson<T>(value: T): T {
  if (typeof value === 'string') return toStorableText(value) as T
  if (Array.isArray(value)) return value.map(toStorableJson) as T
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [toStorableText(k), toStorableJson(v)]),
    ) as T
  return value
}

/** A list's search term from its URL: without control characters, trimmed, at most `max` long. */
export const searchTerm = (value: string, max = 100) => clipText(withoutControlCharacters(value).trim(), max)
