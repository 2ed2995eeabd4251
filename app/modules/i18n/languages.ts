/**
 * The portal's languages: the one list every other place derives from (the database's check
 * constraints, the profile's and the brand's selects, the resolution rule, the catalogues' test).
 * ADR 050.
 *
 * A language is *shipped* once its catalogues cover every key English has (tests/unit/i18n checks
 * it): only shipped languages are offered, chosen from Accept-Language or stored. Others are present
 * for translators, who see them through LANGUAGES_PREVIEW (i18n.server.ts).
 */
import { LANGUAGE_CODES as CODES, type Language as LanguageCode } from '#db/enums'

export const LANGUAGES = [
  { code: 'en', name: 'English', nativeName: 'English', dir: 'ltr', intl: 'en-GB', shipped: true },
  { code: 'de', name: 'German', nativeName: 'Deutsch', dir: 'ltr', intl: 'de-DE', shipped: true },
  { code: 'fr', name: 'French', nativeName: 'Français', dir: 'ltr', intl: 'fr-FR', shipped: false },
] as const satisfies readonly {
  code: string
  name: string
  /** How the language names itself: what the language select shows. */
  nativeName: string
  dir: 'ltr' | 'rtl'
  /** The locale `Intl` formats dates and numbers in. */
  intl: string
  shipped: boolean
}[]

export type Language = LanguageCode

// Every code of db/enums.ts is described above, and nothing else is (checked when type-checking).
type Described = (typeof LANGUAGES)[number]['code']
const everyCodeDescribed: [Exclude<Language, Described>, Exclude<Described, Language>] extends [never, never]
  ? true
  : never = true
void everyCodeDescribed

/** Every language code (db/enums.ts), for Zod (`z.enum(LANGUAGE_CODES)`) and the checks. */
export const LANGUAGE_CODES: readonly [Language, ...Language[]] = CODES

/** The language every key is written in first, and the last fallback. */
export const SOURCE_LANGUAGE: Language = 'en'

export const SHIPPED_LANGUAGES: readonly Language[] = LANGUAGES.filter((l) => l.shipped).map((l) => l.code)

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value)
}

export function languageInfo(code: Language) {
  return LANGUAGES.find((l) => l.code === code)!
}

/** The locale Intl formats in for a language ('en' → 'en-GB', as the portal has always written dates). */
export function intlLocale(code: string | null | undefined): string {
  return isLanguage(code) ? languageInfo(code).intl : languageInfo(SOURCE_LANGUAGE).intl
}

/** The namespaces of the catalogues (one JSON file per language and namespace). */
export const NAMESPACES = [
  'common',
  'auth',
  'sso',
  'verification',
  'second-factor',
  'landing',
  'thank-you',
  'profile',
  'home',
  'answers',
  'cohort',
  'questionnaires',
  'admin-dashboard',
  'companies',
  'brands',
  'admins',
  'identity-providers',
  'api-keys',
  'webhooks',
  'report',
  'pdf',
  'answering',
  'plan',
  'shared',
  'schemes',
  'scheme-page',
  'invite',
  'nomination',
  'employees',
  'email',
] as const
export type Namespace = (typeof NAMESPACES)[number]

/** Said when a posted language is not one of those offered (a stale form, a crafted post). */
export const LANGUAGE_NOT_OFFERED = 'Choose one of the languages offered.'

/**
 * A language select's options: the languages offered, each by its own name with its name in the
 * reader's language beside it ("Deutsch (German)", "English (Englisch)"), and the one already stored
 * if it is no longer offered (so saving the form does not change it behind the person's back), marked
 * in the reader's words (`notOffered`).
 */
export function languageOptions(
  offered: readonly Language[],
  current?: string | null,
  reader: { locale?: string; notOffered?: (label: string) => string } = {},
) {
  const codes = isLanguage(current) && !offered.includes(current) ? [...offered, current] : offered
  const names = new Intl.DisplayNames([reader.locale ?? intlLocale(SOURCE_LANGUAGE)], { type: 'language' })
  const notOffered = reader.notOffered ?? ((label: string) => `${label}, not offered yet`)
  return codes.map((code) => {
    const info = languageInfo(code)
    const name = reader.locale ? (names.of(code) ?? info.name) : info.name
    const label = info.nativeName === name ? name : `${info.nativeName} (${name})`
    return { value: code, label: offered.includes(code) ? label : notOffered(label) }
  })
}
