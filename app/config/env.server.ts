import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { LANGUAGE_CODES, type Language } from '#app/modules/i18n/languages'
import {
  DEFAULT_SCOPES,
  isAllowedIssuerUrl,
  parseDomainList,
  SCOPE_TOKEN,
} from '#app/lib/identity-provider-values'
import { parseAllowList, type AllowEntry } from '#app/lib/outbound-address'

/**
 * Every setting of a deployment, parsed once at start-up. A bad or missing variable is reported in
 * one message that lists them all (see {@link ConfigError}); the server exits non-zero on it.
 */

const DEV_SESSION_SECRET = 'panorama-local-development-secret-change-me'
/**
 * The development key of app/lib/secret-box.server.ts (32 bytes, hex): for tests and in-memory
 * databases only. It is public, so nothing encrypted with it is secret.
 */
export const DEV_SECRET_KEY = '70616e6f72616d612d6c6f63616c2d6465762d6b65792d6368616e67652d6d65'

/** SECRET_KEY: 32 bytes written as 64 hex digits or as base64 (43–44 characters, base64url too). */
export function parseSecretKey(value: string): Buffer | null {
  const text = value.trim()
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex')
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(text)) return null
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return bytes.length === 32 ? bytes : null
}

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional()

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: 'must be a postgres:// or postgresql:// URL',
  }),
  PGLITE_DIR: z.string().trim().min(1).default('./.data/pglite'),
  APP_URL: z.url({ message: 'must be an absolute http(s) URL, e.g. http://localhost:3000' }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  /**
   * The key that encrypts secrets at rest (an identity provider's client secret): 32 random bytes,
   * hex or base64 (app/lib/secret-box.server.ts). The embedded default generates one into its data
   * folder; a Postgres deployment sets it on every instance before it stores a secret (ADR 049).
   */
  SECRET_KEY: optionalString.refine((v) => v === undefined || parseSecretKey(v) !== null, {
    message: 'must be 32 random bytes written as 64 hex digits or in base64 (openssl rand -base64 32)',
  }),
  /**
   * One install-wide OpenID provider configured by variables instead of the back office (ADR 049):
   * its issuer, the app's client id and secret there, the scopes asked for, and the e-mail domains
   * it signs in. OIDC_PASSWORD_SIGN_IN=false refuses passwords to employees of those domains.
   */
  OIDC_ISSUER: optionalString,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_SCOPES: z
    .string()
    .trim()
    .transform((v) => v.split(/\s+/).filter(Boolean))
    .pipe(z.array(z.string().regex(SCOPE_TOKEN, { message: 'must be scopes separated by spaces' })).max(20))
    .optional(),
  OIDC_DOMAINS: optionalString,
  OIDC_NAME: z.string().trim().max(60).optional(),
  OIDC_PASSWORD_SIGN_IN: z
    .enum(['true', 'false', '1', '0', ''], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v !== 'false' && v !== '0'),
  SESSION_SECRET: z
    .string()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.string().min(32, { message: 'must be at least 32 characters' }).optional())
    .optional(),
  SMTP_URL: optionalUrl.refine((v) => v === undefined || /^smtps?:\/\//.test(v), {
    message: 'must be an smtp:// or smtps:// URL',
  }),
  MAIL_FROM: z.string().trim().min(3).default('Panorama <no-reply@panorama.local>'),
  TURNSTILE_SITE_KEY: optionalString,
  TURNSTILE_SECRET_KEY: optionalString,
  TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  SENTRY_DSN: optionalUrl,
  SENTRY_ENVIRONMENT: optionalString,
  // No defaults: a placeholder address must never go live. Unset links are simply not shown (and
  // start-up warns, see contactWarning); a brand may still supply its own.
  CONTACT_CALLBACK_URL: optionalUrl,
  CONTACT_EMAIL: optionalString.pipe(z.email().optional()),
  CONTACT_PROFILE_URL: optionalUrl,
  PASSWORD_MIN_LENGTH: z.coerce
    .number()
    .int()
    .min(6, { message: 'must be at least 6 (the identity provider floor)' })
    .max(128)
    .default(8),
  ADMIN_EMAIL: z
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_PASSWORD: optionalString,
  /**
   * How many reverse proxies stand in front (their X-Forwarded-For entries are trusted, the
   * client's own are not): `false`/0 for none, `true` for one, or a number of hops.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .refine((v) => /^(true|false|\d{1,2}|)$/.test(v), {
      message: 'must be true, false or a number of proxy hops',
    })
    .transform((v) => (v === 'true' ? 1 : v === 'false' || v === '' ? 0 : Number(v))),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  WORKER: z
    .enum(['true', 'false', '1', '0', ''])
    .default('true')
    .transform((v) => v !== 'false' && v !== '0'),
  /**
   * How many colleague-directory searches (the type-ahead) one signed-in person may make a minute.
   * Typing sends one per pause; `npm run bench` raises it to time the search rather than the 429.
   */
  DIRECTORY_SEARCHES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /**
   * The headless Chromium that prints reports as PDF (ADR 046). Without one there, the report pages
   * say that PDF download is unavailable and point to the browser's own "Save as PDF".
   */
  CHROMIUM_PATH: z.string().trim().min(1).default('/usr/bin/chromium'),
  /**
   * The fewest participants (released reports, each counted once per cycle) a norm needs before a
   * report shows it (issue 19 §6, ADR 044). Install-wide, set by whoever runs the install: 30 by
   * default; the demo and tests lower it. Never below 5.
   */
  NORM_MIN_PARTICIPANTS: z.coerce
    .number()
    .int()
    .min(5, { message: 'must be at least 5 (fewer would let a norm be worked back to a person)' })
    .max(100_000)
    .default(30),
  /**
   * Admins' second factor (ADR 048): `true` makes a TOTP authenticator mandatory for every admin who
   * signs in with a password (an admin without one enrols right after the password, before any admin
   * page). Off by default: an admin may still enrol on their profile.
   */
  ADMIN_TOTP_REQUIRED: z
    .enum(['true', 'false', '1', '0', ''], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Admins who sign in through single sign-on rely on the identity provider's own MFA: no TOTP step
   * after the provider's callback (ADR 048). `false` asks them for their code as after a password.
   */
  SSO_ADMINS_SKIP_TOTP: z
    .enum(['true', 'false', '1', '0', ''], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v !== 'false' && v !== '0'),
  /**
   * "Strict confidentiality" (ADR 024): no administrator can ever see who gave a colleague response —
   * no reveal, no export with names. Set by whoever runs the install, never from the back office.
   */
  STRICT_CONFIDENTIALITY: z
    .enum(['true', 'false', '1', '0', ''], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1') /**
   * Languages served although their catalogues are not complete yet (ADR 050): `de,fr` lets
   * translators (and the tests) see an unfinished language as users would, missing keys in English.
   * Never set in production: a visitor whose browser asks for such a language would get it too.
   */,
  LANGUAGES_PREVIEW: z
    .string()
    .trim()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((c) => c.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(LANGUAGE_CODES, { message: `must list language codes among ${LANGUAGE_CODES.join(', ')}` }),
      ),
    )
    .transform((codes): Language[] => [...new Set(codes)]),
  /**
   * Webhook receivers allowed although their address is not public (ADR 057): comma-separated host
   * names, addresses and CIDR ranges (`hr.intranet.example, 10.20.0.0/16`). Without it a webhook to
   * a loopback, link-local or private address is refused; plain http is accepted only for these.
   */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v, ctx): AllowEntry[] => {
      const { entries, bad } = parseAllowList(v)
      if (bad.length)
        ctx.addIssue({
          code: 'custom',
          message: `must list host names, addresses or CIDR ranges separated by commas (not: ${bad.join(', ')})`,
        })
      return entries
    }),
})

/**
 * Rules between variables, read from the raw source so they are reported even when some other
 * variable fails its own check (zod skips refinements of an object whose fields failed).
 */
function crossVariableProblems(source: Record<string, string | undefined>): string[] {
  const v = (name: string) => {
    const value = source[name]?.trim()
    return value ? value : undefined
  }
  const problems: string[] = []
  const production = (v('NODE_ENV') ?? 'development') === 'production'
  // A production deployment on Postgres needs a real secret shared by all its instances. The
  // embedded single-process default generates one into its data folder instead (see ADR 003).
  if (
    production &&
    (v('SESSION_SECRET') === DEV_SESSION_SECRET || (!v('SESSION_SECRET') && v('DATABASE_URL')))
  ) {
    problems.push('SESSION_SECRET must be set to a random value of at least 32 characters in production')
  }
  // The development key is public: nothing sealed with it is secret (ADR 049).
  if (production && v('SECRET_KEY') === DEV_SECRET_KEY) {
    problems.push('SECRET_KEY must not be the development key in production')
  }
  // An authenticator's secret is sealed with SECRET_KEY (ADR 048/049): requiring one without a key
  // would lock every admin out.
  if (
    production &&
    v('DATABASE_URL') &&
    !v('SECRET_KEY') &&
    ['true', '1'].includes(v('ADMIN_TOTP_REQUIRED') ?? '')
  ) {
    problems.push('ADMIN_TOTP_REQUIRED needs SECRET_KEY: authenticator secrets are sealed with it')
  }
  problems.push(...oidcProblems(v))
  if (Boolean(v('TURNSTILE_SITE_KEY')) !== Boolean(v('TURNSTILE_SECRET_KEY'))) {
    problems.push(
      `${v('TURNSTILE_SITE_KEY') ? 'TURNSTILE_SECRET_KEY' : 'TURNSTILE_SITE_KEY'} TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY must be set together`,
    )
  }
  if (Boolean(v('ADMIN_EMAIL')) !== Boolean(v('ADMIN_PASSWORD'))) {
    problems.push(
      `${v('ADMIN_EMAIL') ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'} ADMIN_EMAIL and ADMIN_PASSWORD must be set together`,
    )
  }
  const minLength = Number(v('PASSWORD_MIN_LENGTH') ?? 8)
  const adminPassword = source.ADMIN_PASSWORD?.trim()
  if (adminPassword && Number.isInteger(minLength) && adminPassword.length < minLength) {
    problems.push(`ADMIN_PASSWORD must be at least PASSWORD_MIN_LENGTH (${minLength}) characters`)
  }
  return problems
}

/** The install-wide provider's variables: all of issuer, client id, secret and domains, or none. */
function oidcProblems(v: (name: string) => string | undefined): string[] {
  const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_DOMAINS'] as const
  const set = names.filter((name) => v(name))
  if (!set.length) return []
  const problems: string[] = []
  const missing = names.filter((name) => !v(name))
  if (missing.length)
    problems.push(`${missing[0]} ${names.join(', ')} must be set together (missing: ${missing.join(', ')})`)
  const issuer = v('OIDC_ISSUER')
  if (issuer && !isAllowedIssuerUrl(issuer))
    problems.push('OIDC_ISSUER must be an https:// URL (http only for localhost), without query or fragment')
  const domains = v('OIDC_DOMAINS')
  if (domains && !parseDomainList(domains)?.length)
    problems.push('OIDC_DOMAINS must list e-mail domains separated by commas, e.g. example.com,example.org')
  const scopes = v('OIDC_SCOPES')
  if (scopes && !scopes.split(/\s+/).includes('openid')) problems.push('OIDC_SCOPES must include openid')
  return problems
}

/** The install-wide OpenID provider set by variables, as the sign-in code uses it. */
export type EnvIdentityProvider = {
  name: string
  issuer: string
  clientId: string
  clientSecret: string
  scopes: string[]
  domains: string[]
  allowPassword: boolean
}

export type Env = Omit<
  z.output<typeof EnvSchema>,
  'APP_URL' | 'SESSION_SECRET' | 'SECRET_KEY' | 'OIDC_CLIENT_SECRET'
> & {
  APP_URL: string
  SESSION_SECRET: string
  /**
   * The 32-byte key of app/lib/secret-box.server.ts; null in production on Postgres without
   * SECRET_KEY, where nothing can be sealed (the back office says so) until it is set.
   */
  SECRET_KEY: Buffer | null
  /** The install-wide OpenID provider, when OIDC_ISSUER and its companions are set. */
  oidcProvider: EnvIdentityProvider | null
  /** true when APP_URL is https: cookies get Secure, responses get HSTS. */
  secure: boolean
  turnstileEnabled: boolean
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Parses a set of variables; throws a {@link ConfigError} naming every bad one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source)
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)'
        const message =
          issue.code === 'invalid_type' && source[name] === undefined ? 'is required' : issue.message
        return `${name} ${message}`
      })
  problems.push(...crossVariableProblems(source))
  if (!result.success || problems.length) throw new ConfigError(problems)
  const { OIDC_CLIENT_SECRET, SECRET_KEY, ...env } = result.data
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
  return {
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? localSessionSecret(env.PGLITE_DIR, env.NODE_ENV),
    SECRET_KEY: SECRET_KEY
      ? parseSecretKey(SECRET_KEY)!
      : env.DATABASE_URL && env.NODE_ENV === 'production'
        ? null
        : localSecretKey(env.PGLITE_DIR, env.NODE_ENV, Boolean(env.DATABASE_URL)),
    oidcProvider:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID && OIDC_CLIENT_SECRET && env.OIDC_DOMAINS
        ? {
            name: env.OIDC_NAME || 'your organisation’s sign-in',
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: OIDC_CLIENT_SECRET,
            scopes: env.OIDC_SCOPES?.length ? env.OIDC_SCOPES : [...DEFAULT_SCOPES],
            domains: parseDomainList(env.OIDC_DOMAINS) ?? [],
            allowPassword: env.OIDC_PASSWORD_SIGN_IN,
          }
        : null,
    APP_URL: appUrl,
    secure: appUrl.startsWith('https://'),
    turnstileEnabled: Boolean(env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET_KEY),
  }
}

/**
 * Without SESSION_SECRET, the embedded single-process default keeps a random secret beside its
 * data so sessions survive restarts; tests and in-memory databases use a fixed development one.
 */
function localSessionSecret(pgliteDir: string, nodeEnv: string): string {
  if (nodeEnv === 'test' || pgliteDir === 'memory://') return DEV_SESSION_SECRET
  const file = path.join(path.dirname(path.resolve(pgliteDir)), 'session-secret')
  try {
    const existing = fs.readFileSync(file, 'utf8').trim()
    if (existing.length >= 32) return existing
  } catch {
    // first start
  }
  const secret = crypto.randomBytes(32).toString('base64url')
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

/**
 * Without SECRET_KEY, the embedded single-process default keeps a random key beside its data (as it
 * does the session secret, ADR 003); tests, in-memory databases and development on Postgres use the
 * public development key. (Production on Postgres has none: its instances must share one.)
 */
function localSecretKey(pgliteDir: string, nodeEnv: string, postgres: boolean): Buffer {
  if (nodeEnv !== 'production' && (nodeEnv === 'test' || pgliteDir === 'memory://' || postgres))
    return Buffer.from(DEV_SECRET_KEY, 'hex')
  const file = path.join(path.dirname(path.resolve(pgliteDir)), 'secret-key')
  try {
    const existing = parseSecretKey(fs.readFileSync(file, 'utf8'))
    if (existing) return existing
  } catch {
    // first start
  }
  const key = crypto.randomBytes(32)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, key.toString('hex'), { mode: 0o600 })
  return key
}

/** The deployment's contact links as the pages use them: null when none is configured. */
export function contactLinksOf(
  env: Pick<Env, 'CONTACT_CALLBACK_URL' | 'CONTACT_EMAIL' | 'CONTACT_PROFILE_URL'>,
) {
  const contact = {
    callbackUrl: env.CONTACT_CALLBACK_URL ?? null,
    email: env.CONTACT_EMAIL ?? null,
    profileUrl: env.CONTACT_PROFILE_URL ?? null,
  }
  return contact.callbackUrl || contact.email || contact.profileUrl ? contact : null
}

/** The start-up warning about contact links that are not configured, or null when all three are. */
export function contactWarning(
  env: Pick<Env, 'CONTACT_CALLBACK_URL' | 'CONTACT_EMAIL' | 'CONTACT_PROFILE_URL'>,
) {
  const missing = (['CONTACT_CALLBACK_URL', 'CONTACT_EMAIL', 'CONTACT_PROFILE_URL'] as const).filter(
    (name) => !env[name],
  )
  return missing.length ? { missing } : null
}

let cached: Env | undefined

/** The process's configuration (parsed from process.env on first use). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env)
  return cached
}

/** Tests change process.env between cases; this forgets the parsed copy. */
export function resetEnvCache() {
  cached = undefined
}
