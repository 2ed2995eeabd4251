-- Questionnaire builder (docs/decisions/015-questionnaire-sections-and-versions.md): sections become
-- rows of their own (a section may exist without questions while a draft is built), each question
-- points at its section, and every version of a questionnaire knows the first version of its line.
CREATE TABLE "questionnaire_sections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"questionnaire_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "questionnaire_sections" ADD CONSTRAINT "questionnaire_sections_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- One section per distinct title of each questionnaire, in the order its first question comes (the
-- order answering and the report have always shown them in).
INSERT INTO "questionnaire_sections" ("questionnaire_id", "position", "title")
SELECT "questionnaire_id", (row_number() OVER (PARTITION BY "questionnaire_id" ORDER BY min("position")) - 1)::int, "section"
FROM "questions" GROUP BY "questionnaire_id", "section";--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "section_id" uuid;--> statement-breakpoint
UPDATE "questions" q SET "section_id" = s."id" FROM "questionnaire_sections" s
WHERE s."questionnaire_id" = q."questionnaire_id" AND s."title" = q."section";--> statement-breakpoint
ALTER TABLE "questions" ALTER COLUMN "section_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "lineage_id" uuid;--> statement-breakpoint
WITH RECURSIVE line AS (
  SELECT "id", "id" AS "root" FROM "questionnaires" WHERE "parent_id" IS NULL
  UNION ALL
  SELECT q."id", line."root" FROM "questionnaires" q JOIN line ON q."parent_id" = line."id"
)
UPDATE "questionnaires" q SET "lineage_id" = line."root" FROM line WHERE line."id" = q."id";--> statement-breakpoint
UPDATE "questionnaires" SET "lineage_id" = "id" WHERE "lineage_id" IS NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ALTER COLUMN "lineage_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "questionnaire_sections_questionnaire_id_position_index" ON "questionnaire_sections" USING btree ("questionnaire_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaire_sections_questionnaire_id_title_index" ON "questionnaire_sections" USING btree ("questionnaire_id","title");--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_section_id_questionnaire_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."questionnaire_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "questionnaires_lineage_id_version_index" ON "questionnaires" USING btree ("lineage_id","version");--> statement-breakpoint
CREATE INDEX "questionnaires_title_id_index" ON "questionnaires" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "questionnaires_created_at_id_index" ON "questionnaires" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "questions_section_id_index" ON "questions" USING btree ("section_id");
