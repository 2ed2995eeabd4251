-- A new template key. ALTER TYPE … ADD VALUE would leave it unusable until this transaction commits
-- (the default row below uses it), so the type is rebuilt with every value, as 0007 did.
ALTER TYPE "public"."email_template_key" RENAME TO "email_template_key_old";--> statement-breakpoint
CREATE TYPE "public"."email_template_key" AS ENUM('activate_account', 'colleague_invite', 'reminder', 'reset_password', 'verify_email', 'response_ready', 'setup_admin', 'programme_open', 'admin_invite', 'response_reopened');--> statement-breakpoint
ALTER TABLE "email_templates" ALTER COLUMN "key" TYPE "public"."email_template_key" USING "key"::text::"public"."email_template_key";--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "template_key" TYPE "public"."email_template_key" USING "template_key"::text::"public"."email_template_key";--> statement-breakpoint
DROP TYPE "public"."email_template_key_old";--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "reopened_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "responses_started_index" ON "responses" USING btree ("started_at","id");--> statement-breakpoint
CREATE INDEX "responses_reopened_index" ON "responses" USING btree ("started_at","id") WHERE "responses"."submitted_at" IS NULL AND "responses"."reopened_at" IS NOT NULL;--> statement-breakpoint
-- The new key's default copy (equal to DEFAULT_TEMPLATES; tests/integration/email/templates.test.ts).
INSERT INTO "email_templates" ("key", "brand_id", "subject", "body") VALUES
('response_reopened', NULL, $tpl$Your feedback in {{schemeName}} has been opened again$tpl$, $tpl$Hello {{recipientName}},

Your answers in {{schemeName}} about {{employeeName}} have been opened again by the programme's administrator, so that you can review them, change what you wish and submit them again:

{{reason}}

{{link}}

Your earlier answers are kept; nothing is counted until you submit again. Please submit by {{dueDate}}.

Warm regards,
The {{brandName}} team$tpl$)
ON CONFLICT DO NOTHING;
