import { intlLocale, isLanguage, languageInfo } from '#app/modules/i18n/languages'

/**
 * A language's name in the reader's language (`locale`, an Intl locale): "German" in English,
 * "Deutsch" in German, "allemand" in French. An unknown code is shown as it is.
 */
export function languageNameIn(code: string, locale: string = intlLocale('en')): string {
  const fallback = isLanguage(code) ? languageInfo(code).name : code
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? fallback
  } catch {
    return fallback
  }
}
