import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { compressResponses } from '#app/server/compression'
import { rawChunks } from '#tests/support/raw-http'

/**
 * The flush policy of app/server/compression.ts on a small Express app: React Router's adapter
 * flushes after every chunk it writes; those flushes must not each close a compressed block, yet a
 * response that writes over time must still reach the client as it goes.
 */
let server: http.Server
let origin: { host: string; port: number }

beforeAll(async () => {
  const app = express()
  app.use(compressResponses())
  // Like React Router's adapter on a page rendered at once: many small writes, each flushed.
  app.get('/burst', (_req, res) => {
    res.type('html')
    for (let i = 0; i < 50; i++) {
      res.write(`<p>Paragraph ${i}: ${'some words of the page '.repeat(8)}</p>`)
      res.flush()
    }
    res.end('</body></html>')
  })
  // Like a page with deferred data: the shell now, the rest when its promise settles.
  app.get('/later', (_req, res) => {
    res.type('html')
    res.write(`<p>shell</p>${'<p>filler of the shell</p>'.repeat(80)}`)
    res.flush()
    setTimeout(() => {
      res.write(`<p>deferred</p>${'<p>filler of the rest</p>'.repeat(80)}`)
      res.flush()
      res.end()
    }, 400)
  })
  app.get('/events', (_req, res) => {
    res.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' })
    res.write(`data: ${'x'.repeat(2000)}\n\n`)
    res.flush()
    setTimeout(() => res.end(), 400)
  })
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = { host: '127.0.0.1', port: (server.address() as AddressInfo).port }
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('compressing a response', () => {
  test.each([
    ['br', zlib.brotliDecompressSync],
    ['gzip', zlib.gunzipSync],
  ] as const)(
    'the flushes of one burst of writes make one %s block, not one each',
    async (encoding, inflate) => {
      const { head, chunks } = await rawChunks(origin, '/burst', { 'Accept-Encoding': encoding })
      expect(head).toMatch(new RegExp(`content-encoding: ${encoding}`, 'i'))
      // Fifty flushed writes: compressed as one piece (one block, and the stream's end).
      expect(chunks.length).toBeLessThanOrEqual(2)
      const html = inflate(Buffer.concat(chunks)).toString('utf8')
      expect(html).toContain('Paragraph 0:')
      expect(html).toContain('Paragraph 49:')
      expect(html.endsWith('</body></html>')).toBe(true)
    },
  )

  test('brotli uses a 256 KiB window, not the 4 MiB default (setting that up cost more than the page)', async () => {
    const { chunks } = await rawChunks(origin, '/burst', { 'Accept-Encoding': 'br' })
    // RFC 7932 §9.2: the stream's first bits give the window: 1, then 3 bits n (n > 0) for 17 + n.
    const first = Buffer.concat(chunks)[0]!
    expect(first & 1).toBe(1)
    expect(17 + ((first >> 1) & 7)).toBe(18)
  })

  test('a response written over time still streams: the first part arrives before the rest is written', async () => {
    const started = Date.now()
    const seen: Array<{ at: number; text: string }> = []
    await new Promise<void>((resolve, reject) => {
      http
        .get({ ...origin, path: '/later', headers: { 'Accept-Encoding': 'br' } }, (response) => {
          expect(response.headers['content-encoding']).toBe('br')
          const inflate = zlib.createBrotliDecompress()
          response.pipe(inflate)
          inflate.on('data', (data: Buffer) => seen.push({ at: Date.now() - started, text: data.toString() }))
          inflate.on('end', resolve)
          inflate.on('error', reject)
        })
        .on('error', reject)
    })
    const shell = seen.find((s) => s.text.includes('<p>shell</p>'))!
    const rest = seen.find((s) => s.text.includes('<p>deferred</p>'))!
    expect(shell.at).toBeLessThan(300)
    expect(rest.at).toBeGreaterThanOrEqual(390)
  })

  test('server-sent events are never compressed', async () => {
    const { head, chunks } = await rawChunks(origin, '/events', { 'Accept-Encoding': 'br, gzip' })
    expect(head).not.toMatch(/content-encoding/i)
    expect(Buffer.concat(chunks).toString()).toBe(`data: ${'x'.repeat(2000)}\n\n`)
  })
})
