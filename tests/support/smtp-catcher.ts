import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server in the test process: the app's nodemailer transport talks SMTP to it exactly as
 * to a production relay, and the test reads what arrived. Parsing is deliberately minimal (headers,
 * nested multipart, quoted-printable/base64, encoded-word headers): enough for what nodemailer sends.
 */

export type CaughtMessage = {
  /** Envelope sender and recipients (MAIL FROM / RCPT TO), lower-cased recipients. */
  envelopeFrom: string
  envelopeTo: string[]
  /** Decoded header values, names lower-cased; repeated headers keep the last. */
  headers: Record<string, string>
  from: string
  to: string
  subject: string
  text: string
  html: string
  raw: string
}

export type SmtpCatcher = {
  /** smtp://127.0.0.1:<port>, ready for SMTP_URL or nodemailer.createTransport. */
  url: string
  messages: CaughtMessage[]
  /** Resolves with the first caught message matching `predicate` (already caught or yet to come). */
  waitFor: (predicate: (message: CaughtMessage) => boolean, timeoutMs?: number) => Promise<CaughtMessage>
  /** The next `n` messages are refused with a temporary 451 (after their data was read). */
  failNext: (n: number) => void
  /** Every message is answered only after `ms` (0 to stop), to catch a delivery in flight. */
  setDelay: (ms: number) => void
  close: () => Promise<void>
}

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const messages: CaughtMessage[] = []
  const waiters = new Set<{ predicate: (m: CaughtMessage) => boolean; resolve: (m: CaughtMessage) => void }>()
  let failures = 0
  let delayMs = 0

  const server = new SMTPServer({
    authOptional: true,
    secure: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'panorama test catcher',
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', (error) => callback(error))
      stream.on('end', () => setTimeout(finish, delayMs))
      const finish = () => {
        if (failures > 0) {
          failures--
          const error = Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451 })
          callback(error)
          return
        }
        let message: CaughtMessage
        try {
          message = parseMessage(Buffer.concat(chunks).toString('latin1'), {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          })
        } catch (error) {
          callback(error as Error)
          return
        }
        messages.push(message)
        for (const waiter of waiters) {
          if (waiter.predicate(message)) {
            waiters.delete(waiter)
            waiter.resolve(message)
          }
        }
        callback(null, 'OK: caught')
      }
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  // Later errors (a client hanging up mid-session) must not crash the test process.
  server.on('error', () => {})
  const { port } = server.server.address() as AddressInfo

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext(n) {
      failures = n
    },
    setDelay(ms) {
      delayMs = ms
    },
    waitFor(predicate, timeoutMs = 5_000) {
      const found = messages.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (m: CaughtMessage) => {
            clearTimeout(timer)
            resolve(m)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          reject(
            new Error(`smtp catcher: no matching message within ${timeoutMs} ms (${messages.length} caught)`),
          )
        }, timeoutMs)
        waiters.add(waiter)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** http(s) URLs in a text, in order, without trailing punctuation. */
export function extractLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"'`]+/g)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, ''))
}

type Part = { headers: Record<string, string>; body: string }

/** `raw` is the message as latin1, so every byte is one char until a part's charset is applied. */
function parseMessage(raw: string, envelope: { from: string; to: string[] }): CaughtMessage {
  const root = splitPart(raw)
  const leaves: Part[] = []
  collectLeaves(root, leaves)
  let text = ''
  let html = ''
  for (const leaf of leaves) {
    const type = contentType(leaf.headers).type
    if (type === 'text/plain' && !text) text = decodeBody(leaf)
    else if (type === 'text/html' && !html) html = decodeBody(leaf)
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(root.headers)) headers[name] = decodeWords(value)
  return {
    envelopeFrom: envelope.from,
    envelopeTo: envelope.to,
    headers,
    from: headers.from ?? '',
    to: headers.to ?? '',
    subject: headers.subject ?? '',
    text,
    html,
    raw,
  }
}

function splitPart(raw: string): Part {
  const match = /\r?\n\r?\n/.exec(raw)
  const head = match ? raw.slice(0, match.index) : raw
  const body = match ? raw.slice(match.index + match[0].length) : ''
  const headers: Record<string, string> = {}
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { headers, body }
}

function contentType(headers: Record<string, string>) {
  const value = headers['content-type'] ?? 'text/plain'
  const [type, ...params] = value.split(';')
  const map: Record<string, string> = {}
  for (const param of params) {
    const eq = param.indexOf('=')
    if (eq > 0)
      map[param.slice(0, eq).trim().toLowerCase()] = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '')
  }
  return { type: type.trim().toLowerCase(), params: map }
}

function collectLeaves(part: Part, out: Part[]) {
  const { type, params } = contentType(part.headers)
  if (!type.startsWith('multipart/') || !params.boundary) {
    out.push(part)
    return
  }
  const delimiter = `--${params.boundary}`
  const sections = part.body.split(delimiter)
  // sections[0] is the preamble; the last one starts with "--" (the closing delimiter).
  for (const section of sections.slice(1)) {
    if (section.startsWith('--')) break
    collectLeaves(splitPart(section.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n$/, '')), out)
  }
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase()
  const charset = contentType(part.headers).params.charset ?? 'utf-8'
  let bytes: Buffer
  if (encoding === 'base64') bytes = Buffer.from(part.body.replace(/\s+/g, ''), 'base64')
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(part.body)
  else bytes = Buffer.from(part.body, 'latin1')
  return decodeCharset(bytes, charset).replace(/\r\n/g, '\n')
}

function decodeQuotedPrintable(body: string): Buffer {
  const input = body.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < input.length; i++) {
    if (input[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      bytes.push(input.charCodeAt(i) & 0xff)
    }
  }
  return Buffer.from(bytes)
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes)
  } catch {
    return bytes.toString('utf8')
  }
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=); whitespace between two of them is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, charset: string, kind: string, data: string) => {
      const bytes =
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : decodeQuotedPrintable(data.replace(/_/g, ' '))
      return decodeCharset(bytes, charset.replace(/\*.*$/, ''))
    })
}
