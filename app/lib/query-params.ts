/**
 * Drizzle wraps a failed statement in an error whose message (and so its stack) ends with the
 * statement's parameters: e-mail addresses, answers, one-time code hashes. Logs and error reports
 * keep the statement and the driver's reason but never those values.
 */
const PARAMS = /\nparams: [\s\S]*?(?=\n\s+at |$)/g

export function withoutQueryParams(text: string): string {
  return text.replace(PARAMS, '\nparams: [redacted]')
}
