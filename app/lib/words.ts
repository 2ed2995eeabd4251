/**
 * Small rules of English that pages and e-mails share, so that a count or a name reads right
 * wherever it is written. Client-safe: no server imports.
 */

/** "1 employee", "2 employees", "1,000 employees". */
export function plural(n: number, one: string, many: string) {
  return `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`
}

/** A wait in whole minutes, at least one: "1 minute", "15 minutes" (a rate limit's Retry-After). */
export function minutes(seconds: number) {
  return plural(Math.max(1, Math.ceil(seconds / 60)), 'minute', 'minutes')
}

/**
 * A name's possessive, with a typographic apostrophe: "Erin’s", "Harbour Partners’". A name that
 * already ends in s takes the apostrophe alone. Write it on the bare name: never after a closing
 * quotation mark ("“Harbour Partners”’s logo").
 */
export function possessive(name: string) {
  const trimmed = name.trim()
  return /s$/i.test(trimmed) ? `${trimmed}’` : `${trimmed}’s`
}

/**
 * "a company", "an email template", "a user": a noun with its indefinite article, by its first
 * sound (a vowel letter, but not the "you" of user or unit). Enough for the portal's own nouns.
 */
export function withArticle(noun: string) {
  return /^(?:[aeio]|u(?!s|ni))/i.test(noun) ? `an ${noun}` : `a ${noun}`
}

/**
 * The days left before a deadline in words (the count is dates.ts daysLeft): "15 days left",
 * "1 day left", "last day"; null once past. Here rather than in dates.ts so that a page that only
 * words a count the server made does not load the date functions.
 */
export function daysLeftLabel(days: number | null): string | null {
  if (days === null) return null
  return days === 0 ? 'last day' : `${days} ${days === 1 ? 'day' : 'days'} left`
}
