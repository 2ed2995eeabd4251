import { FAILED_FETCH_MESSAGES } from '#app/config/constants'

/**
 * Browsers report a failed fetch with a bare "Failed to fetch" (Chrome), "Load failed" (Safari) or
 * "NetworkError when attempting to fetch resource." (Firefox), which names no host; in an error
 * report that could be our API, the identity service or a CDN. Spec §8: append the host.
 */

const failedFetchMessages = new Set<string>(FAILED_FETCH_MESSAGES)

export function isFailedFetchError(error: unknown): error is Error {
  return error instanceof Error && failedFetchMessages.has(error.message)
}

/** The host a request went to; relative URLs resolve against the page, as fetch() resolves them. */
export function hostOf(url: RequestInfo | URL): string | undefined {
  const raw = url instanceof Request ? url.url : url
  try {
    return new URL(raw, globalThis.location?.href).host || undefined
  } catch {
    return undefined
  }
}

/**
 * Returns a copy of a failed-fetch error with ` (host)` appended, keeping its class, name and
 * stack and holding the original as `cause`; any other value comes back as it is. Only the exact
 * browser messages match, so an error that already carries a host is never extended twice.
 */
export function withHost(error: unknown, url: RequestInfo | URL): unknown {
  if (!isFailedFetchError(error)) return error
  const host = hostOf(url)
  if (!host) return error
  const message = `${error.message} (${host})`
  const copy =
    error instanceof TypeError
      ? new TypeError(message, { cause: error })
      : new Error(message, { cause: error })
  copy.name = error.name
  // Keep the frames of the original failure; only the first line carries the message.
  if (error.stack) copy.stack = error.stack.replace(error.message, message)
  return copy
}

export async function fetchWithHost(
  input: RequestInfo | URL,
  init?: RequestInit,
  deps: { fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> } = {},
): Promise<Response> {
  const doFetch = deps.fetch ?? ((i: RequestInfo | URL, o?: RequestInit) => fetch(i, o))
  try {
    return await doFetch(input, init)
  } catch (error) {
    throw withHost(error, input)
  }
}
