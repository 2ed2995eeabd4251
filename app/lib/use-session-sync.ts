import { useEffect, useRef } from 'react'
import { fetchWithHost } from '#app/lib/fetch-error'
import { SESSION_CHANNEL, SessionSync, type ChannelLike, type SessionSyncDeps } from '#app/lib/session-sync'

/** The parts of `window` the session sync needs; a plain object stands in for it in tests. */
export interface BrowserLike {
  fetch(input: string, init: RequestInit): Promise<Response>
  setTimeout(callback: () => void, ms: number): number
  clearTimeout(handle: number | undefined): void
  location: Pick<Location, 'assign' | 'reload' | 'pathname' | 'search'>
  BroadcastChannel?: new (name: string) => ChannelLike
}

type Handlers = Pick<SessionSyncDeps, 'onSignedOut' | 'onRemoteChange' | 'onUserChange'>

/** A SessionSync on the browser's own fetch, clock, timers and (where there is one) BroadcastChannel. */
export function createBrowserSessionSync(win: BrowserLike, handlers: Handlers): SessionSync {
  let channel: ChannelLike | null = null
  try {
    if (typeof win.BroadcastChannel === 'function') channel = new win.BroadcastChannel(SESSION_CHANNEL)
  } catch {
    // Some sandboxed frames forbid it; the tab then only learns of other tabs on its next request.
  }
  return new SessionSync({
    // Looked up per call so wrappers installed later (monitoring's tracing) still see the request;
    // a failed fetch names the host it could not reach (portal-spec §8).
    fetch: (input, init) => fetchWithHost(input, init, { fetch: (i, o) => win.fetch(i as string, o!) }),
    now: () => Date.now(),
    setTimeout: (callback, ms) => win.setTimeout(callback, ms),
    clearTimeout: (handle) => win.clearTimeout(handle as number),
    channel,
    ...handlers,
  })
}

/** Where a dead session sends the browser: sign-in, coming back to this page afterwards. */
export function signInPath(location: Pick<Location, 'pathname' | 'search'>): string {
  const here = location.pathname + location.search
  return here === '/' || here.startsWith('/sign-in')
    ? '/sign-in'
    : `/sign-in?redirectTo=${encodeURIComponent(here)}`
}

export interface UseSessionSyncOptions {
  token: string | null
  expiresAt: number | null
  userId: string | null
  /** Re-reads the page's data after another tab signed in or out; a full reload by default. */
  revalidate?: () => void
  /** Replaces the default document navigation to /sign-in when the server ends the session. */
  onSignedOut?: () => void
  /**
   * Re-reads the page's data when the browser shows it again from its back/forward cache; a full
   * reload by default.
   */
  onRestored?: () => void
}

/**
 * Keeps the server session in step with this page (see session-sync.ts). Mount it once, in the root,
 * with the token, expiry and user id the root loader returns.
 */
export function useSessionSync({
  token,
  expiresAt,
  userId,
  revalidate,
  onSignedOut,
  onRestored,
}: UseSessionSyncOptions) {
  const syncRef = useRef<SessionSync | null>(null)
  const latest = useRef({ token, expiresAt, revalidate, onSignedOut, onRestored })
  const previousUserId = useRef(userId)
  // Set when another tab's change makes this page reload its data: the user id that then changes
  // here must not be announced back, or two tabs would echo each other.
  const remoteChange = useRef(false)

  useEffect(() => {
    latest.current = { token, expiresAt, revalidate, onSignedOut, onRestored }
  })

  // A page shown again from the back/forward cache is the page as it was left: since then the
  // session may have ended (signed out in this tab or another, expired) or changed hands. Its data is
  // read again, as after another tab's change (the user id that then changes was announced already,
  // or ended on the server): a page whose guard now fails leaves for /sign-in, and the others show
  // what the server says now. While the page sat in the cache, so did its refresh timer; a refresh
  // overdue by now runs at once and meets the same answer.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return
      remoteChange.current = true
      const refresh = latest.current.onRestored ?? (() => window.location.reload())
      refresh()
    }
    window.addEventListener('pageshow', onPageShow)
    return () => window.removeEventListener('pageshow', onPageShow)
  }, [])

  useEffect(() => {
    const sync = createBrowserSessionSync(window, {
      // A document navigation, not a client one: it drops every piece of state of the old session.
      onSignedOut: () => {
        const leave =
          latest.current.onSignedOut ?? (() => window.location.assign(signInPath(window.location)))
        leave()
      },
      onRemoteChange: () => {
        remoteChange.current = true
        const refresh = latest.current.revalidate ?? (() => window.location.reload())
        refresh()
      },
      onUserChange: () => latest.current.revalidate?.(),
    })
    syncRef.current = sync
    void sync.start(latest.current.token, latest.current.expiresAt)
    return () => {
      sync.stop()
      syncRef.current = null
    }
  }, [])

  useEffect(() => {
    const sync = syncRef.current
    if (!sync) return
    const step = nextSyncStep({
      previousUserId: previousUserId.current,
      userId,
      token,
      remoteChange: remoteChange.current,
    })
    previousUserId.current = userId
    remoteChange.current = false
    if (step === 'adopt') sync.setToken(token, expiresAt)
    else if (step === 'signed-in' && token) void sync.notifySignedIn(token, expiresAt)
    else if (step === 'signed-out') void sync.notifySignedOut()
  }, [userId, token, expiresAt])
}

/**
 * What a render with new loader data means for the sync. The same user: at most a fresher token to
 * adopt. A different user after another tab's change: adopt too, as that tab already told the server
 * and the others. A different user otherwise: this tab signed in or out, which must be announced.
 */
export function nextSyncStep({
  previousUserId,
  userId,
  token,
  remoteChange,
}: {
  previousUserId: string | null
  userId: string | null
  token: string | null
  remoteChange: boolean
}): 'adopt' | 'signed-in' | 'signed-out' {
  if (previousUserId === userId || remoteChange) return 'adopt'
  if (!userId) return 'signed-out'
  // Signed in but no token to prove it: nothing to send; adopting clears the refresh plan.
  return token ? 'signed-in' : 'adopt'
}
