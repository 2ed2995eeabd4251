/**
 * A `redirectTo` value is honoured only when it is a path on this site: it starts with one "/",
 * not "//" or "/\" (which browsers read as another host), and carries no control characters.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback
  if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback
  try {
    const url = new URL(to, 'http://panorama.invalid')
    if (url.host !== 'panorama.invalid') return fallback
    return url.pathname + url.search + url.hash
  } catch {
    return fallback
  }
}
