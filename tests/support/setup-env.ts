// Runs before every test file: a quiet, deterministic configuration.
process.env.NODE_ENV = 'test'
process.env.LOG_LEVEL ??= 'silent'
process.env.APP_URL = 'http://localhost:3000'
process.env.PGLITE_DIR = 'memory://'
process.env.WORKER = 'false'
// A deployment that configured its contact links (there are no defaults: tests that need none delete them).
process.env.CONTACT_CALLBACK_URL = 'https://consultancy.test/request-a-callback'
process.env.CONTACT_EMAIL = 'hello@consultancy.test'
process.env.CONTACT_PROFILE_URL = 'https://www.linkedin.com/company/consultancy-test'
for (const name of [
  'DATABASE_URL',
  'SMTP_URL',
  'TURNSTILE_SITE_KEY',
  'TURNSTILE_SECRET_KEY',
  'SENTRY_DSN',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  // Admins' second factor (ADR 048): off, SSO admins exempt.
  'ADMIN_TOTP_REQUIRED',
  'SSO_ADMINS_SKIP_TOTP',
  // Languages still being translated (ADR 050): none previewed unless a test says so.
  'LANGUAGES_PREVIEW',
]) {
  delete process.env[name]
}
