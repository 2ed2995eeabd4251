import { SOURCE_LANGUAGE, type Language } from './languages'

/**
 * The language a page is served in (issue 20 §3, ADR 050), one rule for every request: the user's
 * own setting, else their brand's default, else the browser's Accept-Language (by q-value, a
 * region falling back to its language: `de-AT` → `de`), else English. Only languages in `available`
 * count at every step: a stored choice of a language that is no longer offered is passed over.
 *
 * Pure: no request, no database; the caller reads the setting and the brand's default with the
 * session (one statement, session.server.ts) and passes the header.
 */
export function resolveLanguage({
  userLanguage,
  brandLanguage,
  acceptLanguage,
  available,
}: {
  userLanguage?: string | null
  brandLanguage?: string | null
  acceptLanguage?: string | null
  available: readonly Language[]
}): Language {
  const offered = (code: string | null | undefined): code is Language =>
    typeof code === 'string' && (available as readonly string[]).includes(code)
  if (offered(userLanguage)) return userLanguage
  if (offered(brandLanguage)) return brandLanguage
  for (const tag of parseAcceptLanguage(acceptLanguage)) {
    if (offered(tag)) return tag
    const base = tag.split('-')[0]
    if (offered(base)) return base
  }
  return SOURCE_LANGUAGE
}

/**
 * The language tags of an Accept-Language header, most wanted first (RFC 9110 §12.5.4): lower-cased,
 * `*` and q=0 dropped, equal q-values kept in the header's order. A malformed entry is skipped, never
 * an error; the header is cut at 1,000 characters (a browser sends a few dozen).
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return []
  const entries: { tag: string; q: number; index: number }[] = []
  header
    .slice(0, 1000)
    .split(',')
    .forEach((part, index) => {
      const [rawTag, ...params] = part.trim().split(';')
      const tag = rawTag?.trim().toLowerCase() ?? ''
      if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(tag)) return
      let q = 1
      for (const param of params) {
        const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)
        if (match) q = Number(match[1])
        else if (/^\s*q\s*=/i.test(param)) q = -1
      }
      if (q > 0 && q <= 1) entries.push({ tag, q, index })
    })
  return entries.sort((a, b) => b.q - a.q || a.index - b.index).map((e) => e.tag)
}
