-- Nomination with approval (issue 18 §2–3, ADR 042): who chooses and who approves per scheme, the
-- state of each employee's list on their membership, the nominees, and four e-mail templates. The
-- template key is used by the default rows below, which ADD VALUE would forbid inside the migration
-- transaction, so that type is rebuilt with every value, as 0017 did.
ALTER TYPE "public"."email_template_key" RENAME TO "email_template_key_old";--> statement-breakpoint
CREATE TYPE "public"."email_template_key" AS ENUM('activate_account', 'colleague_invite', 'reminder', 'reset_password', 'verify_email', 'response_ready', 'setup_admin', 'programme_open', 'admin_invite', 'response_reopened', 'sign_in_link', 'nomination_submitted', 'nomination_sent_back', 'nomination_approved', 'nomination_reminder');--> statement-breakpoint
ALTER TABLE "email_templates" ALTER COLUMN "key" TYPE "public"."email_template_key" USING "key"::text::"public"."email_template_key";--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "template_key" TYPE "public"."email_template_key" USING "template_key"::text::"public"."email_template_key";--> statement-breakpoint
DROP TYPE "public"."email_template_key_old";--> statement-breakpoint
CREATE TYPE "public"."nomination_approval" AS ENUM('none', 'manager', 'admin');--> statement-breakpoint
CREATE TYPE "public"."nomination_chooser" AS ENUM('employee', 'admin', 'employee_admin_edits');--> statement-breakpoint
CREATE TYPE "public"."nomination_status" AS ENUM('draft', 'submitted', 'sent_back', 'approved');--> statement-breakpoint
CREATE TABLE "nominees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scheme_id" uuid NOT NULL,
	"employee_id" uuid NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"relationship" "relationship" NOT NULL,
	"added_by" uuid,
	"added_by_approver" boolean DEFAULT false NOT NULL,
	"assignment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nominees_not_self" CHECK ("nominees"."relationship" <> 'self'),
	CONSTRAINT "nominees_email_lower" CHECK ("nominees"."email" = lower("nominees"."email"))
);
--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_status" "nomination_status";--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_approver_id" uuid;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_decided_by" uuid;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_comment" text;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_reminders_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD COLUMN "nomination_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "nomination_chooser" "nomination_chooser" DEFAULT 'employee' NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "nomination_approval" "nomination_approval" DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "nominations_close_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "nominees" ADD CONSTRAINT "nominees_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nominees" ADD CONSTRAINT "nominees_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nominees" ADD CONSTRAINT "nominees_member_fk" FOREIGN KEY ("scheme_id","employee_id") REFERENCES "public"."scheme_members"("scheme_id","employee_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "nominees_person_unique" ON "nominees" USING btree ("scheme_id","employee_id","email");--> statement-breakpoint
CREATE INDEX "nominees_assignment_index" ON "nominees" USING btree ("assignment_id") WHERE "nominees"."assignment_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD CONSTRAINT "scheme_members_nomination_approver_id_users_id_fk" FOREIGN KEY ("nomination_approver_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_members" ADD CONSTRAINT "scheme_members_nomination_decided_by_users_id_fk" FOREIGN KEY ("nomination_decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheme_members_nomination_approver_index" ON "scheme_members" USING btree ("nomination_approver_id","nomination_submitted_at") WHERE "scheme_members"."nomination_status" = 'submitted';--> statement-breakpoint
CREATE INDEX "scheme_members_nomination_waiting_index" ON "scheme_members" USING btree ("scheme_id","nomination_submitted_at") WHERE "scheme_members"."nomination_status" = 'submitted';--> statement-breakpoint
CREATE INDEX "users_department_trgm" ON "users" USING gin ("department" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_job_title_trgm" ON "users" USING gin ("job_title" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_nominations_close_order" CHECK ("schemes"."nominations_close_at" IS NULL OR "schemes"."nominations_close_at" < "schemes"."closes_at");--> statement-breakpoint
-- The new keys' default copy (equal to DEFAULT_TEMPLATES; tests/integration/email/templates.test.ts).
INSERT INTO "email_templates" ("key", "brand_id", "subject", "body") VALUES
('nomination_submitted', NULL, $tpl${{employeeName}} asks you to approve their feedback list$tpl$, $tpl$Hello {{recipientName}},

{{employeeName}} has chosen the colleagues they would like feedback from in {{schemeName}}, and the programme asks you to check the list before anyone is invited.

Please sign in and approve the list, change it, or send it back with a comment:

{{link}}

Nobody on the list is contacted until it is approved. Answers can be given until {{dueDate}}, so the sooner the list is settled, the more time colleagues have.

Warm regards,
The {{brandName}} team$tpl$),
('nomination_sent_back', NULL, $tpl$Your feedback list in {{schemeName}} needs a change$tpl$, $tpl$Hello {{recipientName}},

{{approverName}} has looked at the colleagues you chose to give you feedback in {{schemeName}} and sent the list back to you:

{{comment}}

Please sign in, change the list and send it again:

{{link}}

Nobody on the list has been contacted yet. Answers can be given until {{dueDate}}.

Warm regards,
The {{brandName}} team$tpl$),
('nomination_approved', NULL, $tpl$Your feedback list in {{schemeName}} is approved$tpl$, $tpl$Hello {{recipientName}},

{{approverName}} has approved your list of colleagues for {{schemeName}}, and each of them has now been invited to give you feedback by {{dueDate}}.

You can follow who has answered, and send an invitation again, on your invitations page:

{{link}}

Warm regards,
The {{brandName}} team$tpl$),
('nomination_reminder', NULL, $tpl$Reminder: {{employeeName}} is waiting for you to approve their feedback list$tpl$, $tpl$Hello {{recipientName}},

{{employeeName}} sent you their list of colleagues for {{schemeName}} and is waiting for your approval. Nobody on it can be invited until you approve it, and answers are due by {{dueDate}}.

{{link}}

Warm regards,
The {{brandName}} team$tpl$)
ON CONFLICT DO NOTHING;
