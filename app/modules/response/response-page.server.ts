import { getResponseView, revealAllowed } from './response.server'

/**
 * Everything one response's admin page shows (ADR 033): the response read-only and whether
 * "reveal who answered" is allowed here. Who answered a colleague's questionnaire is never part of
 * it (ADR 024): a reveal's name lives in its own reply. Null for an unknown or malformed id.
 */
export async function loadResponsePage(responseId: string) {
  const view = await getResponseView(responseId)
  if (!view) return null
  return { view, revealAllowed: revealAllowed() }
}
