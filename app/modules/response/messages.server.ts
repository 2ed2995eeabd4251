import { requestLanguage } from '#app/modules/i18n/i18n.server'
import type { Messages } from '#app/modules/i18n/catalogues'
import { RESOURCES } from '#app/modules/i18n/resources.server'

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
