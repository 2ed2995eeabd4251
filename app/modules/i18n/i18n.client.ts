import { createInstance, type BackendModule, type i18n as I18n } from 'i18next'
import ICU from 'i18next-icu'
import { initReactI18next } from 'react-i18next'
import { getInitialNamespaces } from 'remix-i18next/client'
import { cataloguePath, type Messages } from './catalogues'
import { LANGUAGE_CODES, SOURCE_LANGUAGE, type Language, type Namespace } from './languages'
import { registerMetaTranslator } from './meta'
import { BOOT_ELEMENT_ID, type I18nBoot } from './boot'

/**
 * The browser's i18next (ADR 050). The page's own messages came inline with the document
 * (<I18nBootScript>), so hydration renders the very words the server did without a request. A page
 * reached later by navigation loads a namespace it lacks from its own hashed chunk (one per
 * language and namespace), never the whole catalogue.
 */
const CHUNKS = import.meta.glob<{ default: Messages }>('./locales/*/*.json')

const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = CHUNKS[cataloguePath(language, namespace)]
    if (!load) return callback(null, {})
    load().then(
      (m) => callback(null, m.default),
      (error: unknown) => callback(error as Error, false),
    )
  },
}

export function readBoot(document: Document): I18nBoot {
  const text = document.getElementById(BOOT_ELEMENT_ID)?.textContent
  if (!text) return { lng: SOURCE_LANGUAGE, ns: ['common'], resources: {} }
  return JSON.parse(text) as I18nBoot
}

export function createClientI18n(boot: I18nBoot): I18n {
  const instance = createInstance()
  instance.use(new ICU()).use(lazyCatalogues).use(initReactI18next)
  // The matched routes' handle.i18n (remix-i18next reads the route modules the page loaded).
  const ns = [...new Set([...boot.ns, ...(getInitialNamespaces() as Namespace[])])]
  void instance.init({
    lng: boot.lng,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: LANGUAGE_CODES,
    ns,
    defaultNS: 'common',
    resources: boot.resources,
    // What came inline is used as is; only what is missing is fetched.
    partialBundledLanguages: true,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  })
  registerMetaTranslator(
    (language, key, values) => instance.getFixedT(language)(key, values),
    () => instance.language as Language,
  )
  return instance
}
