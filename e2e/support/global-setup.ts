import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { startSmtpCatcher } from '../../tests/support/smtp-catcher'

/**
 * One fresh world for the browser suite: an embedded database in a temporary folder with the demo
 * seed, a real SMTP server catching what the app sends (readable by the specs over a small HTTP
 * endpoint), and the production server (node server.mjs) on E2E_PORT.
 */
export default async function globalSetup() {
  const root = path.resolve(import.meta.dirname, '../..')
  const port = Number(process.env.E2E_PORT ?? 3311)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-e2e-'))
  const catcher = await startSmtpCatcher()

  const mailbox = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json')
    res.end(
      JSON.stringify(catcher.messages.map(({ to, subject, text, html }) => ({ to, subject, text, html }))),
    )
  })
  await new Promise<void>((resolve) => mailbox.listen(0, '127.0.0.1', resolve))

  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    PGLITE_DIR: path.join(dataDir, 'pglite'),
    SMTP_URL: catcher.url,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    TURNSTILE_SITE_KEY: '',
    TURNSTILE_SECRET_KEY: '',
    SENTRY_DSN: '',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    // A deployment with its contact links configured (there are no defaults).
    CONTACT_CALLBACK_URL: 'https://www.panorama-consulting.test/request-a-callback',
    CONTACT_EMAIL: 'hello@panorama-consulting.test',
    CONTACT_PROFILE_URL: 'https://www.linkedin.com/company/panorama-consulting-test',
  }
  const seedOutput = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['db/seed.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
  })
  const invite = seedOutput.split('\n').find((line) => line.startsWith('colleague invite: '))
  if (!invite) throw new Error(`The seed printed no colleague invite line:\n${seedOutput}`)

  // Something already answering on the port (a server left behind by an interrupted run) would be
  // tested instead of this build: refuse rather than pass or fail against the wrong code.
  const taken = await fetch(`http://localhost:${port}/healthz`).then(
    () => true,
    () => false,
  )
  if (taken) throw new Error(`E2E_PORT ${port} is already in use: stop what runs there or choose another`)

  const server: ChildProcess = spawn(process.execPath, ['server.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
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

  process.env.E2E_INVITE_LINK = invite.slice('colleague invite: '.length).trim()
  const answering = seedOutput.split('\n').find((line) => line.startsWith('answering invite: '))
  if (answering) process.env.E2E_ANSWER_INVITE_LINK = answering.slice('answering invite: '.length).trim()
  process.env.E2E_MAILBOX_URL = `http://127.0.0.1:${(mailbox.address() as AddressInfo).port}`
  process.env.E2E_SEED_PASSWORD = process.env.SEED_PASSWORD || 'panorama-demo'

  return async () => {
    server.kill('SIGTERM')
    await new Promise((resolve) => {
      if (server.exitCode !== null) return resolve(null)
      server.once('exit', resolve)
      setTimeout(() => {
        server.kill('SIGKILL')
        resolve(null)
      }, 15_000).unref()
    })
    mailbox.close()
    await catcher.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
