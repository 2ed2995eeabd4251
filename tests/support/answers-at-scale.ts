import { sql } from 'drizzle-orm'
import { createScheme } from '#db/factories'
import type { getDb } from '#db/client'

/**
 * A scheme with people × (raters + 1) submitted responses of `questions` answers each, inserted
 * set-based (a million answers in seconds on Postgres): for the export's memory tests. Every person
 * is a subject with a self response and `raters` peers; the first question's text starts with `=`
 * (a formula the export must neutralise).
 */
export async function createAnswersAtScale(
  db: ReturnType<typeof getDb>,
  { people, raters, questions }: { people: number; raters: number; questions: number },
) {
  const scheme = await createScheme({ name: 'Memory 360' })
  const schemeId = scheme.id
  const q = scheme.questionnaireId
  await db.execute(sql`DELETE FROM questions WHERE questionnaire_id = ${q}::uuid`)
  await db.execute(sql`INSERT INTO questions (questionnaire_id, position, section_id, section, kind, text, rater_text, category, options)
    SELECT ${q}::uuid, g, (SELECT id FROM questionnaire_sections WHERE questionnaire_id = ${q}::uuid LIMIT 1),
      'Working together', 'scale', 'I do thing ' || g, '{{name}} does thing ' || g, 'Competency ' || (g % 5), '{"min":1,"max":5}'
    FROM generate_series(0, ${questions - 1}) g`)
  await db.execute(sql`INSERT INTO users (email, display_name, role, company_id)
    SELECT 'mem' || g || '@example.com', 'Person ' || g, 'employee', ${scheme.companyId}::uuid FROM generate_series(1, ${people}) g`)
  await db.execute(sql`WITH p AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS n FROM users WHERE email LIKE 'mem%@example.com')
    INSERT INTO assignments (scheme_id, questionnaire_id, subject_id, respondent_id, relationship, status, submitted_at)
    SELECT ${schemeId}::uuid, ${q}::uuid, s.id, r.id, CASE WHEN k = 0 THEN 'self' ELSE 'peer' END::relationship, 'submitted', now()
    FROM p s CROSS JOIN generate_series(0, ${raters}) k JOIN p r ON r.n = (s.n + k) % ${people}`)
  await db.execute(sql`INSERT INTO responses (assignment_id, submitted_at)
    SELECT id, now() FROM assignments WHERE scheme_id = ${schemeId}::uuid`)
  // One statement of a million rows: no statement timeout, and the foreign-key checks (a locking
  // read per row) skipped as seed:scale does.
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL statement_timeout = 0`)
    await tx.execute(sql`SET LOCAL session_replication_role = replica`)
    await tx.execute(sql`INSERT INTO answers (response_id, question_id, numeric_value, text_value)
    SELECT r.id, qu.id, 1 + (qu.position % 5), CASE WHEN qu.position = 0 THEN '=comment' END
    FROM responses r JOIN assignments a ON a.id = r.assignment_id CROSS JOIN questions qu
    WHERE a.scheme_id = ${schemeId}::uuid AND qu.questionnaire_id = ${q}::uuid`)
  })
  await db.execute(sql`ANALYZE`)
  return { schemeId, answers: people * (raters + 1) * questions }
}
