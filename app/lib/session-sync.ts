import { TIMINGS } from '#app/config/constants'

/**
 * The browser side of the session sync (DESIGN.md §5). The root loader hands the page a short-lived
 * identity token; posting it to `/api/__session` extends the server session, re-sets the cookie and
 * answers a fresh token. This module calls it once at start-up, again 5 minutes before each token
 * expires (retrying from 30 s, doubling, up to 16 min) and after each sign-in state change, and
 * tells the other tabs of this origin about sign-ins and sign-outs.
 *
 * Framework-free: every effect (fetch, clock, timers, channel) is injected, so the policy is tested
 * with fake timers and the React hook (use-session-sync.ts) only wires in the window's.
 */

export const SESSION_ENDPOINT = '/api/__session'
export const SESSION_CHANNEL = 'panorama-auth'

/** setTimeout keeps its delay in a signed 32-bit integer; a longer wait would fire at once. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1

export interface SessionUser {
  uid: string
  email: string | null
  emailVerified: boolean
  displayName: string | null
  photoURL: string | null
  phoneNumber: string | null
  providerData: unknown[]
}

export interface SessionAnswer {
  user: SessionUser | null
  token: string | null
  /** Epoch ms at which `token` expires. */
  expiresAt: number | null
}

export type AuthChange = 'signed-in' | 'signed-out'
export interface AuthMessage {
  type: AuthChange
}

/** The part of BroadcastChannel this module uses; either listener style is accepted. */
export interface ChannelLike {
  postMessage(message: AuthMessage): void
  addEventListener?(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener?(type: 'message', listener: (event: MessageEvent) => void): void
  onmessage?: ((event: MessageEvent) => void) | null
  close(): void
}

export interface SessionSyncDeps {
  fetch: (input: string, init: RequestInit) => Promise<Response>
  now: () => number
  setTimeout: (callback: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
  channel?: ChannelLike | null
  /** The server no longer knows the session (401, or a refresh answered no user). Sync has stopped. */
  onSignedOut: () => void
  /** A refresh answered a user that differs from the previous answer's (e.g. e-mail verified elsewhere). */
  onUserChange?: (user: SessionUser | null) => void
  /** Another tab signed in or out. Without this callback, a remote sign-out calls onSignedOut. */
  onRemoteChange?: (type: AuthChange) => void
  endpoint?: string
  leadMs?: number
}

/** What one call to the endpoint came to; returned for callers and tests, never needed for correctness. */
export type SyncOutcome = 'ok' | 'signed-out' | 'unauthorized' | 'failed' | 'superseded'

/** How long to wait before refreshing a token that expires at `expiresAt`: `leadMs` ahead, never negative. */
export function refreshDelay(
  expiresAt: number,
  now: number,
  leadMs: number = TIMINGS.tokenRefreshLeadMs,
): number {
  const delay = expiresAt - leadMs - now
  if (Number.isNaN(delay)) return 0
  return Math.min(Math.max(0, delay), MAX_TIMER_DELAY_MS)
}

/** Wait before retry number `attempt` (0-based) after a failed refresh: 30 s doubling, capped at 16 min. */
export function retryDelay(attempt: number): number {
  const n = Math.max(0, Math.floor(attempt))
  // Past the cap the exponent no longer matters; bounding it keeps 2 ** n finite.
  return Math.min(TIMINGS.refreshRetryInitialMs * 2 ** Math.min(n, 30), TIMINGS.refreshRetryMaxMs)
}

export class SessionSync {
  private token: string | null = null
  private expiresAt: number | null = null
  private timer: { handle: unknown } | null = null
  /** Failed calls in a row; picks the next retry delay and resets on success. */
  private failures = 0
  /** Each call takes a number; an answer to anything but the latest call is dropped. */
  private sequence = 0
  private inflight: AbortController | null = null
  /** JSON of the last answered user; undefined until a first answer sets the baseline. */
  private knownUser: string | undefined
  private started = false
  private stopped = false

  constructor(private readonly deps: SessionSyncDeps) {}

  /** Begins syncing; one-shot (a stopped instance stays stopped). Calls the endpoint now when signed in. */
  start(initialToken: string | null, expiresAt: number | null): Promise<SyncOutcome> | undefined {
    if (this.started || this.stopped) return undefined
    this.started = true
    this.listen()
    this.token = initialToken || null
    this.expiresAt = expiresAt
    return this.token ? this.call(this.token) : undefined
  }

  /**
   * Adopts a newer token the page obtained by other means (a loader ran again) and re-plans the
   * refresh around it, without calling the server: the loader's request already extended the session.
   */
  setToken(token: string | null, expiresAt: number | null) {
    if (this.stopped || (token === this.token && expiresAt === this.expiresAt)) return
    this.token = token || null
    this.expiresAt = expiresAt
    // A call in flight carries the older token; its answer must not overwrite this one.
    this.cancelInflight()
    this.failures = 0
    this.schedule()
  }

  /** This tab signed in (or switched user): sync the server with the new token and tell other tabs. */
  notifySignedIn(token: string, expiresAt: number | null): Promise<SyncOutcome> | undefined {
    if (this.stopped) return undefined
    this.token = token
    this.expiresAt = expiresAt
    this.failures = 0
    this.knownUser = undefined
    this.post('signed-in')
    return this.call(token)
  }

  /** This tab signed out: clear the server session (empty token) and tell other tabs. */
  notifySignedOut(): Promise<SyncOutcome> | undefined {
    if (this.stopped) return undefined
    this.token = null
    this.expiresAt = null
    this.failures = 0
    this.knownUser = undefined
    this.post('signed-out')
    return this.call('')
  }

  stop() {
    if (this.stopped) return
    this.stopped = true
    this.clearTimer()
    this.cancelInflight()
    const channel = this.deps.channel
    if (channel) {
      if (usesListeners(channel)) channel.removeEventListener('message', this.onMessage)
      else if (channel.onmessage === this.onMessage) channel.onmessage = null
      try {
        channel.close()
      } catch {
        // Already closed: nothing left to release.
      }
    }
  }

  private listen() {
    const channel = this.deps.channel
    if (!channel) return
    if (usesListeners(channel)) channel.addEventListener('message', this.onMessage)
    else channel.onmessage = this.onMessage
  }

  private readonly onMessage = (event: MessageEvent) => {
    if (this.stopped) return
    const type = parseMessage(event?.data)
    if (!type) return
    if (type === 'signed-out') {
      // Our token belongs to the session that just ended; refreshing it could only answer 401.
      this.token = null
      this.expiresAt = null
      this.clearTimer()
      this.cancelInflight()
    }
    if (this.deps.onRemoteChange) this.deps.onRemoteChange(type)
    else if (type === 'signed-out') this.deps.onSignedOut()
  }

  private post(type: AuthChange) {
    try {
      this.deps.channel?.postMessage({ type })
    } catch {
      // A closed channel only costs the other tabs a prompt update; they catch up on their next call.
    }
  }

  private async call(token: string): Promise<SyncOutcome> {
    this.clearTimer()
    this.cancelInflight()
    const controller = new AbortController()
    this.inflight = controller
    const id = ++this.sequence
    const current = () => !this.stopped && id === this.sequence
    try {
      const response = await this.deps.fetch(this.deps.endpoint ?? SESSION_ENDPOINT, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ token }),
        // Same-origin endpoint: the session cookie goes with it and nothing goes elsewhere.
        credentials: 'same-origin',
        signal: controller.signal,
      })
      if (!current()) return 'superseded'
      if (response.status === 401) {
        await response.body?.cancel().catch(() => {})
        // Signing out, the session being gone already is the wanted end state.
        return token === '' ? 'signed-out' : this.signedOut()
      }
      if (!response.ok) throw new Error(`Session sync answered ${response.status}`)
      const answer = parseAnswer(await response.json())
      if (!current()) return 'superseded'
      if (!answer) throw new Error('Session sync answered an unexpected body')
      if (token === '') {
        this.noteUser(null)
        return 'signed-out'
      }
      if (!answer.user || !answer.token) return this.signedOut()
      this.token = answer.token
      this.expiresAt = answer.expiresAt
      this.failures = 0
      this.noteUser(answer.user)
      this.schedule()
      return 'ok'
    } catch {
      if (!current()) return 'superseded'
      // Sign-out already happened server-side through its form; this call only confirms it.
      if (token === '') return 'failed'
      // Network errors, 5xx and any other unexpected answer: keep trying, ever more slowly. Giving
      // up would let the session lapse silently; the 16-minute cap bounds the cost.
      const delay = retryDelay(this.failures)
      this.failures++
      this.setTimer(() => {
        if (this.token) void this.call(this.token)
      }, delay)
      return 'failed'
    } finally {
      if (this.inflight === controller) this.inflight = null
    }
  }

  private signedOut(): SyncOutcome {
    this.stop()
    this.deps.onSignedOut()
    return 'unauthorized'
  }

  private noteUser(user: SessionUser | null) {
    const key = JSON.stringify(user)
    if (this.knownUser !== undefined && this.knownUser !== key) this.deps.onUserChange?.(user)
    this.knownUser = key
  }

  private schedule() {
    this.clearTimer()
    const { token, expiresAt } = this
    // Without a known expiry there is nothing to plan; the next sign-in state change calls again.
    if (!token || typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return
    this.setTimer(
      () => {
        if (this.token) void this.call(this.token)
      },
      refreshDelay(expiresAt, this.deps.now(), this.deps.leadMs),
    )
  }

  private setTimer(callback: () => void, ms: number) {
    this.clearTimer()
    if (this.stopped) return
    const timer = {
      handle: this.deps.setTimeout(() => {
        if (this.timer === timer) this.timer = null
        callback()
      }, ms),
    }
    this.timer = timer
  }

  private clearTimer() {
    if (!this.timer) return
    this.deps.clearTimeout(this.timer.handle)
    this.timer = null
  }

  private cancelInflight() {
    if (!this.inflight) return
    this.inflight.abort()
    this.inflight = null
    // Moving the sequence on drops whatever answer the aborted call still produces.
    this.sequence++
  }
}

/** Listeners only when the channel can both add and remove them; otherwise the onmessage slot. */
function usesListeners(
  channel: ChannelLike,
): channel is ChannelLike & Required<Pick<ChannelLike, 'addEventListener' | 'removeEventListener'>> {
  return typeof channel.addEventListener === 'function' && typeof channel.removeEventListener === 'function'
}

function parseMessage(data: unknown): AuthChange | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const type = (data as { type?: unknown }).type
  return type === 'signed-in' || type === 'signed-out' ? type : undefined
}

function parseAnswer(body: unknown): SessionAnswer | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const { user, token, expiresAt } = body as Record<string, unknown>
  if (user !== null && (typeof user !== 'object' || typeof (user as { uid?: unknown }).uid !== 'string'))
    return undefined
  if (token !== null && typeof token !== 'string') return undefined
  if (expiresAt !== null && typeof expiresAt !== 'number') return undefined
  return { user: user as SessionUser | null, token, expiresAt }
}
