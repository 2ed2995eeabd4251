/**
 * A `redirectTo` value is honoured only when it is a path on this site: it starts with one "/",
 * not "//" or "/\" (which browsers read as another host), and carries no control characters.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback
  if (!isSitePath(to)) return fallback
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback
  try {
    const url = new URL(to, 'http://panorama.invalid')
    if (url.host !== 'panorama.invalid') return fallback
    const path = url.pathname + url.search + url.hash
    // Normalising can make a host out of a path ("/..//evil.example" → "//evil.example"), so what
    // comes out is checked again, by the same rule as what went in.
    return isSitePath(path) ? path : fallback
  } catch {
    return fallback
  }
}

/** One leading "/" and not a second "/" or "\" after it (a browser reads those as a host). */
function isSitePath(value: string) {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
}
