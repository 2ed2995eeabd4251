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
/** The reference page's own spread over a case's rounds ((max − min) ÷ median) above which ratios are noise. */
export const SPREAD_LIMIT = 0.25
/**
 * While it measures, the bench itself keeps the server, the load generator and the database
 * runnable: on an otherwise idle 2-core machine the 1-min load average reads 2.2–2.8 during a run
 * (issue 17's quiet run). So readings taken during the run may exceed the cores by this much before
 * they count as another program's load; the reading before the run gets no allowance.
 */
export const OWN_LOAD = 1
/** At scale, a page's time per request may grow at most this many times (issue 17). */
export const COMPARE_BUDGET = 2
/** Exit codes: a page over its scale budget, a bad option or a failure, a refusal on a busy machine. */
export const EXIT = { overBudget: 1, failure: 2, busy: 3 }

// ---------------------------------------------------------------------------------------------
// Options

const USAGE = `npm run bench [-- options]
  (no option)            DATABASE_URL if set, else a fresh embedded PGlite with the demo seed
  --db <db>[,<db>…]      the database(s) to measure, one after the other: a postgres:// URL, a
                         database name on DATABASE_URL's server, "small" (bench_small), "big"
                         (bench_big) or "embedded"
  --compare <a>,<b>      measure both (one after the other) and print b ÷ a per page
  --duration <s>         about this many seconds per measurement (default 3)
  --rounds <n>           case/reference rounds per case (default 3)
  --connections <n>      concurrent connections (default 10)
  --cases <a,b,…>        only the cases whose name contains one of these words
  --json                 print JSON on stdout instead of the tables (progress goes to stderr)
  --save <file>          also write the JSON to a file (e.g. to keep a run's figures beside the tables)
  --readme               rewrite README.md's table from this run (date, commit, load averages,
                         spread per page): between <!-- bench:start --> and <!-- bench:end -->, or
                         for --compare between <!-- bench:compare:start --> and <!-- bench:compare:end -->
  --force                report ratios even on a busy machine (see below), marked as such
A busy machine makes ratios noise: the bench refuses to report them (exit 3, saying why) when the
1-min load average is above the number of cores before the run, or above the cores plus ${OWN_LOAD}
(its own server, load generator and database) during it, or when the reference
page's own req/s spreads over more than ${SPREAD_LIMIT * 100} % ((max − min) ÷ median) over a case's rounds.
BENCH_LOADAVG=<n>[,<n>…] replaces the load readings (in turn; the last repeats) and BENCH_CORES
the core count, to see or test a refusal. --compare exits 1 when a page passes ${COMPARE_BUDGET}×
(time ×) on the second database; other failures exit 2.
small and big may be pointed elsewhere with BENCH_SMALL_URL and BENCH_BIG_URL; the server takes
a free port in 3400-3419, or in BENCH_PORTS (e.g. BENCH_PORTS=3430-3439). Requests ask for
compression as a browser does (Accept-Encoding: gzip, deflate, br, zstd).`

function parseOptions(argv) {
  const options = {
    duration: 3,
    rounds: 3,
    connections: 10,
    json: false,
    save: null,
    readme: false,
    force: false,
    compare: false,
    cases: null,
    dbs: null,
  }
  const need = (i) => {
    if (argv[i + 1] === undefined) fail(`${argv[i]} needs a value.\n\n${USAGE}`)
    return argv[i + 1]
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--json') options.json = true
    else if (arg === '--force') options.force = true
    else if (arg === '--readme') options.readme = true
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE)
      process.exit(0)
    } else if (arg === '--duration') options.duration = positive(need(i++), arg)
    else if (arg === '--rounds') options.rounds = Math.round(positive(need(i++), arg))
    else if (arg === '--connections') options.connections = Math.round(positive(need(i++), arg))
    else if (arg === '--cases') options.cases = need(i++).split(',').filter(Boolean)
    else if (arg === '--db') {
      options.dbs = need(i++).split(',').filter(Boolean)
      options.compare = false
    } else if (arg === '--save') options.save = need(i++)
    else if (arg === '--compare') {
      const pair = need(i++).split(',').filter(Boolean)
      if (pair.length !== 2) fail(`--compare takes two databases: --compare small,big\n\n${USAGE}`)
      options.dbs = pair
      options.compare = true
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
// Honest numbers: is the machine quiet enough for a ratio to mean anything?

/**
 * The 1-min load average now. BENCH_LOADAVG replaces the readings (tests, or to see what a refusal
 * looks like): one number, or several separated by commas, read in turn (the last one repeats), so
 * that a run can be quiet at the start and busy later. BENCH_CORES replaces the core count.
 */
let injectedReadings = 0
export function readLoad() {
  const injected = process.env.BENCH_LOADAVG
  if (injected !== undefined && injected !== '') {
    const values = injected.split(',').map(Number)
    if (!values.every((n) => Number.isFinite(n) && n >= 0))
      fail(`BENCH_LOADAVG takes numbers separated by commas, not "${injected}".`)
    return values[Math.min(injectedReadings++, values.length - 1)]
  }
  return os.loadavg()[0]
}

export function coreCount() {
  const injected = Number(process.env.BENCH_CORES)
  return Number.isInteger(injected) && injected > 0 ? injected : os.availableParallelism()
}

/** (max − min) ÷ median of some req/s figures: 0 for one figure or none. */
export function spread(values) {
  if (values.length < 2) return 0
  const m = median(values)
  return m > 0 ? (Math.max(...values) - Math.min(...values)) / m : 0
}

/**
 * Why a run's ratios cannot be trusted: one sentence per reason, none when the machine was quiet.
 * `loads`: the 1-min load averages read before and during the run ({ when, load }); `spreads`: the
 * reference page's spread over each case's rounds ({ name, spread }).
 */
export function busyReasons({ cores, loads = [], spreads = [], spreadLimit = SPREAD_LIMIT }) {
  const reasons = []
  const limitOf = (l) => (isBeforeTheRun(l) ? cores : cores + OWN_LOAD)
  const high = loads.filter((l) => l.load > limitOf(l))
  if (high.length) {
    const worst = high.reduce((a, b) => (b.load > a.load ? b : a))
    const during = high.some((l) => !isBeforeTheRun(l))
    reasons.push(
      `the 1-min load average was above the ${cores} cores` +
        `${during ? ` (${cores + OWN_LOAD} while measuring, the bench's own load allowed for)` : ''} ` +
        `${high.length === 1 ? 'once' : `${high.length} times`} ` +
        `(highest ${worst.load.toFixed(2)}, ${worst.when})`,
    )
  }
  const noisy = spreads.filter((s) => s.spread > spreadLimit)
  if (noisy.length) {
    reasons.push(
      `${REFERENCE} spread over ${Math.round(spreadLimit * 100)} % of its median across the rounds of ` +
        noisy.map((s) => `${s.name} (${Math.round(s.spread * 100)} %)`).join(', '),
    )
  }
  return reasons
}

/** A reading taken before the bench started loading the machine (no allowance for its own load). */
const isBeforeTheRun = (reading) => reading.when === 'before the run'

/** What a refusal says: why, with the figures, and how to measure anyway. */
export function refusal(reasons, stage) {
  return (
    `Refusing to report ratios ${stage}: ${reasons.join('; and ')}. On a busy machine a page's ` +
    `ratio to ${REFERENCE} is noise. Wait until \`uptime\` shows a load average below the core ` +
    `count and run again, or pass --force to report them anyway (marked as taken on a busy machine).`
  )
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

export async function discover(target, { answerers: wanted = 1 } = {}) {
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
      `SELECT r.id, r.assignment_id FROM responses r
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
    // Autosave and the assignment page are measured with one assignment per connection (the same
    // one from every connection measures its row lock): open self-assessments of other people who
    // sign in with the seed's password, the profile's answerer first. The demo seed has one.
    const others = answering
      ? await query(
          `SELECT u.email, a.id, a.questionnaire_id FROM assignments a
           JOIN users u ON u.id = a.respondent_id
           JOIN schemes s ON s.id = a.scheme_id
           WHERE a.relationship = 'self' AND a.status IN ('pending', 'in_progress')
             AND s.status = 'open' AND s.opens_at <= now() AND s.closes_at > now()
             AND u.role = 'employee' AND u.password_hash IS NOT NULL AND u.disabled_at IS NULL
             AND u.email_verified_at IS NOT NULL AND u.email <> $1 AND u.email NOT IN ($2, $3)
           ORDER BY a.created_at, a.id LIMIT $4`,
          [profile.answerer, profile.admin, profile.employee, wanted * 4],
        )
      : []
    const answerers = [
      { email: profile.answerer, id: answering?.id, questionnaire_id: answering?.questionnaire_id },
    ]
    for (const row of others) {
      if (answerers.length >= wanted) break
      if (!answerers.some((a) => a.email === row.email)) answerers.push(row)
    }
    const [company] = await query(`SELECT id FROM companies ORDER BY name, id LIMIT 1`)
    // The employee list is measured searching part of this employee's name, filtered to their
    // company and state; their own page is the detail case.
    const [person] = await query(
      `SELECT u.id, u.display_name, u.department, u.company_id, c.name AS company_name FROM users u
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
    // A list of raters waiting for the profile employee's approval as a manager (ADR 042; the demo
    // seed's Sam waits for Erin): the manager's review, and the list as its employee reads it. A
    // seed without one leaves both cases out.
    const [list] = await query(
      `SELECT m.scheme_id, m.employee_id, e.email FROM scheme_members m
       JOIN users a ON a.id = m.nomination_approver_id
       JOIN users e ON e.id = m.employee_id
       WHERE a.email = $1 AND m.nomination_status = 'submitted'
         AND e.password_hash IS NOT NULL AND e.disabled_at IS NULL
       ORDER BY m.nomination_submitted_at, m.employee_id LIMIT 1`,
      [profile.employee],
    )
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
    const bodies = new Map()
    const autosaveBodyOf = async (questionnaireId) => {
      if (bodies.has(questionnaireId)) return bodies.get(questionnaireId)
      const questions = await query(
        `SELECT id, section, kind, options FROM questions WHERE questionnaire_id = $1 ORDER BY position`,
        [questionnaireId],
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
      bodies.set(questionnaireId, form.toString())
      return bodies.get(questionnaireId)
    }
    for (const a of answerers) a.autosaveBody = await autosaveBodyOf(a.questionnaire_id)
    const [counts] = await query(
      `SELECT (SELECT count(*) FROM users WHERE role = 'employee')::int AS employees,
              (SELECT count(*) FROM assignments)::int AS assignments,
              (SELECT count(*) FROM answers)::int AS answers`,
    )
    return {
      // `listEmployee` signs in as the list's employee (the cases' role of that name).
      profile: list ? { ...profile, listEmployee: list.email } : profile,
      list: list ? { scheme: list.scheme_id, employee: list.employee_id } : null,
      answerers: answerers.map((a) => ({ email: a.email, assignment: a.id, autosaveBody: a.autosaveBody })),
      ids: {
        rid: report.id,
        reportAssignment: report.assignment_id,
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
        // The colleague directory's type-ahead searches the employee's own department: on both seeds
        // a word many of their colleagues share (Operations), so a full answer of eight is measured.
        directorySearch: (person.department ?? person.display_name.split(/\s+/).pop() ?? '').toLowerCase(),
      },
      autosaveBody: answerers[0].autosaveBody,
      counts,
    }
  })
}

function cases(found) {
  const { rid, reportAssignment, assignment, company, brand, admin, scheme, questionnaire, message } =
    found.ids
  return [
    { name: 'GET / (landing)', path: '/', role: null },
    { name: 'GET /sign-in', path: '/sign-in', role: null, budget: 0.8 },
    { name: 'GET /forgot-password', path: '/forgot-password', role: null },
    { name: 'GET /user', path: '/user', role: 'employee', budget: 0.5 },
    {
      name: 'GET /user/response-:rid (report)',
      path: `/user/response-${rid}`,
      role: 'employee',
      budget: 0.4,
    },
    { name: 'GET /user/edit-profile', path: '/user/edit-profile', role: 'employee' },
    { name: 'GET /user/colleague-invite', path: '/user/colleague-invite', role: 'employee' },
    ...(found.list
      ? [
          {
            name: 'GET /user/nominations?scheme=&employee= (manager’s review)',
            path: `/user/nominations?${new URLSearchParams({ scheme: found.list.scheme, employee: found.list.employee })}`,
            role: 'employee',
          },
          {
            name: 'GET /user/nominations?scheme= (own list)',
            path: `/user/nominations?${new URLSearchParams({ scheme: found.list.scheme })}`,
            role: 'listEmployee',
          },
        ]
      : []),
    {
      name: 'GET /user/colleague-invite/directory?q=… (type-ahead)',
      path: `/user/colleague-invite/directory?${new URLSearchParams({ q: found.employee.directorySearch })}`,
      role: 'employee',
    },
    {
      name: 'GET /user/thank-you?assignment=:id',
      path: `/user/thank-you?assignment=${reportAssignment}`,
      role: 'employee',
    },
    {
      name: 'GET /questionnaire/:id?assignment=:id',
      path: `/questionnaire/${questionnaire}?assignment=${assignment}`,
      role: 'answerer',
    },
    // One assignment per connection (each answerer's own, signed in as them): see discover().
    {
      name: 'GET /assignment/:id',
      path: `/assignment/${assignment}?section=1`,
      perAnswerer: (a) => ({ path: `/assignment/${a.assignment}?section=1` }),
      role: 'answerer',
      budget: 0.5,
    },
    {
      name: 'POST /assignment/:id.data (autosave)',
      path: `/assignment/${assignment}.data`,
      method: 'POST',
      body: found.autosaveBody,
      perAnswerer: (a) => ({ path: `/assignment/${a.assignment}.data`, body: a.autosaveBody }),
      role: 'answerer',
      budget: 0.5,
    },
    { name: 'GET /admin', path: '/admin', role: 'admin' },
    { name: 'GET /admin/answer-management', path: '/admin/answer-management', role: 'admin' },
    {
      name: 'GET /admin/answer-management?scheme=:id (filtered)',
      path: `/admin/answer-management?scheme=${scheme}`,
      role: 'admin',
    },
    {
      name: 'GET /admin/answer-management/:responseId',
      path: `/admin/answer-management/${rid}`,
      role: 'admin',
    },
    {
      name: 'GET /admin/answer-management/reopen-requests',
      path: '/admin/answer-management/reopen-requests',
      role: 'admin',
    },
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
    {
      name: 'GET /admin/scheme-management/:schemeId?q=… (participant search)',
      path: `/admin/scheme-management/${scheme}?${new URLSearchParams({ q: found.employee.search })}`,
      role: 'admin',
    },
    {
      name: 'GET /admin/scheme-management/:schemeId?find=… (people to add)',
      path: `/admin/scheme-management/${scheme}?${new URLSearchParams({ find: found.employee.search })}`,
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

/**
 * The environment a measured server runs with: the production build on `target`'s database, no
 * worker, no mail, Sentry or Turnstile, a fresh session secret, statements counted (QUERY_COUNT).
 * `extra` adds to it (scripts/profile-page.mjs times each statement too).
 */
export function serverEnv(target, port, extra = {}) {
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
    // One person's directory searches are rate limited (120 a minute): the bench times the search,
    // not the 429, so it lifts the limit (the limit's own statement still runs on every request).
    DIRECTORY_SEARCHES_PER_MINUTE: '1000000',
    ...extra,
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
  return env
}

export async function startServer(target) {
  // target.port: a caller with its own port range (npm run lighthouse) picks the port itself.
  const port = target.port ?? (await freePort())
  const env = serverEnv(target, port)
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

function request(server, c, cookies, answerers = []) {
  const one = (path, body, cookie) => {
    // What a browser sends: without it the server never compresses, and its compression cost goes unmeasured.
    const headers = { 'accept-encoding': 'gzip, deflate, br, zstd' }
    if (cookie) headers.cookie = cookie
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded'
    const req = { method: c.method ?? 'GET', path, headers }
    if (body) req.body = body
    return req
  }
  const first = one(c.path, c.body, c.role ? cookies[c.role] : undefined)
  const req = { url: server.url + c.path, method: first.method, headers: first.headers }
  if (c.body) req.body = c.body
  // One request per connection (autocannon's setupClient gives each its own): each answerer's own
  // assignment, path, body and session.
  if (c.perAnswerer && answerers.length > 1) {
    req.clients = answerers.map((a, i) => {
      const own = { path: c.path, body: c.body, ...c.perAnswerer(a) }
      return one(own.path, own.body, cookies.answerers[i])
    })
  }
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
  const { clients, ...plain } = req
  let client = 0
  const run = autocannon({
    ...plain,
    ...(clients && { setupClient: (c) => c.setRequests([clients[client++ % clients.length]]) }),
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
  const found = await discover(target, { answerers: options.connections })
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
    // Each answerer signs in once (sign-in limits count per address and account, ADR 007).
    const perAnswerer = chosen.some((c) => c.perAnswerer)
    const answerers = perAnswerer ? found.answerers : []
    if (perAnswerer) {
      cookies.answerers = []
      for (const a of answerers)
        cookies.answerers.push(
          a.email === found.profile.answerer ? cookies.answerer : await signIn(server, a.email),
        )
      if (answerers.length < options.connections)
        log(
          `  ${target.label} has ${answerers.length} open assignment${answerers.length === 1 ? '' : 's'} of people ` +
            `the bench can sign in as, for ${options.connections} connections: they share ` +
            `${answerers.length === 1 ? 'it' : 'them'} (its row lock is part of the figure)`,
        )
    }

    // Every case must answer 2xx before it is timed: a redirect or an error page measures nothing.
    for (const c of chosen) {
      const req = request(server, c, cookies, answerers)
      for (const one of req.clients ?? [{ ...req, path: c.path }]) {
        const response = await fetch(server.url + one.path, { ...one, redirect: 'manual' })
        await response.arrayBuffer()
        if (response.status < 200 || response.status > 299) {
          fail(
            `${c.name} answers ${response.status} on ${target.label} (${one.path}); nothing was measured.\n${server.output()}`,
          )
        }
      }
    }

    const reference = request(server, { path: REFERENCE, role: null }, cookies)
    const loadAvg = [readLoad()]
    log(`  warming up …`)
    await load(server, reference, options, 20 * options.connections)
    // Each measurement asks for as many requests as the page answered in `duration` seconds when
    // it was last sampled, so slow and fast pages are timed over about the same span.
    const amountFor = (run) => Math.max(options.connections, Math.round(run.rps * options.duration))
    const results = []
    for (const c of chosen) {
      const req = request(server, c, cookies, answerers)
      const loadBefore = readLoad()
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
      // The 1-min load average when this case was measured: before its first request and after its last.
      const loadReadings = { before: loadBefore, after: readLoad() }
      const result = {
        name: c.name,
        method: c.method ?? 'GET',
        path: c.path,
        ...(c.perAnswerer && { distinctAssignments: req.clients?.length ?? 1 }),
        ...summarise(caseRuns),
        load: loadReadings,
        referenceSpread: spread(refRuns.map((r) => r.rps)),
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
          `(${result.ratioMin.toFixed(2)}–${result.ratioMax.toFixed(2)}), ${REFERENCE} spread ` +
          `${Math.round(result.referenceSpread * 100)} %, load ${Math.max(loadReadings.before, loadReadings.after).toFixed(2)}`,
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
    loadAvg.push(readLoad())
    const allRefs = results.flatMap((r) => r.rounds.map((x) => x.reference))
    return {
      label: target.label,
      database: target.url ? redact(target.url) : 'embedded PGlite (fresh, demo seed)',
      driver: target.url ? 'postgres' : 'pglite',
      seed: found.profile.seed,
      counts: found.counts,
      settings: { duration: options.duration, rounds: options.rounds, connections: options.connections },
      loadAverage: loadAvg,
      reference: { path: REFERENCE, ...summarise(allRefs), spread: spread(allRefs.map((r) => r.rps)) },
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

const pct = (n) => `${Math.round(n * 100)} %`
/** The load average while a case was measured: the higher of the readings before and after it. */
const caseLoad = (c) => Math.max(c.load.before, c.load.after)
/** A ratio, or what stands in its place when the run refused to report ratios. */
const ratioCell = (c) =>
  c.ratio === null ? 'withheld' : `${f2(c.ratio)} (${f2(c.ratioMin)}–${f2(c.ratioMax)})`
const budgetCell = (c) =>
  c.budget === null
    ? '—'
    : c.withinBudget === null
      ? `≥ ${c.budget}`
      : `≥ ${c.budget} ${c.withinBudget ? '✓' : '✗'}`

function printTarget(t) {
  const ref = t.reference
  console.log(
    `\n${t.label} — ${t.database}: ${t.seed}, ${t.counts.employees.toLocaleString('en-GB')} employees, ` +
      `${t.counts.answers.toLocaleString('en-GB')} answers`,
  )
  console.log(
    `${t.settings.rounds} rounds × ${t.settings.duration} s per case and reference, ${t.settings.connections} connections; ` +
      `load average ${t.loadAverage.map((l) => l.toFixed(1)).join(' → ')} (${t.cores} cores)`,
  )
  console.log(
    `reference ${ref.path}: ${f1(ref.rps)} req/s (spread ${pct(ref.spread)} over the whole run), p50 ${ref.p50} ms, ` +
      `p99 ${ref.p99} ms, ${f2(ref.queriesPerRequest)} queries/req, ${f2(ref.cpuMsPerRequest)} CPU ms/req\n`,
  )
  const failures = t.cases.some((c) => c.non2xx || c.errors)
  const rows = t.cases.map((c) => [
    c.name,
    f1(c.rps),
    c.p50,
    c.p99,
    ratioCell(c),
    budgetCell(c),
    pct(c.referenceSpread),
    f2(caseLoad(c)),
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
    'ref spread',
    'load',
    'queries/req',
    'CPU ms/req',
  ]
  if (rows.length)
    console.log(
      table(failures ? [...headers, 'failed'] : headers, rows, [
        'l',
        'r',
        'r',
        'r',
        'l',
        'l',
        'r',
        'r',
        'r',
        'r',
        'l',
      ]),
    )
  for (const c of t.cases.filter((c) => c.distinctAssignments !== undefined)) {
    console.log(
      c.distinctAssignments > 1
        ? `(${c.name}: ${c.distinctAssignments} assignments of as many people, one per connection)`
        : `(${c.name}: one assignment for every connection, so its row lock is part of the figure)`,
    )
  }
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
export function compare(small, big) {
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
        smallCpuMs: s.cpuMsPerRequest,
        bigCpuMs: b.cpuMsPerRequest,
        smallLoad: s.load ? caseLoad(s) : null,
        bigLoad: b.load ? caseLoad(b) : null,
        budget: COMPARE_BUDGET,
        withinBudget: time <= COMPARE_BUDGET,
      }
    })
    .filter(Boolean)
}

/** The pages of a comparison over their budget, as "name (2.41×)". */
export function overBudget(rows) {
  return rows.filter((r) => !r.withinBudget).map((r) => `${r.name} (${f2(r.time)}×)`)
}

function printCompare(small, big, rows) {
  console.log(`\n${big.label} ÷ ${small.label} (time per request; budget: at most ${COMPARE_BUDGET}×)\n`)
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
        'CPU ms/req',
        'load',
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
        `${f2(r.smallCpuMs)} → ${f2(r.bigCpuMs)}`,
        `${f2(r.smallLoad)} / ${f2(r.bigLoad)}`,
        `≤ ${COMPARE_BUDGET} ${r.withinBudget ? '✓' : '✗'}`,
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
  )
}

/** Every load reading of a run ({ when, load }) and the reference's spread per case, for busyReasons. */
export function runReadings(targets) {
  const loads = []
  const spreads = []
  for (const t of targets) {
    // In the order they were read: at the start, around each case, at the end.
    loads.push({ when: `at the start on ${t.label}`, load: t.loadAverage[0] })
    for (const c of t.cases) {
      if (c.load) {
        loads.push({ when: `before ${c.name} on ${t.label}`, load: c.load.before })
        loads.push({ when: `after ${c.name} on ${t.label}`, load: c.load.after })
      }
      if (c.referenceSpread !== undefined)
        spreads.push({ name: `${c.name} on ${t.label}`, spread: c.referenceSpread })
    }
    if (t.loadAverage.length > 1) loads.push({ when: `at the end on ${t.label}`, load: t.loadAverage.at(-1) })
  }
  return { loads, spreads }
}

/** The report with every ratio (and the comparison built on them) taken out: what a refusal may still show. */
export function withholdRatios(report) {
  return {
    ...report,
    targets: report.targets.map((t) => ({
      ...t,
      cases: t.cases.map((c) => ({
        ...c,
        ratio: null,
        ratioMin: null,
        ratioMax: null,
        withinBudget: null,
        rounds: c.rounds.map((r) => ({ ...r, ratio: null })),
      })),
    })),
    compare: null,
  }
}

// ---------------------------------------------------------------------------------------------
// The README's table (--readme)

// Two sections: a run of one or more databases (--db embedded,small), and a --compare run.
export const README_START = '<!-- bench:start -->'
export const README_END = '<!-- bench:end -->'
export const README_COMPARE_START = '<!-- bench:compare:start -->'
export const README_COMPARE_END = '<!-- bench:compare:end -->'

function markdownTable(headers, rows) {
  const escape = (cell) => String(cell).replaceAll('|', '\\|')
  const line = (cells) => `| ${cells.map(escape).join(' | ')} |`
  // The page names left, the figures right.
  return [line(headers), line(headers.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join(
    '\n',
  )
}

/** The README's bench section, in Markdown, from a run's report (the --json shape) and its commit. */
export function readmeTable(report, commit) {
  const out = []
  const day = report.at.slice(0, 16).replace('T', ' ')
  out.push(
    `Generated by \`npm run bench -- --readme\` on ${day} UTC at commit \`${commit}\` (Node ${report.node}, ` +
      `${report.cpus} cores)${report.busy ? `; **busy machine, reported with --force**: ${report.busy.join('; ')}` : ''}.`,
  )
  for (const t of report.targets) {
    out.push(
      '',
      `**${t.label}** (${t.driver}, ${t.seed}, ${t.counts.employees.toLocaleString('en-GB')} employees): ` +
        `${t.settings.rounds} rounds × ${t.settings.duration} s, ${t.settings.connections} connections; load average ` +
        `${t.loadAverage.map((l) => l.toFixed(2)).join(' → ')}; \`${t.reference.path}\` ${f1(t.reference.rps)} req/s, ` +
        `${f2(t.reference.cpuMsPerRequest)} CPU ms/req.`,
      '',
      markdownTable(
        [
          'page',
          'req/s',
          'p50 ms',
          'ratio (min–max)',
          'budget',
          'ref spread',
          'load',
          'queries/req',
          'CPU ms/req',
        ],
        t.cases.map((c) => [
          `\`${c.name}\``,
          f1(c.rps),
          c.p50,
          ratioCell(c),
          budgetCell(c),
          pct(c.referenceSpread),
          f2(caseLoad(c)),
          f1(c.queriesPerRequest),
          f2(c.cpuMsPerRequest),
        ]),
      ),
    )
  }
  if (report.compare) {
    out.push(
      '',
      `**${report.compare.big} ÷ ${report.compare.small}** (time per request relative to each run's reference; budget ≤ ${COMPARE_BUDGET}×):`,
      '',
      markdownTable(
        ['page', 'time ×', 'raw ×', 'queries/req', 'CPU ms/req', 'load', 'budget'],
        report.compare.cases.map((r) => [
          `\`${r.name}\``,
          f2(r.time),
          f2(r.raw),
          `${f1(r.smallQueries)} → ${f1(r.bigQueries)}`,
          `${f2(r.smallCpuMs)} → ${f2(r.bigCpuMs)}`,
          `${f2(r.smallLoad)} / ${f2(r.bigLoad)}`,
          `≤ ${COMPARE_BUDGET} ${r.withinBudget ? '✓' : '✗'}`,
        ]),
      ),
    )
  }
  return out.join('\n')
}

/** The README text with a marked section replaced (a --compare run's own, or the other); fails when its markers are missing. */
export function replaceMarked(text, body, { compare = false } = {}) {
  const [open, close] = compare ? [README_COMPARE_START, README_COMPARE_END] : [README_START, README_END]
  const start = text.indexOf(open)
  const end = text.indexOf(close)
  if (start < 0 || end < start) fail(`The README has no ${open} … ${close} section to rewrite.`)
  return `${text.slice(0, start + open.length)}\n\n${body}\n\n${text.slice(end)}`
}

function gitCommit() {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' })
  const commit = result.status === 0 ? result.stdout.trim() : 'unknown'
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return dirty.status === 0 && dirty.stdout.trim() ? `${commit} with local changes` : commit
}

// ---------------------------------------------------------------------------------------------

// Run as a command; imported (npm run lighthouse starts and signs in through these), it runs nothing.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseOptions(process.argv.slice(2))
  const targets = (options.dbs ?? [undefined]).map(resolveDatabase)
  const cores = coreCount()
  // Before anything is measured: a machine already busier than its cores gives nothing worth the wait.
  const startLoad = readLoad()
  const before = busyReasons({ cores, loads: [{ when: 'before the run', load: startLoad }] })
  if (before.length && !options.force) {
    console.error(refusal(before, 'before measuring anything'))
    process.exit(EXIT.busy)
  }
  ensureBuild()
  const started = Date.now()
  const measured = []
  for (const target of targets) measured.push({ ...(await measureTarget(target, options)), cores })
  const readings = runReadings(measured)
  readings.loads.unshift({ when: 'before the run', load: startLoad })
  const busy = busyReasons({ cores, ...readings })
  const comparison = options.compare ? compare(measured[0], measured[1]) : null

  let report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: cores,
    seconds: Math.round((Date.now() - started) / 1000),
    loadAverageBefore: startLoad,
    busy: busy.length ? busy : null,
    refused: false,
    targets: measured,
    compare: comparison && { small: measured[0].label, big: measured[1].label, cases: comparison },
  }
  const refused = busy.length > 0 && !options.force
  if (refused) report = { ...withholdRatios(report), refused: true }
  if (options.save) fs.writeFileSync(options.save, `${JSON.stringify(report, null, 2)}\n`)
  if (options.json) {
    console.log(JSON.stringify(report, null, 2))
  } else {
    for (const t of report.targets) printTarget(t)
    if (report.compare) printCompare(measured[0], measured[1], report.compare.cases)
    console.log(`\n(${report.seconds} s)`)
  }
  if (refused) {
    console.error(`\n${refusal(busy, 'from this run')} The other figures above stand.`)
    process.exit(EXIT.busy)
  }
  if (busy.length) console.error(`\nBusy machine (reported anyway, --force): ${busy.join('; ')}.`)
  if (options.readme) {
    const file = process.env.BENCH_README || path.join(ROOT, 'README.md')
    let text = replaceMarked(fs.readFileSync(file, 'utf8'), readmeTable(report, gitCommit()), {
      compare: Boolean(report.compare),
    })
    // Aligned as the rest of the README (npm run format), so the rewrite is the figures only.
    try {
      const prettier = await import('prettier')
      text = await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file })
    } catch (error) {
      log(`(Prettier did not format the README: ${error.message})`)
    }
    fs.writeFileSync(file, text)
    log(`\nRewrote the bench table in ${path.relative(process.cwd(), file) || file}.`)
  }
  const over = comparison ? overBudget(comparison) : []
  if (over.length) {
    console.error(`\nOver ${COMPARE_BUDGET}× on ${measured[1].label}: ${over.join(', ')}.`)
    process.exit(EXIT.overBudget)
  }
}
