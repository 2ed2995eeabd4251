import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { getHandle, queryRows } from '#db/client'
import { auditLog } from '#db/schema/index'
import { isStorableText } from '#app/lib/text-rules'
import { recordAudit } from '#app/modules/audit/audit.server'
import { useTestDatabase } from '#tests/support/database'

/**
 * Issue 15, A5: the shared text rule (app/lib/text-rules.ts) takes exactly the strings Postgres
 * stores unchanged, in a text column and in jsonb, on the driver this run uses (node-postgres with
 * TEST_DATABASE_URL, PGlite with TEST_DATABASE=pglite; run both). Before, the rule let half of a
 * surrogate pair through: text turned it into U+FFFD without a word, jsonb refused it (a 500).
 */
const db = useTestDatabase()

type Trip = { text: string | null; json: string | null }

/** The string as Postgres gives it back from text and from jsonb; null where Postgres refused it. */
async function roundTrip(value: string): Promise<Trip> {
  const attempt = async (query: ReturnType<typeof sql>) => {
    try {
      const [row] = await queryRows<{ v: unknown }>(db(), query)
      return row!.v
    } catch {
      return null
    }
  }
  const text = (await attempt(sql`SELECT ${value}::text AS v`)) as string | null
  // jsonb as drivers send it: the JSON text (JSON.stringify escapes a lone surrogate as \ud800).
  const json = (await attempt(sql`SELECT (${JSON.stringify({ v: value })}::jsonb ->> 'v') AS v`)) as
    string | null
  return { text, json }
}

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      ' ',
      'é',
      '\u0000',
      '\u0001',
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\ud83d\ude00',
      '\ufffd',
      '\uffff',
    ),
    maxLength: 12,
  }),
)

describe(`the text rule against ${getHandleKind()}`, () => {
  test('a string the rule takes round-trips through text and jsonb unchanged; one it refuses does not', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (value) => {
        const trip = await roundTrip(value)
        const unchanged = trip.text === value && trip.json === value
        expect(unchanged, JSON.stringify({ value, trip })).toBe(isStorableText(value))
      }),
      { numRuns: 300 },
    )
  })

  test.each([
    ['NUL', 'a\u0000b', { text: null, json: null }],
    ['a high half alone', 'a\ud800b', { text: 'a\ufffdb', json: null }],
    ['a low half alone', 'a\udfffb', { text: 'a\ufffdb', json: null }],
  ])('%s: what the driver does with it', async (_label, value, expected) => {
    expect(isStorableText(value)).toBe(false)
    expect(await roundTrip(value)).toEqual(expected)
  })

  test('the audit log, the last line of defence, records such details with U+FFFD instead of failing', async () => {
    const entityId = crypto.randomUUID()
    await recordAudit(db(), {
      actorId: null,
      action: 'test.unstorable',
      entity: 'questionnaire',
      entityId,
      details: { title: 'Lead\ud800ership', nested: [{ 'k\u0000': 'v\udc00' }], n: 1 },
    })
    const [row] = await db().select().from(auditLog).where(eq(auditLog.entityId, entityId))
    expect(row!.details).toEqual({ title: 'Lead\ufffdership', nested: [{ 'k\ufffd': 'v\ufffd' }], n: 1 })
  })
})

function getHandleKind() {
  try {
    return getHandle().kind
  } catch {
    return process.env.TEST_DATABASE === 'pglite' ? 'PGlite' : 'Postgres'
  }
}
