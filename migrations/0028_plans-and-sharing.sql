-- Development plans and report sharing (issue 19 §1–2, ADR 043): plans with one to three focus
-- areas (their check-in reminders claimed per target date), an employee's revocable consent to let
-- their manager read their released report, the scheme's "the manager sees the report at release",
-- and two e-mail templates. The template key is used by the default rows below, which ADD VALUE
-- would forbid inside the migration transaction, so that type is rebuilt with every value, as 0017
-- and 0026 did.
ALTER TYPE "public"."email_template_key" RENAME TO "email_template_key_old";--> statement-breakpoint
CREATE TYPE "public"."email_template_key" AS ENUM('activate_account', 'colleague_invite', 'reminder', 'reset_password', 'verify_email', 'response_ready', 'setup_admin', 'programme_open', 'admin_invite', 'response_reopened', 'sign_in_link', 'nomination_submitted', 'nomination_sent_back', 'nomination_approved', 'nomination_reminder', 'plan_check_in', 'report_shared');--> statement-breakpoint
ALTER TABLE "email_templates" ALTER COLUMN "key" TYPE "public"."email_template_key" USING "key"::text::"public"."email_template_key";--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "template_key" TYPE "public"."email_template_key" USING "template_key"::text::"public"."email_template_key";--> statement-breakpoint
DROP TYPE "public"."email_template_key_old";--> statement-breakpoint
CREATE TYPE "public"."focus_kind" AS ENUM('category', 'question');--> statement-breakpoint
CREATE TYPE "public"."focus_stance" AS ENUM('strength', 'develop');--> statement-breakpoint
CREATE TABLE "development_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scheme_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"response_id" uuid NOT NULL,
	"shared_with_coach_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_focus_areas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" "focus_kind" NOT NULL,
	"category" text NOT NULL,
	"question_id" uuid,
	"stance" "focus_stance" DEFAULT 'develop' NOT NULL,
	"actions" text DEFAULT '' NOT NULL,
	"support" text DEFAULT '' NOT NULL,
	"target_date" date,
	"check_in_sent_for" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_focus_areas_position_range" CHECK ("plan_focus_areas"."position" BETWEEN 1 AND 3),
	CONSTRAINT "plan_focus_areas_target" CHECK (("plan_focus_areas"."kind" = 'question') = ("plan_focus_areas"."question_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "report_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scheme_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"manager_id" uuid NOT NULL,
	"include_plan" boolean DEFAULT true NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "manager_sees_report" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "development_plans" ADD CONSTRAINT "development_plans_response_id_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "development_plans" ADD CONSTRAINT "development_plans_member_fk" FOREIGN KEY ("scheme_id","employee_id") REFERENCES "public"."scheme_members"("scheme_id","employee_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_focus_areas" ADD CONSTRAINT "plan_focus_areas_plan_id_development_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."development_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_focus_areas" ADD CONSTRAINT "plan_focus_areas_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_member_fk" FOREIGN KEY ("scheme_id","employee_id") REFERENCES "public"."scheme_members"("scheme_id","employee_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "development_plans_member_unique" ON "development_plans" USING btree ("scheme_id","employee_id");--> statement-breakpoint
CREATE UNIQUE INDEX "development_plans_response_unique" ON "development_plans" USING btree ("response_id");--> statement-breakpoint
CREATE INDEX "development_plans_employee_id_index" ON "development_plans" USING btree ("employee_id");--> statement-breakpoint
CREATE INDEX "plan_focus_areas_plan_id_position_index" ON "plan_focus_areas" USING btree ("plan_id","position");--> statement-breakpoint
CREATE INDEX "plan_focus_areas_question_id_index" ON "plan_focus_areas" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "plan_focus_areas_check_in_due_index" ON "plan_focus_areas" USING btree ("target_date") WHERE "plan_focus_areas"."target_date" IS NOT NULL AND "plan_focus_areas"."check_in_sent_for" IS DISTINCT FROM "plan_focus_areas"."target_date";--> statement-breakpoint
CREATE UNIQUE INDEX "report_shares_live_unique" ON "report_shares" USING btree ("scheme_id","employee_id") WHERE "report_shares"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "report_shares_manager_live_index" ON "report_shares" USING btree ("manager_id") WHERE "report_shares"."revoked_at" IS NULL;--> statement-breakpoint
-- The new keys' default copy (equal to DEFAULT_TEMPLATES; tests/integration/email/templates.test.ts).
INSERT INTO "email_templates" ("key", "brand_id", "subject", "body") VALUES
('plan_check_in', NULL, $tpl$Time to check in on your development plan$tpl$, $tpl$Hello {{recipientName}},

Today is the date you chose to look back at your development plan from {{schemeName}} ({{targetDate}}):

{{focusAreas}}

How far have you come? Take a few minutes to note what worked, what did not, and what you will try next. You can change your actions and choose a new date in your plan:

{{link}}

Warm regards,
The {{brandName}} team$tpl$),
('report_shared', NULL, $tpl${{employeeName}} has shared their feedback report with you$tpl$, $tpl$Hello {{recipientName}},

{{employeeName}} has chosen to share their feedback report from {{schemeName}} with you.{{planNote}}

The report shows colleagues' views only combined, never who said what. {{employeeName}} can stop sharing at any time.

{{link}}

Warm regards,
The {{brandName}} team$tpl$)
ON CONFLICT DO NOTHING;
