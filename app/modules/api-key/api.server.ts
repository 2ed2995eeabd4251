import type { z } from 'zod'
import { getDb, isDatabaseBusyError, OUTAGE_RETRY_AFTER_SECONDS, reportDatabaseFailure } from '#db/client'
import type { ApiScope } from '#db/enums'
import { log } from '#app/lib/logger.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { hit } from '#app/modules/rate-limit/rate-limit.server'
import { checkApiKey, noteKeyUse, type ApiKeyGrant } from './api-key.server'
import type { Problem } from './api-schemas'

/**
 * The REST API's door (issue 21 §1, ADR 054): every `/api/v1` endpoint answers through
 * {@link apiEndpoint}, which checks the key (401), counts the request against the key's rate limit
 * (429 with Retry-After), checks the scope (403), notes the key's use, audits a write scope's use
 * and turns anything unexpected into a 500 problem — JSON in every case, never an HTML page.
 */

/** The kinds of problem the API answers, by the `type` of its RFC 9457 body. */
export const PROBLEMS = {
  'bad-request': { status: 400, title: 'Bad Request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  'length-required': { status: 411, title: 'Length Required' },
  'payload-too-large': { status: 413, title: 'Content Too Large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  'idempotency-key-reused': { status: 422, title: 'Unprocessable Content' },
  'too-many-requests': { status: 429, title: 'Too Many Requests' },
  'server-error': { status: 500, title: 'Internal Server Error' },
  unavailable: { status: 503, title: 'Service Unavailable' },
} as const
export type ProblemKind = keyof typeof PROBLEMS

export const problemType = (kind: ProblemKind) => `/api/v1/problems#${kind}`

const NO_STORE = { 'Cache-Control': 'no-store' }

/** A problem's status, headers and body, for a caller that is not a loader (the Express app). */
export function problemParts(
  kind: ProblemKind,
  detail: string,
  extra: { errors?: Problem['errors']; headers?: Record<string, string> } = {},
) {
  const { status, title } = PROBLEMS[kind]
  const body: Problem = { type: problemType(kind), title, status, detail }
  if (extra.errors) body.errors = extra.errors
  return {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...NO_STORE, ...extra.headers },
    body: JSON.stringify(body),
  }
}

/** A problem answer: `application/problem+json`, never cached. */
export function problem(
  kind: ProblemKind,
  detail: string,
  extra: { errors?: Problem['errors']; headers?: Record<string, string> } = {},
) {
  const { status, headers, body } = problemParts(kind, detail, extra)
  return new Response(body, { status, headers })
}

/** A success answer: JSON, never cached (it is personal data). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  })
}

export const notFound = (detail = 'Nothing with this id is available to this key.') =>
  problem('not-found', detail)

export const methodNotAllowed = (allow: string) =>
  problem('method-not-allowed', `This endpoint answers ${allow} only.`, { headers: { Allow: allow } })

const UNAUTHORIZED_DETAIL = {
  missing: 'Send an API key as "Authorization: Bearer <key>".',
  unknown: 'This API key is not valid.',
  expired: 'This API key has expired. Ask an administrator for a new one.',
  revoked: 'This API key has been revoked. Ask an administrator for a new one.',
} as const

const unauthorized = (reason: keyof typeof UNAUTHORIZED_DETAIL) =>
  problem('unauthorized', UNAUTHORIZED_DETAIL[reason], {
    headers: { 'WWW-Authenticate': 'Bearer realm="api"' },
  })

/** The key of `Authorization: Bearer <key>`, or null when the header is missing or another scheme. */
function presentedKey(request: Request): string | null {
  const header = request.headers.get('Authorization')
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match?.[1] ?? null
}

/** What an endpoint is handed: the key's grant and the request. */
export type ApiCall = { key: ApiKeyGrant; request: Request; ip: string | null }

/**
 * One endpoint from end to end: the key, its rate limit and scope, then `run`. A write scope's use
 * is audited (which key, what, where from) before `run` answers.
 */
export async function apiEndpoint(
  request: Request,
  context: { ip?: string },
  scope: ApiScope,
  run: (call: ApiCall) => Promise<Response>,
): Promise<Response> {
  try {
    const presented = presentedKey(request)
    if (!presented) return unauthorized('missing')
    const checked = await checkApiKey(presented)
    if (!checked.ok) return unauthorized(checked.reason)
    const { key } = checked
    const limit = await hit(`api-key:${key.id}`, { limit: key.requestsPerMinute, windowMs: 60_000 })
    if (limit.limited)
      return problem(
        'too-many-requests',
        `This key may make ${key.requestsPerMinute} requests a minute. Try again in ${limit.retryAfterSeconds} seconds.`,
        { headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
      )
    if (!key.scopes.includes(scope)) return problem('forbidden', `This key lacks the scope ${scope}.`)
    const ip = context.ip || null
    await noteKeyUse(key.id, ip)
    if (scope.endsWith(':write')) {
      const url = new URL(request.url)
      await recordAudit(getDb(), {
        actorId: null,
        ip,
        action: 'api_key.write',
        entity: 'api_key',
        entityId: key.id,
        details: { scope, method: request.method, path: url.pathname },
      })
    }
    return await run({ key, request, ip })
  } catch (error) {
    // Unreachable, or every connection busy: a client may try again, and is told when.
    const down = reportDatabaseFailure(error) !== false
    if (down || isDatabaseBusyError(error)) {
      log.warn('api request: database unavailable', { path: new URL(request.url).pathname, down })
      return problem(
        'unavailable',
        down
          ? 'The service cannot reach its database. Try again later.'
          : 'The service is busy. Try again shortly.',
        { headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) } },
      )
    }
    log.error('api request failed', { error, path: new URL(request.url).pathname })
    return problem('server-error', 'Something went wrong on our side. Try again later.')
  }
}

type Parsed<Schema extends z.ZodType> =
  { ok: true; value: z.output<Schema> } | { ok: false; response: Response }

/**
 * A failed parse as a 400 problem: unknown names (a strict schema's `unrecognized_keys`) named
 * first, else each field at fault with why. `what` is how the detail names them.
 */
function invalid(error: z.ZodError, what: { unknown: string; invalid: string; notOurs: string }): Response {
  const unknown = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => [...issue.path.map(String), key].join('.'))
      : [],
  )
  if (unknown.length)
    return problem('bad-request', `${what.unknown}: ${unknown.join(', ')}.`, {
      errors: unknown.map((field) => ({ field, message: what.notOurs })),
    })
  return problem('bad-request', what.invalid, {
    errors: error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
  })
}

/**
 * A query string read by a strict schema: unknown parameters and repeated ones are a 400 problem
 * naming them; values of the wrong type a 400 with each field's reason.
 */
export function parseQuery<Schema extends z.ZodType>(request: Request, schema: Schema): Parsed<Schema> {
  const params = new URL(request.url).searchParams
  const seen = new Map<string, string>()
  const repeated = new Set<string>()
  for (const [name, value] of params) {
    if (seen.has(name)) repeated.add(name)
    else seen.set(name, value)
  }
  if (repeated.size)
    return {
      ok: false,
      response: problem('bad-request', 'Each query parameter may be given once.', {
        errors: [...repeated].map((field) => ({ field, message: 'Is given more than once.' })),
      }),
    }
  const parsed = schema.safeParse(Object.fromEntries(seen))
  if (parsed.success) return { ok: true, value: parsed.data }
  return {
    ok: false,
    response: invalid(parsed.error, {
      unknown: 'Unknown query parameters',
      invalid: 'Some query parameters are not valid.',
      notOurs: 'Is not a parameter of this endpoint.',
    }),
  }
}

/** The largest JSON body an endpoint reads unless it says otherwise (a bulk upsert says more). */
export const API_BODY_MAX_BYTES = 64 * 1024

/**
 * A JSON body read by a strict schema. It must say it is JSON (415), be no larger than `maxBytes`
 * — counted as it streams in, so a body that lies about its length is cut off too (413) — be UTF-8
 * JSON (400), and name no field the schema lacks (400 naming them); each invalid field is a 400
 * with its reason, by its path (`rows.3.email`).
 */
export async function parseBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  { maxBytes = API_BODY_MAX_BYTES }: { maxBytes?: number } = {},
): Promise<Parsed<Schema>> {
  const type = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (type !== 'application/json' && !type.endsWith('+json'))
    return {
      ok: false,
      response: problem(
        'unsupported-media-type',
        'Send the body as JSON ("Content-Type: application/json").',
      ),
    }
  const tooLarge = () => ({
    ok: false as const,
    response: problem('payload-too-large', `The body may be ${maxBytes} bytes at most.`),
  })
  const declared = Number(request.headers.get('Content-Length') ?? '0')
  if (declared > maxBytes) {
    // Read past, not kept (the server refused anything over its own cap before this): the client,
    // still sending, then gets the answer instead of a reset connection.
    const reader = request.body?.getReader()
    while (reader && !(await reader.read()).done);
    return tooLarge()
  }
  const chunks: Uint8Array[] = []
  let size = 0
  if (request.body) {
    const reader = request.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) {
        await reader.cancel()
        return tooLarge()
      }
      chunks.push(value)
    }
  }
  let data: unknown
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
    data = JSON.parse(text)
  } catch {
    return { ok: false, response: problem('bad-request', 'The body is not valid JSON (UTF-8).') }
  }
  const parsed = schema.safeParse(data)
  if (parsed.success) return { ok: true, value: parsed.data }
  return {
    ok: false,
    response: invalid(parsed.error, {
      unknown: 'Unknown fields',
      invalid: 'Some fields are not valid.',
      notOurs: 'Is not a field of this endpoint.',
    }),
  }
}
