ALTER TABLE "audit_log" ADD COLUMN "pseudonymised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_answers_months" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_answers_mode" text DEFAULT 'anonymise' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_accounts_months" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_audit_months" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_last_pass_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_last_pass" jsonb;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "legal_hold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "legal_hold_reason" text;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "retention_applied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "retention_mode" text;--> statement-breakpoint
CREATE INDEX "schemes_retention_due_index" ON "schemes" USING btree ("company_id",coalesce("closed_at", "closes_at")) WHERE "schemes"."status" = 'closed' AND "schemes"."retention_applied_at" IS NULL;--> statement-breakpoint
CREATE INDEX "users_photo_file_index" ON "users" USING btree ("photo_file_id") WHERE "users"."photo_file_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_retention_answers_mode" CHECK ("companies"."retention_answers_mode" IN ('anonymise', 'delete'));--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_retention_months_range" CHECK (("companies"."retention_answers_months" IS NULL OR "companies"."retention_answers_months" BETWEEN 1 AND 600)
        AND ("companies"."retention_accounts_months" IS NULL OR "companies"."retention_accounts_months" BETWEEN 1 AND 600)
        AND ("companies"."retention_audit_months" IS NULL OR "companies"."retention_audit_months" BETWEEN 1 AND 600));