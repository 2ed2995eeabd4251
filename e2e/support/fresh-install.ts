import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startSmtpCatcher, type CaughtMessage, type SmtpCatcher } from '../../tests/support/smtp-catcher'
import { serverEnv, startServer, type RunningServer } from './server'

export type FreshInstall = {
  baseURL: string
  /** The one-time link the server printed for creating the first admin. */
  setupLink: string
  catcher: SmtpCatcher
  waitForMail: (predicate: (mail: CaughtMessage) => boolean, timeoutMs?: number) => Promise<CaughtMessage>
  stop: () => Promise<void>
}

/** Known before the spec starts, so a spec can `test.use({ baseURL: FRESH_URL })`. */
export const FRESH_PORT = Number(process.env.FRESH_E2E_PORT ?? Number(process.env.E2E_PORT ?? 3311) + 1)
export const FRESH_URL = `http://localhost:${FRESH_PORT}`

/**
 * A second, separate deployment for specs that start from nothing: an empty embedded database (no
 * seed, no admin), its own SMTP catcher in the spec's process, and the production server on its own
 * port (E2E_PORT + 1 unless FRESH_E2E_PORT is set). What a consultancy sees on the day it installs.
 */
export async function startFreshInstall(): Promise<FreshInstall> {
  const port = FRESH_PORT
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-fresh-'))
  const catcher = await startSmtpCatcher()
  let server: RunningServer | undefined
  try {
    server = await startServer(
      serverEnv({ port, pgliteDir: path.join(dataDir, 'pglite'), smtpUrl: catcher.url }),
      port,
    )
    // Printed at start-up while no admin exists: "Open this one-time link to create the first admin".
    const link = /(https?:\/\/\S+\/verification\?\S+)/.exec(server.output())?.[1]
    if (!link) throw new Error(`The fresh server printed no setup link:\n${server.output()}`)
    const running = server
    return {
      baseURL: FRESH_URL,
      setupLink: link,
      catcher,
      waitForMail: (predicate, timeoutMs = 30_000) => catcher.waitFor(predicate, timeoutMs),
      stop: async () => {
        await running.stop()
        await catcher.close()
        fs.rmSync(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await server?.stop()
    await catcher.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
}
