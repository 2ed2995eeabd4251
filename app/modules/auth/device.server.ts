import crypto from 'node:crypto'
import { createCookie } from 'react-router'
import { getEnv } from '#app/config/env.server'

/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies", ADR 007): a browser
 * that signed in to an account successfully gets a signed `__device` cookie naming that account. On
 * a later sign-in to the same account it is a trusted device: failures of other browsers and
 * addresses (the account slow-down, the address and pair limits) do not touch it; it has a failure
 * budget of its own. It grants nothing else: the password is still required.
 */
export const DEVICE_COOKIE = '__device'
const DEVICE_TTL_SECONDS = 180 * 24 * 60 * 60

export type TrustedDevice = { uid: string; id: string }

function deviceCookie() {
  const env = getEnv()
  return createCookie(DEVICE_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: DEVICE_TTL_SECONDS,
    secure: env.secure,
    secrets: [`device:${env.SESSION_SECRET}`],
  })
}

/** The request's device cookie when its signature holds, else null. */
export async function readDevice(request: Request): Promise<TrustedDevice | null> {
  const value = (await deviceCookie()
    .parse(request.headers.get('Cookie'))
    .catch(() => null)) as Partial<TrustedDevice> | null
  if (typeof value?.uid !== 'string' || typeof value.id !== 'string') return null
  return { uid: value.uid, id: value.id }
}

/** The Set-Cookie that trusts this browser for `uid` (keeping its id when it already had one). */
export async function trustDeviceCookie(uid: string, current: TrustedDevice | null): Promise<string> {
  const id = current?.uid === uid ? current.id : crypto.randomBytes(16).toString('base64url')
  return deviceCookie().serialize({ uid, id } satisfies TrustedDevice)
}
