import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { PROJECT_ROOT, runNode } from '#tests/support/run-node'

/**
 * Issue 8 §3: every page an employee opens loads at most 30 kB gzip of JavaScript above the floor
 * (the entry — React, React DOM, React Router — and the root route's chunks, which every page loads),
 * measured by `npm run size` on the production build. A size, not a time: it depends on the build
 * alone. Needs `npm run build` first, like the other tests of the built server.
 */

type Chunk = { url: string; gzip: number }
type SizeReport = {
  budgetKb: number
  floor: { chunks: Chunk[]; gzip: number }
  employee: Array<{ id: string; url: string; gzip: number; chunks: Chunk[]; withinBudget: boolean }>
  routes: Array<{ id: string; chunks: Chunk[] }>
  lazy: Chunk[]
}

async function size(): Promise<{ status: number | null; report: SizeReport }> {
  const run = await runNode(['scripts/size.mjs', '--json'], {}, 60_000)
  expect(run.stdout, run.stderr).not.toBe('')
  return { status: run.status, report: JSON.parse(run.stdout) as SizeReport }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

test('every employee page loads at most 30 kB gzip of client JS above the floor', async () => {
  const { status, report } = await size()
  expect(report.budgetKb).toBe(30)
  expect(report.employee.map((r) => r.url)).toEqual([
    '/',
    '/sign-in',
    '/user',
    '/user/colleague-invite',
    // An employee's list of raters, and the manager's review of it (ADR 042).
    '/user/nominations',
    '/assignment/:id',
    '/user/response-:rid (report)',
    // The development plan and a report shared with the manager (ADR 043).
    '/user/development-plan/:rid',
    '/user/shared/:rid',
  ])
  // The floor is React and React Router (≈ 113 kB) plus the root's few kB, nothing a page could shed.
  expect(report.floor.gzip).toBeGreaterThan(100_000)
  for (const page of report.employee) {
    const chunks = page.chunks.map((c) => `${path.basename(c.url)} ${kb(c.gzip)}`).join(', ')
    expect(page.gzip, `${page.url}: ${kb(page.gzip)} above the floor (${chunks})`).toBeLessThanOrEqual(30_000)
  }
  // The command fails (exit 1) when a page is over, so CI can run it right after the build.
  expect(status).toBe(0)
})

test('Chart.js and Sentry are fetched only where they are used, never with a page', async () => {
  const { report } = await size()
  const loadedWithAPage = new Set([
    ...report.floor.chunks.map((c) => c.url),
    ...report.routes.flatMap((r) => r.chunks.map((c) => c.url)),
  ])
  for (const name of [/\/charts\.client-/, /\/sentry\.client-/]) {
    expect(report.lazy.some((c) => name.test(c.url))).toBe(true)
    expect([...loadedWithAPage].filter((url) => name.test(url))).toEqual([])
  }
})

test("classic Zod stays on the server: the browser's forms run Zod Mini", () => {
  // Classic Zod's constructors are named ZodString, ZodObject…; Zod Mini's ZodMiniString… (the
  // names survive minification: Zod registers them as strings). Classic Zod in the browser build
  // costs every page with a form ≈ 13 kB gzip more.
  const assets = path.resolve(PROJECT_ROOT, process.env.BUILD_DIR || 'build', 'client', 'assets')
  const classic = fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .filter((f) => /["'`]ZodObject["'`]/.test(fs.readFileSync(path.join(assets, f), 'utf8')))
  expect(classic).toEqual([])
})
