import crypto from 'node:crypto'
import { getEnv } from '#app/config/env.server'

/**
 * Every secret kept at rest (an identity provider’s client secret, an admin’s TOTP secret — the one
 * helper and the one key rule for both, ADR 048/049): AES-256-GCM with the 32-byte
 * SECRET_KEY (app/config/env.server.ts), a fresh 12-byte nonce per value, and the value's place
 * (`context`, e.g. "identity_providers.client_secret") bound in as associated data, so a sealed value
 * copied into another column or row does not open there. A copy of the database without the key
 * reveals nothing; a changed byte fails to open instead of decrypting to something else.
 *
 * Sealed form: `v1.<nonce>.<ciphertext>.<tag>`, each part base64url.
 */

const VERSION = 'v1'
const NONCE_BYTES = 12
const TAG_BYTES = 16

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecretBoxError'
  }
}

/** The configured key, or a {@link SecretBoxError} saying how to set one. */
function configuredKey(): Buffer {
  const key = getEnv().SECRET_KEY
  if (!key) throw new SecretBoxError(NO_KEY_MESSAGE)
  return key
}

/** Why nothing can be sealed or opened on this server, for the person who can fix it. */
export const NO_KEY_MESSAGE =
  'This server has no SECRET_KEY, so it cannot store a secret safely. Set SECRET_KEY (32 random bytes, for example from openssl rand -base64 32) on every instance and restart.'

/** Seals a secret for storage. */
export function encryptSecret(plaintext: string, context: string, key: Buffer = configuredKey()): string {
  const nonce = crypto.randomBytes(NONCE_BYTES)
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES })
  cipher.setAAD(Buffer.from(context, 'utf8'))
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [VERSION, nonce, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

/**
 * Opens a value sealed by {@link encryptSecret} for the same context. Throws a
 * {@link SecretBoxError} (never the secret) when it was sealed with another key, for another
 * place, or was changed.
 */
export function decryptSecret(sealed: string, context: string, key: Buffer = configuredKey()): string {
  const parts = sealed.split('.')
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed secret')
  const [nonce, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'))
  if (nonce!.length !== NONCE_BYTES || tag!.length !== TAG_BYTES)
    throw new SecretBoxError('not a sealed secret')
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, nonce!, { authTagLength: TAG_BYTES })
    decipher.setAAD(Buffer.from(context, 'utf8'))
    decipher.setAuthTag(tag!)
    return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8')
  } catch {
    throw new SecretBoxError('the secret could not be opened: another SECRET_KEY, or a changed value')
  }
}
