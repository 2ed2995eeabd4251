import crypto from 'node:crypto'
import { sql } from 'drizzle-orm'
import { queryRows, type Tx } from '#db/client'
import { getEnv } from '#app/config/env.server'
import { anonymousOrder, type GroupSizeRow, type OrderedComment, type QuestionRow } from './report'
import { threshold } from './threshold'

/**
 * A release's colleague figures, computed once (issue 17, ADR 037). A released report never changes
 * until the next release (ADR 022), so the colleagues' side of it — the aggregates per question and
 * relationship group, how many colleagues each group holds, and the comments in their keyed order —
 * is computed when the release is made and stored on its row (report_releases.colleague_figures).
 * The report page reads it with its header and never aggregates colleague answers itself.
 *
 * What is stored is what the SQL gate lets out: nothing for a release below its threshold or of the
 * self-assessment alone (no row leaves report_release_* then), and no answer id (the comments are
 * stored already in their keyed order). Which of the stored figures the page shows — per question,
 * per group — is still decided on every view by the pure rules of report.ts, so a scheme whose
 * threshold or manager option changes later reads exactly as it would have.
 */

/**
 * The keyed hash that orders comments. The key is the server's secret, so someone who knows their
 * colleagues' assignment ids (the invite page shows them in forms) still cannot work out which
 * comment is whose; the salt (the report's self response id) makes each report's order its own.
 * The order is fixed when the release is computed, so the same report always reads the same way.
 */
export function anonymousKey(secret: string, salt: string, id: string): string {
  return crypto.createHmac('sha256', `report-order:${secret}`).update(`${salt}:${id}`).digest('hex')
}

/** The colleague columns of a report question row (report.ts QuestionRow), keyed by question id. */
export type ColleagueQuestionFigures = Pick<
  QuestionRow,
  'id' | 'avg' | 'answered' | 'na' | 'distribution' | 'option_counts' | 'groups'
>

export type ReleasedFigures = {
  questions: ColleagueQuestionFigures[]
  groupSizes: GroupSizeRow[]
  comments: OrderedComment[]
}

/** A release to compute: its id, the self response that salts its comment order, its threshold. */
export type FigureTarget = { releaseId: string; selfResponseId: string; minRaters: number }

const pgArray = (values: readonly (string | number)[]) => `{${values.join(',')}}`

/**
 * Computes and stores the figures of every target release in a fixed number of statements (three
 * reads and one write, however many releases). A release whose copied colleagues do not reach its
 * threshold gets nothing: the gate runs here, in SQL, as it did on the page before.
 */
export async function storeReleasedFigures(tx: Tx, targets: readonly FigureTarget[]) {
  const figures = await computeReleasedFigures(tx, targets)
  if (!figures.size) return figures
  await tx.execute(
    sql`UPDATE report_releases rr SET colleague_figures = v.value
      FROM jsonb_each(${JSON.stringify(Object.fromEntries(figures))}::jsonb) AS v(key, value)
      WHERE rr.id = v.key::uuid`,
  )
  return figures
}

async function computeReleasedFigures(tx: Tx, targets: readonly FigureTarget[]) {
  const result = new Map<string, ReleasedFigures>()
  if (!targets.length) return result
  const chosen = sql`chosen AS (
      SELECT * FROM unnest(
        ${pgArray(targets.map((t) => t.releaseId))}::uuid[],
        ${pgArray(targets.map((t) => threshold(t.minRaters)))}::int[]
      ) AS c(release_id, needed)
    ),
    raters AS (
      SELECT x.id AS release_response_id, x.release_id, x.relationship
      FROM chosen c
      JOIN report_release_responses x ON x.release_id = c.release_id
      WHERE (SELECT count(*) FROM report_release_responses y WHERE y.release_id = c.release_id) >= c.needed
    )`
  const questions = await queryRows<ColleagueQuestionFigures & { release_id: string }>(
    tx,
    sql`WITH ${chosen},
    rater_answers AS (
      SELECT ra.release_id, an.question_id, an.numeric_value, an.not_applicable, an.text_value,
        ra.relationship,
        CASE WHEN jsonb_typeof(an.choices) = 'array' THEN an.choices ELSE '[]'::jsonb END AS choices
      FROM raters ra
      JOIN report_release_answers an ON an.release_response_id = ra.release_response_id
    ),
    by_group AS (
      SELECT release_id, question_id,
        jsonb_object_agg(relationship::text, jsonb_build_object('n', n, 'sum', total)) AS groups
      FROM (
        SELECT release_id, question_id, relationship, count(*)::int AS n, sum(numeric_value)::float8 AS total
        FROM rater_answers
        WHERE NOT not_applicable AND numeric_value IS NOT NULL
        GROUP BY release_id, question_id, relationship
      ) g
      GROUP BY release_id, question_id
    ),
    stats AS (
      SELECT release_id, question_id,
        avg(numeric_value) FILTER (WHERE NOT not_applicable)::float8 AS avg,
        count(*) FILTER (
          WHERE NOT not_applicable
            AND (numeric_value IS NOT NULL OR jsonb_array_length(choices) > 0
              OR btrim(coalesce(text_value, '')) <> '')
        )::int AS answered,
        count(*) FILTER (WHERE not_applicable)::int AS na
      FROM rater_answers
      GROUP BY release_id, question_id
    ),
    dist AS (
      SELECT release_id, question_id, jsonb_object_agg(numeric_value::text, n) AS counts
      FROM (
        SELECT release_id, question_id, numeric_value, count(*)::int AS n
        FROM rater_answers
        WHERE NOT not_applicable AND numeric_value IS NOT NULL
        GROUP BY release_id, question_id, numeric_value
      ) d
      GROUP BY release_id, question_id
    ),
    picks AS (
      SELECT release_id, question_id, jsonb_object_agg(choice, n) AS counts
      FROM (
        SELECT ra.release_id, ra.question_id, c.choice, count(*)::int AS n
        FROM rater_answers ra
        CROSS JOIN LATERAL jsonb_array_elements_text(ra.choices) AS c(choice)
        WHERE NOT ra.not_applicable
        GROUP BY ra.release_id, ra.question_id, c.choice
      ) p
      GROUP BY release_id, question_id
    )
    SELECT stats.release_id, stats.question_id AS id, stats.avg, stats.answered, stats.na,
      dist.counts AS distribution, picks.counts AS option_counts, by_group.groups
    FROM stats
    LEFT JOIN dist USING (release_id, question_id)
    LEFT JOIN picks USING (release_id, question_id)
    LEFT JOIN by_group USING (release_id, question_id)
    ORDER BY stats.release_id, stats.question_id`,
  )
  const groupSizes = await queryRows<GroupSizeRow & { release_id: string }>(
    tx,
    sql`WITH ${chosen}
    SELECT release_id, relationship::text AS relationship, count(*)::int AS raters
    FROM raters
    GROUP BY release_id, relationship
    ORDER BY release_id, relationship`,
  )
  const comments = await queryRows<{
    release_id: string
    answer_id: string
    question_id: string
    text_value: string
  }>(
    tx,
    sql`WITH ${chosen}
    SELECT ra.release_id, an.source_answer_id AS answer_id, an.question_id, an.text_value
    FROM raters ra
    JOIN report_release_answers an ON an.release_response_id = ra.release_response_id
    JOIN questions q ON q.id = an.question_id
    WHERE q.kind IN ('text', 'textarea')
      AND NOT an.not_applicable
      AND btrim(coalesce(an.text_value, '')) <> ''`,
  )
  // A release whose colleagues pass the gate has at least one group size; the others get nothing.
  for (const row of groupSizes) {
    const figures = result.get(row.release_id) ?? { questions: [], groupSizes: [], comments: [] }
    figures.groupSizes.push({ relationship: row.relationship, raters: row.raters })
    result.set(row.release_id, figures)
  }
  for (const { release_id, ...row } of questions) result.get(release_id)?.questions.push(row)
  const commentsOf = new Map<string, typeof comments>()
  for (const c of comments) {
    const list = commentsOf.get(c.release_id) ?? []
    list.push(c)
    commentsOf.set(c.release_id, list)
  }
  const secret = getEnv().SESSION_SECRET
  for (const target of targets) {
    const figures = result.get(target.releaseId)
    if (!figures) continue
    const keyOf = (id: string) => anonymousKey(secret, target.selfResponseId, id)
    const own = commentsOf.get(target.releaseId) ?? []
    figures.comments = anonymousOrder(own, (c) => c.answer_id, keyOf).map((c) => ({
      question_id: c.question_id,
      text_value: c.text_value,
    }))
  }
  return result
}
