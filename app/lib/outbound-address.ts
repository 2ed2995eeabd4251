import net from 'node:net'

/**
 * Where the server may send a request it was told to send (a webhook, issue 21 §2, ADR 057): the
 * guard against server-side request forgery. An address is refused when it is loopback, link-local,
 * private (RFC 1918, fc00::/7, 100.64.0.0/10), unspecified, multicast or otherwise not a public
 * unicast address, in IPv4, IPv6 or the IPv6 forms that carry an IPv4 address (::ffff:10.0.0.1),
 * unless the deployment's allow-list (WEBHOOK_ALLOWED_HOSTS) names its host or a range holding it.
 * Framework-free: app/config/env.server.ts parses the allow-list with it.
 */

/** One allow-list entry: a host name (exact, case-insensitive), or a range (a single address is a /32 or /128). */
export type AllowEntry =
  { kind: 'host'; host: string } | { kind: 'range'; address: string; prefix: number; family: 4 | 6 }

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/

/** One entry of WEBHOOK_ALLOWED_HOSTS, or null when it is neither a host name, an address nor a CIDR range. */
export function parseAllowEntry(raw: string): AllowEntry | null {
  const text = raw
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  if (!text) return null
  const [address, prefixText, extra] = text.split('/')
  if (extra !== undefined) return null
  const family = net.isIP(address!)
  if (family) {
    const max = family === 4 ? 32 : 128
    if (prefixText === undefined)
      return { kind: 'range', address: address!, prefix: max, family: family as 4 | 6 }
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null
    return { kind: 'range', address: address!, prefix: Number(prefixText), family: family as 4 | 6 }
  }
  if (prefixText !== undefined || !HOST_NAME.test(text)) return null
  return { kind: 'host', host: text.replace(/\.$/, '') }
}

/** The comma-separated allow-list, or the entries it could not read. */
export function parseAllowList(value: string): { entries: AllowEntry[]; bad: string[] } {
  const entries: AllowEntry[] = []
  const bad: string[] = []
  for (const part of value.split(',')) {
    if (!part.trim()) continue
    const entry = parseAllowEntry(part)
    if (entry) entries.push(entry)
    else bad.push(part.trim())
  }
  return { entries, bad }
}

/** Ranges no request of ours may reach unless allowed: not public unicast. */
const BLOCKED = new net.BlockList()
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  BLOCKED.addSubnet(address, prefix, 'ipv4')
for (const [address, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind it
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  BLOCKED.addSubnet(address, prefix, 'ipv6')

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx), else null. */
export function mappedIpv4(address: string): string | null {
  const text = address.toLowerCase()
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)
  if (dotted && net.isIPv4(dotted[1]!)) return dotted[1]!
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text)
  if (!hex) return null
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)]
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** Whether `address` (an IP literal) lies in the range. */
function inRange(address: string, entry: Extract<AllowEntry, { kind: 'range' }>): boolean {
  const list = new net.BlockList()
  list.addSubnet(entry.address, entry.prefix, entry.family === 4 ? 'ipv4' : 'ipv6')
  const family = net.isIP(address)
  if (!family) return false
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** Allowed as a public address, or through the allow-list; refused as not public. */
export type AddressVerdict = { ok: true; via: 'public' | 'allow-list' } | { ok: false }

/**
 * Whether a request may go to `address` (an IP literal) reached through `host` (the URL's host):
 * allowed when public unicast, or when the allow-list names the host or a range holding the address
 * (an IPv4-mapped address is judged as the IPv4 address it carries, both ways).
 */
export function judgeAddress(host: string, address: string, allow: readonly AllowEntry[]): AddressVerdict {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
  const v4 = mappedIpv4(address)
  const plain = v4 ?? address
  if (allow.some((e) => (e.kind === 'host' ? e.host === name : inRange(plain, e) || inRange(address, e))))
    return { ok: true, via: 'allow-list' }
  const family = net.isIP(plain)
  if (!family) return { ok: false }
  return BLOCKED.check(plain, family === 4 ? 'ipv4' : 'ipv6') ? { ok: false } : { ok: true, via: 'public' }
}
