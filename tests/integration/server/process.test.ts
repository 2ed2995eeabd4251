import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { cookiesFrom, location, send } from '#tests/support/app'
import { useServerProcesses, within } from '#tests/support/server-process'
import { freePort } from '#tests/integration/auth/helpers'

/**
 * The real entry point (`node server.mjs`, what `npm start` runs after its build check) as a child
 * process: a bad configuration stops it with every problem listed, and SIGTERM stops it cleanly.
 * It serves the production build, so `npm run build` must have run.
 */
const { start, folders } = useServerProcesses()

describe('a bad configuration', () => {
  test('stops the server at start-up with a non-zero exit and every problem listed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-badenv-'))
    folders.push(dir)
    const { output, exited } = start({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      SMTP_URL: 'http://x',
      PASSWORD_MIN_LENGTH: '4',
      PGLITE_DIR: path.join(dir, 'pglite'),
    })
    const { code } = await within(exited, 60_000, 'exit on a bad configuration')
    expect(code).not.toBe(0)
    expect(output.stderr).toContain('Invalid configuration')
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'PASSWORD_MIN_LENGTH']) {
      expect(output.stderr, name).toMatch(new RegExp(`^\\s+- ${name} `, 'm'))
    }
    // It stopped before opening anything.
    expect(fs.existsSync(path.join(dir, 'pglite'))).toBe(false)
  }, 90_000)
})

describe('graceful shutdown', () => {
  test('SIGTERM: exits 0 within 15 s, releases the PGlite lock; logs are JSON lines without secrets', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-shutdown-'))
    folders.push(dir)
    const port = await freePort()
    const pgliteDir = path.join(dir, 'pglite')
    const password = 'graceful-admin-passphrase'
    const { child, output, exited } = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      PGLITE_DIR: pgliteDir,
      LOG_LEVEL: 'info',
      // The first admin from the environment (no setup banner on stdout; see setup-link.test.ts).
      ADMIN_EMAIL: 'ops@example.test',
      ADMIN_PASSWORD: password,
    })
    const target = { url: `http://127.0.0.1:${port}` }

    // Start-up opens PGlite and runs every migration: give a busy 2-core machine time.
    const deadline = Date.now() + 90_000
    let ready = false
    while (!ready && Date.now() < deadline && child.exitCode === null) {
      ready = await fetch(`${target.url}/readyz`)
        .then((r) => r.status === 200)
        .catch(() => false)
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(ready, `not ready; stderr:\n${output.stderr}`).toBe(true)

    const lockFile = `${pgliteDir}.lock`
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(child.pid))

    // Real traffic worth logging: a sign-in (cookie, password), a signed-in page, a code in a URL.
    const signIn = await send(target, '/sign-in', {
      form: { email: 'ops@example.test', password, redirectTo: '' },
    })
    expect(signIn.status).toBe(302)
    expect(location(signIn)).toBe('/admin')
    const cookie = cookiesFrom(signIn)
    const token = decodeURIComponent(cookie.split('=')[1]!)
    expect((await send(target, '/admin', { cookie })).status).toBe(200)
    const code = 'Zq7secretCodeThatMustNotBeLogged'
    await (await send(target, `/verification?mode=resetPassword&code=${code}`)).arrayBuffer()

    const started = Date.now()
    child.kill('SIGTERM')
    const { code: exitCode, signal } = await within(exited, 15_000, 'exit after SIGTERM')
    expect({ exitCode, signal }).toEqual({ exitCode: 0, signal: null })
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(fs.existsSync(lockFile)).toBe(false)

    // Logs: one JSON object per line, on both streams.
    const lines = `${output.stdout}\n${output.stderr}`.split('\n').filter((l) => l.trim())
    expect(lines.length).toBeGreaterThan(0)
    const entries = lines.map((line) => {
      try {
        return JSON.parse(line) as { level: string; msg: string; signal?: string; path?: string }
      } catch {
        throw new Error(`not a JSON log line: ${line}`)
      }
    })
    for (const entry of entries) expect(typeof entry.msg).toBe('string')
    expect(entries.some((e) => e.msg === 'listening')).toBe(true)
    expect(entries.some((e) => e.msg === 'shutting down' && e.signal === 'SIGTERM')).toBe(true)
    expect(entries.some((e) => e.msg === 'stopped')).toBe(true)
    expect(entries.some((e) => e.msg === 'request' && e.path === '/admin')).toBe(true)

    const all = output.stdout + output.stderr
    expect(all).not.toContain('__session=')
    expect(all).not.toContain(token)
    expect(all).not.toContain(token.split('.')[1]!)
    expect(all).not.toContain(password)
    expect(all).not.toContain(code)
  }, 150_000)
})

describe('a port already in use', () => {
  test('stops start-up with one line naming the port and how to choose another, exit 1, no stack', async () => {
    const net = await import('node:net')
    const holder = net.createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const port = (holder.address() as { port: number }).port
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-port-'))
    folders.push(dir)
    const pgliteDir = path.join(dir, 'pglite')
    try {
      const { output, exited } = start({
        PORT: String(port),
        HOST: '127.0.0.1',
        PGLITE_DIR: pgliteDir,
        LOG_LEVEL: 'info',
      })
      const { code, signal } = await within(exited, 90_000, 'exit on a port in use')
      expect({ code, signal }).toEqual({ code: 1, signal: null })

      // stderr holds the one line for the operator (JSON log lines aside), and no stack trace.
      const plain = output.stderr.split('\n').filter((line) => line.trim() && !line.startsWith('{'))
      expect(plain).toEqual([
        `Port ${port} is already in use on 127.0.0.1: stop the program using it, or start Panorama on another port, e.g. PORT=3000 npm start`,
      ])
      expect(output.stderr + output.stdout).not.toMatch(/^\s+at /m)
      // What start-up had opened was closed: the embedded database's lock is released.
      expect(fs.existsSync(`${pgliteDir}.lock`)).toBe(false)
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  }, 120_000)
})
