import net from 'node:net'

/** A raw HTTP/1.1 GET: the head, and the body as the chunks of its chunked encoding (one per write). */
export function rawChunks(
  target: { host: string; port: number },
  path: string,
  headers: Record<string, string>,
): Promise<{ head: string; chunks: Buffer[] }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(target.port, target.host)
    const received: Buffer[] = []
    socket.on('data', (data) => received.push(data))
    socket.on('error', reject)
    socket.on('end', () => {
      const all = Buffer.concat(received)
      const split = all.indexOf('\r\n\r\n')
      const head = all.subarray(0, split).toString('latin1')
      const chunks: Buffer[] = []
      let at = split + 4
      if (!/transfer-encoding: chunked/i.test(head)) return resolve({ head, chunks: [all.subarray(at)] })
      for (;;) {
        const eol = all.indexOf('\r\n', at)
        const size = parseInt(all.subarray(at, eol).toString('latin1'), 16)
        if (!size) break
        chunks.push(all.subarray(eol + 2, eol + 2 + size))
        at = eol + 2 + size + 2
      }
      resolve({ head, chunks })
    })
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`)
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n${lines.join('')}\r\n`)
  })
}

/**
 * A raw HTTP/1.1 request, written as given: `body` may be shorter than the Content-Length the
 * head declares, or end without its multipart closing boundary; `socket.destroy()` cuts the
 * connection as a cancelled upload does. `answer` settles when the connection closes, with the
 * status the server sent (null when it sent none).
 */
export function openRequest(target: { host: string; port: number }, head: string, body: Buffer) {
  const socket = net.connect(target.port, target.host)
  const received: Buffer[] = []
  socket.on('data', (data) => received.push(data))
  const answer = new Promise<{ status: number | null; text: string }>((resolve) => {
    // A reset after the test cut the connection is expected: what was received still counts.
    socket.on('error', () => undefined)
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8')
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]
      resolve({ status: status ? Number(status) : null, text })
    })
  })
  const written = new Promise<void>((resolve) =>
    socket.write(Buffer.concat([Buffer.from(head), body]), () => resolve()),
  )
  return { socket, answer, written }
}
