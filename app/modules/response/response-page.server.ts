import type { Language } from '#db/enums'
import { getResponseView, revealAllowed } from './response.server'

/**
 * Everything one response's admin page shows (ADR 033): the response read-only and whether
 * "reveal who answered" is allowed here. Who answered a colleague's questionnaire is never part of
 * it (ADR 024): a reveal's name lives in its own reply. Null for an unknown or malformed id. The
 * questionnaire's wording is in `language` where the scheme offers it (ADR 051).
 */
export async function loadResponsePage(responseId: string, language?: Language) {
  const view = await getResponseView(responseId, language)
  if (!view) return null
  return { view, revealAllowed: revealAllowed() }
}
