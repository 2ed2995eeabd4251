ALTER TABLE "questions" ADD COLUMN "key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "follows_scheme_id" uuid;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "show_norm" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_follows_scheme_id_schemes_id_fk" FOREIGN KEY ("follows_scheme_id") REFERENCES "public"."schemes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "questions_questionnaire_key_unique" ON "questions" USING btree ("questionnaire_id","key");--> statement-breakpoint
CREATE INDEX "schemes_follows_index" ON "schemes" USING btree ("follows_scheme_id") WHERE "schemes"."follows_scheme_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_not_following_itself" CHECK ("schemes"."follows_scheme_id" IS NULL OR "schemes"."follows_scheme_id" <> "schemes"."id");--> statement-breakpoint
-- hand-written (helper D): the backfill of question keys (issue 19 §5, ADR 044). Every question got
-- a random key above; now, version by version along each questionnaire line (oldest first, so a key
-- travels through v1 → v2 → v3), a question takes the key of its parent version's question with the
-- same wording — the n-th question of a wording matching the parent's n-th, so two copies never share
-- a key. A question whose wording changed keeps its own new key: it counts as a new question.
DO $$
DECLARE
  v record;
BEGIN
  FOR v IN
    SELECT id, parent_id FROM questionnaires WHERE parent_id IS NOT NULL ORDER BY lineage_id, version
  LOOP
    UPDATE questions q SET key = m.parent_key
    FROM (
      SELECT c.id AS child_id, p.key AS parent_key
      FROM (
        SELECT id, text, row_number() OVER (PARTITION BY text ORDER BY position) AS n
        FROM questions WHERE questionnaire_id = v.id
      ) c
      JOIN (
        SELECT key, text, row_number() OVER (PARTITION BY text ORDER BY position) AS n
        FROM questions WHERE questionnaire_id = v.parent_id
      ) p ON p.text = c.text AND p.n = c.n
    ) m
    WHERE q.id = m.child_id;
  END LOOP;
END $$;
