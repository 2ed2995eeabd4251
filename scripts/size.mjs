// `npm run size`: the client JavaScript each page loads, in gzip kB, above what every page loads.
//
// It reads React Router's build manifest (build/client/assets/manifest-*.js, the same file the browser
// gets as window.__reactRouterManifest): every route's module and the chunks it imports, which are
// exactly the <script type="module"> and <link rel="modulepreload"> tags the server renders for that
// page. The floor is the entry (React, React DOM, React Router) plus the root route's chunks: every page
// loads those. Above the floor is what a route adds; the budget is 30 kB gzip on every page an employee
// opens. Chunks a page fetches later by dynamic import (the report's charts, Sentry when a DSN is set)
// are not part of the page's load and are listed apart.
//
//   npm run size                 the table (build/ or BUILD_DIR; run npm run build first)
//   npm run size -- --json       the same as JSON
//   npm run size -- --all        every route, not only the employee pages
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** gzip kB (1 kB = 1,000 bytes, as Vite prints them) an employee page may add above the floor. */
export const BUDGET_KB = 30

/** The pages an employee opens (issue 8 §3), by route id, with an address to print. */
export const EMPLOYEE_ROUTES = [
  { id: 'routes/public/index', url: '/' },
  { id: 'routes/public/sign-in', url: '/sign-in' },
  { id: 'routes/user/home', url: '/user' },
  { id: 'routes/user/colleague-invite', url: '/user/colleague-invite' },
  { id: 'routes/user/nominations', url: '/user/nominations' },
  { id: 'routes/assignment.$id', url: '/assignment/:id' },
  { id: 'routes/user/response', url: '/user/response-:rid (report)' },
  // The development plan and a report shared with the manager (issue 19, ADR 043).
  { id: 'routes/user/development-plan', url: '/user/development-plan/:rid' },
  { id: 'routes/user/shared', url: '/user/shared/:rid' },
]

/** The manifest the last build wrote (the newest, should an old one have stayed behind). */
export function readManifest(buildDir) {
  const client = path.join(buildDir, 'client')
  const assets = path.join(client, 'assets')
  if (!fs.existsSync(assets)) throw new Error(`No client build in ${client}: run npm run build first.`)
  const files = fs
    .readdirSync(client)
    .concat(fs.readdirSync(assets).map((f) => path.join('assets', f)))
    .filter((f) => /(^|\/)manifest-[\w-]+\.js$/.test(f))
    .map((f) => path.join(client, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)
  if (!files.length) throw new Error(`No React Router manifest (manifest-*.js) in ${client}.`)
  const text = fs.readFileSync(files[0], 'utf8').trim()
  const json = text.replace(/^window\.__reactRouterManifest\s*=\s*/, '').replace(/;$/, '')
  return JSON.parse(json)
}

/**
 * Every route's client JS: the chunks its page loads and their gzip size, with the floor taken out.
 * Sizes are of the files as built, gzipped at zlib's default level (what a server compresses with).
 */
export function measure(buildDir = path.resolve(ROOT, process.env.BUILD_DIR || 'build')) {
  const manifest = readManifest(buildDir)
  const client = path.join(buildDir, 'client')
  const sizes = new Map()
  const gz = (url) => {
    if (!sizes.has(url)) {
      const file = path.join(client, url.replace(/^\//, ''))
      const bytes = fs.readFileSync(file)
      sizes.set(url, { raw: bytes.length, gzip: zlib.gzipSync(bytes).length })
    }
    return sizes.get(url)
  }
  const chunksOf = (entry) => [entry.module, ...(entry.imports ?? [])]
  const root = manifest.routes.root
  const floor = [...new Set([...chunksOf(manifest.entry), ...chunksOf(root)])]
  const total = (urls) => urls.reduce((sum, url) => sum + gz(url).gzip, 0)

  // Chunks reached only by dynamic import: in the build, not in any page's list.
  const loaded = new Set(floor)
  const routes = Object.values(manifest.routes)
    .filter((r) => r.id !== 'root')
    .map((r) => {
      // A route's page also loads its parents' chunks (all of them are root's children here).
      const parents = []
      for (let p = r.parentId; p && p !== 'root'; p = manifest.routes[p]?.parentId)
        parents.push(manifest.routes[p])
      const chunks = [...new Set([...chunksOf(r), ...parents.flatMap(chunksOf)])]
      for (const c of chunks) loaded.add(c)
      const above = chunks.filter((c) => !floor.includes(c))
      return {
        id: r.id,
        path: r.index ? '/' : `/${r.path ?? ''}`,
        chunks: above.map((url) => ({ url, gzip: gz(url).gzip })).sort((a, b) => b.gzip - a.gzip),
        gzip: total(above),
      }
    })
  const lazy = fs
    .readdirSync(path.join(client, 'assets'))
    .filter((f) => f.endsWith('.js') && !/^manifest-/.test(f))
    .map((f) => `/assets/${f}`)
    .filter((url) => !loaded.has(url))
    .map((url) => ({ url, gzip: gz(url).gzip }))
    .sort((a, b) => b.gzip - a.gzip)
  const employee = EMPLOYEE_ROUTES.map(({ id, url }) => {
    const route = routes.find((r) => r.id === id)
    if (!route) throw new Error(`The build has no route ${id}.`)
    return { ...route, url, withinBudget: route.gzip <= BUDGET_KB * 1000 }
  })
  return {
    buildDir,
    budgetKb: BUDGET_KB,
    floor: { chunks: floor.map((url) => ({ url, gzip: gz(url).gzip })), gzip: total(floor) },
    employee,
    routes,
    lazy,
  }
}

const kb = (bytes) => (bytes / 1000).toFixed(1)

function print(result, all) {
  const out = []
  out.push(
    `Client JS per page, gzip kB (1 kB = 1,000 bytes) — ${path.relative(ROOT, result.buildDir) || '.'}`,
  )
  out.push(
    `floor (entry + root, every page): ${kb(result.floor.gzip)} kB — ` +
      result.floor.chunks.map((c) => `${path.basename(c.url)} ${kb(c.gzip)}`).join(', '),
  )
  out.push('')
  const rows = (all ? result.routes.map((r) => ({ ...r, url: r.path })) : result.employee).map((r) => {
    const budget = result.employee.find((e) => e.id === r.id)
    return [
      r.url,
      kb(r.gzip),
      budget ? `≤ ${result.budgetKb} ${budget.withinBudget ? '✓' : '✗'}` : '',
      r.chunks
        .slice(0, 4)
        .map((c) => `${path.basename(c.url)} ${kb(c.gzip)}`)
        .join(', ') + (r.chunks.length > 4 ? ', …' : ''),
    ]
  })
  const headers = ['page', 'above floor', 'budget', 'largest chunks above the floor']
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells) =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  out.push(line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line))
  if (result.lazy.length) {
    out.push('')
    out.push(
      `loaded on demand only: ${result.lazy
        .filter((c) => c.gzip >= 1000)
        .map((c) => `${path.basename(c.url)} ${kb(c.gzip)}`)
        .join(', ')}`,
    )
  }
  return out.join('\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  let result
  try {
    result = measure()
  } catch (error) {
    console.error(error.message)
    process.exit(2)
  }
  if (args.includes('--json')) console.log(JSON.stringify(result, null, 2))
  else console.log(print(result, args.includes('--all')))
  // Like a test: a page over the budget fails the command (so CI can run it after the build).
  process.exit(result.employee.every((r) => r.withinBudget) ? 0 : 1)
}
