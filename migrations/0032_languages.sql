-- The portal's languages (issue 20 §3, ADR 050): a user's own choice (null = their brand's default,
-- else the browser's Accept-Language) and a brand's default. Checked against db/enums.ts LANGUAGE_CODES;
-- adding a language there needs a migration that widens both checks.
ALTER TABLE "brands" ADD COLUMN "default_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_default_language" CHECK ("brands"."default_language" IN ('en', 'de', 'fr'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language" CHECK ("users"."language" IN ('en', 'de', 'fr'));