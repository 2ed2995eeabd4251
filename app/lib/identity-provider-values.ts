/**
 * The values an OpenID provider's set-up is made of (issue 20 §1, ADR 049), checked the same way by
 * the start-up configuration (OIDC_*), the back office form (in the browser too) and the sign-in:
 * framework-free, no server imports.
 */

/** A domain as e-mail addresses carry it: labels of letters, digits and hyphens, a dot between. */
export const EMAIL_DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * An issuer must be https; plain http only on this machine (a local Keycloak, the tests' provider),
 * where nothing crosses a network. No query, fragment or credentials (OpenID Connect Discovery §3).
 */
export function isAllowedIssuerUrl(value: string): boolean {
  try {
    const url = new URL(value)
    if (url.search || url.hash || url.username || url.password) return false
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  } catch {
    return false
  }
}

/**
 * A list of e-mail domains separated by commas, spaces or lines ("@" before one is dropped),
 * lower-cased and without repeats; null when one of them is not a domain.
 */
export function parseDomainList(value: string): string[] | null {
  const domains = value
    .split(/[\s,;]+/)
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean)
  return domains.every((d) => EMAIL_DOMAIN.test(d)) ? [...new Set(domains)] : null
}

/** The domain of an e-mail address (after its last "@"), lower-cased. */
export function emailDomainOf(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase()
}

/** A scope as OAuth 2.0 allows it (RFC 6749 §3.3): printable ASCII without space, quote or backslash. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/

/** The scopes asked for when nothing else is said: the address and the name come with them. */
export const DEFAULT_SCOPES = ['openid', 'email', 'profile'] as const

/** Where every provider sends people back: APP_URL + this, registered at the provider as is. */
export const SSO_CALLBACK_PATH = '/sign-in/sso/callback'
