import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '../..')

/** The environment of a production server for the browser suite: embedded database, a real SMTP catcher. */
export function serverEnv(options: { port: number; pgliteDir: string; smtpUrl: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(options.port),
    APP_URL: `http://localhost:${options.port}`,
    PGLITE_DIR: options.pgliteDir,
    SMTP_URL: options.smtpUrl,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    TURNSTILE_SITE_KEY: '',
    TURNSTILE_SECRET_KEY: '',
    SENTRY_DSN: '',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    // Second factor optional (ADR 048): the specs sign the demo's admin in without one.
    ADMIN_TOTP_REQUIRED: '',
    // A deployment with its contact links configured (there are no defaults).
    CONTACT_CALLBACK_URL: 'https://www.panorama-consulting.test/request-a-callback',
    CONTACT_EMAIL: 'hello@panorama-consulting.test',
    CONTACT_PROFILE_URL: 'https://www.linkedin.com/company/panorama-consulting-test',
    // An intranet install's switch (ADR 057): the webhooks spec's receiver listens on this machine.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  }
}

export type RunningServer = {
  process: ChildProcess
  /** Everything the server printed on stdout so far. */
  output: () => string
  stop: () => Promise<void>
}

/**
 * Starts `node server.mjs` (the production build) and waits until /readyz answers. Refuses a port
 * that already answers: a server left behind by an interrupted run would be tested instead of this
 * build.
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  port: number,
  /** Node options before server.mjs (the suite's `--import` of its session door). */
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  const taken = await fetch(`http://localhost:${port}/healthz`).then(
    () => true,
    () => false,
  )
  if (taken) throw new Error(`Port ${port} is already in use: stop what runs there or choose another`)
  let printed = ''
  const server = spawn(process.execPath, [...nodeArgs, 'server.mjs'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  server.stdout!.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8')
    process.stdout.write(chunk)
  })
  const deadline = Date.now() + 60_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`)
    const ready = await fetch(`http://localhost:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) break
    if (Date.now() > deadline) throw new Error('The server did not become ready in 60 s')
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    process: server,
    output: () => printed,
    stop: () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve()
        server.once('exit', () => resolve())
        server.kill('SIGTERM')
        setTimeout(() => {
          server.kill('SIGKILL')
          resolve()
        }, 15_000).unref()
      }),
  }
}
