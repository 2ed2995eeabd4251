import type { ServerResponse } from 'node:http'
import { createReadableStreamFromReadable } from '@react-router/node'
import type express from 'express'
import {
  createRequestHandler as createReactRouterHandler,
  type AppLoadContext,
  type ServerBuild,
} from 'react-router'
import { log } from '#app/lib/logger.server'
import { currentLoadContext } from '#app/lib/request-scope.server'

/**
 * React Router's handler on Express: `@react-router/express`'s `createRequestHandler`, with the
 * response body written by {@link writeBody} (ADR 030).
 *
 * The package's writer (7.18.4) races every read of the body against one promise that settles only
 * when the response closes; each race leaves that promise holding the chunk it read, so a response
 * kept everything it had sent in memory until it ended (issue 15, A7: an answer export of 330 MB
 * took 2.6 GB, and with a capped heap the whole server died). Its wait for `drain` also left one
 * listener behind on the compressor per wait. The request is built as the package builds it.
 */
export function createRequestHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>)
  mode?: string
  getLoadContext?: (req: express.Request, res: express.Response) => AppLoadContext | Promise<AppLoadContext>
}): express.RequestHandler {
  const handleRequest = createReactRouterHandler(build, mode)
  return async (req, res, next) => {
    try {
      const request = toRequest(req, res)
      const loadContext = await getLoadContext?.(req, res)
      const response = await handleRequest(request, loadContext)
      await sendResponse(res, response)
    } catch (error) {
      next(error)
    }
  }
}

/** The Fetch Request for an Express request, as `@react-router/express` 7.18.4 makes it. */
function toRequest(req: express.Request, res: express.Response): Request {
  // X-Forwarded-Host only when the proxy is trusted; the port from it, else from Host.
  const [, forwardedPort] = req.app?.enabled('trust proxy')
    ? (req.get('X-Forwarded-Host')?.split(':') ?? [])
    : []
  const [, hostPort] = req.get('host')?.split(':') ?? []
  const forwarded = Number.parseInt(forwardedPort ?? '', 10)
  const own = Number.parseInt(hostPort ?? '', 10)
  const port = Number.isSafeInteger(forwarded) ? forwarded : Number.isSafeInteger(own) ? own : ''
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || 'localhost'
  const url = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ''}${req.originalUrl}`)

  // The request's signal aborts when the client goes away before the response is complete.
  let controller: AbortController | null = new AbortController()
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method,
    headers: toHeaders(req.headers),
    signal: controller.signal,
  }
  res.on('finish', () => (controller = null))
  res.on('close', () => controller?.abort())
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(req)
    init.duplex = 'half'
  }
  return new Request(url.href, init)
}

function toHeaders(source: express.Request['headers']) {
  const headers = new Headers()
  for (const [key, values] of Object.entries(source)) {
    if (!values) continue
    if (Array.isArray(values)) for (const value of values) headers.append(key, value)
    else headers.set(key, values)
  }
  return headers
}

async function sendResponse(res: express.Response, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel()
    return
  }
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [key, value] of response.headers.entries()) res.append(key, value)
  // An event stream's headers go at once: the first event may be a while coming.
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders()
  if (!response.body) {
    res.end()
    return
  }
  await writeBody(response.body, res)
}

const BATCH_BYTES = 64 * 1024
const NEXT_TURN = Symbol('next turn')
/** Resolves after the I/O and timers of this turn of the event loop (setImmediate). */
const nextTurn = () => new Promise<typeof NEXT_TURN>((resolve) => setImmediate(resolve, NEXT_TURN))

/**
 * Writes a response body at the pace the client reads it, holding no more than the chunk in hand:
 * when `write` says the socket (or the compressor in front of it) is full, the next chunk is read
 * only after `drain`. Each chunk is followed by `flush()` (a compressor sends what it has; the
 * compression middleware makes one flush of a burst of them, ADR 009).
 *
 * When the client goes away first, the body is cancelled, which stops its source (a generator
 * reading the database ends). A body that fails half-way is logged and the response destroyed, so
 * the client sees a cut-off transfer rather than a complete-looking file. Never rejects.
 */
export async function writeBody(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse & { flush?: () => void },
): Promise<void> {
  const reader = body.getReader()
  let wake: (() => void) | undefined
  const resume = () => {
    const waiting = wake
    wake = undefined
    waiting?.()
  }
  const gone = () => {
    // Cancelling settles a pending read (done), so a body waiting for its next chunk stops too.
    reader.cancel().catch(() => undefined)
    resume()
  }
  const onClose = () => {
    if (!res.writableFinished) gone()
  }
  // One listener for the whole response. The compression middleware moves 'drain' listeners onto
  // its compressor and cannot take them off again: a listener per wait would pile up there.
  res.on('drain', resume)
  res.on('close', onClose)
  res.on('error', gone)
  // The chunks that arrive in one turn of the event loop go out as one write: React renders a page
  // in dozens of small chunks, and each write into the compressor is a trip to its thread (issue 17:
  // a sixth of the report's CPU went there). A body that pauses (a deferred value, a download
  // waiting on the database) still goes out burst by burst, and never more than BATCH_BYTES is held.
  let batch: Uint8Array[] = []
  let batched = 0
  const send = async () => {
    const chunk = batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched)
    batch = []
    batched = 0
    const more = res.write(chunk)
    res.flush?.()
    if (!more && !res.destroyed) await new Promise<void>((resolve) => (wake = resolve))
  }
  try {
    for (;;) {
      const reading = reader.read()
      let next = batch.length ? await Promise.race([reading, nextTurn()]) : await reading
      if (res.destroyed || res.writableEnded) return
      if (next === NEXT_TURN) {
        await send()
        if (res.destroyed || res.writableEnded) return
        next = await reading
        if (res.destroyed || res.writableEnded) return
      }
      const { done, value } = next as ReadableStreamReadResult<Uint8Array>
      if (done) {
        if (batch.length) res.write(batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched))
        res.end()
        return
      }
      batch.push(value)
      batched += value.byteLength
      if (batched >= BATCH_BYTES) await send()
    }
  } catch (error) {
    if (!res.destroyed) {
      log.error('response body failed', { requestId: currentLoadContext()?.requestId, error })
      res.destroy()
    }
    reader.cancel(error).catch(() => undefined)
  } finally {
    res.off('drain', resume)
    res.off('close', onClose)
    res.off('error', gone)
    reader.releaseLock()
  }
}
