import type { Outcome } from '#app/lib/outcome'
import { getFixedT, requestLanguage } from '#app/modules/i18n/i18n.server'
import type { Messages } from '#app/modules/i18n/catalogues'
import { RESOURCES } from '#app/modules/i18n/resources.server'
import { ANSWERS_ADMIN_MESSAGES } from './schemas'

/**
 * Answer management's English sentences (ADR 052: schemas and modules answer English) in the
 * request's language, for answers that are not a page with the form kit (the CSV download's plain
 * text refusal): each looked up in the `answers` validation table, as written where it has none.
 */
export async function answersSentences(request: Request) {
  const messages = RESOURCES[await requestLanguage(request)]?.answers as Messages | undefined
  const table = (messages?.validation ?? {}) as Record<string, string>
  return (sentence: string) => table[sentence] ?? sentence
}

const [NOT_OPEN_BEFORE, NOT_OPEN_AFTER] = ANSWERS_ADMIN_MESSAGES.schemeNotOpen('\u0000').split('\u0000') as [
  string,
  string,
]

/**
 * A reopen's refusal in the request's language where it names the scheme ("…and Spring 360 is not
 * open now…"): the form kit translates whole sentences only, so this one is written here; the others
 * pass as they are, for the form kit to look up.
 */
export async function namedRefusals<T>(request: Request, outcome: Promise<Outcome<T>>): Promise<Outcome<T>> {
  const result = await outcome
  if (result.ok || !result.formErrors?.length) return result
  const t = await getFixedT(request, 'answers')
  const formErrors = result.formErrors.map((message) =>
    message.startsWith(NOT_OPEN_BEFORE) && message.endsWith(NOT_OPEN_AFTER)
      ? t('response.schemeNotOpen', {
          scheme: message.slice(NOT_OPEN_BEFORE.length, message.length - NOT_OPEN_AFTER.length),
        })
      : message,
  )
  return { ...result, formErrors }
}
