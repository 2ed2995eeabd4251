import crypto from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { decryptSecret, encryptSecret, SecretBoxError } from '#app/lib/secret-box.server'

/** Secrets at rest (ADR 049): AES-256-GCM, a fresh nonce each time, bound to their place. */
const key = crypto.randomBytes(32)
const CONTEXT = 'identity_providers.client_secret'

describe('secret box', () => {
  test('opens what it sealed, and never holds the secret in the clear', () => {
    const sealed = encryptSecret('s3cret-välue ✓', CONTEXT, key)
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(sealed).not.toContain('s3cret')
    expect(decryptSecret(sealed, CONTEXT, key)).toBe('s3cret-välue ✓')
  })

  test('the same secret sealed twice looks different (a fresh nonce each time)', () => {
    expect(encryptSecret('same', CONTEXT, key)).not.toBe(encryptSecret('same', CONTEXT, key))
  })

  test('another key, another place, a changed byte or a malformed value: refused, never a wrong secret', () => {
    const sealed = encryptSecret('secret', CONTEXT, key)
    expect(() => decryptSecret(sealed, CONTEXT, crypto.randomBytes(32))).toThrow(SecretBoxError)
    expect(() => decryptSecret(sealed, 'users.password', key)).toThrow(SecretBoxError)
    const parts = sealed.split('.')
    const flipped = Buffer.from(parts[2]!, 'base64url')
    flipped[0] = flipped[0]! ^ 1
    parts[2] = flipped.toString('base64url')
    expect(() => decryptSecret(parts.join('.'), CONTEXT, key)).toThrow(SecretBoxError)
    for (const bad of ['', 'v1', 'v2.a.b.c', 'v1.AAAA.AAAA.AAAA', 'plain text'])
      expect(() => decryptSecret(bad, CONTEXT, key), bad).toThrow(SecretBoxError)
  })
})
