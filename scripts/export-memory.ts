// `npm run export-memory`: the answer export (ADR 023) run against DATABASE_URL — meant for
// `npm run seed:scale` data — into a counting sink. Prints rows, bytes, seconds and peak RSS, so the
// "constant memory" claim has a number. Options: --scheme <uuid>, --state submitted|…, --identities,
// --limit-rows N (stop early), --json.
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { closeDatabase, openDatabase } from '#db/client'
import { exportCsvStream } from '#app/modules/response/export.server'
import { parseResponseFilters } from '#app/modules/response/schemas'

const args = process.argv.slice(2)
const option = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const url = process.env.DATABASE_URL
if (!url) {
  console.error('Set DATABASE_URL to a Postgres database holding seed:scale data.')
  process.exit(1)
}
process.env.SESSION_SECRET ??= 'export-memory-measurement-secret-0123456789'
await openDatabase({ url })
const params = new URLSearchParams()
for (const key of ['scheme', 'company', 'questionnaire', 'relationship', 'state', 'q']) {
  const value = option(key)
  if (value) params.set(key, value)
}
const { query, problems } = parseResponseFilters(params)
if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}

let peakRss = process.memoryUsage().rss
const startRss = peakRss
const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25)
let bytes = 0
let lines = 0
const started = performance.now()
await pipeline(
  exportCsvStream(query, { identities: args.includes('--identities') }),
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length
      for (const b of chunk) if (b === 10) lines++
      done()
    },
  }),
)
clearInterval(timer)
peakRss = Math.max(peakRss, process.memoryUsage().rss)
const result = {
  rows: lines - 1,
  megabytes: +(bytes / 1024 / 1024).toFixed(1),
  seconds: +((performance.now() - started) / 1000).toFixed(1),
  startRssMb: +(startRss / 1024 / 1024).toFixed(0),
  peakRssMb: +(peakRss / 1024 / 1024).toFixed(0),
}
const print = (line: string) => process.stdout.write(`${line}\n`)
if (args.includes('--json')) print(JSON.stringify(result))
else
  print(
    `answer export: ${result.rows.toLocaleString('en-GB')} rows, ${result.megabytes} MB in ${result.seconds} s; ` +
      `RSS ${result.startRssMb} MB at start, peak ${result.peakRssMb} MB`,
  )
await closeDatabase()
