import { getEnv } from '#app/config/env.server'
import { LANGUAGE_CODES, SHIPPED_LANGUAGES, type Language } from '#app/modules/i18n/languages'

/**
 * The languages e-mails may be written in: those the portal serves (ADR 050, `availableLanguages()`
 * of i18n.server.ts: the shipped ones and LANGUAGES_PREVIEW's). The same rule without importing the
 * catalogues: the outbox also runs in worker processes started outside the app's build, where the
 * catalogues' `import.meta.glob` does not exist.
 */
export function offeredLanguages(): Language[] {
  const preview = getEnv().LANGUAGES_PREVIEW
  return LANGUAGE_CODES.filter((code) => SHIPPED_LANGUAGES.includes(code) || preview.includes(code))
}
