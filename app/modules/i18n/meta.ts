import { isLanguage, SOURCE_LANGUAGE, type Language } from './languages'

/**
 * Route `meta` functions run outside React (no hooks) on the server and in the browser: they
 * translate a page's title through the translator each side registers (i18n.server.ts on the server,
 * i18n.client.ts in the browser), with the language the root loader resolved.
 */
type Translator = (language: Language, key: string, values?: Record<string, unknown>) => string

let translator: Translator | null = null
let currentLanguage: () => Language = () => SOURCE_LANGUAGE

/** Each side's translator; the browser also says which language its page is in now. */
export function registerMetaTranslator(fn: Translator, current?: () => Language) {
  translator = fn
  if (current) currentLanguage = current
}

/**
 * Words written by browser code outside React (a clientAction's timeout message), in the page's
 * current language. Browser only: the server has no single current language.
 */
export function clientT(key: string) {
  return translator ? translator(currentLanguage(), key) : key
}

/**
 * A title in the page's language: `metaT(matches, 'auth:signIn.metaTitle')`, with its ICU arguments
 * when it has some (`metaT(matches, 'answering:metaTitle', { title })`).
 */
export function metaT(
  matches: readonly ({ id: string; data?: unknown; loaderData?: unknown } | undefined)[],
  key: string,
  values?: Record<string, unknown>,
) {
  const root = matches.find((m) => m?.id === 'root')
  const data = (root?.loaderData ?? root?.data) as { language?: unknown } | undefined
  const language = isLanguage(data?.language) ? data.language : SOURCE_LANGUAGE
  return translator ? translator(language, key, values) : key
}
