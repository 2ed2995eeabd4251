-- Questionnaires in several languages (issue 20 §3, ADR 051): each row holding a source text (the
-- questionnaire's title and intro, a section's title, a question's wordings and labels) gets a jsonb
-- object of its texts per language; a questionnaire names its source language; a scheme lists the
-- languages its raters answer in (every existing questionnaire is English, so every scheme: en).
ALTER TABLE "questionnaire_sections" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "source_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "languages" text[] DEFAULT ARRAY['en']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "questionnaire_sections" ADD CONSTRAINT "questionnaire_sections_translations_object" CHECK (jsonb_typeof("questionnaire_sections"."translations") = 'object');--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_source_language" CHECK ("questionnaires"."source_language" IN ('en', 'de', 'fr'));--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_translations_object" CHECK (jsonb_typeof("questionnaires"."translations") = 'object');--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_translations_object" CHECK (jsonb_typeof("questions"."translations") = 'object');--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_languages" CHECK (cardinality("schemes"."languages") >= 1 AND "schemes"."languages" <@ ARRAY['en', 'de', 'fr']::text[]);