ALTER TABLE "companies" ADD COLUMN "erasure_rater_answers" text DEFAULT 'keep_anonymous' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_erasure_rater_answers" CHECK ("companies"."erasure_rater_answers" IN ('delete', 'keep_anonymous'));