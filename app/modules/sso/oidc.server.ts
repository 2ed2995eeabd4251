import * as oidc from 'openid-client'
import { hashSecret } from '#app/lib/secret-hash.server'
import type { IdentityProviderSettings } from './provider.server'

/**
 * The OpenID Connect client (issue 20 §1, ADR 049): `openid-client`, a certified relying party
 * implementation, does discovery, the authorization request with PKCE (S256), state and nonce, the
 * code exchange, and the ID token's checks (signature against the provider's keys, issuer,
 * audience, expiry and issue time within a clock tolerance, nonce). This file only configures it and
 * sorts what can go wrong into the few answers a person can act on.
 */

/** How long a provider may take to answer one request before the sign-in gives up on it. */
export const PROVIDER_TIMEOUT_S = 10
/** How far the provider's clock may be from ours when its tokens' times are checked. */
export const CLOCK_TOLERANCE_S = 60
/** A discovered configuration is reused this long (the provider's keys are fetched as they rotate). */
const DISCOVERY_TTL_MS = 10 * 60 * 1000

/** What went wrong at the provider, in the words the error page and the audit log use. */
export type ProviderFailure =
  | 'unreachable' // no answer, a timeout, or not an OpenID provider's answer at that address
  | 'misconfigured' // it answers as another issuer, refuses our client, or lacks what we need
  | 'refused' // it refused the code (used already, expired) at the token endpoint
  | 'invalid-token' // the ID token failed a check (signature, audience, nonce, times)

export class ProviderError extends Error {
  constructor(
    public readonly failure: ProviderFailure,
    /** A technical reason for the audit log (an error code, never a token or a secret). */
    public readonly detail: string,
  ) {
    super(`${failure}: ${detail}`)
    this.name = 'ProviderError'
  }
}

type Cached = { config: oidc.Configuration; at: number }
const configurations = new Map<string, Cached>()

/** The cache key of a provider's configuration: a change of any setting (or secret) misses it. */
const cacheKey = (provider: IdentityProviderSettings) =>
  hashSecret([provider.version, provider.issuer, provider.clientId, provider.clientSecret].join('\n'))

/** Forgets every discovered configuration (tests; a provider's keys changing is handled per request). */
export function forgetDiscoveries() {
  configurations.clear()
}

/**
 * The provider's discovered configuration for this client: fetched from
 * `<issuer>/.well-known/openid-configuration` (its `issuer` must equal ours), then kept a while.
 * Client authentication is `client_secret_basic` unless the provider only takes `client_secret_post`.
 */
export async function configurationFor(provider: IdentityProviderSettings): Promise<oidc.Configuration> {
  const key = cacheKey(provider)
  const cached = configurations.get(key)
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config
  const issuer = new URL(provider.issuer)
  // Plain http is accepted for a loopback issuer only (the form and the variables refuse others).
  const insecure = issuer.protocol === 'http:'
  const discovered = await run('discovery', () =>
    oidc.discovery(issuer, provider.clientId, undefined, undefined, {
      timeout: PROVIDER_TIMEOUT_S,
      execute: insecure ? [oidc.allowInsecureRequests] : [],
    }),
  )
  const metadata = discovered.serverMetadata()
  const methods = metadata.token_endpoint_auth_methods_supported
  const auth =
    methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
      ? oidc.ClientSecretPost(provider.clientSecret)
      : oidc.ClientSecretBasic(provider.clientSecret)
  const config = new oidc.Configuration(
    metadata,
    provider.clientId,
    { [oidc.clockTolerance]: CLOCK_TOLERANCE_S },
    auth,
  )
  config.timeout = PROVIDER_TIMEOUT_S
  if (insecure) oidc.allowInsecureRequests(config)
  for (const [k, v] of configurations) if (Date.now() - v.at >= DISCOVERY_TTL_MS) configurations.delete(k)
  configurations.set(key, { config, at: Date.now() })
  return config
}

/** The checks one sign-in carries from its start to its callback. */
export type FlowSecrets = { state: string; nonce: string; codeVerifier: string }

/** The provider's authorization URL for one sign-in: code flow, PKCE S256, state, nonce. */
export async function authorizationUrl(
  config: oidc.Configuration,
  provider: IdentityProviderSettings,
  secrets: FlowSecrets,
  options: { redirectUri: string; loginHint?: string },
): Promise<URL> {
  const parameters: Record<string, string> = {
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: provider.scopes.join(' '),
    state: secrets.state,
    nonce: secrets.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
    code_challenge_method: 'S256',
  }
  if (options.loginHint) parameters.login_hint = options.loginHint
  return oidc.buildAuthorizationUrl(config, parameters)
}

/** What the sign-in needs of the person the provider vouched for. */
export type ProviderIdentity = {
  subject: string
  email: string | null
  /** The provider says it verified the address (`email_verified`, or Entra ID's `xms_edov`). */
  emailVerified: boolean
  name: string | null
}

/**
 * The callback's code exchanged at the token endpoint and the ID token checked (signature,
 * issuer, audience, times within {@link CLOCK_TOLERANCE_S}, nonce; the code verifier proves this
 * is the browser that started). Claims missing from the ID token (a provider may keep the address
 * for the userinfo endpoint) are read from there, for the same subject.
 */
export async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  secrets: FlowSecrets,
): Promise<ProviderIdentity> {
  const tokens = await run('token', () =>
    oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: secrets.codeVerifier,
      expectedState: secrets.state,
      expectedNonce: secrets.nonce,
      idTokenExpected: true,
    }),
  )
  const idToken = tokens.claims()
  if (!idToken) throw new ProviderError('invalid-token', 'no ID token')
  let claims: Record<string, unknown> = idToken
  if (typeof idToken.email !== 'string' && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    const userinfo = await run('userinfo', () => oidc.fetchUserInfo(config, tokens.access_token, idToken.sub))
    claims = { ...userinfo, ...idToken }
  }
  const email =
    typeof claims.email === 'string' && claims.email.includes('@') ? claims.email.trim().toLowerCase() : null
  return {
    subject: idToken.sub,
    email,
    emailVerified: isTrue(claims.email_verified) || isTrue(claims.xms_edov),
    name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 120) : null,
  }
}

// Some providers send booleans as strings ("true").
const isTrue = (value: unknown) => value === true || value === 'true'

/** Runs one call to the provider, turning its errors into a {@link ProviderError}. */
async function run<T>(step: 'discovery' | 'token' | 'userinfo', call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw classify(step, error)
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
])

function classify(step: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error
  const e = error as { name?: string; code?: string; error?: string; cause?: { code?: string } }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return new ProviderError('unreachable', `${step}: timeout`)
  if (
    error instanceof TypeError &&
    (e.cause?.code ? NETWORK_CODES.has(e.cause.code) : /fetch failed/i.test(error.message))
  )
    return new ProviderError('unreachable', `${step}: ${e.cause?.code ?? 'network'}`)
  if (error instanceof oidc.ResponseBodyError) {
    // invalid_client: our id or secret is wrong there; anything else at the token endpoint is the
    // code refused (used already, expired, or not issued to us).
    const code = String(e.error ?? 'error')
    return new ProviderError(
      code === 'invalid_client' || code === 'unauthorized_client' ? 'misconfigured' : 'refused',
      `${step}: ${code}`,
    )
  }
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    // A 401 with a challenge at the token endpoint: the provider does not take our client id or
    // secret (its `error` parameter says which, usually invalid_client).
    const code = error.cause.find((c) => c.parameters.error)?.parameters.error ?? `http ${error.status}`
    return new ProviderError(error.status === 401 ? 'misconfigured' : 'refused', `${step}: ${code}`)
  }
  if (error instanceof oidc.ClientError) {
    const code = e.code ?? 'client_error'
    if (step === 'discovery')
      return new ProviderError(
        code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' || code === 'OAUTH_INVALID_SERVER_METADATA'
          ? 'misconfigured'
          : 'unreachable',
        `${step}: ${code}`,
      )
    if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON')
      return new ProviderError('unreachable', `${step}: ${code}`)
    return new ProviderError('invalid-token', `${step}: ${code}`)
  }
  if (error instanceof oidc.AuthorizationResponseError)
    return new ProviderError('refused', `${step}: ${String(e.error ?? 'authorization_error')}`)
  throw error
}

/** Random values for one sign-in (openid-client's own generators: 32 random bytes each). */
export const randomState = () => oidc.randomState()
