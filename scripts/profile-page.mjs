// `node scripts/profile-page.mjs <case> [options]`: where one page spends its time (issue 17 §2, ADR 036).
//
// Starts the production build under `node --cpu-prof` (the environment `npm run bench` gives it,
// QUERY_COUNT=1, plus QUERY_TIMINGS: db/client.ts then times every statement), signs in, loads the
// page with autocannon, stops the server (SIGTERM: the profile and the timings are written) and
// prints the CPU self-time by area and by function, the CPU per request, the statements per request
// and the slowest statements.
//
//   node scripts/profile-page.mjs user                      a fresh embedded demo database
//   node scripts/profile-page.mjs assignment --pglite <dir> an embedded database already seeded
//   node scripts/profile-page.mjs autosave --db postgres://postgres@127.0.0.1:5432/bench_small
//   options: --duration <s> (20), --connections <n> (8), --out <dir> (/tmp/prof-<case>-<time>)
//
// Cases: user (GET /user), assignment (GET /assignment/:id?section=1), autosave (the autosave POST).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { discover, ensureBuild, fail, seedEmbedded, serverEnv, signIn } from './bench.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const kase = args[0]
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : fallback
}
if (kase === 'summarise') {
  // node scripts/profile-page.mjs summarise <dir>: the areas and functions of a profile already taken.
  const dir = args[1]
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
  const { areas, top } = summarise(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')))
  console.log(JSON.stringify({ areas, top: top.slice(0, 40) }, null, 2))
  process.exit(0)
}
if (!['user', 'assignment', 'autosave'].includes(kase)) fail('Case: user, assignment or autosave.')
const duration = Number(option('duration', 20))
const connections = Number(option('connections', 8))
const out = option('out', `/tmp/prof-${kase}-${Date.now()}`)
const port = Number(option('port', 3449))
fs.mkdirSync(out, { recursive: true })

const url = option('db', null)
const target = url ? { label: 'postgres', url } : { label: 'embedded', url: null }
if (!url) target.pgliteDir = option('pglite', null) ?? seedEmbedded().pgliteDir
ensureBuild()
const found = await discover(target)

const env = serverEnv(target, port, { QUERY_TIMINGS: path.join(out, 'statements.json') })
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${out}`, 'server.mjs'], {
  cwd: ROOT,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
})
const exited = new Promise((resolve) => child.once('exit', resolve))
const base = `http://127.0.0.1:${port}`
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/readyz`)
      .then((r) => r.ok)
      .catch(() => false)
  )
    break
  if (i > 300) fail('The server did not start.')
  await new Promise((r) => setTimeout(r, 200))
}

const server = { url: base }
const role = kase === 'user' ? found.profile.employee : found.profile.answerer
const cookie = await signIn(server, role)
const req = {
  user: { url: `${base}/user`, method: 'GET' },
  assignment: { url: `${base}/assignment/${found.ids.assignment}?section=1`, method: 'GET' },
  autosave: {
    url: `${base}/assignment/${found.ids.assignment}.data`,
    method: 'POST',
    body: found.autosaveBody,
  },
}[kase]
req.headers = { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' }
if (req.body) req.headers['content-type'] = 'application/x-www-form-urlencoded'
const check = await fetch(req.url, {
  method: req.method,
  body: req.body,
  headers: req.headers,
  redirect: 'manual',
})
if (check.status !== 200) fail(`${req.method} ${req.url} answered ${check.status}`)

// Warm up (JIT, caches), then the measured load.
const warm = await autocannon({ ...req, connections, duration: 3 })
const cpuBefore = await cpuOf(child.pid)
const result = await autocannon({ ...req, connections, duration })
const cpuAfter = await cpuOf(child.pid)
const requests = result.requests.total
child.kill('SIGTERM')
await exited

const profileFile = fs.readdirSync(out).find((f) => f.endsWith('.cpuprofile'))
const summary = summarise(JSON.parse(fs.readFileSync(path.join(out, profileFile), 'utf8')))
const statements = JSON.parse(fs.readFileSync(path.join(out, 'statements.json'), 'utf8'))
const totalStatements = statements.reduce((n, s) => n + s.count, 0)
const report = {
  case: kase,
  db: target.label,
  requests,
  reqPerSec: result.requests.average,
  cpuMsPerRequest: (cpuAfter - cpuBefore) / requests,
  // Statements of the whole run ÷ every request served (the sign-in's ten are left out).
  statementsPerRequest: +((totalStatements - 10) / (requests + warm.requests.total + 1)).toFixed(2),
  areas: summary.areas,
  top: summary.top.slice(0, 25),
  statements: statements.slice(0, 12).map((s) => ({
    ms: +(s.totalMs / s.count).toFixed(3),
    count: s.count,
    sql: s.sql.replace(/\s+/g, ' ').slice(0, 160),
  })),
}
fs.writeFileSync(path.join(out, 'summary.json'), JSON.stringify(report, null, 2))
console.log(JSON.stringify(report, null, 2))

/** CPU seconds (user + system) of a process so far, in ms, from /proc. */
async function cpuOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return (ticks * 1000) / 100
}

/** Self time by area (what the file belongs to) and by function, in percent of the sampled time. */
function summarise(profile) {
  const self = new Map()
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const dt = new Map()
  for (let i = 0; i < profile.samples.length; i++)
    dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0))
  let total = 0
  for (const [id, micros] of dt) {
    const node = byId.get(id)
    const { functionName, url, lineNumber } = node.callFrame
    const key = `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + micros)
    total += micros
  }
  const areas = new Map()
  for (const [id, micros] of dt) {
    const area = areaOf(byId.get(id).callFrame)
    areas.set(area, (areas.get(area) ?? 0) + micros)
  }
  const pct = (m) => +((100 * m) / total).toFixed(1)
  return {
    areas: Object.fromEntries([...areas].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, pct(v)])),
    top: [...self].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${pct(v)}% ${k}`),
  }
}

function shortUrl(url) {
  return url.replace(/^file:\/\//, '').replace(ROOT + '/', '')
}

function areaOf({ url, functionName }) {
  if (functionName === '(idle)') return 'idle'
  if (functionName === '(garbage collector)') return 'gc'
  if (functionName === '(program)') return 'program (native, outside JS)'
  if (url.includes('@electric-sql/pglite') || url.startsWith('wasm://')) return 'pglite'
  // PGlite's file system: an fstat on every seek of its data files (issue 17 §2).
  if (!url && /^(fstat|read|write|open|close|fsync|fdatasync|lstat|stat)$/.test(functionName))
    return 'pglite (fs calls)'
  if (url.includes('drizzle-orm')) return 'drizzle'
  if (/node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(url)) return 'node-postgres'
  if (url.includes('react-router') || url.includes('@react-router')) return 'react-router'
  if (url.includes('react-dom') || url.includes('/react/') || url.includes('scheduler')) return 'react'
  if (url.includes('compression') || url.includes('zlib')) return 'compression'
  if (url.includes('node_modules')) return 'other packages'
  if (/\/server\/(index\.js|assets\/)/.test(url)) return 'app (server build)'
  if (url.startsWith('node:') || !url) return 'node internals'
  return 'other'
}
