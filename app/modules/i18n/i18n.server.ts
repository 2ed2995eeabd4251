import { createInstance, type i18n as I18n, type TFunction } from 'i18next'
import ICU from 'i18next-icu'
import type { EntryContext } from 'react-router'
import { RemixI18Next } from 'remix-i18next/server'
import { getEnv } from '#app/config/env.server'
import { getRequestSession, type SessionUser } from '#app/modules/auth/session.server'
import type { Resources } from './catalogues'
import { RESOURCES } from './resources.server'
import {
  intlLocale,
  isLanguage,
  LANGUAGE_CODES,
  languageOptions,
  NAMESPACES,
  SHIPPED_LANGUAGES,
  SOURCE_LANGUAGE,
  type Language,
  type Namespace,
} from './languages'
import { registerMetaTranslator } from './meta'
import { resolveLanguage } from './resolve'

/**
 * The server's side of the portal's languages (ADR 050): which languages are served, the language
 * of a request, and an i18next instance per request holding only what its page needs.
 */

/**
 * The languages requests may be served in: the shipped ones, and those LANGUAGES_PREVIEW names for
 * translators (ADR 050). Missing keys of a previewed language show in English.
 */
export function availableLanguages(): Language[] {
  const preview = getEnv().LANGUAGES_PREVIEW
  return LANGUAGE_CODES.filter((code) => SHIPPED_LANGUAGES.includes(code) || preview.includes(code))
}

/** The language of a request whose session (if any) has been read: ADR 050's rule, one place. */
export function languageOf(request: Request, user: Pick<SessionUser, 'language' | 'brandLanguage'> | null) {
  return resolveLanguage({
    userLanguage: user?.language,
    brandLanguage: user?.brandLanguage,
    acceptLanguage: request.headers.get('accept-language'),
    available: availableLanguages(),
  })
}

/**
 * The language of the request being handled, for actions (their refusals are written in it). The
 * session read is the one the request makes anyway (remembered on its load context): no statement
 * of its own, and none for a visitor without a session cookie.
 */
export async function requestLanguage(request: Request): Promise<Language> {
  const session = await getRequestSession(request)
  return languageOf(request, session?.user ?? null)
}

/** The resources a page needs: its language's namespaces, and English beneath a language still in preview. */
export function resourcesFor(language: Language, namespaces: readonly Namespace[]): Resources {
  const languages = SHIPPED_LANGUAGES.includes(language) ? [language] : [language, SOURCE_LANGUAGE]
  const picked: Resources = {}
  for (const lng of new Set(languages)) {
    picked[lng] = Object.fromEntries(namespaces.map((ns) => [ns, RESOURCES[lng]?.[ns] ?? {}]))
  }
  return picked
}

// One ICU formatter for every instance: it caches parsed messages by language, namespace and key,
// and the catalogues never change while the server runs.
const icu = new ICU()

/** A request's i18next instance: synchronous (everything is in memory), with only the given namespaces. */
export function createServerI18n(language: Language, namespaces: readonly Namespace[]): I18n {
  const instance = createInstance()
  instance.use(icu)
  void instance.init({
    lng: language,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: LANGUAGE_CODES,
    ns: [...namespaces],
    defaultNS: 'common',
    resources: resourcesFor(language, namespaces),
    initAsync: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  })
  return instance
}

/** The namespaces of the page being rendered: `handle.i18n` of each matched route, `common` always. */
export function routeNamespaces(context: EntryContext): Namespace[] {
  const found = new Set<Namespace>(['common'])
  for (const match of context.staticHandlerContext.matches) {
    const handle = context.routeModules[match.route.id]?.handle as { i18n?: unknown } | undefined
    const wanted = typeof handle?.i18n === 'string' ? [handle.i18n] : handle?.i18n
    if (!Array.isArray(wanted)) continue
    for (const ns of wanted) if ((NAMESPACES as readonly string[]).includes(ns)) found.add(ns as Namespace)
  }
  return [...found]
}

/** The language the root loader resolved for this page, else (the root failed) the header's. */
export function documentLanguage(request: Request, context: EntryContext): Language {
  const root = context.staticHandlerContext.loaderData?.root as { language?: unknown } | undefined
  if (isLanguage(root?.language) && availableLanguages().includes(root.language)) return root.language
  return languageOf(request, null)
}

/**
 * remix-i18next's fixed `t` for code that has only the Request: actions writing a refusal, e-mails
 * later. Its locale is the one the rule above resolves.
 */
const remixI18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGE_CODES],
    fallbackLanguage: SOURCE_LANGUAGE,
    order: ['custom'],
    findLocale: (request) => requestLanguage(request),
  },
  i18next: {
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: LANGUAGE_CODES,
    resources: RESOURCES,
    interpolation: { escapeValue: false },
  },
  plugins: [icu],
})

export function getFixedT<N extends Namespace>(request: Request, namespace: N): Promise<TFunction<N>> {
  return remixI18next.getFixedT(request, namespace) as Promise<TFunction<N>>
}

// Route `meta` functions have no hooks: they translate through this, with the page's language.
const metaInstances = new Map<Language, I18n>()
registerMetaTranslator((language, key, values) => {
  let instance = metaInstances.get(language)
  if (!instance) {
    instance = createServerI18n(language, NAMESPACES)
    metaInstances.set(language, instance)
  }
  return instance.t(key, values)
})

/**
 * The offered languages as a select's options for the person making the request: named in their
 * language, a stored one no longer offered marked in their words (languageOptions).
 */
export async function readerLanguageOptions(request: Request, current?: string | null) {
  const [language, t] = await Promise.all([requestLanguage(request), getFixedT(request, 'common')])
  return languageOptions(availableLanguages(), current, {
    locale: intlLocale(language),
    notOffered: (label) => t('languageNotOffered', { label }),
  })
}
