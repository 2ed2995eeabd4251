import { Writable } from 'node:stream'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { pipeline } from 'node:stream/promises'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { createScheme } from '#db/factories'
import { exportCsvStream } from '#app/modules/answers-admin/export.server'
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
    const scheme = await createScheme({ name: 'Memory 360' })
    schemeId = scheme.id
    const q = scheme.questionnaireId
    await db().execute(sql`DELETE FROM questions WHERE questionnaire_id = ${q}::uuid`)
    await db()
      .execute(sql`INSERT INTO questions (questionnaire_id, position, section_id, section, kind, text, rater_text, category, options)
      SELECT ${q}::uuid, g, (SELECT id FROM questionnaire_sections WHERE questionnaire_id = ${q}::uuid LIMIT 1),
        'Working together', 'scale', 'I do thing ' || g, '{{name}} does thing ' || g, 'Competency ' || (g % 5), '{"min":1,"max":5}'
      FROM generate_series(0, ${QUESTIONS - 1}) g`)
    await db().execute(sql`INSERT INTO users (email, display_name, role, company_id)
      SELECT 'mem' || g || '@example.com', 'Person ' || g, 'employee', ${scheme.companyId}::uuid FROM generate_series(1, ${PEOPLE}) g`)
    await db()
      .execute(sql`WITH p AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS n FROM users WHERE email LIKE 'mem%@example.com')
      INSERT INTO assignments (scheme_id, questionnaire_id, subject_id, respondent_id, relationship, status, submitted_at)
      SELECT ${schemeId}::uuid, ${q}::uuid, s.id, r.id, CASE WHEN k = 0 THEN 'self' ELSE 'peer' END::relationship, 'submitted', now()
      FROM p s CROSS JOIN generate_series(0, ${RATERS_EACH}) k JOIN p r ON r.n = (s.n + k) % ${PEOPLE}`)
    await db().execute(sql`INSERT INTO responses (assignment_id, submitted_at)
      SELECT id, now() FROM assignments WHERE scheme_id = ${schemeId}::uuid`)
    // One statement of a million rows: no statement timeout, and the foreign-key checks (a locking
    // read per row) skipped as seed:scale does.
    await db().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL statement_timeout = 0`)
      await tx.execute(sql`SET LOCAL session_replication_role = replica`)
      await tx.execute(sql`INSERT INTO answers (response_id, question_id, numeric_value, text_value)
      SELECT r.id, qu.id, 1 + (qu.position % 5), CASE WHEN qu.position = 0 THEN '=comment' END
      FROM responses r JOIN assignments a ON a.id = r.assignment_id CROSS JOIN questions qu
      WHERE a.scheme_id = ${schemeId}::uuid AND qu.questionnaire_id = ${q}::uuid`)
    })
    await db().execute(sql`ANALYZE`)
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
