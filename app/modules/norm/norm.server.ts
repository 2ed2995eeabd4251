import { sql } from 'drizzle-orm'
import { getDb, queryRows, type Tx } from '#db/client'
import { getEnv } from '#app/config/env.server'
import { normFigures, type NormFigures, type NormRow } from './norm'

/**
 * The norms of a questionnaire line in one aggregate statement over the release snapshots (ADR 044):
 * for every subject's latest release in a scheme whose questionnaire is of the line (each participant
 * once per cycle), that release showed colleagues' results and stored its figures, the all-colleagues
 * average of each scale question the report showed (at least the scheme's threshold answered it);
 * per question key the mean of those averages across participants, and per competency the mean of
 * each participant's competency figure (the mean of its questions shown, as the report computes it).
 * Never a live answer, never a release the employee could not see.
 *
 * `excludeCompanyId`: the viewer's company, left out (a client never reads a norm it could subtract
 * its own people from). The group report (issue 19 §4) calls loadNorms with the cohort's company.
 */
export async function normRows(
  tx: Tx,
  input: { lineageId: string; excludeCompanyId: string | null },
): Promise<{ questions: NormRow[]; categories: NormRow[] }> {
  const [row] = await queryRows<{ questions: NormRow[] | null; categories: NormRow[] | null }>(
    tx,
    sql`WITH latest AS (
      SELECT DISTINCT ON (rr.scheme_id, rr.subject_id)
        rr.id, rr.colleagues_shown, rr.colleague_figures, greatest(1, s.min_raters) AS needed
      FROM questionnaires qn
      JOIN schemes s ON s.questionnaire_id = qn.id
      JOIN report_releases rr ON rr.scheme_id = s.id
      WHERE qn.lineage_id = ${input.lineageId}
        ${input.excludeCompanyId ? sql`AND s.company_id <> ${input.excludeCompanyId}` : sql``}
      ORDER BY rr.scheme_id, rr.subject_id, rr.released_at DESC, rr.id DESC
    ),
    figures AS (
      SELECT l.id AS release_id, q.key, q.category, (f.value->>'avg')::float8 AS avg
      FROM latest l
      CROSS JOIN LATERAL jsonb_array_elements(l.colleague_figures->'questions') AS f(value)
      JOIN questions q ON q.id = (f.value->>'id')::uuid AND q.kind = 'scale'
      WHERE l.colleagues_shown AND jsonb_typeof(l.colleague_figures->'questions') = 'array'
        AND f.value->>'avg' IS NOT NULL
        AND (f.value->>'answered')::int >= l.needed
    ),
    by_category AS (
      SELECT release_id, category, avg(avg) AS avg FROM figures GROUP BY release_id, category
    )
    SELECT
      (SELECT json_agg(json_build_object('id', key, 'mean', mean, 'participants', participants))
        FROM (SELECT key::text, avg(avg) AS mean, count(DISTINCT release_id)::int AS participants
          FROM figures GROUP BY key) k) AS questions,
      (SELECT json_agg(json_build_object('id', category, 'mean', mean, 'participants', participants))
        FROM (SELECT category, avg(avg) AS mean, count(*)::int AS participants
          FROM by_category GROUP BY category) c) AS categories`,
  )
  return { questions: row?.questions ?? [], categories: row?.categories ?? [] }
}

/** The install's minimum of participants behind a norm (NORM_MIN_PARTICIPANTS, default 30). */
export function normMinParticipants(): number {
  return getEnv().NORM_MIN_PARTICIPANTS
}

/** The norms of a line that may be shown (one statement). */
export async function loadNorms(
  input: { lineageId: string; excludeCompanyId: string | null; minParticipants?: number },
  tx: Tx = getDb(),
): Promise<NormFigures> {
  const rows = await normRows(tx, input)
  return normFigures(rows, input.minParticipants ?? normMinParticipants())
}
