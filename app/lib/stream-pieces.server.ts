import { Transform } from 'node:stream'

/**
 * Joins a byte stream's small chunks into pieces of about `bytes` (the last one smaller). A CSV
 * stringifier emits one chunk per row, some 80 bytes: sent as they are, every one of them costs a
 * step through the web stream, the HTTP response and the compressor (brotli took three times the
 * CPU of making the rows, issue 15 A7). For downloads, where nobody waits for a single row.
 */
export function inPieces(bytes = 64 * 1024) {
  let parts: Buffer[] = []
  let size = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      parts.push(chunk)
      size += chunk.length
      if (size < bytes) return done()
      const piece = Buffer.concat(parts, size)
      parts = []
      size = 0
      done(null, piece)
    },
    flush(done) {
      done(null, size ? Buffer.concat(parts, size) : undefined)
    },
  })
}
