import crypto from 'node:crypto'
import fc from 'fast-check'
import { afterEach, describe, expect, test } from 'vitest'
import { resetEnvCache } from '#app/config/env.server'
import {
  IDENTITY_TOKEN_TTL_MS,
  signIdentityToken,
  verifyIdentityToken,
} from '#app/modules/auth/identity-token.server'

/**
 * The short-lived identity token of DESIGN.md §5 (one hour, HMAC-SHA256 with the session secret):
 * what it carries, and every way a token that was not signed here, or is past its hour, is refused.
 */
const NOW = 1_800_000_000_000

const b64 = (value: string) => Buffer.from(value).toString('base64url')

afterEach(() => {
  delete process.env.SESSION_SECRET
  resetEnvCache()
})

describe('a token signed here', () => {
  test('verifies to its session, user and an expiry one hour on', () => {
    const { token, expiresAt } = signIdentityToken('session-1', 'user-1', NOW)
    expect(expiresAt).toBe(NOW + IDENTITY_TOKEN_TTL_MS)
    expect(IDENTITY_TOKEN_TTL_MS).toBe(60 * 60 * 1000)
    expect(verifyIdentityToken(token, NOW)).toEqual({
      ok: true,
      claims: { sid: 'session-1', uid: 'user-1', iat: NOW, exp: NOW + IDENTITY_TOKEN_TTL_MS },
    })
  })

  test('is good until its last millisecond, then id-token-expired', () => {
    const { token } = signIdentityToken('s', 'u', NOW)
    expect(verifyIdentityToken(token, NOW + IDENTITY_TOKEN_TTL_MS - 1).ok).toBe(true)
    expect(verifyIdentityToken(token, NOW + IDENTITY_TOKEN_TTL_MS)).toEqual({
      ok: false,
      code: 'auth/id-token-expired',
    })
  })

  test('carries no secret: only the session id, user id and times', () => {
    const { token } = signIdentityToken('s', 'u', NOW)
    const payload = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'))
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'sid', 'uid'])
  })
})

describe('refused as auth/invalid-id-token', () => {
  const invalid = { ok: false, code: 'auth/invalid-id-token' }

  test.each(['', 'garbage', '.', 'a.', '.b', 'a.b.c', '..'])('the shape %j', (token) => {
    expect(verifyIdentityToken(token, NOW)).toEqual(invalid)
  })

  test('a changed payload (another session or user) keeps no valid signature', () => {
    const { token } = signIdentityToken('mine', 'me', NOW)
    const [, signature] = token.split('.')
    const forged = b64(
      JSON.stringify({ sid: 'theirs', uid: 'them', iat: NOW, exp: NOW + IDENTITY_TOKEN_TTL_MS }),
    )
    expect(verifyIdentityToken(`${forged}.${signature}`, NOW)).toEqual(invalid)
  })

  test('a later expiry cannot be written in', () => {
    const { token } = signIdentityToken('s', 'u', NOW - 2 * IDENTITY_TOKEN_TTL_MS)
    const [, signature] = token.split('.')
    const extended = b64(JSON.stringify({ sid: 's', uid: 'u', iat: NOW, exp: NOW + IDENTITY_TOKEN_TTL_MS }))
    expect(verifyIdentityToken(`${extended}.${signature}`, NOW)).toEqual(invalid)
  })

  test('any single changed character of the signature', () => {
    const { token } = signIdentityToken('s', 'u', NOW)
    const [payload, signature] = token.split('.') as [string, string]
    fc.assert(
      fc.property(fc.nat({ max: signature.length - 1 }), fc.constantFrom(...'ABCxyz019-_'), (index, char) => {
        fc.pre(signature[index] !== char)
        const changed = signature.slice(0, index) + char + signature.slice(index + 1)
        expect(verifyIdentityToken(`${payload}.${changed}`, NOW)).toEqual(invalid)
      }),
    )
  })

  test('a token signed with another secret (another deployment)', () => {
    process.env.SESSION_SECRET = 'another-deployment-secret-0123456789abcdef'
    resetEnvCache()
    const { token } = signIdentityToken('s', 'u', NOW)
    delete process.env.SESSION_SECRET
    resetEnvCache()
    expect(verifyIdentityToken(token, NOW)).toEqual(invalid)
  })

  test('a correctly signed payload that is not the claims it should be', () => {
    // Signed with the real key, to prove the claims are checked after the signature.
    const secret = 'panorama-local-development-secret-change-me'
    const sign = (payload: string) =>
      crypto.createHmac('sha256', `identity:${secret}`).update(payload).digest('base64url')
    for (const body of [
      'not json',
      '[]',
      '{"sid":1,"uid":"u","exp":1}',
      '{"sid":"s","uid":"u"}',
      '{"sid":"s","uid":"u","exp":"soon"}',
    ]) {
      const payload = b64(body)
      expect(verifyIdentityToken(`${payload}.${sign(payload)}`, NOW), body).toEqual(invalid)
    }
    // The same construction with good claims passes: the helper above is the real one.
    const good = b64(JSON.stringify({ sid: 's', uid: 'u', iat: NOW, exp: NOW + 1_000 }))
    expect(verifyIdentityToken(`${good}.${sign(good)}`, NOW).ok).toBe(true)
  })
})
