CREATE TYPE "public"."email_template_key" AS ENUM('activate_account', 'colleague_invite', 'reminder', 'reset_password', 'verify_email', 'response_ready', 'setup_admin');--> statement-breakpoint
CREATE TYPE "public"."outbox_status" AS ENUM('queued', 'sending', 'sent', 'failed');--> statement-breakpoint
CREATE TYPE "public"."question_kind" AS ENUM('scale', 'single', 'multi', 'text', 'textarea');--> statement-breakpoint
CREATE TYPE "public"."questionnaire_status" AS ENUM('draft', 'published', 'archived');--> statement-breakpoint
CREATE TYPE "public"."assignment_status" AS ENUM('pending', 'in_progress', 'submitted', 'revoked');--> statement-breakpoint
CREATE TYPE "public"."relationship" AS ENUM('self', 'manager', 'peer', 'direct_report', 'other');--> statement-breakpoint
CREATE TYPE "public"."scheme_status" AS ENUM('draft', 'open', 'closed');--> statement-breakpoint
CREATE TYPE "public"."action_code_kind" AS ENUM('verify_email', 'reset_password', 'activate_account', 'colleague_invite', 'setup_admin');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('admin', 'employee', 'colleague');--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"details" jsonb,
	"ip" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"logo_file_id" uuid,
	"primary_color" text DEFAULT '#1d4ed8' NOT NULL,
	"accent_color" text DEFAULT '#0f766e' NOT NULL,
	"sender_name" text,
	"callback_url" text,
	"contact_email" text,
	"profile_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"brand_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient" text NOT NULL,
	"template_key" "email_template_key" NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"status" "outbox_status" DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"entity" text,
	"entity_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" "email_template_key" NOT NULL,
	"brand_id" uuid,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"owner_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaires" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"status" "questionnaire_status" DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"parent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"questionnaire_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"section" text NOT NULL,
	"kind" "question_kind" NOT NULL,
	"text" text NOT NULL,
	"rater_text" text NOT NULL,
	"category" text NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"response_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"numeric_value" integer,
	"text_value" text,
	"choices" jsonb,
	"not_applicable" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scheme_id" uuid NOT NULL,
	"questionnaire_id" uuid NOT NULL,
	"subject_id" uuid NOT NULL,
	"respondent_id" uuid NOT NULL,
	"relationship" "relationship" NOT NULL,
	"respondent_name" text,
	"status" "assignment_status" DEFAULT 'pending' NOT NULL,
	"due_at" timestamp with time zone,
	"invited_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"last_reminder_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assignment_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"last_section" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheme_members" (
	"scheme_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"invited_at" timestamp with time zone,
	CONSTRAINT "scheme_members_scheme_id_employee_id_pk" PRIMARY KEY("scheme_id","employee_id")
);
--> statement-breakpoint
CREATE TABLE "schemes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"company_id" uuid NOT NULL,
	"questionnaire_id" uuid NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"max_colleagues" integer DEFAULT 8 NOT NULL,
	"min_raters" integer DEFAULT 3 NOT NULL,
	"reminder_cadence_days" integer DEFAULT 7 NOT NULL,
	"status" "scheme_status" DEFAULT 'draft' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schemes_max_colleagues_range" CHECK ("schemes"."max_colleagues" BETWEEN 1 AND 8),
	CONSTRAINT "schemes_min_raters_range" CHECK ("schemes"."min_raters" BETWEEN 1 AND 8),
	CONSTRAINT "schemes_dates_order" CHECK ("schemes"."closes_at" > "schemes"."opens_at")
);
--> statement-breakpoint
CREATE TABLE "action_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "action_code_kind" NOT NULL,
	"code_hash" text NOT NULL,
	"user_id" uuid,
	"assignment_id" uuid,
	"email" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"email_verified_at" timestamp with time zone,
	"display_name" text DEFAULT '' NOT NULL,
	"photo_file_id" uuid,
	"phone" text,
	"password_hash" text,
	"role" "role" NOT NULL,
	"company_id" uuid,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_lower" CHECK ("users"."email" = lower("users"."email"))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_logo_file_id_files_id_fk" FOREIGN KEY ("logo_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaires" ADD CONSTRAINT "questionnaires_parent_id_questionnaires_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."questionnaires"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_response_id_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_subject_id_users_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_respondent_id_users_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD CONSTRAINT "scheme_members_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD CONSTRAINT "scheme_members_employee_id_users_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_questionnaire_id_questionnaires_id_fk" FOREIGN KEY ("questionnaire_id") REFERENCES "public"."questionnaires"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_codes" ADD CONSTRAINT "action_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_codes" ADD CONSTRAINT "action_codes_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_photo_file_id_files_id_fk" FOREIGN KEY ("photo_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_index" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_entity_id_index" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_id_index" ON "audit_log" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "brands_name_id_index" ON "brands" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "brands_created_at_id_index" ON "brands" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "companies_name_id_index" ON "companies" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "companies_created_at_id_index" ON "companies" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "companies_brand_id_index" ON "companies" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "email_outbox_due_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "email_outbox"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "email_outbox_status_created_at_index" ON "email_outbox" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "email_outbox_entity_entity_id_index" ON "email_outbox" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "email_outbox_recipient_index" ON "email_outbox" USING btree ("recipient");--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_brand_key_unique" ON "email_templates" USING btree ("brand_id","key") WHERE "email_templates"."brand_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_default_key_unique" ON "email_templates" USING btree ("key") WHERE "email_templates"."brand_id" IS NULL;--> statement-breakpoint
CREATE INDEX "files_owner_id_index" ON "files" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "questionnaires_status_title_id_index" ON "questionnaires" USING btree ("status","title","id");--> statement-breakpoint
CREATE INDEX "questionnaires_parent_id_index" ON "questionnaires" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_questionnaire_id_position_index" ON "questions" USING btree ("questionnaire_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "answers_response_question_unique" ON "answers" USING btree ("response_id","question_id");--> statement-breakpoint
CREATE INDEX "answers_question_id_index" ON "answers" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "assignments_respondent_id_status_index" ON "assignments" USING btree ("respondent_id","status");--> statement-breakpoint
CREATE INDEX "assignments_subject_id_scheme_id_index" ON "assignments" USING btree ("subject_id","scheme_id");--> statement-breakpoint
CREATE INDEX "assignments_scheme_id_status_index" ON "assignments" USING btree ("scheme_id","status");--> statement-breakpoint
CREATE INDEX "assignments_questionnaire_id_index" ON "assignments" USING btree ("questionnaire_id");--> statement-breakpoint
CREATE UNIQUE INDEX "assignments_self_unique" ON "assignments" USING btree ("scheme_id","subject_id") WHERE "assignments"."relationship" = 'self';--> statement-breakpoint
CREATE UNIQUE INDEX "assignments_rater_unique" ON "assignments" USING btree ("scheme_id","subject_id","respondent_id") WHERE "assignments"."status" <> 'revoked';--> statement-breakpoint
CREATE UNIQUE INDEX "responses_assignment_unique" ON "responses" USING btree ("assignment_id");--> statement-breakpoint
CREATE INDEX "scheme_members_employee_id_index" ON "scheme_members" USING btree ("employee_id");--> statement-breakpoint
CREATE INDEX "schemes_company_id_index" ON "schemes" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "schemes_questionnaire_id_index" ON "schemes" USING btree ("questionnaire_id");--> statement-breakpoint
CREATE INDEX "schemes_status_closes_at_index" ON "schemes" USING btree ("status","closes_at");--> statement-breakpoint
CREATE INDEX "schemes_name_id_index" ON "schemes" USING btree ("name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "action_codes_code_hash_index" ON "action_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "action_codes_user_id_kind_index" ON "action_codes" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "action_codes_assignment_id_index" ON "action_codes" USING btree ("assignment_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_index" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_index" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_role_display_name_index" ON "users" USING btree ("role","display_name");--> statement-breakpoint
CREATE INDEX "users_company_id_index" ON "users" USING btree ("company_id");