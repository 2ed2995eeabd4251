// `npm run lighthouse`: Lighthouse's performance, accessibility and best-practices scores of the pages
// people open most, on a phone (Lighthouse's mobile emulation: a mid-range phone on slow 4G, CPU
// slowed 4×) and on a desktop.
//
// Like `npm run bench` (whose server start and sign-in it uses), it starts the production build
// itself (node server.mjs, NODE_ENV=production) on a fresh embedded database with the demo seed,
// signs in through the real sign-in form, and then runs Lighthouse 12 against Debian's Chromium
// (CHROME_PATH, default /usr/bin/chromium) with the session cookie for the signed-in pages.
// It runs offline: nothing outside the machine is fetched.
//
//   npm run lighthouse                          every page, mobile and desktop
//   npm run lighthouse -- --pages report,user   only the pages whose name contains one of these words
//   npm run lighthouse -- --runs 3              each page 3 times, the median score printed
//   npm run lighthouse -- --json                JSON on stdout (progress on stderr)
//   npm run lighthouse -- --save <dir>          also keep each run's Lighthouse JSON report there
//   npm run lighthouse -- --db <url>            another database (DATABASE_URL of a seeded Postgres)
// The server and Chromium take the first free ports of 3420-3439 (LIGHTHOUSE_PORTS=<from>-<to>).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { discover, ensureBuild, fail, seedEmbedded, signIn, startServer } from './bench.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const LIGHTHOUSE = path.join(ROOT, 'node_modules/lighthouse/cli/index.js')
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium'
// Debian's Chromium, headless, as the e2e suite runs it; no background traffic to the internet.
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking']
const CATEGORIES = ['performance', 'accessibility', 'best-practices']

/** Issue 8 §3: phone ≥ 95 and desktop 100 for performance, 100 for the other two everywhere. */
export const BUDGETS = {
  mobile: { performance: 95, accessibility: 100, 'best-practices': 100 },
  desktop: { performance: 100, accessibility: 100, 'best-practices': 100 },
}

const USAGE = `npm run lighthouse [-- options]
  --pages <a,b,…>    only the pages whose name contains one of these words (home, sign-in, user,
                     assignment, report)
  --form-factors <…> mobile, desktop or both (default mobile,desktop)
  --runs <n>         runs per page and form factor; the median score is printed (default 1)
  --db <url>         a seeded Postgres (demo or scale seed) instead of a fresh embedded database
  --json             print JSON on stdout instead of the table
  --save <dir>       keep every run's Lighthouse JSON report in this folder
The server and Chromium take free ports in 3420-3439, or in LIGHTHOUSE_PORTS (e.g. 3440-3449).`

function parseOptions(argv) {
  const options = {
    pages: null,
    formFactors: ['mobile', 'desktop'],
    runs: 1,
    db: null,
    json: false,
    save: null,
  }
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
    } else if (arg === '--pages') options.pages = need(i++).split(',').filter(Boolean)
    else if (arg === '--form-factors') {
      options.formFactors = need(i++).split(',').filter(Boolean)
      if (!options.formFactors.length || options.formFactors.some((f) => !(f in BUDGETS)))
        fail(`--form-factors takes mobile, desktop or both.\n\n${USAGE}`)
    } else if (arg === '--runs') {
      options.runs = Number(need(i++))
      if (!Number.isInteger(options.runs) || options.runs < 1) fail('--runs takes a whole number ≥ 1.')
    } else if (arg === '--db') options.db = need(i++)
    else if (arg === '--save') options.save = need(i++)
    else fail(`Unknown option ${arg}\n\n${USAGE}`)
  }
  return options
}

const log = (...args) => console.error(...args)

function portRange() {
  const raw = process.env.LIGHTHOUSE_PORTS || '3420-3439'
  const m = /^(\d+)-(\d+)$/.exec(raw.trim())
  const range = m ? [Number(m[1]), Number(m[2])] : []
  if (!m || range[0] < 1 || range[1] > 65535 || range[0] > range[1])
    fail(`LIGHTHOUSE_PORTS takes a range such as 3420-3439, not "${raw}".`)
  return range
}

async function freePorts(count) {
  const [from, to] = portRange()
  const found = []
  for (let port = from; port <= to && found.length < count; port++) {
    const free = await new Promise((resolve) => {
      const probe = net.createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) found.push(port)
  }
  if (found.length < count) fail(`Fewer than ${count} free ports between ${from} and ${to}.`)
  return found
}

/** One Lighthouse run in a fresh Chromium (its own profile, so no cache or cookie carries over). */
function runLighthouse(url, formFactor, { cookie, chromePort }) {
  const args = [
    LIGHTHOUSE,
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    `--only-categories=${CATEGORIES.join(',')}`,
    `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
    `--port=${chromePort}`,
    // Lighthouse's default 45 s is long for a page on this machine's own loopback; a page that does not
    // settle in 30 s is a finding in itself.
    '--max-wait-for-load=30000',
  ]
  if (formFactor === 'desktop') args.push('--preset=desktop')
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, CHROME_PATH: CHROME },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0)
        return reject(new Error(`Lighthouse failed on ${url} (${code}):\n${stderr.slice(-4000)}`))
      try {
        resolve(JSON.parse(stdout))
      } catch {
        reject(new Error(`Lighthouse printed no report for ${url}:\n${stderr.slice(-4000)}`))
      }
    })
  })
}

/**
 * Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP) on a busy machine: such a run
 * measured nothing, so it is run again, up to three times in all.
 */
async function withRetries(run) {
  for (let attempt = 1; ; attempt++) {
    let problem
    try {
      const lhr = await run()
      if (!lhr.runtimeError) return lhr
      problem = `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`
    } catch (error) {
      problem = error.message
    }
    if (attempt === 3) fail(problem)
    log(`    Lighthouse failed (${problem.split('\n')[0]}); again …`)
  }
}

/** The audits that cost the page points, worst first: what to look at when a score is short. */
function shortfalls(lhr) {
  const found = []
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id]
      if (!ref.weight || audit.score === null || audit.score >= 1) continue
      found.push({
        category,
        id: ref.id,
        score: audit.score,
        weight: ref.weight,
        displayValue: audit.displayValue ?? null,
        title: audit.title,
      })
    }
  }
  return found.sort((a, b) => (1 - b.score) * b.weight - (1 - a.score) * a.weight)
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2)
}

function pagesOf(found) {
  return [
    { name: 'home', path: '/', role: null },
    { name: 'sign-in', path: '/sign-in', role: null },
    { name: 'user', path: '/user', role: 'employee' },
    { name: 'assignment', path: `/assignment/${found.ids.assignment}`, role: 'answerer' },
    { name: 'report', path: `/user/response-${found.ids.rid}`, role: 'employee' },
  ]
}

async function main() {
  const options = parseOptions(process.argv.slice(2))
  if (!fs.existsSync(CHROME)) fail(`No Chromium at ${CHROME}: apt-get install chromium, or set CHROME_PATH.`)
  ensureBuild()
  const target = options.db
    ? { label: options.db.replace(/:[^:@/]*@/, ':***@'), url: options.db }
    : { label: 'embedded (demo seed)', url: null, ...seedEmbedded() }
  const found = await discover(target)
  const pages = pagesOf(found).filter((p) => !options.pages || options.pages.some((w) => p.name.includes(w)))
  if (!pages.length) fail(`No page matches ${options.pages.join(', ')}.`)
  const [serverPort, chromePort] = await freePorts(2)
  const server = await startServer({ ...target, port: serverPort })
  if (options.save) fs.mkdirSync(options.save, { recursive: true })
  const results = []
  try {
    const cookies = {}
    for (const role of new Set(pages.map((p) => p.role).filter(Boolean)))
      cookies[role] = await signIn(server, found.profile[role])
    for (const page of pages) {
      const url = server.url + page.path
      // Every page must answer 200 to the signed-in visitor: a redirect to /sign-in scores the wrong page.
      const check = await fetch(url, { headers: { cookie: cookies[page.role] ?? '' }, redirect: 'manual' })
      await check.arrayBuffer()
      if (check.status !== 200) fail(`${page.path} answers ${check.status}; nothing was measured.`)
      // A page's first requests run on a cold process (modules compiled, caches empty): that is a
      // deployment's first minute, not the page. Warm it up as a few visits would, then measure.
      for (let i = 0; i < 5; i++) {
        const warm = await fetch(url, { headers: { cookie: cookies[page.role] ?? '' }, redirect: 'manual' })
        await warm.arrayBuffer()
      }
      for (const formFactor of options.formFactors) {
        const runs = []
        for (let run = 0; run < options.runs; run++) {
          log(`  ${page.name} (${formFactor})${options.runs > 1 ? ` run ${run + 1}/${options.runs}` : ''} …`)
          const lhr = await withRetries(() =>
            runLighthouse(url, formFactor, { cookie: cookies[page.role], chromePort }),
          )
          if (options.save) {
            const file = path.join(options.save, `${page.name}-${formFactor}-${run + 1}.json`)
            fs.writeFileSync(file, JSON.stringify(lhr))
          }
          runs.push(lhr)
        }
        const scores = Object.fromEntries(
          CATEGORIES.map((c) => [
            c,
            median(runs.map((r) => Math.round((r.categories[c]?.score ?? 0) * 100))),
          ]),
        )
        const budget = BUDGETS[formFactor]
        const metrics = (id) => median(runs.map((r) => r.audits[id]?.numericValue ?? 0))
        results.push({
          page: page.name,
          path: page.path.replace(found.ids.assignment, ':id').replace(found.ids.rid, ':rid'),
          formFactor,
          scores,
          withinBudget: Object.fromEntries(CATEGORIES.map((c) => [c, scores[c] >= budget[c]])),
          metrics: {
            fcpMs: Math.round(metrics('first-contentful-paint')),
            lcpMs: Math.round(metrics('largest-contentful-paint')),
            tbtMs: Math.round(metrics('total-blocking-time')),
            cls: Number(metrics('cumulative-layout-shift').toFixed(3)),
          },
          // From the last run: what cost the points.
          shortfalls: shortfalls(runs.at(-1)).slice(0, 6),
        })
      }
    }
  } finally {
    await server.stop()
    if (target.dir) fs.rmSync(target.dir, { recursive: true, force: true })
  }
  return { options, target, results }
}

function print({ target, options, results }) {
  console.log(
    `\nLighthouse 12 (${CHROME}) — ${target.label}; ${options.runs} run${options.runs > 1 ? 's (median)' : ''} per page`,
  )
  console.log('budgets: mobile performance ≥ 95, desktop 100; accessibility and best practices 100\n')
  const mark = (r, c) => `${r.scores[c]}${r.withinBudget[c] ? '' : ' ✗'}`
  const rows = results.map((r) => [
    r.path,
    r.formFactor,
    mark(r, 'performance'),
    mark(r, 'accessibility'),
    mark(r, 'best-practices'),
    `${(r.metrics.fcpMs / 1000).toFixed(1)} s`,
    `${(r.metrics.lcpMs / 1000).toFixed(1)} s`,
    `${r.metrics.tbtMs} ms`,
    r.metrics.cls.toFixed(3),
  ])
  const headers = ['page', 'device', 'perf', 'a11y', 'best pr.', 'FCP', 'LCP', 'TBT', 'CLS']
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
  const line = (cells) =>
    cells
      .map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join('  ')
      .trimEnd()
  console.log([line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'))
  const short = results.filter((r) => Object.values(r.withinBudget).some((ok) => !ok))
  if (short.length) {
    console.log('\nbelow budget, and the audits that cost the most:')
    for (const r of short) {
      const what = r.shortfalls
        .slice(0, 4)
        .map((s) => `${s.id}${s.displayValue ? ` (${s.displayValue})` : ''}`)
        .join(', ')
      console.log(`  ${r.path} ${r.formFactor}: ${what}`)
    }
  }
}

const report = await main()
if (report.options.json)
  console.log(
    JSON.stringify(
      { at: new Date().toISOString(), cpus: os.cpus().length, results: report.results },
      null,
      2,
    ),
  )
else print(report)
