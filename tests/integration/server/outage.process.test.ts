import crypto from 'node:crypto'
import net from 'node:net'
import pg from 'pg'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { UNAVAILABLE_CONTENT } from '#app/components/error-boundary'
import { OUTAGE_RETRY_AFTER_SECONDS } from '#app/server/outage'
import { cookiesFrom, location, send } from '#tests/support/app'
import { useServerProcesses, waitUntilReady, within } from '#tests/support/server-process'
import { withDatabase } from '#tests/support/global-setup'
import { freePort, textOf } from '#tests/integration/auth/helpers'

/**
 * The database goes away under a running server (issue 7, item 9), for real: `node server.mjs` on
 * its own Postgres database, reached through a TCP relay that the test cuts (every connection
 * dropped, new ones refused) and restores. Pages answer 503 with Retry-After and the outage page;
 * the server's log has one line when the outage starts and one when it ends, per outage.
 */
const target = inject('testDatabase')
const postgres = target.kind === 'postgres' ? target : undefined
const { start } = useServerProcesses()
let dropDatabase: (() => Promise<void>) | undefined

afterAll(async () => {
  await dropDatabase?.()
})

/** A TCP relay to Postgres that can be cut (like a database host going down) and restored. */
function relay(upstream: URL, port: number) {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const db = net.connect(Number(upstream.port || 5432), upstream.hostname)
    for (const socket of [client, db]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {
        client.destroy()
        db.destroy()
      })
    }
    client.pipe(db).pipe(client)
  })
  return {
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    down: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}

type LogLine = { level: string; msg: string; status?: number; downSeconds?: number }

function logLines(output: { stdout: string; stderr: string }): LogLine[] {
  return `${output.stdout}\n${output.stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
}

const DOWN = 'database unavailable: answering 503 until it is back'
const UP = 'database available again'

describe.skipIf(!postgres)('a database outage under a running server', () => {
  test('503 + Retry-After + the page for signed-in and public pages; logged once per outage, and the recovery', async () => {
    const pgUrl = new URL(postgres!.url)
    const name = `panorama_t_${process.pid}_outage_${crypto.randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: postgres!.url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgres!.template}`)
    await admin.end()
    dropDatabase = async () => {
      const a = new pg.Client({ connectionString: postgres!.url })
      await a.connect()
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await a.end()
    }

    const relayPort = await freePort()
    const db = relay(pgUrl, relayPort)
    await db.up()
    const relayed = new URL(withDatabase(postgres!.url, name))
    relayed.hostname = '127.0.0.1'
    relayed.port = String(relayPort)

    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const password = 'outage admin passphrase'
    const server = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATABASE_URL: relayed.toString(),
      SESSION_SECRET: crypto.randomBytes(32).toString('base64'),
      ADMIN_EMAIL: 'ops@example.test',
      ADMIN_PASSWORD: password,
      LOG_LEVEL: 'info',
    })
    const target = { url }
    try {
      expect(await waitUntilReady(url, server), `not ready:\n${server.output.stderr}`).toBe(true)
      const signIn = await send(target, '/sign-in', {
        form: { email: 'ops@example.test', password, redirectTo: '' },
      })
      expect(location(signIn)).toBe('/admin')
      const cookie = cookiesFrom(signIn)
      expect((await send(target, '/admin', { cookie })).status).toBe(200)

      const expectOutagePage = async (response: Response) => {
        expect(response.status).toBe(503)
        expect(response.headers.get('Retry-After')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS))
        const text = textOf(await response.text())
        expect(text).toContain(UNAVAILABLE_CONTENT.title)
        expect(text).toContain(UNAVAILABLE_CONTENT.description)
      }
      const outage = async () => {
        await db.down()
        await expectOutagePage(await send(target, '/admin', { cookie }))
        await expectOutagePage(await send(target, '/', { headers: { Accept: 'text/html' } }))
        for (let i = 0; i < 4; i++) await expectOutagePage(await send(target, '/admin', { cookie }))
        await expectOutagePage(await send(target, '/sign-in'))
        await db.up()
        await expect
          .poll(async () => (await send(target, '/admin', { cookie })).status, {
            timeout: 20_000,
            interval: 250,
          })
          .toBe(200)
      }

      await outage()
      await expect.poll(() => logLines(server.output).filter((l) => l.msg === UP).length).toBe(1)
      let lines = logLines(server.output)
      expect(lines.filter((l) => l.msg === DOWN)).toHaveLength(1)
      // Nothing else at error level: not per request, not per pooled connection.
      expect(lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([DOWN])
      expect(lines.filter((l) => l.msg === 'request' && l.status === 503).length).toBeGreaterThanOrEqual(7)
      expect(typeof lines.find((l) => l.msg === UP)!.downSeconds).toBe('number')

      await outage()
      await expect.poll(() => logLines(server.output).filter((l) => l.msg === UP).length).toBe(2)
      lines = logLines(server.output)
      expect(lines.filter((l) => l.msg === DOWN)).toHaveLength(2)
      expect(lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([DOWN, DOWN])
    } finally {
      server.child.kill('SIGTERM')
      await within(server.exited, 15_000, 'exit after SIGTERM')
      await db.down()
    }
  }, 150_000)
})
