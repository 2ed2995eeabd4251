import zlib from 'node:zlib'
import compression from 'compression'
import type { RequestHandler } from 'express'

/**
 * Compression for what the app renders: pages, data requests and resource routes (static files are
 * compressed at build time and served as they are, app.ts). See ADR 009.
 *
 * React Router's Express adapter calls `res.flush()` after every chunk it writes, and React writes a
 * page in dozens of small chunks: each flush closes a brotli or gzip block, so a page was compressed
 * as dozens of tiny pieces (twice the CPU of compressing it whole, and a larger result). Here the
 * flushes of one turn of the event loop become one, taken after that turn's writes: a page rendered
 * at once (every page today: no loader returns a promise) ends before the flush comes due and is
 * compressed in one piece, while a response that really streams (deferred data resolving later, a
 * resource route writing as it goes) still reaches the browser burst by burst. The brotli encoder's
 * window is cut to fit a page: with the 4 MiB default, setting up each response's encoder cost
 * several times more CPU than compressing the page itself.
 *
 * Server-sent events are never compressed: an event must reach the browser when it is written, not
 * when a compression block fills.
 */
export function compressResponses(): RequestHandler[] {
  return [
    compression({
      // Brotli at the package's quality (4), with a 256 KiB window instead of the 4 MiB default: a
      // page is far smaller, and setting up the larger window costs more than compressing the page.
      brotli: { params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
      filter: (req, res) =>
        !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') &&
        compression.filter(req, res),
    }),
    coalesceFlushes,
  ]
}

/** At most one flush per turn of the event loop, after the writes of that turn. */
export const coalesceFlushes: RequestHandler = (_req, res, next) => {
  const flush = res.flush
  if (typeof flush === 'function') {
    let due = false
    res.flush = () => {
      if (due) return
      due = true
      setImmediate(() => {
        due = false
        // Once the response has ended, its end has already compressed and sent everything.
        if (!res.writableEnded && !res.destroyed) flush.call(res)
      })
    }
  }
  next()
}
