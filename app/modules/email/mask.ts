/**
 * One-time codes must not be readable where an admin (or a log reader) looks at a message: the
 * outbox view, last_error, delivery logs. `maskActionCodes` hides the value of every query
 * parameter that carries one, in plain text, in HTML (`&amp;`-escaped) and inside another URL's
 * percent-encoded parameter, and leaves the rest of the address readable (which page, which mode).
 *
 * Pure and free of server imports, so the admin outbox view and the server code share it.
 */

/** What a masked value reads as. */
export const CODE_MASK = '••••••'

/**
 * Query parameters that carry a one-time secret: our action links use `code`; the others are the
 * common names of one-time tokens, so a link an admin pastes into a template is covered too.
 */
const SECRET_PARAMS = ['code', 'oobCode', 'token', 'access_token', 'secret', 'signature', 'sig', 'otp']

// A parameter starts after `?` or `&` — or their escaped forms: `&amp;`/`&#38;`/`&#x26;` in HTML,
// `%3F`/`%26` in a URL nested in another URL's parameter — and its `=` may be `%3D` there.
const SEPARATOR = String.raw`(?:[?&]|&amp;|&#0*38;|&#x0*26;|%3F|%26)`
const EQUALS = String.raw`(?:=|%3D)`
// The value runs until the next parameter, fragment, quote, tag or whitespace.
const VALUE = String.raw`(?:(?!%26|&)[^\s"'<>#&])+`

const PATTERN = new RegExp(`(${SEPARATOR}(?:${SECRET_PARAMS.join('|')})${EQUALS})${VALUE}`, 'gi')

/** `text` with the value of every one-time-code parameter replaced by {@link CODE_MASK}. */
export function maskActionCodes(text: string): string
export function maskActionCodes(text: string | null | undefined): string | null | undefined
export function maskActionCodes(text: string | null | undefined) {
  if (!text) return text
  return text.replace(PATTERN, `$1${CODE_MASK}`)
}
