import { useTranslation } from 'react-i18next'
import { intlLocale } from './languages'

/**
 * The Intl locale of the page's language (ADR 050), for app/lib/dates.ts and numbers.ts in a
 * component: the same on the server and in the browser (both take the language the root loader
 * resolved), so a date formatted while rendering reads the same before and after hydration. Loaders
 * that format dates pass `intlLocale(language)` themselves.
 */
export function useIntlLocale(): string {
  return intlLocale(useTranslation().i18n.language)
}
