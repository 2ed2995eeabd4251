import crypto from 'node:crypto'
import { and, eq, gt, sql } from 'drizzle-orm'
import { getDb, type Tx } from '#db/client'
import type { Role } from '#db/enums'
import { companies, ssoLoginStates, userIdentities, users } from '#db/schema/index'
import { getEnv } from '#app/config/env.server'
import { emailDomainOf, SSO_CALLBACK_PATH } from '#app/lib/identity-provider-values'
import { PG_ERROR, pgErrorCode } from '#app/lib/pg-error'
import { safeRedirect } from '#app/lib/safe-redirect'
import { hashSecret } from '#app/lib/secret-hash.server'
import { recordAudit } from '#app/modules/audit/audit.server'
import { enqueueWebhookEvents } from '#app/modules/webhook/events.server'
import { openSignIn, type OpenedSignIn } from '#app/modules/auth/second-factor.server'
import { hit, peek } from '#app/modules/rate-limit/rate-limit.server'
import {
  authorizationUrl,
  configurationFor,
  exchangeCode,
  ProviderError,
  randomState,
  type FlowSecrets,
  type ProviderFailure,
  type ProviderIdentity,
} from './oidc.server'
import { providerForEmail, providerSettings, type IdentityProviderSettings } from './provider.server'

/**
 * Signing in through an organisation's OpenID provider (issue 20 §1, ADR 049): the start (the address's
 * domain chooses the provider; the browser goes there with state, nonce and PKCE) and the callback
 * (the state used once, the code exchanged, the person matched to an existing employee or admin —
 * or created, where the company allows it — and the same database session as a password sign-in).
 * Every failure comes back as a reason the page words, and is audited.
 */

/** How long a sign-in may stay at the provider before its state expires. */
export const SSO_STATE_TTL_MS = 10 * 60 * 1000

/** The browser's half of a sign-in on its way: a random secret, only its hash is stored. */
export const SSO_COOKIE = '__sso'

/**
 * Starts are counted per client address (each writes a row that lives 10 minutes: high enough for an
 * office behind one address on launch morning); failed callbacks too, as the sign-in's failures are
 * (ADR 007), so forged callbacks cannot fill the audit log.
 */
export const SSO_LIMITS = {
  start: { limit: 600, windowMs: 15 * 60 * 1000 },
  failures: { limit: 100, windowMs: 60 * 60 * 1000 },
} as const

export type SsoFailure =
  | ProviderFailure
  | 'invalid-callback' // a callback without state or without this browser's cookie
  | 'expired' // the state is unknown to this browser: forged, used already, expired or another browser's
  | 'denied' // the person cancelled or refused consent at the provider (error=access_denied)
  | 'provider-error' // the provider answered the callback with another error
  | 'provider-gone' // the provider was deleted (or its secret cannot be opened any more)
  | 'unverified-email' // the provider did not vouch for an address
  | 'domain-not-served' // the address is outside the provider's domains
  | 'unknown-user' // no employee or admin account for the address (and none may be created)
  | 'too-many' // the client address's limit

export type SsoRefusal = {
  ok: false
  failure: SsoFailure
  /** The provider's name for the page, when known. */
  providerName: string | null
  /** The address the provider vouched for (the unknown-user page names it back to its owner). */
  email?: string | null
  retryAfterSeconds?: number
}

const refusal = (
  failure: SsoFailure,
  providerName: string | null = null,
  extra: Partial<SsoRefusal> = {},
): SsoRefusal => ({ ok: false, failure, providerName, ...extra })

type Meta = { ip: string; userAgent: string | null }

// ---------------------------------------------------------------------------------------------
// The browser's secret, the state, and what is derived from them.

const BROWSER_SECRET = /^[A-Za-z0-9_-]{43}$/

/** The browser's secret from its `__sso` cookie, when it carries a well-formed one. */
export function readBrowserSecret(request: Request): string | null {
  for (const part of (request.headers.get('Cookie') ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === SSO_COOKIE) {
      const value = rest.join('=')
      return BROWSER_SECRET.test(value) ? value : null
    }
  }
  return null
}

/** The `__sso` cookie: HttpOnly, Lax (it must come back on the provider's top-level redirect). */
export function browserSecretCookie(secret: string | null): string {
  return [
    `${SSO_COOKIE}=${secret ?? ''}`,
    'Path=/sign-in/sso',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${secret ? SSO_STATE_TTL_MS / 1000 : 0}`,
    ...(getEnv().secure ? ['Secure'] : []),
  ].join('; ')
}

/**
 * The PKCE code verifier and the nonce of one sign-in, derived from the browser's secret and the
 * state (HMAC-SHA256): nothing but hashes is stored, and only the browser that started can finish.
 * Base64url of 32 bytes: 43 characters, as RFC 7636 asks of a verifier.
 */
function flowSecrets(browserSecret: string, state: string): FlowSecrets {
  const derive = (label: string) =>
    crypto.createHmac('sha256', browserSecret).update(`${label}\n${state}`).digest('base64url')
  return { state, nonce: derive('nonce'), codeVerifier: derive('pkce') }
}

const callbackUrl = () => `${getEnv().APP_URL}${SSO_CALLBACK_PATH}`

// ---------------------------------------------------------------------------------------------
// The start.

export type SsoStart =
  | { ok: true; location: string; cookie: string }
  /** No provider signs in this address's domain: the password form is the way in. */
  | { ok: false; failure: null }
  | SsoRefusal

/**
 * Where to send the browser for this address: its domain's provider (by the domain alone, so the
 * answer says nothing about any account), with a fresh state bound to this browser.
 */
export async function startSsoSignIn(input: {
  email: string
  redirectTo: string | null
  browserSecret: string | null
  meta: Meta
}): Promise<SsoStart> {
  const route = await providerForEmail(input.email)
  if (!route) return { ok: false, failure: null }
  const limit = await hit(`sso-start:address:${input.meta.ip}`, SSO_LIMITS.start)
  if (limit.limited) return refusal('too-many', route.name, { retryAfterSeconds: limit.retryAfterSeconds })
  const settings = await providerSettings(route.id)
  if (!settings.ok)
    return failed(
      route,
      settings.reason === 'gone' ? 'provider-gone' : 'misconfigured',
      settings.reason,
      input.meta,
    )
  const provider = settings.provider
  let config
  try {
    config = await configurationFor(provider)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    return failed(route, error.failure, error.detail, input.meta)
  }
  const browserSecret = input.browserSecret ?? crypto.randomBytes(32).toString('base64url')
  const state = randomState()
  const redirectTo = input.redirectTo ? safeRedirect(input.redirectTo, '') || null : null
  await getDb()
    .insert(ssoLoginStates)
    .values({
      stateHash: hashSecret(state),
      browserHash: hashSecret(browserSecret),
      providerId: provider.id,
      redirectTo,
      expiresAt: new Date(Date.now() + SSO_STATE_TTL_MS),
    })
  const url = await authorizationUrl(config, provider, flowSecrets(browserSecret, state), {
    redirectUri: callbackUrl(),
    loginHint: input.email,
  })
  return { ok: true, location: url.href, cookie: browserSecretCookie(browserSecret) }
}

/** A start that failed at the provider: audited, then worded by the page. */
async function failed(
  route: { id: string | null; name: string },
  failure: SsoFailure,
  detail: string,
  meta: Meta,
): Promise<SsoRefusal> {
  await auditFailure({ providerId: route.id, failure, detail, meta })
  return refusal(failure, route.name)
}

// ---------------------------------------------------------------------------------------------
// The callback.

export type SsoSignIn = {
  ok: true
  /** A session, or (an admin when SSO_ADMINS_SKIP_TOTP is off) the second factor's step (ADR 048). */
  opened: OpenedSignIn
  user: { id: string; role: Role }
  /** Where the sign-in started from (a path on this site), else null for the role's home. */
  redirectTo: string | null
}

const PROVIDER_ERROR = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/

/**
 * The provider's answer: the state is used once (a replayed, forged, expired or other browser's
 * callback finds nothing), the provider's own error is reported as such, the code is exchanged and
 * the ID token checked, then the person is matched to an account and signed in.
 */
export async function finishSsoSignIn(input: {
  url: URL
  browserSecret: string | null
  meta: Meta
}): Promise<SsoSignIn | SsoRefusal> {
  const failures = `sso-callback:address:${input.meta.ip}`
  const limit = await peek(failures, SSO_LIMITS.failures)
  if (limit.limited) return refusal('too-many', null, { retryAfterSeconds: limit.retryAfterSeconds })
  const fail = async (
    failure: SsoFailure,
    detail: string,
    provider: { id: string | null; name: string | null } | null,
    extra: Partial<SsoRefusal> & { userId?: string; subject?: string } = {},
  ): Promise<SsoRefusal> => {
    await hit(failures, SSO_LIMITS.failures)
    await auditFailure({ providerId: provider?.id ?? null, failure, detail, meta: input.meta, ...extra })
    return refusal(failure, provider?.name ?? null, { email: extra.email })
  }

  const params = input.url.searchParams
  const state = params.get('state')
  if (!state || state.length > 512 || params.getAll('state').length > 1)
    return fail('invalid-callback', 'no state', null)
  if (!input.browserSecret) return fail('invalid-callback', 'no browser cookie', null)

  // Used once: whoever comes back with this state later (a replay, a second tab) finds nothing.
  const [row] = await getDb()
    .delete(ssoLoginStates)
    .where(
      and(
        eq(ssoLoginStates.stateHash, hashSecret(state)),
        eq(ssoLoginStates.browserHash, hashSecret(input.browserSecret)),
        gt(ssoLoginStates.expiresAt, sql`now()`),
      ),
    )
    .returning({ providerId: ssoLoginStates.providerId, redirectTo: ssoLoginStates.redirectTo })
  if (!row) return fail('expired', 'state unknown, used or expired', null)

  const settings = await providerSettings(row.providerId)
  if (!settings.ok)
    return fail(settings.reason === 'gone' ? 'provider-gone' : 'misconfigured', settings.reason, {
      id: row.providerId,
      name: null,
    })
  const provider = settings.provider

  const error = params.get('error')
  if (error !== null) {
    const code = PROVIDER_ERROR.test(error) ? error : 'unreadable'
    return fail(code === 'access_denied' ? 'denied' : 'provider-error', `provider: ${code}`, provider)
  }

  let identity: ProviderIdentity
  try {
    const config = await configurationFor(provider)
    identity = await exchangeCode(
      config,
      new URL(`${callbackUrl()}${input.url.search}`),
      flowSecrets(input.browserSecret, state),
    )
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    return fail(error.failure, error.detail, provider)
  }

  const matched = await signInIdentity(provider, identity, input.meta)
  if (!matched.ok)
    return fail(matched.failure, matched.detail, provider, {
      email: identity.email,
      subject: identity.subject,
      userId: matched.userId,
    })
  return { ok: true, ...matched.value, redirectTo: row.redirectTo }
}

type Matched =
  | { ok: true; value: Omit<SsoSignIn, 'redirectTo' | 'ok'> }
  | {
      ok: false
      failure: 'unverified-email' | 'domain-not-served' | 'unknown-user'
      detail: string
      userId?: string
    }

/**
 * The account the provider's person is, and a session for it (ADR 049):
 * - a subject linked before signs in its account, whatever address the provider now gives (the
 *   subject is the identity; the portal's address is the portal's), while that account's address is
 *   still in one of the provider's domains;
 * - else the verified address, in one of the provider's domains, finds an enabled employee or admin
 *   (never a colleague: they keep their invitation links), and the subject is linked to it;
 * - else, when the provider's company takes new people (just-in-time), an employee is created there.
 */
async function signInIdentity(
  provider: IdentityProviderSettings,
  identity: ProviderIdentity,
  meta: Meta,
): Promise<Matched> {
  try {
    return await getDb().transaction((tx) => matchAndSignIn(tx, provider, identity, meta))
  } catch (error) {
    // Two first sign-ins of one person at once: the other linked (or created) first; this one
    // finds the link on a second go.
    if (pgErrorCode(error) !== PG_ERROR.uniqueViolation) throw error
    return getDb().transaction((tx) => matchAndSignIn(tx, provider, identity, meta))
  }
}

const servedBy = (provider: IdentityProviderSettings, email: string) =>
  provider.domains.includes(emailDomainOf(email))

async function matchAndSignIn(
  tx: Tx,
  provider: IdentityProviderSettings,
  identity: ProviderIdentity,
  meta: Meta,
): Promise<Matched> {
  const account = {
    id: users.id,
    email: users.email,
    role: users.role,
    disabledAt: users.disabledAt,
  }
  const [linked] = await tx
    .select(account)
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, provider.issuer), eq(userIdentities.subject, identity.subject)))
    .limit(1)
  if (linked) {
    if (linked.disabledAt || linked.role === 'colleague' || !servedBy(provider, linked.email))
      return {
        ok: false,
        failure: 'unknown-user',
        detail: 'linked account cannot sign in here',
        userId: linked.id,
      }
    await tx
      .update(userIdentities)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(userIdentities.issuer, provider.issuer), eq(userIdentities.subject, identity.subject)))
    return {
      ok: true,
      value: await startSession(tx, linked, provider, meta, { linked: false, created: false }),
    }
  }

  if (!identity.email || !identity.emailVerified)
    return {
      ok: false,
      failure: 'unverified-email',
      detail: identity.email ? 'address not verified' : 'no address',
    }
  if (!servedBy(provider, identity.email))
    return { ok: false, failure: 'domain-not-served', detail: `domain ${emailDomainOf(identity.email)}` }

  const [user] = await tx
    .select({
      ...account,
      linkedHere: sql<boolean>`EXISTS (SELECT 1 FROM user_identities ui WHERE ui.user_id = users.id AND ui.issuer = ${provider.issuer})`,
    })
    .from(users)
    .where(eq(users.email, identity.email))
    .limit(1)
  if (user) {
    if (user.disabledAt || user.role === 'colleague')
      return {
        ok: false,
        failure: 'unknown-user',
        detail: user.disabledAt ? 'account disabled' : 'colleague account',
        userId: user.id,
      }
    // One subject per account and issuer: another subject claiming this address is not this person.
    if (user.linkedHere)
      return {
        ok: false,
        failure: 'unknown-user',
        detail: 'account linked to another subject',
        userId: user.id,
      }
    await link(tx, user.id, provider, identity)
    // The provider vouched for the address: it is verified now, if it was not.
    await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, user.id))
    return { ok: true, value: await startSession(tx, user, provider, meta, { linked: true, created: false }) }
  }

  const created = await createJustInTime(tx, provider, identity, meta)
  if (!created) return { ok: false, failure: 'unknown-user', detail: 'no account' }
  await link(tx, created.id, provider, identity)
  return { ok: true, value: await startSession(tx, created, provider, meta, { linked: true, created: true }) }
}

async function link(tx: Tx, userId: string, provider: IdentityProviderSettings, identity: ProviderIdentity) {
  await tx.insert(userIdentities).values({ userId, issuer: provider.issuer, subject: identity.subject })
  await recordAudit(
    tx,
    { id: userId },
    {
      action: 'auth.sso_linked',
      entity: 'user',
      entityId: userId,
      details: { providerId: provider.id, issuer: provider.issuer, subject: identity.subject },
    },
  )
}

/**
 * Just-in-time: a new employee of the provider's chosen company, for a verified address in its
 * domains, when the admin turned it on (off by default). No password: they sign in through the provider.
 */
async function createJustInTime(
  tx: Tx,
  provider: IdentityProviderSettings,
  identity: ProviderIdentity,
  meta: Meta,
) {
  if (!provider.jitCompanyId || !identity.email) return null
  const [company] = await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, provider.jitCompanyId))
    .limit(1)
  if (!company) return null
  const [user] = await tx
    .insert(users)
    .values({
      email: identity.email,
      displayName: identity.name ?? identity.email.slice(0, identity.email.lastIndexOf('@')),
      emailVerifiedAt: new Date(),
      role: 'employee',
      companyId: company.id,
    })
    .returning({ id: users.id, email: users.email, role: users.role })
  await recordAudit(
    tx,
    { id: user!.id, ip: meta.ip },
    {
      action: 'employee.created_by_sso',
      entity: 'user',
      entityId: user!.id,
      details: { providerId: provider.id, companyId: company.id, email: identity.email },
    },
  )
  await enqueueWebhookEvents(tx, [
    { type: 'employee.created', companyId: company.id, data: { employee_id: user!.id, enabled: true } },
  ])
  return user!
}

/**
 * The one place a provider sign-in becomes a session: the same database session as a password
 * sign-in (session.server.ts), so the session sync, the time-outs and signing out work unchanged.
 * `via: 'sso'` is recorded with it. Issue 20 §2's second factor for admins hooks in here: whether an
 * admin signing in through a provider still owes a code is decided on this path, before the session.
 */
async function startSession(
  tx: Tx,
  user: { id: string; role: Role },
  provider: IdentityProviderSettings,
  meta: Meta,
  how: { linked: boolean; created: boolean },
) {
  const via = 'sso' as const
  // The one way in for every first factor (ADR 048): a session, or a second step still owed.
  const opened = await openSignIn(tx, user, { ...meta, method: via })
  await recordAudit(
    tx,
    { id: user.id, ip: meta.ip },
    {
      action: 'auth.signed_in_with_sso',
      entity: 'user',
      entityId: user.id,
      details: { via, providerId: provider.id, provider: provider.name, ...how },
    },
  )
  return { opened, user: { id: user.id, role: user.role } }
}

/** A failed sign-in through a provider, in the audit log (no token, code or secret; the address the provider gave). */
async function auditFailure(input: {
  providerId: string | null
  failure: SsoFailure
  detail: string
  meta: Meta
  email?: string | null
  subject?: string
  userId?: string
}) {
  await recordAudit(getDb(), {
    actorId: input.userId ?? null,
    ip: input.meta.ip,
    action: 'auth.sso_failed',
    entity: 'identity_provider',
    entityId: input.providerId ?? 'environment',
    details: {
      reason: input.failure,
      detail: input.detail,
      ...(input.email ? { email: input.email } : {}),
      ...(input.subject ? { subject: input.subject } : {}),
    },
  })
}

/** Housekeeping: sign-ins that never came back. */
export async function pruneSsoStates() {
  await getDb()
    .delete(ssoLoginStates)
    .where(sql`${ssoLoginStates.expiresAt} < now()`)
}
