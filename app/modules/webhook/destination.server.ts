import dns from 'node:dns/promises'
import net from 'node:net'
import { getEnv } from '#app/config/env.server'
import { judgeAddress, type AllowEntry } from '#app/lib/outbound-address'
import { WEBHOOK_MESSAGES, WEBHOOK_URL_MAX } from './schemas'

/**
 * Where a webhook may be sent (issue 21 §2, ADR 057): the URL's rules, and its host resolved and
 * every address judged (app/lib/outbound-address.ts), at registration and again before each
 * delivery, which then connects to the very address judged here (no second lookup a rebinding DNS
 * server could answer differently).
 */

export type Destination = {
  url: URL
  /** The address judged and connected to. */
  address: string
  family: 4 | 6
}

export type DestinationCheck = { ok: true; destination: Destination } | { ok: false; message: string }

/** Looks a host up: every address it has (tests pass their own). */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>

const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true })

/** The URL's own rules, before any lookup: a message for the form, or the parsed URL. */
export function urlProblem(raw: string): { url: URL } | { message: string } {
  if (raw.length > WEBHOOK_URL_MAX) return { message: WEBHOOK_MESSAGES.urlTooLong }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { message: WEBHOOK_MESSAGES.urlInvalid }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { message: WEBHOOK_MESSAGES.urlInvalid }
  if (url.username || url.password) return { message: WEBHOOK_MESSAGES.urlCredentials }
  if (url.hash) return { message: WEBHOOK_MESSAGES.urlFragment }
  return { url }
}

/**
 * Checks a receiver's URL end to end: its form, its host's addresses (all of them must be allowed:
 * a host with one private address among public ones is refused), and plain http only where the
 * allow-list vouches for every address (an intranet receiver).
 */
export async function checkDestination(
  raw: string,
  options: { allow?: readonly AllowEntry[]; resolve?: Resolver } = {},
): Promise<DestinationCheck> {
  const parsed = urlProblem(raw)
  if ('message' in parsed) return { ok: false, message: parsed.message }
  const { url } = parsed
  const allow = options.allow ?? getEnv().WEBHOOK_ALLOWED_HOSTS
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: Array<{ address: string; family: number }>
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }]
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host)
    } catch {
      return { ok: false, message: WEBHOOK_MESSAGES.hostUnknown }
    }
    if (!addresses.length) return { ok: false, message: WEBHOOK_MESSAGES.hostUnknown }
  }
  const verdicts = addresses.map((a) => judgeAddress(host, a.address, allow))
  if (verdicts.some((v) => !v.ok)) return { ok: false, message: WEBHOOK_MESSAGES.privateAddress }
  if (url.protocol === 'http:' && verdicts.some((v) => v.ok && v.via !== 'allow-list'))
    return { ok: false, message: WEBHOOK_MESSAGES.httpsRequired }
  const first = addresses[0]!
  return { ok: true, destination: { url, address: first.address, family: first.family === 6 ? 6 : 4 } }
}
