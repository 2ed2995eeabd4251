import { Writable } from 'node:stream'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { pipeline } from 'node:stream/promises'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { exportCsvStream } from '#app/modules/response/export.server'
import { createAnswersAtScale } from '#tests/support/answers-at-scale'
import { useTestDatabase } from '#tests/support/database'

/**
 * The answer export at scale (ADR 023): 1,000,000 answers, inserted set-based, streamed through the
 * real export into a counting sink while the heap is sampled. Memory must stay flat — the export
 * reads keyset batches, never the whole result. Postgres only (PGlite in memory would hold the
 * million rows in this very process, which is what the test measures).
 */
const onPostgres = inject('testDatabase').kind === 'postgres'
const db = useTestDatabase()

const PEOPLE = 2_500
const RATERS_EACH = 19
const QUESTIONS = 20
const EXPECTED = PEOPLE * (RATERS_EACH + 1) * QUESTIONS // 1,000,000

let schemeId = ''

describe.skipIf(!onPostgres)('exporting 1,000,000 answers', () => {
  beforeAll(async () => {
    ;({ schemeId } = await createAnswersAtScale(db(), {
      people: PEOPLE,
      raters: RATERS_EACH,
      questions: QUESTIONS,
    }))
  }, 240_000)

  test('streams every row with the heap flat', async () => {
    // The heap as it is after a full collection: what the export retains, not garbage waiting for a
    // collector that a busy machine runs late. Sampled every 100,000 rows while the stream runs.
    v8.setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    gc()
    const baseline = process.memoryUsage().heapUsed
    let retained = baseline
    let bytes = 0
    let lines = 0
    let nextSample = 100_000
    const started = Date.now()
    await pipeline(
      exportCsvStream(
        { q: '', scheme: schemeId, company: '', questionnaire: '', relationship: '', state: '' },
        { identities: false },
      ),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length
          for (const b of chunk) if (b === 10) lines++
          if (lines >= nextSample) {
            nextSample += 100_000
            gc()
            retained = Math.max(retained, process.memoryUsage().heapUsed)
          }
          done()
        },
      }),
    )
    const growthMb = (retained - baseline) / 1024 / 1024
    console.log(
      `export: ${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s, retained heap growth ${growthMb.toFixed(1)} MB`,
    )
    expect(lines - 1).toBe(EXPECTED)
    expect(nextSample).toBeGreaterThan(1_000_000)
    // The file is ~190 MB of text (several times that as JS objects): an export that kept its rows
    // would retain hundreds of MB; one batch in flight is a few MB.
    expect(growthMb).toBeLessThan(16)
  }, 300_000)
})
