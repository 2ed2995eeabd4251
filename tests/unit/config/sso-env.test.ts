import crypto from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { ConfigError, DEV_SECRET_KEY, parseEnv, parseSecretKey } from '#app/config/env.server'
import { emailDomainOf, isAllowedIssuerUrl, parseDomainList } from '#app/lib/identity-provider-values'
import { ssoFailureStatus, ssoFailureText } from '#app/modules/sso/failure'

/** The configuration single sign-on adds (issue 20 §1, ADR 049): SECRET_KEY and the OIDC_* provider. */
const base = { NODE_ENV: 'test' }

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  throw new Error('expected a ConfigError')
}

const OIDC = {
  OIDC_ISSUER: 'https://login.microsoftonline.com/00000000-0000-4000-8000-000000000000/v2.0',
  OIDC_CLIENT_ID: 'client',
  OIDC_CLIENT_SECRET: 'secret',
  OIDC_DOMAINS: 'Contoso.com, contoso.de',
}

describe('SECRET_KEY', () => {
  test('32 bytes as hex, base64 or base64url; anything else is refused', () => {
    const bytes = crypto.randomBytes(32)
    expect(parseSecretKey(bytes.toString('hex'))).toEqual(bytes)
    expect(parseSecretKey(bytes.toString('base64'))).toEqual(bytes)
    expect(parseSecretKey(bytes.toString('base64url'))).toEqual(bytes)
    for (const bad of [
      'short',
      crypto.randomBytes(16).toString('hex'),
      crypto.randomBytes(31).toString('base64'),
    ])
      expect(parseSecretKey(bad)).toBeNull()
    expect(problemsOf({ ...base, SECRET_KEY: 'short' }).join('\n')).toMatch(
      /^SECRET_KEY must be 32 random bytes/m,
    )
  })

  test('set: used as given; tests and development get the public development key', () => {
    const key = crypto.randomBytes(32)
    expect(parseEnv({ ...base, SECRET_KEY: key.toString('base64') }).SECRET_KEY).toEqual(key)
    expect(parseEnv(base).SECRET_KEY).toEqual(Buffer.from(DEV_SECRET_KEY, 'hex'))
  })

  test('production on Postgres without one starts (as before) but can seal nothing; the development key is refused', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db.internal/panorama',
      SESSION_SECRET: 'x'.repeat(40),
    }
    expect(parseEnv(production).SECRET_KEY).toBeNull()
    expect(problemsOf({ ...production, SECRET_KEY: DEV_SECRET_KEY })).toEqual([
      'SECRET_KEY must not be the development key in production',
    ])
  })
})

describe('OIDC_* (one install-wide provider)', () => {
  test('unset: no provider', () => {
    expect(parseEnv(base).oidcProvider).toBeNull()
  })

  test('set: the provider, with default scopes and name, domains cleaned, passwords allowed', () => {
    const env = parseEnv({ ...base, ...OIDC })
    expect(env.oidcProvider).toEqual({
      name: 'your organisation’s sign-in',
      issuer: OIDC.OIDC_ISSUER,
      clientId: 'client',
      clientSecret: 'secret',
      scopes: ['openid', 'email', 'profile'],
      domains: ['contoso.com', 'contoso.de'],
      allowPassword: true,
    })
    // The secret is not spread into the rest of the configuration.
    expect(Object.keys(env)).not.toContain('OIDC_CLIENT_SECRET')
    expect(
      parseEnv({ ...base, ...OIDC, OIDC_PASSWORD_SIGN_IN: 'false', OIDC_SCOPES: 'openid email' })
        .oidcProvider,
    ).toMatchObject({ allowPassword: false, scopes: ['openid', 'email'] })
  })

  test('all four together, an https issuer, real domains and openid among the scopes', () => {
    expect(problemsOf({ ...base, OIDC_ISSUER: OIDC.OIDC_ISSUER }).join('\n')).toMatch(
      /missing: OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_DOMAINS/,
    )
    expect(problemsOf({ ...base, ...OIDC, OIDC_ISSUER: 'http://idp.example.com' }).join('\n')).toMatch(
      /OIDC_ISSUER must be an https:\/\/ URL/,
    )
    expect(problemsOf({ ...base, ...OIDC, OIDC_DOMAINS: 'a@b.com' }).join('\n')).toMatch(
      /OIDC_DOMAINS must list/,
    )
    expect(problemsOf({ ...base, ...OIDC, OIDC_SCOPES: 'email profile' }).join('\n')).toMatch(
      /OIDC_SCOPES must include openid/,
    )
    expect(problemsOf({ ...base, ...OIDC, OIDC_PASSWORD_SIGN_IN: 'maybe' }).join('\n')).toMatch(
      /OIDC_PASSWORD_SIGN_IN/,
    )
  })
})

describe('the values a provider is made of', () => {
  test('issuers: https, or http on this machine only; no query, fragment or credentials', () => {
    expect(isAllowedIssuerUrl('https://accounts.google.com')).toBe(true)
    expect(isAllowedIssuerUrl('https://sso.example.com/realms/acme')).toBe(true)
    expect(isAllowedIssuerUrl('http://localhost:8080/realms/acme')).toBe(true)
    expect(isAllowedIssuerUrl('http://127.0.0.1:3480')).toBe(true)
    for (const bad of [
      'http://sso.example.com',
      'https://sso.example.com/?x=1',
      'https://sso.example.com/#x',
      'https://user:pw@sso.example.com',
      'ftp://sso.example.com',
      'not a url',
    ])
      expect(isAllowedIssuerUrl(bad), bad).toBe(false)
  })

  test('domain lists and an address’s domain', () => {
    expect(parseDomainList('Contoso.com,\n@contoso.de  contoso.com')).toEqual(['contoso.com', 'contoso.de'])
    expect(parseDomainList('contoso')).toBeNull()
    expect(parseDomainList('-bad.com')).toBeNull()
    expect(emailDomainOf('Jane.Doe@Contoso.COM')).toBe('contoso.com')
  })

  test('every failure has a page with words and a status that is never a 500', () => {
    for (const failure of [
      'unreachable',
      'misconfigured',
      'refused',
      'invalid-token',
      'invalid-callback',
      'expired',
      'denied',
      'provider-error',
      'provider-gone',
      'unverified-email',
      'domain-not-served',
      'unknown-user',
      'too-many',
    ]) {
      const text = ssoFailureText({ failure, providerName: 'Contoso', email: 'a@contoso.com' })
      expect(text.title.length).toBeGreaterThan(5)
      expect(text.body.length).toBeGreaterThan(20)
      expect(ssoFailureStatus(failure)).not.toBe(500)
    }
  })
})
