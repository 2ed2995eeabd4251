import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/**
 * Every setting of a deployment, parsed once at start-up. A bad or missing variable is reported in
 * one message that lists them all (see {@link ConfigError}); the server exits non-zero on it.
 */

const DEV_SESSION_SECRET = 'panorama-local-development-secret-change-me'

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
   * "Strict confidentiality" (ADR 024): no administrator can ever see who gave a colleague response —
   * no reveal, no export with names. Set by whoever runs the install, never from the back office.
   */
  STRICT_CONFIDENTIALITY: z
    .enum(['true', 'false', '1', '0', ''], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
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

export type Env = Omit<z.output<typeof EnvSchema>, 'APP_URL' | 'SESSION_SECRET'> & {
  APP_URL: string
  SESSION_SECRET: string
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
  const env = result.data
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
  return {
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? localSessionSecret(env.PGLITE_DIR, env.NODE_ENV),
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
