import { LANGUAGE_CODES, NAMESPACES, type Language, type Namespace } from './languages'

/** One namespace's messages: nested objects of ICU message strings. */
export type Messages = { [key: string]: string | Messages }
export type Resources = Partial<Record<Language, Partial<Record<Namespace, Messages>>>>

/** Where a catalogue lives: `locales/<language>/<namespace>.json` (adding a language is adding files). */
export function cataloguePath(language: string, namespace: string) {
  return `./locales/${language}/${namespace}.json`
}

/** The keys of a namespace, flattened: `signIn.linkOffer.text`. */
export function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [k, v] of flatten(value, path)) out.set(k, v)
  }
  return out
}

/** Every catalogue file, by language and namespace (for the server and the tests; the browser loads its own). */
export function resourcesFrom(files: Record<string, { default: Messages } | Messages>): Resources {
  const resources: Resources = {}
  for (const language of LANGUAGE_CODES) {
    for (const namespace of NAMESPACES) {
      const file = files[cataloguePath(language, namespace)]
      if (!file) continue
      const messages = ('default' in file ? file.default : file) as Messages
      ;(resources[language] ??= {})[namespace] = messages
    }
  }
  return resources
}
