/**
 * The oracle for issue 17's precomputed report (ADR 037): the report as app/modules/report/
 * report.server.ts computed it on every page view until then (commit c4e23d3) — every aggregate in
 * SQL over the latest release's copies, the gate applied in SQL and again in shapeReport, comments
 * ordered by the keyed hash on each view. Kept verbatim (imports aside) so the tests can prove that
 * what the page now reads from the figures stored at release time is exactly what this computes.
 */
import { sql, type SQL } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { getEnv } from '#app/config/env.server'
import { anonymousKey } from '#app/modules/report/released-figures.server'
import {
  anonymityGate,
  shapeReport,
  type CategoryRow,
  type CommentRow,
  type GroupSizeRow,
  type HeaderRow,
  type QuestionRow,
  type ReportData,
} from '#app/modules/report/report'
import { threshold } from '#app/modules/report/threshold'

/**
 * The counted colleagues: the responses copied by the subject's latest release (ADR 022), never the
 * live ones, so nothing submitted, reopened or edited after the release changes the report. The
 * gate is applied again here on the snapshot's count, so no colleague row leaves the database below
 * the threshold; with no release there are no rows at all.
 */
function ratersCte(header: HeaderRow, open: boolean): SQL {
  return sql`counted AS (
    SELECT x.id AS release_response_id, x.relationship
    FROM report_release_responses x
    WHERE ${open}::boolean AND x.release_id = ${header.release_id ?? null}::uuid
  ),
  raters AS (
    SELECT * FROM counted WHERE (SELECT count(*) FROM counted) >= ${threshold(Number(header.min_raters))}::int
  )`
}

async function headerOf(tx: Tx, responseId: string) {
  const [row] = await queryRows<HeaderRow>(
    tx,
    sql`
    SELECT
      r.id AS response_id,
      a.id AS self_assignment_id,
      a.subject_id,
      a.scheme_id,
      a.questionnaire_id,
      u.display_name AS subject_name,
      s.name AS scheme_name,
      b.name AS brand_name,
      b.logo_file_id AS brand_logo_file_id,
      b.primary_color AS brand_primary_color,
      b.accent_color AS brand_accent_color,
      b.callback_url AS brand_callback_url,
      b.contact_email AS brand_contact_email,
      b.profile_url AS brand_profile_url,
      co.name AS company_name,
      qn.title AS questionnaire_title,
      s.closes_at,
      s.time_zone,
      s.status AS scheme_status,
      r.submitted_at AS self_submitted_at,
      s.min_raters,
      s.show_manager_below_threshold,
      (SELECT count(*) FROM assignments c
        WHERE c.scheme_id = a.scheme_id AND c.subject_id = a.subject_id
          AND c.relationship <> 'self' AND c.status <> 'revoked')::int AS invited,
      (SELECT count(*) FROM assignments c
        JOIN responses cr ON cr.assignment_id = c.id
        WHERE c.scheme_id = a.scheme_id AND c.subject_id = a.subject_id
          AND c.relationship <> 'self' AND c.status = 'submitted'
          AND cr.submitted_at IS NOT NULL)::int AS submitted,
      s.report_release,
      rel.id AS release_id,
      rel.released_at,
      rel.raters AS released_raters,
      rel.colleagues_shown AS release_colleagues_shown,
      rel.groups_shown AS release_groups_shown
    FROM responses r
    JOIN assignments a ON a.id = r.assignment_id
    JOIN users u ON u.id = a.subject_id
    JOIN schemes s ON s.id = a.scheme_id
    JOIN companies co ON co.id = s.company_id
    JOIN brands b ON b.id = co.brand_id
    JOIN questionnaires qn ON qn.id = a.questionnaire_id
    LEFT JOIN LATERAL (
      SELECT rr.id, rr.released_at, rr.colleagues_shown, rr.groups_shown,
        (SELECT count(*) FROM report_release_responses x WHERE x.release_id = rr.id)::int AS raters
      FROM report_releases rr
      WHERE rr.scheme_id = a.scheme_id AND rr.subject_id = a.subject_id
      ORDER BY rr.released_at DESC, rr.id DESC
      LIMIT 1
    ) rel ON true
    WHERE r.id = ${responseId} AND a.relationship = 'self'`,
  )
  return row
}

/** Every question with the self answer and the colleagues' aggregates (null when the gate is shut). */
function questionRows(tx: Tx, header: HeaderRow, open: boolean) {
  return queryRows<QuestionRow>(
    tx,
    sql`
    WITH ${ratersCte(header, open)},
    rater_answers AS (
      SELECT an.question_id, an.numeric_value, an.not_applicable, an.text_value, ra.relationship,
        CASE WHEN jsonb_typeof(an.choices) = 'array' THEN an.choices ELSE '[]'::jsonb END AS choices
      FROM report_release_answers an
      JOIN raters ra ON ra.release_response_id = an.release_response_id
      WHERE an.release_id = ${header.release_id ?? null}::uuid
    ),
    by_group AS (
      SELECT question_id, jsonb_object_agg(relationship::text, jsonb_build_object('n', n, 'sum', total)) AS groups
      FROM (
        SELECT question_id, relationship, count(*)::int AS n, sum(numeric_value)::float8 AS total
        FROM rater_answers
        WHERE NOT not_applicable AND numeric_value IS NOT NULL
        GROUP BY question_id, relationship
      ) g
      GROUP BY question_id
    ),
    stats AS (
      SELECT question_id,
        avg(numeric_value) FILTER (WHERE NOT not_applicable)::float8 AS avg,
        count(*) FILTER (
          WHERE NOT not_applicable
            AND (numeric_value IS NOT NULL OR jsonb_array_length(choices) > 0
              OR btrim(coalesce(text_value, '')) <> '')
        )::int AS answered,
        count(*) FILTER (WHERE not_applicable)::int AS na
      FROM rater_answers
      GROUP BY question_id
    ),
    dist AS (
      SELECT question_id, jsonb_object_agg(numeric_value::text, n) AS counts
      FROM (
        SELECT question_id, numeric_value, count(*)::int AS n
        FROM rater_answers
        WHERE NOT not_applicable AND numeric_value IS NOT NULL
        GROUP BY question_id, numeric_value
      ) d
      GROUP BY question_id
    ),
    picks AS (
      SELECT question_id, jsonb_object_agg(choice, n) AS counts
      FROM (
        SELECT ra.question_id, c.choice, count(*)::int AS n
        FROM rater_answers ra
        CROSS JOIN LATERAL jsonb_array_elements_text(ra.choices) AS c(choice)
        WHERE NOT ra.not_applicable
        GROUP BY ra.question_id, c.choice
      ) p
      GROUP BY question_id
    )
    SELECT q.id, q.position, q.section, q.kind, q.text, q.category, q.options,
      sa.numeric_value AS self_value, sa.not_applicable AS self_na, sa.choices AS self_choices,
      sa.text_value AS self_text,
      stats.avg, stats.answered, stats.na, dist.counts AS distribution, picks.counts AS option_counts,
      by_group.groups
    FROM questions q
    LEFT JOIN answers sa ON sa.question_id = q.id AND sa.response_id = ${header.response_id}
    LEFT JOIN stats ON stats.question_id = q.id
    LEFT JOIN dist ON dist.question_id = q.id
    LEFT JOIN picks ON picks.question_id = q.id
    LEFT JOIN by_group ON by_group.question_id = q.id
    WHERE q.questionnaire_id = ${header.questionnaire_id}
    ORDER BY q.position`,
  )
}

/**
 * Per category (scale questions only, "not applicable" left out): the self-assessment's mean. The
 * colleagues' category figures are means of the question figures the report shows (report.ts), so
 * they are not read here.
 */
function categoryRows(tx: Tx, header: HeaderRow) {
  return queryRows<CategoryRow>(
    tx,
    sql`
    SELECT q.category, avg(an.numeric_value)::float8 AS self_avg
    FROM questions q
    LEFT JOIN answers an
      ON an.question_id = q.id
      AND an.response_id = ${header.response_id}
      AND NOT an.not_applicable
      AND an.numeric_value IS NOT NULL
    WHERE q.questionnaire_id = ${header.questionnaire_id} AND q.kind = 'scale'
    GROUP BY q.category
    ORDER BY min(q.position)`,
  )
}

/** How many counted colleagues each relationship group has (never who). */
function groupSizeRows(tx: Tx, header: HeaderRow) {
  return queryRows<GroupSizeRow>(
    tx,
    sql`
    WITH ${ratersCte(header, true)}
    SELECT ra.relationship::text AS relationship, count(*)::int AS raters
    FROM raters ra
    GROUP BY ra.relationship`,
  )
}

/**
 * The colleagues' non-empty free-text answers as released; the original answer id only orders them
 * (ADR 006) and never leaves the server.
 */
function commentRows(tx: Tx, header: HeaderRow) {
  return queryRows<CommentRow>(
    tx,
    sql`
    WITH ${ratersCte(header, true)}
    SELECT an.source_answer_id AS answer_id, an.question_id, an.text_value
    FROM raters ra
    JOIN report_release_answers an ON an.release_response_id = ra.release_response_id
    JOIN questions q ON q.id = an.question_id
    WHERE an.release_id = ${header.release_id ?? null}::uuid
      AND q.questionnaire_id = ${header.questionnaire_id}
      AND q.kind IN ('text', 'textarea')
      AND NOT an.not_applicable
      AND btrim(coalesce(an.text_value, '')) <> ''`,
  )
}

/**
 * The report for a self response (already access-checked). Below the threshold the colleague
 * statements never run and the shared ones see an empty set of raters.
 */
export async function loadReportAsBefore(responseId: string, tx: Tx = getDb()): Promise<ReportData | null> {
  const header = await headerOf(tx, responseId)
  if (!header) return null
  const secret = getEnv().SESSION_SECRET
  const keyOf = (id: string) => anonymousKey(secret, header.response_id, id)
  if (!header.self_submitted_at) {
    return shapeReport({ header, questions: [], categories: [], groupSizes: [], comments: [] }, keyOf)
  }
  // Colleague figures come only from a release, and the gate counts the release's colleagues.
  // A release of the self-assessment alone (below the threshold, ADR 025) shows no colleague figure.
  const { open } =
    header.release_id && header.release_colleagues_shown !== false
      ? anonymityGate(Number(header.released_raters), Number(header.min_raters))
      : { open: false }
  // One after the other: a PGlite connection runs one statement at a time anyway, and on a pool
  // parallel statements would each take a connection for a page that is fast either way.
  const questions = await questionRows(tx, header, open)
  const categories = await categoryRows(tx, header)
  const groupSizes = open ? await groupSizeRows(tx, header) : []
  const comments = open ? await commentRows(tx, header) : []
  return shapeReport({ header, questions, categories, groupSizes, comments }, keyOf)
}
