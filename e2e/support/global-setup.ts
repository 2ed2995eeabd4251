import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AddressInfo } from 'node:net'
import { startSmtpCatcher } from '../../tests/support/smtp-catcher'
import { serverEnv, startServer } from './server'

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

  // German is shipped (ADR 050): the German specs need no preview. English stays the language of
  // every browser asking for it (Playwright's Chromium sends en-US).
  const env = serverEnv({ port, pgliteDir: path.join(dataDir, 'pglite'), smtpUrl: catcher.url })
  const seedOutput = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['db/seed.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
  })
  const invite = seedOutput.split('\n').find((line) => line.startsWith('colleague invite: '))
  if (!invite) throw new Error(`The seed printed no colleague invite line:\n${seedOutput}`)

  // Specs sign in through a session made for them (support/session-door.mjs), not through the form.
  const doorFile = path.join(dataDir, 'session-door-port')
  const server = await startServer({ ...env, E2E_SESSION_DOOR_FILE: doorFile }, port, [
    '--import',
    pathToFileURL(path.join(root, 'e2e/support/session-door.mjs')).href,
  ])
  process.env.E2E_SESSION_URL = `http://127.0.0.1:${fs.readFileSync(doorFile, 'utf8').trim()}/`

  process.env.E2E_INVITE_LINK = invite.slice('colleague invite: '.length).trim()
  const answering = seedOutput.split('\n').find((line) => line.startsWith('answering invite: '))
  if (answering) process.env.E2E_ANSWER_INVITE_LINK = answering.slice('answering invite: '.length).trim()
  process.env.E2E_MAILBOX_URL = `http://127.0.0.1:${(mailbox.address() as AddressInfo).port}`
  process.env.E2E_SEED_PASSWORD = process.env.SEED_PASSWORD || 'panorama-demo'

  return async () => {
    await server.stop()
    mailbox.close()
    await catcher.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
