import { NON_IDEMPOTENT_METHODS, RETRY_STATUSES } from '#app/config/constants'

/**
 * The HTTP client's retry policy (spec §9): POST, PUT, PATCH and DELETE are never retried, because
 * the server may already have acted on the first attempt; every other method is retried once, and
 * only on a status a second attempt may cure.
 */

const nonIdempotent = new Set<string>(NON_IDEMPOTENT_METHODS)
const retryStatuses = new Set<number>(RETRY_STATUSES)

export function retriesFor(method: string): number {
  return nonIdempotent.has(method.toUpperCase()) ? 0 : 1
}

export function isRetryStatus(status: number): boolean {
  return retryStatuses.has(status)
}

/**
 * `attempt` counts from 0: it is the index of the attempt that just answered `status`, so a GET
 * whose first attempt (0) answered 503 is retried and its second (1) is not.
 */
export function shouldRetry({
  method,
  status,
  attempt,
}: {
  method: string
  status: number
  attempt: number
}) {
  return isRetryStatus(status) && attempt < retriesFor(method)
}

export interface FetchWithRetryDeps {
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  /** Wait before each retry; 0 by default, as a single retry gains little from a pause. */
  retryDelayMs?: number
  sleep?: (ms: number) => Promise<void>
}

/**
 * fetch() with the retry policy. Network errors (fetch rejecting) count like a retryable status
 * for methods that may be retried: the request either never reached the server or its answer was
 * lost, and repeating a GET is harmless. For POST, PUT, PATCH and DELETE they are thrown at once,
 * since the server may have acted before the connection dropped. An abort is the caller's decision
 * and is never retried.
 */
export async function fetchWithRetry(
  input: RequestInfo | URL,
  init?: RequestInit,
  deps: FetchWithRetryDeps = {},
): Promise<Response> {
  const doFetch = deps.fetch ?? ((i: RequestInfo | URL, o?: RequestInit) => fetch(i, o))
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
  const retries = retriesFor(method)

  for (let attempt = 0; ; attempt++) {
    const last = attempt >= retries
    // A Request's body can be read only once; every attempt but the last gets a copy.
    const request = input instanceof Request && !last ? input.clone() : input
    let response: Response
    try {
      response = await doFetch(request, init)
    } catch (error) {
      if (last || isAbort(error, input, init)) throw error
      await pause(sleep, deps.retryDelayMs)
      continue
    }
    if (last || !shouldRetry({ method, status: response.status, attempt })) return response
    // Release the connection the discarded answer holds.
    await response.body?.cancel().catch(() => {})
    await pause(sleep, deps.retryDelayMs)
  }
}

function isAbort(error: unknown, input: RequestInfo | URL, init?: RequestInit) {
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined)
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError')
}

async function pause(sleep: (ms: number) => Promise<void>, ms = 0) {
  if (ms > 0) await sleep(ms)
}
