import { afterEach, describe, expect, test } from 'vitest'
import { resetEnvCache } from '#app/config/env.server'
import {
  SESSION_ABSOLUTE_MS,
  SESSION_COOKIE,
  SESSION_RENEW_BEFORE_MS,
  SESSION_TTL_MS,
  clearSessionCookie,
  readSessionToken,
  sessionCookie,
} from '#app/modules/auth/session.server'
import { hashSecret } from '#app/lib/secret-hash.server'

/** The `__session` cookie as the browser sees it, and the constants of ADR 004. */
const DAY = 24 * 60 * 60 * 1000

afterEach(() => {
  process.env.APP_URL = 'http://localhost:3000'
  resetEnvCache()
})

const request = (cookie?: string) =>
  new Request('http://localhost/', { headers: cookie ? { Cookie: cookie } : {} })

function attributes(header: string) {
  const [pair, ...rest] = header.split('; ')
  return { pair, attrs: rest.map((a) => a.split('=')[0]!.toLowerCase()), raw: rest }
}

test('the lifetimes: 30 days, renewed in the last 15, never past 90', () => {
  expect(SESSION_COOKIE).toBe('__session')
  expect(SESSION_TTL_MS).toBe(30 * DAY)
  expect(SESSION_RENEW_BEFORE_MS).toBe(15 * DAY)
  expect(SESSION_ABSOLUTE_MS).toBe(90 * DAY)
})

test('hashSecret is SHA-256 in lower-case hex', () => {
  // The FIPS 180-2 test vector for "abc".
  expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
})

describe('readSessionToken', () => {
  test('finds the cookie among others and decodes it', () => {
    expect(readSessionToken(request('a=1; __session=abc.def; b=2'))).toBe('abc.def')
    expect(readSessionToken(request('__session=abc%2Edef'))).toBe('abc.def')
    expect(readSessionToken(request('__session=a=b'))).toBe('a=b')
  })

  test('no cookie, another cookie, a look-alike name, or a broken encoding: no token', () => {
    expect(readSessionToken(request())).toBeNull()
    expect(readSessionToken(request('session=abc.def'))).toBeNull()
    expect(readSessionToken(request('__session_old=abc.def'))).toBeNull()
    expect(readSessionToken(request('__session=%E0%A4%A'))).toBeNull()
  })
})

describe('sessionCookie', () => {
  test('HttpOnly, SameSite=Lax, Path=/, Max-Age and Expires to the session end; no Secure on http', () => {
    const expiresAt = new Date(Date.now() + 10 * DAY)
    const { pair, attrs, raw } = attributes(sessionCookie('id.secret', expiresAt))
    expect(pair).toBe('__session=id.secret')
    expect(attrs).toEqual(expect.arrayContaining(['path', 'httponly', 'samesite', 'max-age', 'expires']))
    expect(raw).toContain('Path=/')
    expect(raw).toContain('SameSite=Lax')
    expect(raw).toContain(`Expires=${expiresAt.toUTCString()}`)
    const maxAge = Number(raw.find((a) => a.startsWith('Max-Age='))!.slice('Max-Age='.length))
    expect(Math.abs(maxAge - 10 * 24 * 3600)).toBeLessThanOrEqual(2)
    expect(attrs).not.toContain('secure')
  })

  test('Secure when APP_URL is https', () => {
    process.env.APP_URL = 'https://panorama.example'
    resetEnvCache()
    expect(attributes(sessionCookie('t', new Date(Date.now() + DAY))).attrs).toContain('secure')
    expect(attributes(clearSessionCookie()).attrs).toContain('secure')
  })

  test('a session already past its end gets Max-Age=0, never a negative one', () => {
    const { raw } = attributes(sessionCookie('t', new Date(Date.now() - DAY)))
    expect(raw).toContain('Max-Age=0')
  })

  test('the token is URL-encoded into the cookie value', () => {
    expect(sessionCookie('a b;c', new Date(Date.now() + DAY))).toMatch(/^__session=a%20b%3Bc;/)
  })
})

test('clearSessionCookie empties it with the same path and flags, expired', () => {
  const { pair, raw } = attributes(clearSessionCookie())
  expect(pair).toBe('__session=')
  expect(raw).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0']))
  expect(raw.find((a) => a.startsWith('Expires='))).toBe('Expires=Thu, 01 Jan 1970 00:00:00 GMT')
})
