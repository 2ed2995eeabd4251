/**
 * What every admin list's loader says above the list: an out-of-date page link (a keyset cursor
 * that could not be read, so the first page is shown), then the page's own notices. Written once,
 * so every list says it in the same words.
 */
export const STALE_PAGE_NOTICE = 'That page link is out of date, so the first page is shown.'

export function listNotices(
  page: { staleCursor: boolean },
  ...more: Array<string | false | null | undefined>
): string[] {
  return [page.staleCursor ? STALE_PAGE_NOTICE : null, ...more].filter((n): n is string => Boolean(n))
}

/** The list's address as it was (search, filters, sort, page), without the page's other states. */
export function listHref(request: Request, path: string, drop: string[]) {
  const url = new URL(request.url)
  for (const key of [...drop, 'index']) url.searchParams.delete(key)
  const search = url.searchParams.toString()
  return search ? `${path}?${search}` : path
}
