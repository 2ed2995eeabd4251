// `npm run bench`: how fast each page is, next to a page that does nothing, on a given database.
//
// It starts the production build itself (node server.mjs, NODE_ENV=production, no worker), signs in
// through the real sign-in form once per role, finds the ids it needs with SQL, and then measures
// every case against the reference page /bench/ping of the same server, interleaved (case,
// reference, case, reference … for several rounds) with autocannon. It prints requests per second,
// latency p50/p99, the ratio to the reference (median, min–max over the rounds), statements per
// request and server CPU per request, with the budgets next to them; `--json` prints the same as
// JSON. `--compare a,b` runs both databases one after the other and prints b ÷ a per page.
//
//   npm run bench                                  DATABASE_URL, else a fresh embedded demo database
//   npm run bench -- --db big                      one database: a URL, a name, small or big
//   npm run bench -- --compare small,big           small = bench_small, big = bench_big (or URLs)
//   npm run bench -- --duration 5 --rounds 5 --connections 10 --cases report,autosave --json
import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// The ports the bench server may take; BENCH_PORTS=3430-3439 moves them (several people or agents
// benchmarking on one machine each keep to their own range).
const PORTS = portRange(process.env.BENCH_PORTS ?? '3400-3419')
const PASSWORD = process.env.SEED_PASSWORD || 'panorama-demo'
const REFERENCE = '/bench/ping'

// ---------------------------------------------------------------------------------------------
// Options

const USAGE = `npm run bench [-- options]
  (no option)            DATABASE_URL if set, else a fresh embedded PGlite with the demo seed
  --db <db>              the database to measure: a postgres:// URL, a database name on
                         DATABASE_URL's server, "small" (bench_small), "big" (bench_big) or "embedded"
  --compare <a>,<b>      measure both (one after the other) and print b ÷ a per page
  --duration <s>         about this many seconds per measurement (default 3)
  --rounds <n>           case/reference rounds per case (default 3)
  --connections <n>      concurrent connections (default 10)
  --cases <a,b,…>        only the cases whose name contains one of these words
  --json                 print JSON on stdout instead of the tables (progress goes to stderr)
  --save <file>          also write the JSON to a file (e.g. to keep a run's figures beside the tables)
small and big may be pointed elsewhere with BENCH_SMALL_URL and BENCH_BIG_URL; the server takes
a free port in 3400-3419, or in BENCH_PORTS (e.g. BENCH_PORTS=3430-3439). Requests ask for
compression as a browser does (Accept-Encoding: gzip, deflate, br, zstd).`

function parseOptions(argv) {
  const options = { duration: 3, rounds: 3, connections: 10, json: false, save: null, cases: null, dbs: null }
  const need = (i) => {
    if (argv[i + 1] === undefined) fail(`${argv[i]} needs a value.\n\n${USAGE}`)
    return argv[i + 1]
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--json') options.json = true
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE)
      process.exit(0)
    } else if (arg === '--duration') options.duration = positive(need(i++), arg)
    else if (arg === '--rounds') options.rounds = Math.round(positive(need(i++), arg))
    else if (arg === '--connections') options.connections = Math.round(positive(need(i++), arg))
    else if (arg === '--cases') options.cases = need(i++).split(',').filter(Boolean)
    else if (arg === '--db') options.dbs = [need(i++)]
    else if (arg === '--save') options.save = need(i++)
    else if (arg === '--compare') {
      const pair = need(i++).split(',').filter(Boolean)
      if (pair.length !== 2) fail(`--compare takes two databases: --compare small,big\n\n${USAGE}`)
      options.dbs = pair
    } else fail(`Unknown option ${arg}\n\n${USAGE}`)
  }
  return options
}

function portRange(raw) {
  const m = /^(\d+)-(\d+)$/.exec(raw.trim())
  const range = m ? [Number(m[1]), Number(m[2])] : []
  if (!m || range[0] < 1 || range[1] > 65535 || range[0] > range[1])
    fail(`BENCH_PORTS takes a range such as 3400-3419, not "${raw}".`)
  return range
}

function positive(raw, name) {
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) fail(`${name} takes a positive number, not "${raw}".`)
  return n
}

export function fail(message) {
  console.error(message)
  process.exit(2)
}

const log = (...args) => console.error(...args)

/** A database spec → { label, url } (url null = a fresh embedded PGlite with the demo seed). */
function resolveDatabase(spec) {
  if (spec === undefined) {
    return process.env.DATABASE_URL
      ? { label: databaseName(process.env.DATABASE_URL), url: process.env.DATABASE_URL }
      : { label: 'embedded (demo seed)', url: null }
  }
  if (spec === 'embedded' || spec === 'pglite') return { label: 'embedded (demo seed)', url: null }
  if (/^postgres(ql)?:\/\//.test(spec)) return { label: databaseName(spec), url: spec }
  const fromEnv = { small: process.env.BENCH_SMALL_URL, big: process.env.BENCH_BIG_URL }[spec]
  if (fromEnv) return { label: spec, url: fromEnv }
  const name = { small: 'bench_small', big: 'bench_big' }[spec] ?? spec
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    fail(`"${spec}" is neither a postgres:// URL nor a database name.`)
  if (!process.env.DATABASE_URL) {
    fail(
      `"${spec}" names the database ${name}: set DATABASE_URL to any database on that server ` +
        '(e.g. postgres://postgres@127.0.0.1:5432/postgres), or give full postgres:// URLs.',
    )
  }
  const url = new URL(process.env.DATABASE_URL)
  url.pathname = `/${name}`
  return { label: spec, url: url.toString() }
}

function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || url
}

// ---------------------------------------------------------------------------------------------
// The database: which seed it holds, and the ids the cases need

const PROFILES = [
  {
    seed: 'scale seed',
    admin: 'scale-admin@panorama.test',
    employee: 'scale-employee@panorama.test',
    answerer: 'scale-newcomer@panorama.test',
  },
  {
    seed: 'demo seed',
    admin: 'admin@panorama.test',
    employee: 'employee@panorama.test',
    answerer: 'new.employee@panorama.test',
  },
]

/** Runs fn with a `query(text, params) → rows` on the database (node-postgres, or PGlite in-process). */
async function withDatabase(target, fn) {
  if (target.url) {
    const client = new pg.Client({ connectionString: target.url })
    try {
      await client.connect()
    } catch (error) {
      fail(`Cannot open ${target.label} (${redact(target.url)}): ${error.message}`)
    }
    try {
      return await fn(async (text, params) => (await client.query(text, params)).rows)
    } finally {
      await client.end()
    }
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const db = new PGlite(target.pgliteDir, { extensions: { pg_trgm } })
  await db.waitReady
  try {
    return await fn(async (text, params) => (await db.query(text, params)).rows)
  } finally {
    await db.close()
  }
}

export async function discover(target) {
  return withDatabase(target, async (query) => {
    let profile
    for (const p of PROFILES) {
      const rows = await query(`SELECT 1 FROM users WHERE email = $1 AND role = 'admin'`, [p.admin]).catch(
        () => [],
      )
      if (rows.length) {
        profile = p
        break
      }
    }
    if (!profile) {
      fail(
        `${target.label} holds neither the demo seed nor the scale seed: run \`npm run seed\` or ` +
          '`npm run seed:scale` on it first.',
      )
    }
    const [report] = await query(
      `SELECT r.id FROM responses r
       JOIN assignments a ON a.id = r.assignment_id
       JOIN users u ON u.id = a.subject_id
       WHERE u.email = $1 AND a.relationship = 'self' AND r.submitted_at IS NOT NULL
       ORDER BY r.submitted_at LIMIT 1`,
      [profile.employee],
    )
    const [answering] = await query(
      `SELECT a.id, a.questionnaire_id FROM assignments a
       JOIN users u ON u.id = a.respondent_id
       JOIN schemes s ON s.id = a.scheme_id
       WHERE u.email = $1 AND a.relationship = 'self' AND a.status IN ('pending', 'in_progress')
         AND s.status = 'open' AND s.opens_at <= now() AND s.closes_at > now()
       ORDER BY a.created_at LIMIT 1`,
      [profile.answerer],
    )
    const [company] = await query(`SELECT id FROM companies ORDER BY name, id LIMIT 1`)
    // The employee list is measured searching part of this employee's name, filtered to their
    // company and state; their own page is the detail case.
    const [person] = await query(
      `SELECT u.id, u.display_name, u.company_id, c.name AS company_name FROM users u
       JOIN companies c ON c.id = u.company_id WHERE u.email = $1`,
      [profile.employee],
    )
    // The scheme page with its progress table: the profile employee's open scheme (the demo's one
    // scheme; on the scale seed a scheme of a couple of hundred people).
    const [scheme] = await query(
      `SELECT s.id FROM schemes s
       JOIN scheme_members m ON m.scheme_id = s.id
       JOIN users u ON u.id = m.employee_id
       WHERE u.email = $1 AND s.status = 'open'
       ORDER BY s.closes_at DESC, s.id LIMIT 1`,
      [profile.employee],
    )
    const [brand] = await query(`SELECT id FROM brands ORDER BY name, id LIMIT 1`)
    const [adminRow] = await query(`SELECT id FROM users WHERE email = $1`, [profile.admin])
    // The newest outbox message (the demo seed may have none yet; its case is then left out).
    const [message] = await query(`SELECT id FROM email_outbox ORDER BY created_at DESC, id DESC LIMIT 1`)
    if (!report || !answering || !company || !brand || !person || !scheme) {
      fail(
        `${target.label}: the ${profile.seed}'s accounts are there but not their data ` +
          `(report ${Boolean(report)}, open assignment ${Boolean(answering)}, company ${Boolean(company)}, ` +
          `brand ${Boolean(brand)}, scheme ${Boolean(scheme)}): run the seed again.`,
      )
    }
    // The autosave posts the first section as the page's form does: every question of it.
    const questions = await query(
      `SELECT id, section, kind, options FROM questions WHERE questionnaire_id = $1 ORDER BY position`,
      [answering.questionnaire_id],
    )
    const first = questions.filter((q) => q.section === questions[0].section)
    const form = new URLSearchParams({ intent: 'autosave', section: '1' })
    for (const q of first) {
      const labels = q.options?.labels ?? []
      if (q.kind === 'scale')
        form.append(`q-${q.id}`, String(Math.min((q.options?.min ?? 1) + 2, q.options?.max ?? 5)))
      else if (q.kind === 'single' || q.kind === 'multi') form.append(`q-${q.id}`, labels[0] ?? '')
      else form.append(`q-${q.id}`, 'Typed while the bench ran.')
    }
    const [counts] = await query(
      `SELECT (SELECT count(*) FROM users WHERE role = 'employee')::int AS employees,
              (SELECT count(*) FROM assignments)::int AS assignments,
              (SELECT count(*) FROM answers)::int AS answers`,
    )
    return {
      profile,
      ids: {
        rid: report.id,
        assignment: answering.id,
        company: company.id,
        brand: brand.id,
        admin: adminRow?.id,
        scheme: scheme.id,
        // The questionnaire the answering assignment uses: the builder page of a real questionnaire.
        questionnaire: answering.questionnaire_id,
        message: message?.id,
      },
      employee: {
        id: person.id,
        companyId: person.company_id,
        companyName: person.company_name,
        // Three letters or more, so the trigram index serves it (ADR 011).
        search: (person.display_name.split(/\s+/).pop() ?? person.display_name).slice(0, 4).toLowerCase(),
      },
      autosaveBody: form.toString(),
      counts,
    }
  })
}

function cases(found) {
  const { rid, assignment, company, brand, admin, scheme, questionnaire, message } = found.ids
  return [
    { name: 'GET /sign-in', path: '/sign-in', role: null, budget: 0.8 },
    { name: 'GET /user', path: '/user', role: 'employee', budget: 0.6 },
    {
      name: 'GET /user/response-:rid (report)',
      path: `/user/response-${rid}`,
      role: 'employee',
      budget: 0.5,
    },
    {
      name: 'GET /assignment/:id',
      path: `/assignment/${assignment}?section=1`,
      role: 'answerer',
      budget: 0.6,
    },
    {
      name: 'POST /assignment/:id.data (autosave)',
      path: `/assignment/${assignment}.data`,
      method: 'POST',
      body: found.autosaveBody,
      role: 'answerer',
      budget: 0.6,
    },
    { name: 'GET /admin', path: '/admin', role: 'admin' },
    { name: 'GET /admin/company-management', path: '/admin/company-management', role: 'admin' },
    {
      name: 'GET /admin/company-management?edit=:id',
      path: `/admin/company-management?edit=${company}`,
      role: 'admin',
    },
    {
      name: 'GET /admin/company-management?delete=:id',
      path: `/admin/company-management?delete=${company}`,
      role: 'admin',
    },
    { name: 'GET /admin/brand-management', path: '/admin/brand-management', role: 'admin' },
    { name: 'GET /admin/brand-management/:id', path: `/admin/brand-management/${brand}`, role: 'admin' },
    { name: 'GET /admin/email-management', path: '/admin/email-management', role: 'admin' },
    {
      name: 'GET /admin/email-management?brand=:id',
      path: `/admin/email-management?brand=${brand}`,
      role: 'admin',
    },
    {
      name: 'GET /admin/email-management?tab=outbox',
      path: '/admin/email-management?tab=outbox',
      role: 'admin',
    },
    {
      name: 'GET /admin/email-management?tab=outbox&state=failed',
      path: '/admin/email-management?tab=outbox&state=failed',
      role: 'admin',
    },
    {
      name: 'GET /admin/email-management?tab=outbox&to=prefix*',
      path: '/admin/email-management?tab=outbox&to=emp*',
      role: 'admin',
    },
    {
      name: 'GET /admin/email-management/:key.:brandId',
      path: `/admin/email-management/colleague_invite.${brand}`,
      role: 'admin',
    },
    ...(message
      ? [
          {
            name: 'GET /admin/email-management/outbox/:id',
            path: `/admin/email-management/outbox/${message}`,
            role: 'admin',
          },
        ]
      : []),
    { name: 'GET /admin/admin-management', path: '/admin/admin-management', role: 'admin' },
    { name: 'GET /admin/admin-management?q=', path: '/admin/admin-management?q=admin', role: 'admin' },
    ...(admin
      ? [
          {
            name: 'GET /admin/admin-management/:uid',
            path: `/admin/admin-management/${admin}`,
            role: 'admin',
          },
        ]
      : []),
    { name: 'GET /admin/profile', path: '/admin/profile', role: 'admin' },
    {
      name: 'GET /admin/employee-management?q=…&company=…&state=active',
      path: `/admin/employee-management?${new URLSearchParams({
        q: found.employee.search,
        company: found.employee.companyId,
        state: 'active',
      })}`,
      role: 'admin',
    },
    {
      name: 'GET /admin/employee-management/:uid',
      path: `/admin/employee-management/${found.employee.id}`,
      role: 'admin',
    },
    { name: 'GET /admin/scheme-management', path: '/admin/scheme-management', role: 'admin' },
    {
      name: 'GET /admin/scheme-management?phase=open (filtered)',
      path: '/admin/scheme-management?phase=open&sort=name-asc',
      role: 'admin',
    },
    {
      name: 'GET /admin/scheme-management/:schemeId (progress table)',
      path: `/admin/scheme-management/${scheme}`,
      role: 'admin',
    },
    { name: 'GET /admin/questionnaire-management', path: '/admin/questionnaire-management', role: 'admin' },
    {
      name: 'GET /admin/questionnaire-management?status=published (filtered)',
      path: '/admin/questionnaire-management?status=published&sort=created-desc',
      role: 'admin',
    },
    {
      name: 'GET /admin/questionnaire-management/:qid (builder)',
      path: `/admin/questionnaire-management/${questionnaire}`,
      role: 'admin',
    },
    {
      name: 'GET /admin/questionnaire-management/:qid?preview=colleague',
      path: `/admin/questionnaire-management/${questionnaire}?preview=colleague`,
      role: 'admin',
    },
  ]
}

// ---------------------------------------------------------------------------------------------
// The CSV import of 10,000 employees: timed once, with the server's peak memory

const IMPORT_CASE = 'POST CSV import (10,000 rows)'
const IMPORT_ROWS = 10_000

/**
 * Uploads a 10,000-row CSV to the running server and imports it, timing both steps and reading the
 * server's peak RSS meanwhile (bench-probe.mjs samples it). The rows are new people of the
 * employee's company with addresses no seed uses; they are removed again afterwards (measure()
 * calls cleanImport once the server has stopped, so an embedded database is not opened twice).
 */
async function measureImport(server, cookies, found) {
  const run = crypto.randomBytes(4).toString('hex')
  const lines = ['name,email,company,phone']
  for (let i = 0; i < IMPORT_ROWS; i++)
    lines.push(
      `Bench Person ${i},bench-import-${run}-${i}@bench-import.test,"${found.employee.companyName.replaceAll('"', '""')}",` +
        `+44 20 7946 ${String(i % 10000).padStart(4, '0')}`,
    )
  const csv = Buffer.from(lines.join('\r\n'))
  const form = new FormData()
  form.append('intent', 'upload')
  form.append('file', new Blob([csv]), 'bench.csv')
  await server.memory('start')
  const started = performance.now()
  const uploaded = await fetch(`${server.url}/admin/employee-management`, {
    method: 'POST',
    body: form,
    headers: { cookie: cookies.admin },
    redirect: 'manual',
  })
  const to = uploaded.headers.get('location') ?? ''
  const importId = new URL(to, server.url).searchParams.get('import')
  if (uploaded.status !== 302 || !importId)
    fail(`The CSV upload answered ${uploaded.status}.\n${server.output()}`)
  const checked = performance.now()
  const imported = await fetch(`${server.url}/admin/employee-management?import=${importId}`, {
    method: 'POST',
    body: new URLSearchParams({ intent: 'import', importId, schemeId: '' }),
    headers: { cookie: cookies.admin, 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  })
  if (imported.status !== 302) fail(`The CSV import answered ${imported.status}.\n${server.output()}`)
  const done = performance.now()
  const memory = await server.memory('stop')
  return {
    name: IMPORT_CASE,
    rows: IMPORT_ROWS,
    fileBytes: csv.length,
    uploadAndCheckMs: Math.round(checked - started),
    importMs: Math.round(done - checked),
    totalMs: Math.round(done - started),
    serverRssBeforeMb: memory.baseline / 1024 / 1024,
    serverRssPeakMb: memory.peak / 1024 / 1024,
    run,
    importId,
  }
}

/** Removes what measureImport wrote: its people (nothing else refers to them), the import and its audit entries. */
async function cleanImport(target, result) {
  await withDatabase(target, async (query) => {
    await query(`DELETE FROM employee_imports WHERE id = $1`, [result.importId])
    await query(`DELETE FROM audit_log WHERE entity = 'employee_import' AND entity_id = $1`, [
      result.importId,
    ])
    await query(`DELETE FROM users WHERE email LIKE $1 AND role = 'employee'`, [
      `bench-import-${result.run}-%`,
    ])
  })
}

// ---------------------------------------------------------------------------------------------
// The server

export function ensureBuild() {
  const dir = path.join(ROOT, process.env.BUILD_DIR || 'build')
  if (fs.existsSync(path.join(dir, 'server', 'index.js'))) return
  log('No production build yet: npm run build …')
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] })
  if (result.status !== 0) fail('npm run build failed.')
}

async function freePort() {
  if (
    PORTS.length !== 2 ||
    !PORTS.every((p) => Number.isInteger(p) && p > 0 && p < 65536) ||
    PORTS[0] > PORTS[1]
  )
    fail(`BENCH_PORTS must be a range like 3420-3429, not "${process.env.BENCH_PORTS}".`)
  for (let port = PORTS[0]; port <= PORTS[1]; port++) {
    const free = await new Promise((resolve) => {
      const probe = net.createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  fail(`No free port between ${PORTS[0]} and ${PORTS[1]}.`)
}

/** A fresh embedded database with the demo seed, in a temporary folder. */
export function seedEmbedded() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panorama-bench-'))
  const pgliteDir = path.join(dir, 'pglite')
  log(`Seeding a fresh embedded database in ${pgliteDir} …`)
  const env = { ...process.env, PGLITE_DIR: pgliteDir }
  delete env.DATABASE_URL
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'db/seed.ts'],
    {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    },
  )
  if (result.status !== 0) fail(`The demo seed failed:\n${result.stdout}\n${result.stderr}`)
  return { dir, pgliteDir }
}

export async function startServer(target) {
  // target.port: a caller with its own port range (npm run lighthouse) picks the port itself.
  const port = target.port ?? (await freePort())
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    WORKER: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: crypto.randomBytes(36).toString('base64'),
    QUERY_COUNT: '1',
  }
  for (const name of [
    'SMTP_URL',
    'SENTRY_DSN',
    'TURNSTILE_SITE_KEY',
    'TURNSTILE_SECRET_KEY',
    'ADMIN_EMAIL',
    'ADMIN_PASSWORD',
  ])
    delete env[name]
  if (target.url) env.DATABASE_URL = target.url
  else {
    delete env.DATABASE_URL
    env.PGLITE_DIR = target.pgliteDir
  }
  const child = spawn(
    process.execPath,
    ['--import', path.join(ROOT, 'scripts/bench-probe.mjs'), path.join(ROOT, 'server.mjs')],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  )
  let output = ''
  const keep = (chunk) => {
    output = (output + chunk).slice(-8000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    const ready = await fetch(`${url}/readyz`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ready) break
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 200))])
    if (code !== undefined) fail(`The server stopped (exit ${code}) before it was ready:\n${output}`)
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      fail(`The server was not ready within 60 s:\n${output}`)
    }
  }
  const reference = await fetch(url + REFERENCE)
  if (reference.status !== 200) {
    child.kill('SIGTERM')
    fail(`${REFERENCE} answers ${reference.status}: the build predates it. Run npm run build and try again.`)
  }
  let pending
  let pendingMemory
  let stopping = false
  void exited.then((code) => {
    if (!stopping) fail(`The server stopped (exit ${code}) during the bench:\n${output}`)
  })
  child.on('message', (message) => {
    if (message?.type === 'bench:counters' && pending) {
      pending(message)
      pending = undefined
    }
    if (message?.type === 'bench:memory' && pendingMemory) {
      pendingMemory(message)
      pendingMemory = undefined
    }
  })
  return {
    url,
    port,
    output: () => output,
    /** Starts sampling the server's RSS ('start'), or stops and answers { baseline, peak } ('stop'). */
    memory: (step) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => fail(`The server stopped answering the bench:\n${output}`), 30_000)
        pendingMemory = (message) => {
          clearTimeout(timer)
          resolve(message)
        }
        child.send(`bench:memory-${step}`)
      }),
    /** The server's own counters: requests received and still open, statements, CPU µs. */
    counters: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => fail(`The server stopped answering the bench:\n${output}`), 30_000)
        pending = (message) => {
          clearTimeout(timer)
          resolve(message)
        }
        child.send('bench:read')
      }),
    stop: async () => {
      stopping = true
      child.kill('SIGTERM')
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 15_000))])
      if (code === 'timeout') child.kill('SIGKILL')
    },
  }
}

/** Signs in through the real form, once per role (the sign-in rate limits count every attempt). */
export async function signIn(server, email) {
  const response = await fetch(`${server.url}/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ email, password: PASSWORD }),
    redirect: 'manual',
  })
  if (response.status === 429) {
    fail(
      `Sign-in is rate-limited for this address (Retry-After ${response.headers.get('retry-after')} s): ` +
        'too many bench runs in 15 minutes.',
    )
  }
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('__session='))
  if (response.status !== 302 || !cookie) fail(`Signing in as ${email} failed (${response.status}).`)
  return cookie
}

// ---------------------------------------------------------------------------------------------
// Measuring

function request(server, c, cookies) {
  // What a browser sends: without it the server never compresses, and its compression cost goes unmeasured.
  const headers = { 'accept-encoding': 'gzip, deflate, br, zstd' }
  if (c.role) headers.cookie = cookies[c.role]
  if (c.body) headers['content-type'] = 'application/x-www-form-urlencoded'
  const req = { url: server.url + c.path, method: c.method ?? 'GET', headers }
  if (c.body) req.body = c.body
  return req
}

/**
 * One measurement: `amount` requests over the connections, every one of them answered (a time limit
 * would abandon the requests in flight, and a slow page's abandoned queries would still be running
 * in the next measurement).
 */
async function load(server, req, options, amount) {
  const before = await server.counters()
  const started = performance.now()
  let last = started
  // autocannon notices the end only at its sampling tick: the time to the last answer is exact.
  const run = autocannon({
    ...req,
    connections: Math.min(options.connections, amount),
    amount,
    timeout: 60,
    sampleInt: 100,
  })
  run.on('response', () => {
    last = performance.now()
  })
  const result = await run
  // A request whose client went away may still be running its loaders: wait for the statements to stop too.
  let after = await server.counters()
  for (let previous, deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (after.open === 0 && previous && previous.queries === after.queries) break
    await new Promise((r) => setTimeout(r, 50))
    previous = after
    after = await server.counters()
  }
  const served = after.requests - before.requests
  return {
    rps: result.requests.total / ((last - started) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    served,
    queries: after.queries - before.queries,
    cpuMs: (after.cpuMicros - before.cpuMicros) / 1000,
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const sum = (values) => values.reduce((a, b) => a + b, 0)

function summarise(runs) {
  const served = sum(runs.map((r) => r.served))
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    queriesPerRequest: served ? sum(runs.map((r) => r.queries)) / served : 0,
    cpuMsPerRequest: served ? sum(runs.map((r) => r.cpuMs)) / served : 0,
    non2xx: sum(runs.map((r) => r.non2xx)),
    errors: sum(runs.map((r) => r.errors)),
  }
}

async function measureTarget(target, options) {
  if (!target.url) Object.assign(target, seedEmbedded())
  const found = await discover(target)
  const all = cases(found)
  const chosen = options.cases ? all.filter((c) => options.cases.some((w) => c.name.includes(w))) : all
  const withImport = !options.cases || options.cases.some((w) => IMPORT_CASE.includes(w))
  if (!chosen.length && !withImport)
    fail(`No case matches ${options.cases.join(', ')}. Cases: ${all.map((c) => c.name).join('; ')}`)
  log(
    `\n${target.label}: ${found.profile.seed}, ${found.counts.employees.toLocaleString('en-GB')} employees, ` +
      `${found.counts.assignments.toLocaleString('en-GB')} assignments, ${found.counts.answers.toLocaleString('en-GB')} answers`,
  )
  const server = await startServer(target)
  let importResult = null
  try {
    const roles = [...new Set([...chosen.map((c) => c.role), withImport ? 'admin' : null].filter(Boolean))]
    const cookies = {}
    for (const role of roles) cookies[role] = await signIn(server, found.profile[role])

    // Every case must answer 2xx before it is timed: a redirect or an error page measures nothing.
    for (const c of chosen) {
      const req = request(server, c, cookies)
      const response = await fetch(req.url, { ...req, redirect: 'manual' })
      await response.arrayBuffer()
      if (response.status < 200 || response.status > 299) {
        fail(
          `${c.name} answers ${response.status} on ${target.label}; nothing was measured.\n${server.output()}`,
        )
      }
    }

    const reference = request(server, { path: REFERENCE, role: null }, cookies)
    const loadAvg = [os.loadavg()[0]]
    log(`  warming up …`)
    await load(server, reference, options, 20 * options.connections)
    // Each measurement asks for as many requests as the page answered in `duration` seconds when
    // it was last sampled, so slow and fast pages are timed over about the same span.
    const amountFor = (run) => Math.max(options.connections, Math.round(run.rps * options.duration))
    const results = []
    for (const c of chosen) {
      const req = request(server, c, cookies)
      let caseSample = await load(server, req, options, options.connections)
      let refSample = await load(server, reference, options, options.connections)
      const caseRuns = []
      const refRuns = []
      for (let round = 0; round < options.rounds; round++) {
        caseSample = await load(server, req, options, amountFor(caseSample))
        caseRuns.push(caseSample)
        refSample = await load(server, reference, options, amountFor(refSample))
        refRuns.push(refSample)
      }
      const ratios = caseRuns.map((r, i) => r.rps / refRuns[i].rps)
      const result = {
        name: c.name,
        method: c.method ?? 'GET',
        path: c.path,
        ...summarise(caseRuns),
        ratio: median(ratios),
        ratioMin: Math.min(...ratios),
        ratioMax: Math.max(...ratios),
        budget: c.budget ?? null,
        withinBudget: c.budget === undefined ? null : median(ratios) >= c.budget,
        reference: summarise(refRuns),
        rounds: caseRuns.map((r, i) => ({ case: r, reference: refRuns[i], ratio: ratios[i] })),
      }
      results.push(result)
      log(
        `  ${c.name.padEnd(42)} ${result.rps.toFixed(1).padStart(8)} req/s  ratio ${result.ratio.toFixed(2)} ` +
          `(${result.ratioMin.toFixed(2)}–${result.ratioMax.toFixed(2)})`,
      )
    }
    if (withImport) {
      log(`  ${IMPORT_CASE} …`)
      importResult = await measureImport(server, cookies, found)
      log(
        `  ${IMPORT_CASE.padEnd(42)} ${importResult.totalMs} ms, server RSS peak ` +
          `${importResult.serverRssPeakMb.toFixed(0)} MB (from ${importResult.serverRssBeforeMb.toFixed(0)} MB)`,
      )
    }
    loadAvg.push(os.loadavg()[0])
    const allRefs = results.flatMap((r) => r.rounds.map((x) => x.reference))
    return {
      label: target.label,
      database: target.url ? redact(target.url) : 'embedded PGlite (fresh, demo seed)',
      driver: target.url ? 'postgres' : 'pglite',
      seed: found.profile.seed,
      counts: found.counts,
      settings: { duration: options.duration, rounds: options.rounds, connections: options.connections },
      loadAverage: loadAvg,
      reference: { path: REFERENCE, ...summarise(allRefs) },
      cases: results,
      import: importResult && {
        name: importResult.name,
        rows: importResult.rows,
        fileBytes: importResult.fileBytes,
        uploadAndCheckMs: importResult.uploadAndCheckMs,
        importMs: importResult.importMs,
        totalMs: importResult.totalMs,
        serverRssBeforeMb: importResult.serverRssBeforeMb,
        serverRssPeakMb: importResult.serverRssPeakMb,
      },
    }
  } finally {
    await server.stop()
    // Its 10,000 people leave a database that is measured again (an embedded one is thrown away).
    if (importResult && target.url) await cleanImport(target, importResult)
    if (target.dir) fs.rmSync(target.dir, { recursive: true, force: true })
  }
}

function redact(url) {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return url
  }
}

// ---------------------------------------------------------------------------------------------
// Printing

const f1 = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1))
const f2 = (n) => n.toFixed(2)

function table(headers, rows, align) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
  const line = (cells) =>
    cells
      .map((cell, i) =>
        align[i] === 'l' ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]),
      )
      .join('  ')
      .trimEnd()
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

function printTarget(t) {
  const ref = t.reference
  console.log(
    `\n${t.label} — ${t.database}: ${t.seed}, ${t.counts.employees.toLocaleString('en-GB')} employees, ` +
      `${t.counts.answers.toLocaleString('en-GB')} answers`,
  )
  console.log(
    `${t.settings.rounds} rounds × ${t.settings.duration} s per case and reference, ${t.settings.connections} connections; ` +
      `load average ${t.loadAverage.map((l) => l.toFixed(1)).join(' → ')} (${os.cpus().length} cores)`,
  )
  console.log(
    `reference ${ref.path}: ${f1(ref.rps)} req/s, p50 ${ref.p50} ms, p99 ${ref.p99} ms, ` +
      `${f2(ref.queriesPerRequest)} queries/req, ${f2(ref.cpuMsPerRequest)} CPU ms/req\n`,
  )
  const failures = t.cases.some((c) => c.non2xx || c.errors)
  const rows = t.cases.map((c) => [
    c.name,
    f1(c.rps),
    c.p50,
    c.p99,
    `${f2(c.ratio)} (${f2(c.ratioMin)}–${f2(c.ratioMax)})`,
    c.budget === null ? '—' : `≥ ${c.budget} ${c.withinBudget ? '✓' : '✗'}`,
    f1(c.queriesPerRequest),
    f2(c.cpuMsPerRequest),
    ...(failures ? [c.non2xx || c.errors ? `${c.non2xx} non-2xx, ${c.errors} errors` : ''] : []),
  ])
  const headers = [
    'case',
    'req/s',
    'p50 ms',
    'p99 ms',
    'ratio (min–max)',
    'budget',
    'queries/req',
    'CPU ms/req',
  ]
  if (rows.length)
    console.log(
      table(failures ? [...headers, 'failed'] : headers, rows, ['l', 'r', 'r', 'r', 'l', 'l', 'r', 'r', 'l']),
    )
  const imp = t.import
  if (imp)
    console.log(
      `\n${imp.name}: ${(imp.fileBytes / 1024 / 1024).toFixed(1)} MB file; upload and check ${imp.uploadAndCheckMs} ms, ` +
        `import ${imp.importMs} ms (${imp.totalMs} ms in all); server RSS peak ${imp.serverRssPeakMb.toFixed(0)} MB ` +
        `(+${(imp.serverRssPeakMb - imp.serverRssBeforeMb).toFixed(0)} MB over ${imp.serverRssBeforeMb.toFixed(0)} MB before)`,
    )
}

/**
 * big ÷ small per page. "time ×" divides the page's time per request on the big database by its time
 * on the small one, each taken relative to the reference page of its own run (so a machine busier
 * during one run than the other does not count); "raw ×" is the plain req/s quotient.
 */
function compare(small, big) {
  return small.cases
    .map((s) => {
      const b = big.cases.find((c) => c.name === s.name)
      if (!b) return null
      const time = s.ratio / b.ratio
      return {
        name: s.name,
        smallRps: s.rps,
        bigRps: b.rps,
        time,
        raw: s.rps / b.rps,
        p50: b.p50 / Math.max(s.p50, 1),
        smallQueries: s.queriesPerRequest,
        bigQueries: b.queriesPerRequest,
        budget: 2,
        withinBudget: time <= 2,
      }
    })
    .filter(Boolean)
}

function printCompare(small, big, rows) {
  console.log(`\n${big.label} ÷ ${small.label} (time per request; budget: at most 2×)\n`)
  console.log(
    table(
      [
        'case',
        `${small.label} req/s`,
        `${big.label} req/s`,
        'time ×',
        'raw ×',
        'p50 ×',
        'queries/req',
        'budget',
      ],
      rows.map((r) => [
        r.name,
        f1(r.smallRps),
        f1(r.bigRps),
        f2(r.time),
        f2(r.raw),
        f2(r.p50),
        `${f1(r.smallQueries)} → ${f1(r.bigQueries)}`,
        `≤ 2 ${r.withinBudget ? '✓' : '✗'}`,
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
  )
}

// ---------------------------------------------------------------------------------------------

// Run as a command; imported (npm run lighthouse starts and signs in through these), it runs nothing.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseOptions(process.argv.slice(2))
  const targets = (options.dbs ?? [undefined]).map(resolveDatabase)
  ensureBuild()
  const started = Date.now()
  const measured = []
  for (const target of targets) measured.push(await measureTarget(target, options))
  const comparison = measured.length === 2 ? compare(measured[0], measured[1]) : null

  const report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    seconds: Math.round((Date.now() - started) / 1000),
    targets: measured,
    compare: comparison && { small: measured[0].label, big: measured[1].label, cases: comparison },
  }
  if (options.save) fs.writeFileSync(options.save, `${JSON.stringify(report, null, 2)}\n`)
  if (options.json) {
    console.log(JSON.stringify(report, null, 2))
  } else {
    for (const t of measured) printTarget(t)
    if (comparison) printCompare(measured[0], measured[1], comparison)
    console.log(`\n(${report.seconds} s)`)
  }
}
