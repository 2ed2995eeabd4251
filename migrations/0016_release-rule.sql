ALTER TABLE "report_release_responses" ADD COLUMN "source_response_id" uuid;--> statement-breakpoint
ALTER TABLE "report_release_responses" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "report_releases" ADD COLUMN "colleagues_shown" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "report_releases" ADD COLUMN "groups_shown" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Copies made before the release rule (ADR 025): their source response, found through the answers
-- they copied, and the fingerprint of what they copied (the same expression as answersFingerprint in
-- app/modules/report/release.server.ts).
UPDATE "report_release_responses" x SET "source_response_id" = s.response_id
FROM (
  SELECT DISTINCT ON (ra.release_response_id) ra.release_response_id, an.response_id
  FROM "report_release_answers" ra JOIN "answers" an ON an.id = ra.source_answer_id
  ORDER BY ra.release_response_id, an.response_id
) s
WHERE s.release_response_id = x.id;--> statement-breakpoint
UPDATE "report_release_responses" x SET "content_hash" = (
  SELECT md5(coalesce(string_agg(
    an.question_id::text || ':' || coalesce(an.numeric_value::text, '') || ':' || coalesce(an.choices::text, '')
      || ':' || an.not_applicable::text || ':' || coalesce(an.text_value, ''),
    E'\n' ORDER BY an.question_id), ''))
  FROM "report_release_answers" an WHERE an.release_response_id = x.id
);--> statement-breakpoint
UPDATE "report_releases" rr SET "colleagues_shown" =
  (SELECT count(*) FROM "report_release_responses" x WHERE x.release_id = rr.id)
    >= (SELECT s.min_raters FROM "schemes" s WHERE s.id = rr.scheme_id);
