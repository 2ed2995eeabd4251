CREATE TYPE "public"."report_release" AS ENUM('on_close', 'by_admin');--> statement-breakpoint
-- Two new template keys. ALTER TYPE … ADD VALUE would leave them unusable until this transaction
-- commits (the default rows below use them), so the type is rebuilt with every value instead.
ALTER TYPE "public"."email_template_key" RENAME TO "email_template_key_old";--> statement-breakpoint
CREATE TYPE "public"."email_template_key" AS ENUM('activate_account', 'colleague_invite', 'reminder', 'reset_password', 'verify_email', 'response_ready', 'setup_admin', 'programme_open', 'admin_invite');--> statement-breakpoint
ALTER TABLE "email_templates" ALTER COLUMN "key" TYPE "public"."email_template_key" USING "key"::text::"public"."email_template_key";--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "template_key" TYPE "public"."email_template_key" USING "template_key"::text::"public"."email_template_key";--> statement-breakpoint
DROP TYPE "public"."email_template_key_old";--> statement-breakpoint
-- Name and e-mail search on the admin lists (ADR 011); PGlite loads the same contrib extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "employee_import_rows" (
	"import_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"company_name" text DEFAULT '' NOT NULL,
	"phone" text,
	"company_id" uuid,
	"errors" text[] DEFAULT '{}'::text[] NOT NULL,
	"outcome" text,
	CONSTRAINT "employee_import_rows_import_id_line_pk" PRIMARY KEY("import_id","line")
);
--> statement-breakpoint
CREATE TABLE "employee_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_by" uuid NOT NULL,
	"file_name" text NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"scheme_id" uuid,
	"imported_at" timestamp with time zone,
	"summary" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "report_release" "report_release" DEFAULT 'on_close' NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "launched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "employee_import_rows" ADD CONSTRAINT "employee_import_rows_import_id_employee_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."employee_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_import_rows" ADD CONSTRAINT "employee_import_rows_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_imports" ADD CONSTRAINT "employee_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_imports" ADD CONSTRAINT "employee_imports_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "employee_import_rows_import_id_email_index" ON "employee_import_rows" USING btree ("import_id","email");--> statement-breakpoint
CREATE INDEX "employee_imports_created_by_created_at_index" ON "employee_imports" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE INDEX "users_display_name_trgm" ON "users" USING gin ("display_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
-- The new keys' default copy (equal to DEFAULT_TEMPLATES; tests/integration/email/templates.test.ts).
INSERT INTO "email_templates" ("key", "brand_id", "subject", "body") VALUES
('programme_open', NULL, $tpl${{schemeName}} is open: your 360° feedback with {{brandName}}$tpl$, $tpl$Hello {{recipientName}},

Your 360° feedback programme {{schemeName}} is now open. Start with your self-assessment, then invite the colleagues whose view you would value.

{{link}}

Please finish by {{dueDate}}. Your colleagues' answers are shown to you combined and without names, and only once enough of them have responded.

Warm regards,
The {{brandName}} team$tpl$),
('admin_invite', NULL, $tpl$You have been invited to administer {{brandName}} feedback$tpl$, $tpl$Hello {{recipientName}},

{{inviterName}} has invited you to become an administrator of the feedback portal at {{appUrl}}. Choose your password to finish setting up your account:

{{link}}

The link can be used once and expires in a few days. If you were not expecting this, you can ignore this e-mail.$tpl$)
ON CONFLICT DO NOTHING;
