import { sha256 } from '@oslojs/crypto/sha2'
import { encodeHexLowerCase } from '@oslojs/encoding'

/**
 * The SHA-256 of a secret, hex: what is stored of session secrets and one-time codes (the Lucia
 * guide's way; ADR 004, 005), so a copy of the database signs nobody in.
 */
export function hashSecret(secret: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)))
}
