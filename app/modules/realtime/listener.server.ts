import pg from 'pg'
import { z } from 'zod'
import { getHandle } from '#db/client'
import { log } from '#app/lib/logger.server'
import { EVENTS_CHANNEL, type PanoramaEvent } from './events.server'

/**
 * The receiving side of live updates: one LISTEN per app process, shared by every server-sent-events
 * client through a small in-process hub. Publishers (publishEvent) notify inside their transaction,
 * so nothing arrives before the change is committed, and because the notification travels through
 * Postgres every instance behind a load balancer hears every change.
 *
 * - Postgres: a dedicated pg.Client (a pooled connection would be handed to other queries and lose
 *   its LISTEN), opened on the first subscriber, reconnected with backoff when it drops; after a
 *   reconnect every subscriber is told to resync, since notifications sent meanwhile are lost.
 * - PGlite: its in-process listen(); there is only one process anyway.
 */

export type HubMessage =
  | { kind: 'event'; event: PanoramaEvent }
  /** The listener was down for a while: events may have been missed, so re-read everything. */
  | { kind: 'resync' }
  /** The hub is shutting down: end the stream (the browser reconnects to another instance). */
  | { kind: 'close' }

type Subscriber = { filter: (event: PanoramaEvent) => boolean; onMessage: (message: HubMessage) => void }

type Source = { kind: 'postgres' | 'pglite'; alive: () => boolean; stop: () => Promise<void> }

type Hub = {
  subscribers: Set<Subscriber>
  source?: Source
  /** The database handle the source belongs to (tests reopen the database). */
  boundTo?: object
  starting?: Promise<void>
  reconnectTimer?: NodeJS.Timeout
  reconnectAttempt: number
  /** Bumped by closeRealtime() so a start or reconnect still in flight knows it is obsolete. */
  generation: number
}

// On globalThis, like the database handle: the server build and test files load this module through
// different bundles, and there must still be a single LISTEN connection per process.
const KEY = Symbol.for('panorama.realtime')
type GlobalWithHub = typeof globalThis & { [KEY]?: Hub }
const g = globalThis as GlobalWithHub
function hub(): Hub {
  g[KEY] ??= { subscribers: new Set(), reconnectAttempt: 0, generation: 0 }
  return g[KEY]
}

const RECONNECT_BASE_MS = 500
const LISTENER_PING_MS = 60_000
const RECONNECT_MAX_MS = 30_000

/** 0.5 s, 1 s, 2 s, … capped at 30 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(RECONNECT_BASE_MS * 2 ** attempt, RECONNECT_MAX_MS)
}

const EventSchema = z.object({
  type: z.literal('assignment.updated'),
  subjectId: z.uuid(),
  respondentId: z.uuid().optional(),
  assignmentId: z.uuid(),
  status: z.enum(['pending', 'in_progress', 'submitted', 'revoked']),
  subjectSees: z.boolean().optional(),
})

function deliver(message: HubMessage, filterEvent?: PanoramaEvent) {
  for (const subscriber of [...hub().subscribers]) {
    try {
      if (filterEvent && !subscriber.filter(filterEvent)) continue
      subscriber.onMessage(message)
    } catch (error) {
      log.warn('realtime subscriber failed', { error })
    }
  }
}

function onPayload(payload: string | undefined) {
  let parsed: unknown
  try {
    parsed = JSON.parse(payload ?? '')
  } catch {
    parsed = undefined
  }
  const result = EventSchema.safeParse(parsed)
  // Anything else on the channel (a hand-typed NOTIFY, a newer instance's event type) is ignored.
  if (!result.success) {
    log.debug('realtime payload ignored', { reason: 'not a known event' })
    return
  }
  deliver({ kind: 'event', event: result.data }, result.data)
}

async function startPglite(): Promise<Source> {
  const pglite = getHandle().pglite!
  const unlisten = await pglite.listen(EVENTS_CHANNEL, onPayload)
  return {
    kind: 'pglite',
    alive: () => !pglite.closed,
    stop: async () => {
      // The database may already be closed (shutdown order); then there is nothing to undo.
      await unlisten().catch(() => {})
    },
  }
}

async function startPostgres(generation: number): Promise<Source> {
  const pool = getHandle().pool!
  const client = new pg.Client({
    connectionString: pool.options.connectionString,
    application_name: 'panorama-listen',
    connectionTimeoutMillis: 5_000,
    // The liveness ping below must fail rather than hang on a half-open connection.
    query_timeout: 10_000,
    keepAlive: true,
  })
  let stopping = false
  let dropped = false
  const timers: { ping?: NodeJS.Timeout } = {}
  const source: Source = {
    kind: 'postgres',
    alive: () => !dropped && !stopping,
    stop: async () => {
      stopping = true
      clearInterval(timers.ping)
      await client.end().catch(() => {})
    },
  }
  const onDrop = (error?: Error) => {
    if (stopping || dropped) return
    dropped = true
    clearInterval(timers.ping)
    log.warn('realtime listener connection lost', { error: error?.message ?? 'connection ended' })
    client.end().catch(() => {})
    const h = hub()
    if (h.generation !== generation || h.source !== source) return
    h.source = undefined
    h.boundTo = undefined
    scheduleReconnect()
  }
  // Without an error listener a database restart would crash the process.
  client.on('error', onDrop)
  client.on('end', () => onDrop())
  client.on('notification', (message) => {
    if (message.channel === EVENTS_CHANNEL) onPayload(message.payload)
  })
  try {
    await client.connect()
    await client.query(`LISTEN ${EVENTS_CHANNEL}`)
  } catch (error) {
    stopping = true
    await client.end().catch(() => {})
    throw error
  }
  // The LISTEN connection alone must not keep a stopping process alive (closeRealtime ends it
  // properly; this covers a shutdown path that forgets to). pg keeps the socket on `connection`.
  ;(client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.()
  // A connection that silently died (a failover, a NAT timeout, a half-open socket) raises no error
  // by itself: a ping notices it within a minute or so, and the drop handler reconnects.
  timers.ping = setInterval(() => {
    client.query('SELECT 1').catch((error: Error) => onDrop(error))
  }, LISTENER_PING_MS)
  timers.ping.unref()
  return source
}

/** Starts the process's listener if it is not running (single flight: concurrent callers share one start). */
async function ensureListening(): Promise<void> {
  const h = hub()
  const handle = getHandle()
  if (h.source?.alive() && h.boundTo === handle) return
  if (h.starting) return h.starting
  const generation = h.generation
  h.starting = (async () => {
    if (h.reconnectTimer) {
      clearTimeout(h.reconnectTimer)
      h.reconnectTimer = undefined
    }
    // A source bound to a database that has since been closed and reopened is useless.
    if (h.source) {
      const old = h.source
      h.source = undefined
      await old.stop()
    }
    const source = handle.kind === 'pglite' ? await startPglite() : await startPostgres(generation)
    if (h.generation !== generation || !source.alive()) {
      await source.stop()
      throw new Error('realtime listener closed while starting')
    }
    h.source = source
    h.boundTo = handle
    log.debug('realtime listener started', { kind: source.kind })
  })().finally(() => {
    if (hub().generation === generation) h.starting = undefined
  })
  return h.starting
}

function scheduleReconnect() {
  const h = hub()
  // Nobody is listening: stay idle; the next subscriber starts the listener again.
  if (!h.subscribers.size || h.reconnectTimer) return
  const delay = reconnectDelayMs(h.reconnectAttempt++)
  const generation = h.generation
  h.reconnectTimer = setTimeout(() => {
    h.reconnectTimer = undefined
    if (hub().generation !== generation) return
    ensureListening().then(
      () => {
        h.reconnectAttempt = 0
        log.info('realtime listener reconnected')
        deliver({ kind: 'resync' })
      },
      (error: unknown) => {
        log.warn('realtime listener reconnect failed', {
          error: error instanceof Error ? error.message : String(error),
          retryInMs: reconnectDelayMs(h.reconnectAttempt),
        })
        scheduleReconnect()
      },
    )
  }, delay)
  h.reconnectTimer.unref()
}

/**
 * Registers a subscriber and resolves once the process is listening, so that a change committed
 * after this resolves is delivered. `filter` decides which events reach `onMessage`; resync and close
 * messages reach everyone. Returns the unsubscribe function (safe to call twice). Rejects when the
 * listener cannot be started (the database is down): the caller answers 503 and the browser retries.
 */
export async function subscribe(
  filter: Subscriber['filter'],
  onMessage: Subscriber['onMessage'],
): Promise<() => void> {
  const h = hub()
  const subscriber: Subscriber = { filter, onMessage }
  h.subscribers.add(subscriber)
  const unsubscribe = () => {
    hub().subscribers.delete(subscriber)
  }
  try {
    await ensureListening()
  } catch (error) {
    unsubscribe()
    throw error
  }
  return unsubscribe
}

/** How many subscribers and which listener the process has (health checks and tests). */
export function realtimeStatus() {
  const h = hub()
  return { subscribers: h.subscribers.size, listening: h.source?.kind ?? null }
}

/**
 * Ends every event stream and the LISTEN connection. Call it at the start of a graceful shutdown:
 * open streams would otherwise keep server.close() waiting until the force timeout.
 */
export async function closeRealtime(): Promise<void> {
  const h = hub()
  h.generation++
  if (h.reconnectTimer) clearTimeout(h.reconnectTimer)
  h.reconnectTimer = undefined
  h.reconnectAttempt = 0
  h.starting = undefined
  deliver({ kind: 'close' })
  h.subscribers.clear()
  const source = h.source
  h.source = undefined
  h.boundTo = undefined
  await source?.stop()
}

// ---------------------------------------------------------------------------------------------------
// The server-sent-events response
// ---------------------------------------------------------------------------------------------------

/** A comment line every 25 s keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 25_000
/**
 * A stream ends after this long and the browser reconnects at once (5 s): the reconnection passes the
 * guard again, so a stream never outlives its session by more than this, and the page re-reads its
 * data on reconnecting, so nothing sent in between is missed.
 */
export const STREAM_MAX_AGE_MS = 15 * 60 * 1000
/** A client this many messages behind is dropped; it reconnects and re-reads its page. */
const MAX_QUEUED = 100

export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: compression() (app/server/app.ts) and proxies must pass the stream through as it
  // is written; compressing it would hold events back in the compressor's buffer.
  'Cache-Control': 'no-store, no-transform',
  // nginx buffers proxied responses unless told not to.
  'X-Accel-Buffering': 'no',
} as const

/**
 * The live-update stream of one signed-in employee: only events about their own feedback (subjectId)
 * or about an assignment they answer themselves (respondentId),
 * a heartbeat comment, and clean-up when the browser goes away (request.signal), the stream is
 * cancelled, the hub closes, or the stream reaches its maximum age.
 */
export async function eventStreamResponse(input: {
  /** The employee whose events are sent (their own feedback and what they answer)… */
  subjectId?: string
  /** …or every event: an administrator's dashboard. */
  everyone?: boolean
  signal: AbortSignal
  heartbeatMs?: number
  maxAgeMs?: number
}): Promise<Response> {
  const encoder = new TextEncoder()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let done = false
  let unsubscribe: (() => void) | undefined
  const timers: { heartbeat?: NodeJS.Timeout; maxAge?: NodeJS.Timeout } = {}

  const cleanup = () => {
    if (done) return
    done = true
    if (timers.heartbeat) clearInterval(timers.heartbeat)
    if (timers.maxAge) clearTimeout(timers.maxAge)
    unsubscribe?.()
    input.signal.removeEventListener('abort', cleanup)
    try {
      controller.close()
    } catch {
      // already closed or cancelled
    }
  }
  const write = (text: string) => {
    if (done) return
    if ((controller.desiredSize ?? 0) < -MAX_QUEUED) {
      log.debug('realtime stream dropped a slow client')
      cleanup()
      return
    }
    controller.enqueue(encoder.encode(text))
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
    cancel() {
      cleanup()
    },
  })

  if (input.signal.aborted) {
    cleanup()
    return new Response(null, { status: 204 })
  }
  input.signal.addEventListener('abort', cleanup, { once: true })

  try {
    unsubscribe = await subscribe(
      (event) =>
        input.everyone === true ||
        (input.subjectId !== undefined &&
          ((event.subjectId === input.subjectId && event.subjectSees !== false) ||
            event.respondentId === input.subjectId)),
      (message) => {
        if (message.kind === 'close') cleanup()
        else if (message.kind === 'resync') write('event: resync\ndata: {}\n\n')
        else {
          const { type, assignmentId, status } = message.event
          write(`event: ${type}\ndata: ${JSON.stringify({ assignmentId, status })}\n\n`)
        }
      },
    )
  } catch (error) {
    cleanup()
    log.warn('realtime stream refused: listener unavailable', {
      error: error instanceof Error ? error.message : String(error),
    })
    return new Response('Live updates are unavailable just now.', {
      status: 503,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Retry-After': '10',
        'Cache-Control': 'no-store',
      },
    })
  }
  // The browser may have gone while we were subscribing.
  if (done) {
    unsubscribe()
    return new Response(null, { status: 204 })
  }

  // retry: how long the browser waits before reconnecting; the comment opens the stream at once.
  write('retry: 5000\n: connected\n\n')
  timers.heartbeat = setInterval(() => write(': heartbeat\n\n'), input.heartbeatMs ?? HEARTBEAT_MS)
  timers.heartbeat.unref()
  timers.maxAge = setTimeout(cleanup, input.maxAgeMs ?? STREAM_MAX_AGE_MS)
  timers.maxAge.unref()
  return new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS })
}
