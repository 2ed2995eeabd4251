import crypto from 'node:crypto'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { closeDatabase, getDb, openDatabase, queryRows, runMigrations } from '#db/client'
import { createBrand, createCompany, createUser } from '#db/factories'
import { sessionCookieFor } from '#tests/support/app'
import { useTestDatabase } from '#tests/support/database'
import { openRequest } from '#tests/support/raw-http'
import {
  untilIdle,
  useServerProcesses,
  waitUntilReady,
  within,
  type ServerProcess,
} from '#tests/support/server-process'
import { freePort } from '#tests/integration/auth/helpers'

/**
 * Cut-off uploads against the real entry point (issue 15, A1): `node server.mjs` on the test's
 * database (Postgres, or an embedded PGlite folder the server owns), sent every upload the app has
 * as a browser would, but stopping short — a body with no closing boundary, and a connection cut
 * half-way through the file. The CSV import's cut-off file ended the process ("Unexpected end of
 * form", "aborted … ECONNRESET"); on PGlite that is the whole portal down. Each must answer 400 (or
 * nothing, when the client is gone), keep nothing, and leave the server answering /healthz and
 * pages, with no uncaught error in its log.
 */
const target = inject('testDatabase')
useTestDatabase()
const { start, tempDir } = useServerProcesses()

const SECRET = 'cut-off-uploads-test-secret-0123456789abcdef'
let server: ServerProcess | undefined
let origin = { host: '127.0.0.1', port: 0 }
let pgliteDir = ''
const cookies = { admin: '', employee: '' }
let brandId = ''

/** 8,000 employees (~330 kB): half of it is enough for the import to have staged rows. */
const CSV = Buffer.from(
  `name,email,company\n${Array.from({ length: 8_000 }, (_, i) => `Person ${i},cut${i}@example.test,Acme Ltd\n`).join('')}`,
)
/** A PNG signature and header, then 1 MB: a photo or logo on its way. */
const IMAGE = Buffer.concat([
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwC', 'base64'),
  crypto.randomBytes(1024 * 1024),
])
const QUESTIONNAIRE = Buffer.from(
  JSON.stringify({
    format: 'panorama-questionnaire',
    title: 'Cut off',
    sections: Array.from({ length: 40 }, (_, s) => ({
      title: `Section ${s}`,
      questions: Array.from({ length: 20 }, (_, q) => ({ kind: 'text', text: `I answer ${s}.${q}` })),
    })),
  }),
)

type Upload = {
  name: string
  role: keyof typeof cookies
  path: () => string
  fields: Record<string, string>
  file: { field: string; fileName: string; type: string; content: Buffer }
}
const UPLOADS: Upload[] = [
  {
    name: 'the CSV import of employees',
    role: 'admin',
    path: () => '/admin/employee-management',
    fields: { intent: 'upload' },
    file: { field: 'file', fileName: 'people.csv', type: 'text/csv', content: CSV },
  },
  {
    name: "a brand's logo",
    role: 'admin',
    path: () => `/admin/brand-management/${brandId}`,
    fields: { intent: 'update', name: 'Cut Brand', primaryColor: '#123456', accentColor: '#654321' },
    file: { field: 'logo', fileName: 'logo.png', type: 'image/png', content: IMAGE },
  },
  {
    name: 'a questionnaire imported as JSON',
    role: 'admin',
    path: () => '/admin/questionnaire-management',
    fields: { intent: 'import' },
    file: { field: 'file', fileName: 'questionnaire.json', type: 'application/json', content: QUESTIONNAIRE },
  },
  {
    name: "an employee's profile photo",
    role: 'employee',
    path: () => '/user/edit-profile',
    fields: { intent: 'photo' },
    file: { field: 'photo', fileName: 'me.png', type: 'image/png', content: IMAGE },
  },
]

/** The upload as a browser sends it, up to (not including) the closing boundary; and that boundary. */
function multipart(upload: Upload) {
  const boundary = `----panorama${crypto.randomBytes(8).toString('hex')}`
  const parts: Buffer[] = Object.entries(upload.fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  )
  const { field, fileName, type, content } = upload.file
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from('\r\n'),
  )
  return { boundary, open: Buffer.concat(parts), closing: Buffer.from(`--${boundary}--\r\n`) }
}

function head(upload: Upload, boundary: string, contentLength: number) {
  return (
    `POST ${upload.path()} HTTP/1.1\r\nHost: ${origin.host}:${origin.port}\r\nConnection: close\r\n` +
    `Cookie: ${cookies[upload.role]}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
    `Content-Length: ${contentLength}\r\n\r\n`
  )
}

/** What a cut-off upload could have left: staged import rows, a stored file, a questionnaire. */
async function leftovers() {
  const [row] = await queryRows<{ imports: number; staged: number; files: number; questionnaires: number }>(
    getDb(),
    sql`SELECT (SELECT count(*) FROM employee_imports)::int AS imports,
        (SELECT count(*) FROM employee_import_rows)::int AS staged,
        (SELECT count(*) FROM files)::int AS files,
        (SELECT count(*) FROM questionnaires WHERE title = 'Cut off')::int AS questionnaires`,
  )
  return row!
}

async function stillServing(upload: Upload) {
  const base = `http://${origin.host}:${origin.port}`
  expect((await fetch(`${base}/healthz`)).status, 'healthz').toBe(200)
  const page = await fetch(`${base}${upload.path()}`, { headers: { Cookie: cookies[upload.role] } })
  expect(page.status, `GET ${upload.path()}`).toBe(200)
  await page.arrayBuffer()
}

describe(`cut-off uploads to the running server (${target.kind})`, () => {
  beforeAll(async () => {
    if (target.kind === 'pglite') {
      // The server owns its data folder (one process per folder): the test prepares it first.
      await closeDatabase()
      pgliteDir = path.join(tempDir('panorama-cut-'), 'pglite')
      await openDatabase({ pgliteDir })
      await runMigrations()
    }
    const company = await createCompany({ name: 'Acme Ltd' })
    brandId = (await createBrand()).id
    cookies.admin = await sessionCookieFor((await createUser({ role: 'admin' })).id)
    cookies.employee = await sessionCookieFor(
      (await createUser({ role: 'employee', companyId: company.id })).id,
    )
    if (target.kind === 'pglite') await closeDatabase()

    origin = { host: '127.0.0.1', port: await freePort() }
    server = start({
      ...(target.kind === 'postgres'
        ? { DATABASE_URL: process.env.DATABASE_URL! }
        : { PGLITE_DIR: pgliteDir }),
      SESSION_SECRET: SECRET,
      PORT: String(origin.port),
      HOST: origin.host,
      WORKER: 'false',
      LOG_LEVEL: 'warn',
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
    })
    expect(await waitUntilReady(`http://${origin.host}:${origin.port}`, server), server.output.stderr).toBe(
      true,
    )
  }, 180_000)

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill('SIGTERM')
      await within(server.exited, 30_000, 'the server stopping')
    }
  })

  describe.each(UPLOADS)('$name', (upload) => {
    test('a body without its closing boundary: 400, nothing kept, the server still serving', async () => {
      const { boundary, open } = multipart(upload)
      const request = openRequest(origin, head(upload, boundary, open.length), open)
      const { status, text } = await within(request.answer, 60_000, 'the answer')
      expect(status, text.slice(0, 500)).toBe(400)
      if (upload.path() === '/admin/employee-management')
        expect(text).toContain('The file did not arrive whole (the upload was interrupted or cut short).')
      if (target.kind === 'postgres') expect(await leftovers()).toMatchObject({ imports: 0, staged: 0 })
      await stillServing(upload)
    }, 90_000)

    test('the connection cut half-way through the file: nothing kept, the server still serving', async () => {
      const { boundary, open, closing } = multipart(upload)
      const whole = open.length + closing.length
      const request = openRequest(origin, head(upload, boundary, whole), open.subarray(0, open.length >> 1))
      await request.written
      // The server has read what came and waits for the rest (the import has staged rows by then).
      if (target.kind === 'postgres' && upload.file.content === CSV) {
        const deadline = Date.now() + 30_000
        while ((await leftovers()).staged === 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50))
        expect((await leftovers()).staged, 'rows staged before the cut').toBeGreaterThan(0)
      }
      expect(await untilIdle(server!.child.pid!, 500, 30_000), 'the server waiting for the rest').toBe(true)
      request.socket.destroy()
      await request.answer
      // The server notices at once; what it staged goes (on PGlite: checked once it has stopped).
      if (target.kind === 'postgres') {
        const deadline = Date.now() + 10_000
        while ((await leftovers()).imports > 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50))
        expect(await leftovers()).toMatchObject({ imports: 0, staged: 0 })
      }
      await stillServing(upload)
    }, 90_000)
  })

  test('afterwards: the server ran on, no error escaped a request, and nothing of the uploads was kept', async () => {
    expect(server!.child.exitCode).toBe(null)
    expect(server!.output.stderr).not.toMatch(/uncaught exception|unhandled rejection/)
    if (target.kind === 'pglite') {
      server!.child.kill('SIGTERM')
      expect(await within(server!.exited, 30_000, 'the server stopping')).toEqual({ code: 0, signal: null })
      await openDatabase({ pgliteDir })
    }
    expect(await leftovers()).toEqual({ imports: 0, staged: 0, files: 0, questionnaires: 0 })
  }, 60_000)
})
