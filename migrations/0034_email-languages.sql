-- E-mail templates per key × brand × language (issue 20 §3, ADR 053): every existing row becomes the
-- English version; one row per key × brand (or the install default) × language. The outbox records
-- the language each message was written in. Checked against db/enums.ts LANGUAGE_CODES.
DROP INDEX "email_templates_brand_key_unique";--> statement-breakpoint
DROP INDEX "email_templates_default_key_unique";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_templates" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_brand_key_language_unique" ON "email_templates" USING btree ("brand_id","key","language") WHERE "email_templates"."brand_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_default_key_language_unique" ON "email_templates" USING btree ("key","language") WHERE "email_templates"."brand_id" IS NULL;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_language" CHECK ("email_templates"."language" IN ('en', 'de', 'fr'));