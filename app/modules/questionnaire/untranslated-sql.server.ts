import { sql, type SQL, type SQLWrapper } from 'drizzle-orm'

/**
 * How many texts of the questionnaire `questionnaireId` each of `languages` lacks (ADR 051), as a
 * JSON list `[{ language, missing }]` of the languages other than its source: the same count as
 * `untranslatedItems` in translations.ts (title; intro when there is one; each section title; each
 * question's two wordings and each label; blank counts as missing), written as a sub-select so a
 * page that reads a scheme learns it in the same statement.
 */
export function untranslatedCountsSql(questionnaireId: unknown, languages: SQLWrapper | readonly string[]) {
  const list = Array.isArray(languages)
    ? sql`ARRAY[${sql.join(
        (languages as readonly string[]).map((l) => sql`${l}`),
        sql`, `,
      )}]::text[]`
    : sql`${languages}::text[]`
  const blank = (value: SQL) => sql`coalesce(btrim(${value}), '') = ''`
  return sql`(SELECT coalesce(json_agg(json_build_object('language', l.lang, 'missing',
      (CASE WHEN ${blank(sql`tq.translations -> l.lang ->> 'title'`)} THEN 1 ELSE 0 END)
      + (CASE WHEN btrim(tq.intro) <> '' AND ${blank(sql`tq.translations -> l.lang ->> 'intro'`)} THEN 1 ELSE 0 END)
      + (SELECT count(*) FROM questionnaire_sections ts
          WHERE ts.questionnaire_id = tq.id AND ${blank(sql`ts.translations -> l.lang ->> 'title'`)})
      + (SELECT coalesce(sum(
            (CASE WHEN ${blank(sql`tx.translations -> l.lang ->> 'text'`)} THEN 1 ELSE 0 END)
            + (CASE WHEN ${blank(sql`tx.translations -> l.lang ->> 'raterText'`)} THEN 1 ELSE 0 END)
            + (SELECT count(*) FROM jsonb_array_elements_text(
                  CASE WHEN jsonb_typeof(tx.options -> 'labels') = 'array' THEN tx.options -> 'labels' ELSE '[]'::jsonb END
                ) WITH ORDINALITY AS lab(v, i)
                WHERE ${blank(sql`tx.translations -> l.lang -> 'labels' ->> (lab.i::int - 1)`)})
          ), 0) FROM questions tx WHERE tx.questionnaire_id = tq.id)
    ) ORDER BY l.n), '[]'::json)
    FROM questionnaires tq, unnest(${list}) WITH ORDINALITY AS l(lang, n)
    WHERE tq.id = ${questionnaireId} AND l.lang <> tq.source_language)`
}

/** The driver's answer as numbers (json counts may come back as strings). */
export function untranslatedCountsOf(raw: unknown): Array<{ language: string; missing: number }> {
  const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    language: string
    missing: number | string
  }> | null
  return (list ?? []).map((c) => ({ language: c.language, missing: Number(c.missing) }))
}
