import * as z from '#app/lib/zod'

/**
 * The one rule every free-text field shares (names, sender, addresses, answers…). Postgres refuses
 * a NUL byte (0x00) in text outright, so without this a pasted or hand-made NUL is a 500; the other
 * control characters are invisible, break e-mail headers and confuse exports. `\p{Cc}` is the C0
 * controls (U+0000–U+001F), DEL and the C1 controls (U+0080–U+009F).
 *
 * Single-line fields (an <input>) refuse every control character, tabs and line breaks included:
 * a browser's text box cannot hold a line break. Multi-line fields (a <textarea>) keep line breaks
 * and tabs, which people type there. This file reaches the browser: no server imports.
 */
const CONTROL = /\p{Cc}/u
const CONTROL_EXCEPT_TAB_AND_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u
const CONTROL_ALL = /\p{Cc}/gu

export const TEXT_MESSAGES = {
  singleLine: 'Use one line of ordinary text: no line breaks, tabs or invisible control characters.',
  multiLine: 'Remove the invisible control characters (such as a null byte) from this text.',
} as const

export const isSingleLineText = (value: string) => !CONTROL.test(value)
export const isMultiLineText = (value: string) => !CONTROL_EXCEPT_TAB_AND_LINE_BREAKS.test(value)

/** A Zod check for a one-line text field: `z.string().check(z.trim(), singleLine())`. */
export const singleLine = (message: string = TEXT_MESSAGES.singleLine) =>
  z.refine<string>(isSingleLineText, { message })

/** A Zod check for a text area's value: line breaks and tabs stay, other control characters are refused. */
export const multiLine = (message: string = TEXT_MESSAGES.multiLine) =>
  z.refine<string>(isMultiLineText, { message })

/**
 * For values read from a URL (a list's search box): control characters are dropped rather than
 * refused, as every other bad query value falls back instead of failing the page.
 */
export const withoutControlCharacters = (value: string) => value.replace(CONTROL_ALL, '')
