import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { ConfigError, contactLinksOf, contactWarning, parseEnv } from '#app/config/env.server'

/**
 * Configuration is validated once at start-up (DESIGN.md §6): one clear message that lists every
 * bad variable, safe defaults for a local run, and no production deployment without a real secret.
 */

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  throw new Error('expected a ConfigError')
}

/** The variable each problem names (each problem starts with it). */
const names = (problems: string[]) => problems.map((p) => p.split(' ')[0]).sort()

// NODE_ENV=test keeps parseEnv from reading or writing a session-secret file next to a data folder.
const base = { NODE_ENV: 'test' }

describe('bad variables', () => {
  test('several at once: one ConfigError naming every one of them', () => {
    const problems = problemsOf({
      ...base,
      DATABASE_URL: 'mysql://x',
      SMTP_URL: 'http://x',
      PASSWORD_MIN_LENGTH: '4',
      APP_URL: 'not a url',
      TURNSTILE_SITE_KEY: 'site-key-without-secret',
      ADMIN_EMAIL: 'ops@example.test',
    })
    expect(names(problems)).toEqual(
      [
        'ADMIN_PASSWORD',
        'APP_URL',
        'DATABASE_URL',
        'PASSWORD_MIN_LENGTH',
        'SMTP_URL',
        'TURNSTILE_SECRET_KEY',
      ].sort(),
    )
    expect(problems.find((p) => p.startsWith('DATABASE_URL'))).toMatch(/postgres:\/\//)
    expect(problems.find((p) => p.startsWith('SMTP_URL'))).toMatch(/smtp:\/\//)
    expect(problems.find((p) => p.startsWith('PASSWORD_MIN_LENGTH'))).toMatch(/6/)
  })

  // Cross-variable checks must run even when a field has failed its type (PORT=abc, LOG_LEVEL=loud,
  // …), so the operator learns every problem at the first start, not one per restart.
  test('several at once, including a non-number PORT: still every one of them', () => {
    const problems = problemsOf({
      ...base,
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      PASSWORD_MIN_LENGTH: '4',
      SMTP_URL: 'http://x',
      TURNSTILE_SITE_KEY: 'site-key-without-secret',
    })
    expect(names(problems), problems.join('\n')).toEqual(
      ['DATABASE_URL', 'PASSWORD_MIN_LENGTH', 'PORT', 'SMTP_URL', 'TURNSTILE_SECRET_KEY'].sort(),
    )
  })

  test('the message lists them one per line under a heading', () => {
    try {
      parseEnv({ ...base, PORT: '70000', SMTP_URL: 'http://x' })
      expect.unreachable()
    } catch (error) {
      const message = (error as Error).message
      expect(message.split('\n')[0]).toBe('Invalid configuration:')
      expect(message).toMatch(/^ {2}- PORT .+$/m)
      expect(message).toMatch(/^ {2}- SMTP_URL .+$/m)
    }
  })

  test.each([
    ['PORT', '0'],
    ['PORT', '65536'],
    ['PORT', '3000.5'],
    ['PASSWORD_MIN_LENGTH', '5'],
    ['PASSWORD_MIN_LENGTH', '129'],
    ['SESSION_SECRET', 'too-short'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'yes'],
    ['NODE_ENV', 'staging'],
    ['CONTACT_EMAIL', 'not-an-address'],
    ['TURNSTILE_VERIFY_URL', 'not a url'],
    ['ADMIN_TOTP_REQUIRED', 'yes'],
    ['SSO_ADMINS_SKIP_TOTP', 'sometimes'],
  ])('%s=%s is refused', (name, value) => {
    expect(names(problemsOf({ ...base, [name]: value }))).toContain(name)
  })

  test('Turnstile and admin keys come in pairs', () => {
    expect(names(problemsOf({ ...base, TURNSTILE_SECRET_KEY: 's' }))).toEqual(['TURNSTILE_SITE_KEY'])
    expect(names(problemsOf({ ...base, ADMIN_PASSWORD: 'long enough password' }))).toEqual(['ADMIN_EMAIL'])
    expect(names(problemsOf({ ...base, ADMIN_EMAIL: 'a@example.test', ADMIN_PASSWORD: 'short' }))).toEqual([
      'ADMIN_PASSWORD',
    ])
  })
})

describe('production', () => {
  test('Postgres without SESSION_SECRET is refused, naming SESSION_SECRET', () => {
    const problems = problemsOf({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db.internal/panorama' })
    expect(names(problems)).toEqual(['SESSION_SECRET'])
  })

  test('the development secret is refused in production', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db.internal/panorama',
      SESSION_SECRET: 'panorama-local-development-secret-change-me',
    })
    expect(names(problems)).toEqual(['SESSION_SECRET'])
  })

  test('a real secret is accepted', () => {
    const secret = 'x'.repeat(40)
    const env = parseEnv({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db.internal/panorama',
      SESSION_SECRET: secret,
    })
    expect(env.SESSION_SECRET).toBe(secret)
  })
})

describe('defaults', () => {
  test('an empty environment is a working local configuration', () => {
    // Run in an empty folder: without SESSION_SECRET the embedded default keeps a generated one
    // beside its data folder (./.data), which must not touch the repository's.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-env-'))
    const cwd = process.cwd()
    process.chdir(dir)
    try {
      const env = parseEnv({})
      expect(env).toMatchObject({
        NODE_ENV: 'development',
        PORT: 3000,
        HOST: '0.0.0.0',
        PGLITE_DIR: './.data/pglite',
        APP_URL: 'http://localhost:3000',
        PASSWORD_MIN_LENGTH: 8,
        TRUST_PROXY: 0,
        WORKER: true,
        LOG_LEVEL: 'info',
        secure: false,
        turnstileEnabled: false,
        TURNSTILE_VERIFY_URL: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      })
      expect(env.DATABASE_URL).toBeUndefined()
      expect(env.SMTP_URL).toBeUndefined()
      expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32)
      // Generated once and kept, so sessions survive a restart.
      const file = path.join(dir, '.data', 'session-secret')
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(env.SESSION_SECRET)
      expect(fs.statSync(file).mode & 0o077).toBe(0)
      expect(parseEnv({}).SESSION_SECRET).toBe(env.SESSION_SECRET)
    } finally {
      process.chdir(cwd)
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  test('empty strings count as unset', () => {
    const env = parseEnv({
      ...base,
      DATABASE_URL: '',
      SMTP_URL: '',
      TURNSTILE_SITE_KEY: '',
      TURNSTILE_SECRET_KEY: '',
      SESSION_SECRET: '',
    })
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.SMTP_URL).toBeUndefined()
    expect(env.turnstileEnabled).toBe(false)
  })

  test('the second factor (ADR 048): optional for admins, SSO admins exempt; required only with a SECRET_KEY to seal it', () => {
    const env = parseEnv(base)
    expect(env.ADMIN_TOTP_REQUIRED).toBe(false)
    expect(env.SSO_ADMINS_SKIP_TOTP).toBe(true)
    expect(parseEnv({ ...base, ADMIN_TOTP_REQUIRED: 'true', SSO_ADMINS_SKIP_TOTP: 'false' })).toMatchObject({
      ADMIN_TOTP_REQUIRED: true,
      SSO_ADMINS_SKIP_TOTP: false,
    })
    expect(parseEnv({ ...base, ADMIN_TOTP_REQUIRED: '', SSO_ADMINS_SKIP_TOTP: '' })).toMatchObject({
      ADMIN_TOTP_REQUIRED: false,
      SSO_ADMINS_SKIP_TOTP: true,
    })
    // Production on Postgres has no key unless SECRET_KEY is set: requiring authenticators then
    // would lock every admin out, so the server does not start.
    const production = {
      ...base,
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://panorama@db.example/panorama',
      SESSION_SECRET: 's'.repeat(40),
    }
    expect(problemsOf({ ...production, ADMIN_TOTP_REQUIRED: 'true' })).toContain(
      'ADMIN_TOTP_REQUIRED needs SECRET_KEY: authenticator secrets are sealed with it',
    )
    expect(
      parseEnv({ ...production, ADMIN_TOTP_REQUIRED: 'true', SECRET_KEY: 'ab'.repeat(32) }).ADMIN_TOTP_REQUIRED,
    ).toBe(true)
    expect(parseEnv({ ...production, ADMIN_TOTP_REQUIRED: 'false' }).SECRET_KEY).toBeNull()
  })

  test('APP_URL defaults to localhost on PORT', () => {
    expect(parseEnv({ ...base, PORT: '8080' }).APP_URL).toBe('http://localhost:8080')
  })
})

describe('derived settings', () => {
  test('an https APP_URL makes the deployment secure (Secure cookies, HSTS); its trailing slash goes', () => {
    const env = parseEnv({ ...base, APP_URL: 'https://feedback.example.com/' })
    expect(env.secure).toBe(true)
    expect(env.APP_URL).toBe('https://feedback.example.com')
    expect(parseEnv({ ...base, APP_URL: 'http://feedback.example.com' }).secure).toBe(false)
  })

  test('both Turnstile keys turn the bot check on', () => {
    const env = parseEnv({
      ...base,
      TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      TURNSTILE_SECRET_KEY: '2x0000000000000000000000000000000AA',
    })
    expect(env.turnstileEnabled).toBe(true)
  })

  test('DIRECTORY_SEARCHES_PER_MINUTE is 120 by default, a whole number from 1 up otherwise', () => {
    expect(parseEnv(base).DIRECTORY_SEARCHES_PER_MINUTE).toBe(120)
    expect(
      parseEnv({ ...base, DIRECTORY_SEARCHES_PER_MINUTE: '1000000' }).DIRECTORY_SEARCHES_PER_MINUTE,
    ).toBe(1_000_000)
    for (const bad of ['0', '-5', '2.5', 'many'])
      expect(problemsOf({ ...base, DIRECTORY_SEARCHES_PER_MINUTE: bad })).toEqual([
        expect.stringMatching(/^DIRECTORY_SEARCHES_PER_MINUTE /),
      ])
  })

  test('STRICT_CONFIDENTIALITY is off by default, on with true or 1, and anything else is named', () => {
    expect(parseEnv(base).STRICT_CONFIDENTIALITY).toBe(false)
    expect(parseEnv({ ...base, STRICT_CONFIDENTIALITY: '' }).STRICT_CONFIDENTIALITY).toBe(false)
    expect(parseEnv({ ...base, STRICT_CONFIDENTIALITY: 'false' }).STRICT_CONFIDENTIALITY).toBe(false)
    expect(parseEnv({ ...base, STRICT_CONFIDENTIALITY: 'true' }).STRICT_CONFIDENTIALITY).toBe(true)
    expect(parseEnv({ ...base, STRICT_CONFIDENTIALITY: '1' }).STRICT_CONFIDENTIALITY).toBe(true)
    expect(problemsOf({ ...base, STRICT_CONFIDENTIALITY: 'yes' })).toEqual([
      'STRICT_CONFIDENTIALITY must be true or false',
    ])
  })

  test('valid URLs for Postgres and SMTP are accepted', () => {
    const env = parseEnv({
      ...base,
      DATABASE_URL: 'postgresql://u:p@db:5432/x',
      SMTP_URL: 'smtps://u:p@mail:465',
    })
    expect(env.DATABASE_URL).toBe('postgresql://u:p@db:5432/x')
    expect(env.SMTP_URL).toBe('smtps://u:p@mail:465')
  })
})

describe('contact links', () => {
  test('no placeholder goes live: unset links stay unset and start-up warns about each', () => {
    const env = parseEnv({ ...base })
    expect([env.CONTACT_CALLBACK_URL, env.CONTACT_EMAIL, env.CONTACT_PROFILE_URL]).toEqual([
      undefined,
      undefined,
      undefined,
    ])
    expect(contactLinksOf(env)).toBeNull()
    expect(contactWarning(env)).toEqual({
      missing: ['CONTACT_CALLBACK_URL', 'CONTACT_EMAIL', 'CONTACT_PROFILE_URL'],
    })
    // Blank values (an .env file copied with the lines left empty) count as unset, not as errors.
    const blank = parseEnv({ ...base, CONTACT_CALLBACK_URL: '', CONTACT_EMAIL: ' ', CONTACT_PROFILE_URL: '' })
    expect(contactLinksOf(blank)).toBeNull()
  })

  test('configured links are used as given; a partial set shows what is there and warns about the rest', () => {
    const env = parseEnv({
      ...base,
      CONTACT_CALLBACK_URL: 'https://consultancy.test/callback',
      CONTACT_EMAIL: 'hello@consultancy.test',
    })
    expect(contactLinksOf(env)).toEqual({
      callbackUrl: 'https://consultancy.test/callback',
      email: 'hello@consultancy.test',
      profileUrl: null,
    })
    expect(contactWarning(env)).toEqual({ missing: ['CONTACT_PROFILE_URL'] })
    const all = parseEnv({
      ...base,
      CONTACT_CALLBACK_URL: 'https://consultancy.test/callback',
      CONTACT_EMAIL: 'hello@consultancy.test',
      CONTACT_PROFILE_URL: 'https://consultancy.test/about',
    })
    expect(contactWarning(all)).toBeNull()
  })
})
