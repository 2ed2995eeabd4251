import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { getDb } from '#db/client'
import { sessions } from '#db/schema/index'
import { cookiesFrom, location, send } from '#tests/support/app'

/**
 * Small readers shared by the identity, session and security tests: they look at what a browser
 * would get (status, Set-Cookie attributes, the text of the rendered page) and at the rows behind it.
 */

/** The password db/factories gives every user unless told otherwise. */
export const FACTORY_PASSWORD = 'correct horse battery'

export type SetCookie = { name: string; value: string; attributes: Record<string, string | true> }

/** Every Set-Cookie of a response, parsed; attribute names lower-cased. */
export function setCookies(response: Response): SetCookie[] {
  return response.headers.getSetCookie().map((header) => {
    const [pair, ...rest] = header.split(';')
    const eq = pair!.indexOf('=')
    const attributes: Record<string, string | true> = {}
    for (const part of rest) {
      const [key, ...value] = part.trim().split('=')
      if (key) attributes[key.toLowerCase()] = value.length ? value.join('=') : true
    }
    return { name: pair!.slice(0, eq).trim(), value: pair!.slice(eq + 1).trim(), attributes }
  })
}

export function setCookie(response: Response, name: string): SetCookie | undefined {
  return setCookies(response).find((c) => c.name === name)
}

/** The `id.secret` token a response puts in the `__session` cookie (undefined when it sets none). */
export function sessionTokenFrom(response: Response): string | undefined {
  const cookie = setCookie(response, '__session')
  return cookie && cookie.value ? decodeURIComponent(cookie.value) : undefined
}

export const cookieHeader = (token: string) => `__session=${encodeURIComponent(token)}`

export function sha256Hex(value: string) {
  return crypto.createHash('sha256').update(value).digest('hex')
}

export async function sessionRow(id: string) {
  const [row] = await getDb().select().from(sessions).where(eq(sessions.id, id))
  return row
}

export async function sessionRowsOf(userId: string) {
  return getDb().select().from(sessions).where(eq(sessions.userId, userId))
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

export function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1))
      return String.fromCodePoint(code)
    }
    return ENTITIES[entity.toLowerCase()] ?? whole
  })
}

/** The visible text of an HTML fragment (tags dropped, entities decoded, whitespace collapsed). */
export function textOf(html: string) {
  return decodeEntities(
    html
      .replace(/<script[\s\S]*?<\/script>/gi, ' ')
      .replace(/<style[\s\S]*?<\/style>/gi, ' ')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim()
}

/** The text of every `role="alert"` box on the page (form-level errors, expired-link notices). */
export function alertTexts(html: string): string[] {
  return [...html.matchAll(/<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/g)].map((m) => textOf(m[1]!))
}

/** A field's error list as Conform renders it: `<ul id="<form>-<field>-error">`. */
export function fieldErrors(html: string, field: string): string[] {
  const match = new RegExp(`<ul id="[\\w-]*-${field}-error"[^>]*>([\\s\\S]*?)</ul>`).exec(html)
  if (!match) return []
  return [...match[1]!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!))
}

export function titleOf(html: string) {
  const match = /<title>([\s\S]*?)<\/title>/.exec(html)
  return match ? decodeEntities(match[1]!) : null
}

/**
 * The identity token the root loader hands the page (DESIGN.md §5). It is `base64url(JSON).sig`
 * and its JSON starts with `{"sid":`, so it can be found in a document or a turbo-stream `.data`
 * answer without decoding either.
 */
export function identityTokenIn(body: string): string | null {
  const match = /eyJzaWQiOi[\w-]*\.[\w-]+/.exec(body)
  return match ? match[0] : null
}

/** POST /sign-in as the browser's form does (no JavaScript). */
export function postSignIn(
  server: { url: string },
  fields: { email: string; password: string; redirectTo?: string },
  options: { headers?: Record<string, string>; path?: string } = {},
) {
  return send(server, options.path ?? '/sign-in', {
    form: { email: fields.email, password: fields.password, redirectTo: fields.redirectTo ?? '' },
    headers: options.headers,
  })
}

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const net = await import('node:net')
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Following an invite link as a browser does (ADR 007): the GET moves the code into the `__action`
 * cookie and shows the "Continue as a colleague…" page; its POST (pressed by script, or by hand
 * without it) exchanges the code. Answers the POST, or the GET when it led anywhere else (an
 * expired link). `cookie`: what the browser already holds (a session).
 */
export async function openInvite(server: { url: string }, link: string, options: { cookie?: string } = {}) {
  const opened = await send(server, link, { cookie: options.cookie })
  if (opened.status !== 302 || location(opened) !== '/verification?mode=invite') return opened
  await opened.arrayBuffer()
  return send(server, '/verification?mode=invite', {
    cookie: cookiesFrom(opened, options.cookie ?? ''),
    form: {},
  })
}
