import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { createBrand, createCompany, createScheme, createUser, enrolEmployee } from '#db/factories'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { useTestDatabase } from '#tests/support/database'
import { freePort, textOf } from '#tests/integration/auth/helpers'

/**
 * Contact links (issue 7, item 18): a deployment that has not configured them shows none — no
 * example.com placeholder goes live — and says so at start-up; a brand's own links still show on its
 * programme's pages.
 */

// This file is a deployment without contact links (tests/support/setup-env.ts configures them).
for (const name of ['CONTACT_CALLBACK_URL', 'CONTACT_EMAIL', 'CONTACT_PROFILE_URL']) delete process.env[name]

useTestDatabase()
const server = useTestServer()
const ROOT = path.resolve(import.meta.dirname, '../../..')
const children = new Set<ChildProcess>()
const folders: string[] = []

afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true })
})

const footerOf = (html: string) => /<footer[\s\S]*?<\/footer>/.exec(html)?.[0] ?? ''

describe('without configured contact links', () => {
  test('the landing page and the footer show none, and no placeholder address', async () => {
    const html = await (await send(server, '/')).text()
    expect(html).not.toContain('example.com')
    expect(textOf(html)).not.toContain('Request a callback')
    expect(textOf(html)).not.toContain('Talk to us')
    expect(html).not.toContain('mailto:')
    expect(footerOf(html)).not.toContain('aria-label="Contact"')
    // The rest of the page is all there.
    expect(textOf(html)).toContain('See yourself the way your colleagues do.')
  })

  test('an employee page shows the brand’s own links only, and none when the brand has none', async () => {
    const linked = await createBrand({ name: 'Linked Brand', contactEmail: 'talk@linked.test' })
    const plain = await createBrand({ name: 'Plain Brand' })
    const check = async (brandId: string) => {
      const company = await createCompany({ brandId })
      const employee = await createUser({ role: 'employee', companyId: company.id })
      const scheme = await createScheme({ companyId: company.id })
      const self = (await enrolEmployee(scheme, employee.id))!
      const html = await (
        await send(server, `/assignment/${self.id}`, { cookie: await sessionCookieFor(employee.id) })
      ).text()
      expect(html).not.toContain('example.com')
      return footerOf(html)
    }
    const withLinks = await check(linked.id)
    expect(withLinks).toContain('href="mailto:talk@linked.test"')
    expect(textOf(withLinks)).not.toContain('Request a callback')
    const without = await check(plain.id)
    expect(without).not.toContain('mailto:')
    expect(without).not.toContain('aria-label="Contact"')
  })

  test('start-up logs a warning naming the variables to set', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-contact-'))
    folders.push(dir)
    const port = await freePort()
    const child = spawn(process.execPath, ['server.mjs'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PGLITE_DIR: path.join(dir, 'pglite'),
        LOG_LEVEL: 'info',
        WORKER: 'false',
        ADMIN_EMAIL: 'ops@example.test',
        ADMIN_PASSWORD: 'contact-links-admin-passphrase',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.add(child)
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    const deadline = Date.now() + 90_000
    while (!output.includes('"msg":"listening"') && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 100))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    const warning = output
      .split('\n')
      .filter((l) => l.trim().startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; msg: string; missing?: string[] })
      .find((e) => e.msg.startsWith('contact links not configured'))
    expect(warning, output).toMatchObject({
      level: 'warn',
      missing: ['CONTACT_CALLBACK_URL', 'CONTACT_EMAIL', 'CONTACT_PROFILE_URL'],
    })
  }, 150_000)
})
