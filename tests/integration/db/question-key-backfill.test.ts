import fs from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { questionnaires, questions } from '#db/schema/index'
import { createQuestionnaire } from '#db/factories'
import { useTestDatabase } from '#tests/support/database'

/**
 * The hand-written backfill of migration 0028 (issue 19 §5, ADR 044): run against a line of three
 * versions whose keys are all different (as the column's default left them), it gives the copies of
 * a question the key of the version before, along the line; a reworded question keeps its own, and
 * two questions of the same wording in one version never share a key.
 */
const db = useTestDatabase()

const MIGRATION = fs
  .readdirSync('migrations')
  .find((name) => /^\d{4}_repeat-cycles-and-norms\.sql$/.test(name))!
const text = fs.readFileSync(`migrations/${MIGRATION}`, 'utf8')
/** The hand-written block at the end of the migration (kept apart so it can be re-appended). */
const BACKFILL = text.slice(text.indexOf('-- hand-written (helper D)'))

const q = (text: string) => ({
  section: 'S',
  kind: 'scale' as const,
  text,
  raterText: `{{name}}: ${text}`,
  category: 'C',
  options: { min: 1, max: 5, labels: ['a', 'b', 'c', 'd', 'e'], allowNa: false },
})

test('the backfill carries keys along a line, version by version', async () => {
  expect(MIGRATION).toBeDefined()
  const v1 = await createQuestionnaire({ questions: [q('Same'), q('Twice'), q('Twice'), q('Old wording')] })
  const v2 = await createQuestionnaire({ questions: [q('Twice'), q('Same'), q('New wording'), q('Twice')] })
  const v3 = await createQuestionnaire({ questions: [q('Same'), q('New wording')] })
  const other = await createQuestionnaire({ questions: [q('Same')] })
  await db()
    .update(questionnaires)
    .set({ lineageId: v1.id, version: 2, parentId: v1.id })
    .where(eq(questionnaires.id, v2.id))
  await db()
    .update(questionnaires)
    .set({ lineageId: v1.id, version: 3, parentId: v2.id })
    .where(eq(questionnaires.id, v3.id))

  await db().execute(sql.raw(BACKFILL))

  const keys = async (id: string) =>
    (
      await db().select().from(questions).where(eq(questions.questionnaireId, id)).orderBy(questions.position)
    ).map((r) => r.key)
  const [same, twiceA, twiceB, old] = await keys(v1.id)
  const [twice2A, same2, newWording, twice2B] = await keys(v2.id)
  const [same3, newWording3] = await keys(v3.id)
  expect(same2).toBe(same)
  expect(same3).toBe(same)
  // The n-th "Twice" takes the n-th key: two copies never share one.
  expect([twice2A, twice2B]).toEqual([twiceA, twiceB])
  // A reworded question is a new one; it travels on from the version that introduced it.
  expect(newWording).not.toBe(old)
  expect(newWording3).toBe(newWording)
  // Another line is untouched.
  expect((await keys(other.id))[0]).not.toBe(same)
})
