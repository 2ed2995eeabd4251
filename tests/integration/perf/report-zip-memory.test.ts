import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { pipeline } from 'node:stream/promises'
import yauzl from 'yauzl'
import { expect, test } from 'vitest'
import { createRaterAssignment, createResponse, createUser, enrolEmployee } from '#db/factories'
import { releaseScheme } from '#app/modules/report/release.server'
import { useTestDatabase } from '#tests/support/database'
import { send, sessionCookieFor, useTestServer } from '#tests/support/app'
import { answersFor, buildReport } from '#tests/integration/journey/report-scenario'

/**
 * The ZIP of a scheme's released reports streams (issue 19 §7, ADR 046): one PDF printed, added and
 * sent before the next, so the server's memory does not grow with the number of reports. Always on
 * with 3 reports; `PDF_ZIP_REPORTS=200` measures the figure the README quotes (≈ 5 minutes on two idle
 * cores). Prints the server's peak RSS (this process: the test server runs in it), Chromium's
 * (its processes together), the ZIP's size and the time per report.
 */
useTestDatabase()
const server = useTestServer()
const REPORTS = Number(process.env.PDF_ZIP_REPORTS ?? 3)

/**
 * Memory of this process's descendants (Chromium's browser, GPU and renderer processes), in bytes:
 * their proportional set size (shared pages counted once across them), else their RSS.
 */
function childrenRss(): number {
  const parents = new Map<number, number>()
  const rss = new Map<number, number>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8')
      parents.set(Number(entry), Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0))
      let kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0)
      try {
        const rollup = fs.readFileSync(`/proc/${entry}/smaps_rollup`, 'utf8')
        kb = Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? kb)
      } catch {
        // no smaps_rollup (older kernels): RSS it is
      }
      rss.set(Number(entry), kb * 1024)
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p && hops < 10; p = parents.get(p), hops++)
      if (p === process.pid) return true
    return false
  }
  let total = 0
  for (const [pid, bytes] of rss) if (descends(pid)) total += bytes
  return total
}

function countEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'))
      const names: string[] = []
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName)
        zip.readEntry()
      })
      zip.on('end', () => resolve(names))
      zip.on('error', reject)
      zip.readEntry()
    })
  })
}

test(
  `a ZIP of ${REPORTS} released reports streams at a steady memory`,
  async () => {
    const building = performance.now()
    const first = await buildReport({ minRaters: 3, raters: [{}, {}, {}], release: false })
    for (let i = 1; i < REPORTS; i++) {
      const employee = await createUser({ role: 'employee', displayName: `Zip Person ${i}`, password: null })
      const self = (await enrolEmployee(first.scheme, employee.id))!
      await createResponse({ assignmentId: self.id, answers: answersFor(first.qs), submitted: true })
      for (let r = 0; r < 3; r++) {
        const rater = await createUser({ role: 'colleague', password: null })
        const assignment = await createRaterAssignment({
          scheme: first.scheme,
          subjectId: employee.id,
          respondentId: rater.id,
        })
        await createResponse({
          assignmentId: assignment.id,
          answers: answersFor(first.qs, { value: 2 + ((i + r) % 4) }),
          submitted: true,
        })
      }
    }
    const admin = await createUser({ role: 'admin', password: null })
    const releasing = performance.now()
    const released = await releaseScheme({ id: admin.id }, first.scheme.id)
    expect(released.ok && released.value.released).toBe(REPORTS)
    console.info(
      `report ZIP: ${REPORTS} reports built in ${((releasing - building) / 1000).toFixed(1)} s, ` +
        `released in ${((performance.now() - releasing) / 1000).toFixed(1)} s`,
    )

    const file = path.join(os.tmpdir(), `wtc-report-zip-${process.pid}.zip`)
    let bytes = 0
    const startRss = process.memoryUsage().rss
    let peakRss = startRss
    let peakChromium = 0
    // The server's RSS over the download, to tell a steady level (the first request loads the app's
    // modules and the browser's pages warm up) from growth with the number of reports.
    const series: { at: number; rss: number }[] = []
    const sample = () => {
      const rss = process.memoryUsage().rss
      series.push({ at: performance.now(), rss })
      peakRss = Math.max(peakRss, rss)
      peakChromium = Math.max(peakChromium, childrenRss())
    }
    const timer = setInterval(sample, 250)
    const started = performance.now()
    const response = await send(server, `/admin/scheme-management/${first.scheme.id}/reports.zip`, {
      cookie: await sessionCookieFor(admin.id),
    })
    expect(response.status).toBe(200)
    const out = fs.createWriteStream(file)
    await pipeline(
      Readable.fromWeb(response.body! as NodeReadableStream<Uint8Array>),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length
          out.write(chunk, done)
        },
        final(done) {
          out.end(done)
        },
      }),
    )
    clearInterval(timer)
    sample()
    const seconds = (performance.now() - started) / 1000
    const names = await countEntries(file)
    fs.rmSync(file, { force: true })
    const mb = (n: number) => Math.round(n / 1024 / 1024)
    // The highest RSS in each tenth of the download's time.
    const tenths = Array.from({ length: 10 }, (_, i) =>
      Math.max(
        0,
        ...series
          .filter(
            (s) =>
              s.at - started >= (i * seconds * 1000) / 10 &&
              s.at - started <= ((i + 1) * seconds * 1000) / 10,
          )
          .map((s) => s.rss),
      ),
    )
    console.info(`report ZIP: server RSS by tenth of the download (MB): ${tenths.map(mb).join(', ')}`)
    console.info(
      `report ZIP: ${names.length} PDFs, ${mb(bytes)} MB in ${seconds.toFixed(1)} s ` +
        `(${(seconds / names.length).toFixed(2)} s a report); server RSS ${mb(startRss)} MB at start, ` +
        `peak ${mb(peakRss)} MB; Chromium peak ${mb(peakChromium)} MB (PSS)`,
    )
    expect(names).toHaveLength(REPORTS)
    expect(new Set(names).size).toBe(REPORTS)
    expect(names.every((name) => /^feedback-report-[a-z0-9-]+-[0-9a-f]{8}\.pdf$/.test(name))).toBe(true)
    // Streaming: the server holds at most the PDF being sent and the next, never the ZIP. Its first
    // tenth includes loading the app (the first request) and the first PDFs: from there on, the
    // level must not grow with the reports (a ZIP held whole would add its size).
    const warm = Math.max(tenths[0]!, tenths[1]!)
    expect(peakRss - startRss).toBeLessThan(Math.max(600 * 1024 * 1024, bytes / 2))
    expect(Math.max(...tenths.slice(2)) - warm).toBeLessThan(Math.max(150 * 1024 * 1024, bytes / 2))
  },
  120_000 + REPORTS * 30_000,
)
