import { hash, verify } from '@node-rs/argon2'

// @node-rs/argon2 defaults to argon2id (m=19456 KiB, t=2, p=1), the OWASP baseline.
export function hashPassword(password: string): Promise<string> {
  return hash(password)
}

// A real hash of a random string: verifying against it costs what a real check costs, so the time
// a sign-in takes does not tell whether the e-mail address has an account.
let dummyHash: Promise<string> | undefined
function getDummyHash() {
  dummyHash ??= hash(crypto.randomUUID())
  return dummyHash
}

export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!passwordHash) {
    await verify(await getDummyHash(), password).catch(() => false)
    return false
  }
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}
