import { TIMINGS } from '#app/config/constants'

/**
 * The sign-in client's network timeout (spec §9): 30 s on desktop, 60 s on mobile, where networks
 * are slower and requests more often stall while the device changes cell or wakes its radio.
 */

export const TIMEOUT_CODE = 'auth/timeout'

// Phones and tablets by the tokens their browsers send. iPadOS 13+ asks for desktop sites with a
// Macintosh user agent; it then gets the desktop timeout, which the UA alone cannot avoid.
const MOBILE_UA =
  /Mobi|Android|iPhone|iPad|iPod|IEMobile|Windows Phone|BlackBerry|BB10|webOS|Opera Mini|Silk\//i

export function isMobileUserAgent(ua: string | null | undefined): boolean {
  return typeof ua === 'string' && MOBILE_UA.test(ua)
}

export function signInTimeoutMs(ua: string | null | undefined): number {
  return isMobileUserAgent(ua) ? TIMINGS.signInTimeoutMobileMs : TIMINGS.signInTimeoutDesktopMs
}

/** Thrown when a request outlives its timeout; `code` lets the identity-error messages map it. */
export class TimeoutError extends Error {
  readonly code = TIMEOUT_CODE
  constructor(readonly timeoutMs: number) {
    super(`The request took longer than ${Math.round(timeoutMs / 1000)} s and was abandoned.`)
    this.name = 'TimeoutError'
  }
}

export function isTimeoutError(error: unknown): error is TimeoutError {
  return error instanceof Error && (error as { code?: unknown }).code === TIMEOUT_CODE
}

export interface TimerDeps {
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
}

function timers(deps: TimerDeps) {
  return {
    // Looked up at call time, so test fake timers installed after import still apply.
    set: deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms)),
    clear: deps.clearTimeout ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>)),
  }
}

/**
 * An AbortSignal that aborts after `ms` with a TimeoutError as its reason (AbortSignal.timeout()
 * would give a DOMException without our code). Call `clear()` once the work is done so a finished
 * request does not keep a timer alive.
 */
export function timeoutSignal(ms: number, deps: TimerDeps = {}): { signal: AbortSignal; clear(): void } {
  const { set, clear } = timers(deps)
  const controller = new AbortController()
  const handle = set(() => controller.abort(new TimeoutError(ms)), ms)
  return { signal: controller.signal, clear: () => clear(handle) }
}

/**
 * Rejects with a TimeoutError when `work` has not settled after `ms`. Given a function, it is
 * called with a signal that aborts at the timeout, so a fetch is cancelled rather than left running;
 * given a promise, the promise is only abandoned.
 */
export function withTimeout<T>(
  work: Promise<T> | ((signal: AbortSignal) => Promise<T>),
  ms: number,
  deps: TimerDeps = {},
): Promise<T> {
  const { signal, clear } = timeoutSignal(ms, deps)
  let promise: Promise<T>
  try {
    promise = typeof work === 'function' ? work(signal) : work
  } catch (error) {
    clear()
    return Promise.reject(error)
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        clear()
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        clear()
        signal.removeEventListener('abort', onAbort)
        // After a timeout this is a no-op: onAbort already rejected with the TimeoutError, so the
        // AbortError of the cancelled fetch never reaches the caller.
        reject(error)
      },
    )
  })
}
